// A counting allocator proves that executing a prepared model of windowed operations
// (CONV_2D -> DEPTHWISE_CONV_2D -> MAX_POOL_2D -> RESIZE_BILINEAR) allocates nothing: constant
// weights are packed at prepare, scratch comes from the execution's arena, and weights given
// as a runtime input are handled without allocating too. Float32 and 8-bit models, per-tensor
// and per-channel filters.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../support/no_allocation.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "validate/model_fixtures.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_exec_no_allocation_windowed {

namespace {

using nnhal::Model;
using nnhal::Operand;
using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
namespace mf = nnhal::test::malformed;

enum class Filters { Constant, Input, PerChannel };

/// Builds the model operand by operand; quantized tensors get the scales below.
struct Net {
  Model m;
  std::vector<nnhal::SymmPerChannelQuantParams> channel_quant;

  std::uint32_t add(Operand op) {
    m.main.operands.push_back(std::move(op));
    return static_cast<std::uint32_t>(m.main.operands.size() - 1);
  }
  template <class T>
  std::uint32_t constant(OperandType type, nnhal::Vector<std::uint32_t> dims, const std::vector<T>& values,
                         float scale = 0.0f, std::int32_t zero_point = 0) {
    const auto at = static_cast<std::uint32_t>(m.operandValues.size());
    const auto bytes = static_cast<std::uint32_t>(values.size() * sizeof(T));
    m.operandValues.resize(at + bytes);
    std::memcpy(m.operandValues.data() + at, values.data(), bytes);
    Operand op = mf::copy_constant(type, std::move(dims), at, bytes);
    op.scale = scale;
    op.zeroPoint = zero_point;
    return add(std::move(op));
  }
  std::uint32_t i32(std::int32_t v) { return constant(OperandType::INT32, {}, std::vector<std::int32_t>{v}); }
  std::uint32_t tensor(OperandType type, nnhal::Vector<std::uint32_t> dims, OperandLifeTime life, float scale = 0.0f,
                       std::int32_t zero_point = 0) {
    Operand op = mf::make_operand(type, std::move(dims), life);
    op.scale = scale;
    op.zeroPoint = zero_point;
    return add(std::move(op));
  }
};

/// Deterministic values in [lo, hi] for element i.
template <class T>
std::vector<T> values(std::size_t n, int lo, int hi, float step = 1.0f) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<T>(static_cast<float>(lo + static_cast<int>((i * 7919) % static_cast<std::size_t>(hi - lo + 1))) * step);
  return v;
}

/// input [1,12,12,4] -> CONV_2D 3x3 SAME to 8 channels (RELU) -> DEPTHWISE_CONV_2D 3x3 SAME stride
/// 2 -> MAX_POOL_2D 2x2 stride 2 -> RESIZE_BILINEAR to 5x5 -> output. With Filters::Input the
/// convolution's filter is the model's second input.
Model windowed_model(bool quant, Filters filters) {
  Net n;
  const OperandType t = quant ? OperandType::TENSOR_QUANT8_ASYMM : OperandType::TENSOR_FLOAT32;
  const OperandType bias_t = quant ? OperandType::TENSOR_INT32 : OperandType::TENSOR_FLOAT32;
  const float in_scale = quant ? 0.5f : 0.0f, w_scale = quant ? 0.25f : 0.0f, conv_scale = quant ? 1.0f : 0.0f;
  const std::int32_t in_zp = quant ? 128 : 0, w_zp = quant ? 120 : 0, conv_zp = quant ? 100 : 0;
  const std::uint32_t in = n.tensor(t, {1, 12, 12, 4}, mf::kInput, in_scale, in_zp);
  std::uint32_t filter = 0;
  if (filters == Filters::Input) {
    filter = n.tensor(t, {8, 3, 3, 4}, mf::kInput, w_scale, w_zp);
  } else if (filters == Filters::PerChannel) {
    filter = n.constant(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {8, 3, 3, 4}, values<std::int8_t>(288, -20, 20));
    std::vector<float> scales(8);
    for (std::size_t c = 0; c < 8; ++c) scales[c] = 0.125f * static_cast<float>(c + 1);
    n.m.main.operands[filter].channelQuant = nnhal::SymmPerChannelQuantParams{nnhal::Vector<float>(scales.begin(), scales.end()), 0};
  } else if (quant) {
    filter = n.constant(t, {8, 3, 3, 4}, values<std::uint8_t>(288, 100, 140), w_scale, w_zp);
  } else {
    filter = n.constant(t, {8, 3, 3, 4}, values<float>(288, -4, 4, 0.125f));
  }
  const std::uint32_t bias =
      quant ? n.constant(bias_t, {8}, values<std::int32_t>(8, -50, 50), filters == Filters::PerChannel ? 0.0f : in_scale * w_scale)
            : n.constant(bias_t, {8}, values<float>(8, -2, 2, 0.5f));
  const std::uint32_t same = n.i32(1), one = n.i32(1), two = n.i32(2), relu = n.i32(1), none = n.i32(0);
  const std::uint32_t conv_out = n.tensor(t, {1, 12, 12, 8}, OperandLifeTime::TEMPORARY_VARIABLE, conv_scale, conv_zp);
  n.m.main.operations.push_back({OperationType::CONV_2D, {in, filter, bias, same, one, one, relu}, {conv_out}});

  const float dw_w_scale = quant ? 0.25f : 0.0f, dw_scale = quant ? 2.0f : 0.0f;
  const std::uint32_t dw_filter = quant ? n.constant(t, {1, 3, 3, 8}, values<std::uint8_t>(72, 110, 150), dw_w_scale, 128)
                                        : n.constant(t, {1, 3, 3, 8}, values<float>(72, -3, 3, 0.25f));
  const std::uint32_t dw_bias = quant ? n.constant(bias_t, {8}, values<std::int32_t>(8, -20, 20), conv_scale * dw_w_scale)
                                      : n.constant(bias_t, {8}, values<float>(8, -1, 1));
  const std::uint32_t dw_out = n.tensor(t, {1, 6, 6, 8}, OperandLifeTime::TEMPORARY_VARIABLE, dw_scale, quant ? 90 : 0);
  n.m.main.operations.push_back(
      {OperationType::DEPTHWISE_CONV_2D, {conv_out, dw_filter, dw_bias, same, two, two, one, none}, {dw_out}});

  const std::uint32_t pool_out = n.tensor(t, {1, 3, 3, 8}, OperandLifeTime::TEMPORARY_VARIABLE, dw_scale, quant ? 90 : 0);
  n.m.main.operations.push_back({OperationType::MAX_POOL_2D, {dw_out, same, two, two, two, two, none}, {pool_out}});

  const std::uint32_t five = n.i32(5);
  const std::uint32_t out = n.tensor(t, {1, 5, 5, 8}, mf::kOutput, dw_scale, quant ? 90 : 0);
  n.m.main.operations.push_back({OperationType::RESIZE_BILINEAR, {pool_out, five, five}, {out}});

  n.m.main.inputIndexes = filters == Filters::Input ? nnhal::Vector<std::uint32_t>{in, filter} : nnhal::Vector<std::uint32_t>{in};
  n.m.main.outputIndexes = {out};
  mf::fix_consumers(n.m);
  return n.m;
}

/// Prepares `model`, runs it once, then counts the allocations of two more runs.
void check_runs_without_allocating(const Model& model, bool quant, bool filter_input) {
  auto prepared = nnhal::PreparedModel::prepare(model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());

  const std::size_t elem = quant ? 1 : 4;
  const std::size_t in_bytes = 12 * 12 * 4 * elem, filter_bytes = filter_input ? 288 * elem : 0, out_bytes = 5 * 5 * 8 * elem;
  mf::RequestFixture r;
  const std::uint32_t pool = r.add_pool(in_bytes + filter_bytes + out_bytes);
  std::byte* data = r.pool_data(pool);
  if (quant) {
    const auto in = values<std::uint8_t>(in_bytes, 90, 170);
    std::memcpy(data, in.data(), in_bytes);
    if (filter_input) std::memcpy(data + in_bytes, values<std::uint8_t>(288, 100, 140).data(), filter_bytes);
  } else {
    const auto in = values<float>(in_bytes / 4, -8, 8, 0.25f);
    std::memcpy(data, in.data(), in_bytes);
    if (filter_input) std::memcpy(data + in_bytes, values<float>(288, -4, 4, 0.125f).data(), filter_bytes);
  }
  r.request.inputs = {mf::RequestFixture::arg(pool, 0, static_cast<std::uint32_t>(in_bytes))};
  if (filter_input)
    r.request.inputs.push_back(
        mf::RequestFixture::arg(pool, static_cast<std::uint32_t>(in_bytes), static_cast<std::uint32_t>(filter_bytes)));
  r.request.outputs = {mf::RequestFixture::arg(pool, static_cast<std::uint32_t>(in_bytes + filter_bytes),
                                               static_cast<std::uint32_t>(out_bytes))};

  const auto first = execution->run(r.request);
  REQUIRE(first.has_value());
  std::vector<std::byte> expected(data + in_bytes + filter_bytes, data + in_bytes + filter_bytes + out_bytes);
  // The result is not trivial: some output byte differs from the first.
  bool varied = false;
  for (std::size_t i = elem; i < out_bytes; ++i) varied = varied || expected[i] != expected[i % elem];
  CHECK(varied);

  nnhal::test::check_reruns_allocate_nothing(*execution, r.request);
  CHECK(std::memcmp(expected.data(), data + in_bytes + filter_bytes, out_bytes) == 0);
}

}  // namespace

TEST_CASE("float32 convolution, depthwise, pooling and resize execute without allocating") {
  check_runs_without_allocating(windowed_model(false, Filters::Constant), false, false);
}

TEST_CASE("a float32 convolution whose filter is a runtime input executes without allocating") {
  check_runs_without_allocating(windowed_model(false, Filters::Input), false, true);
}

TEST_CASE("8-bit convolution, depthwise, pooling and resize execute without allocating") {
  check_runs_without_allocating(windowed_model(true, Filters::Constant), true, false);
}

TEST_CASE("an 8-bit convolution whose filter is a runtime input executes without allocating") {
  check_runs_without_allocating(windowed_model(true, Filters::Input), true, true);
}

TEST_CASE("an 8-bit convolution with a per-channel filter executes without allocating") {
  check_runs_without_allocating(windowed_model(true, Filters::PerChannel), true, false);
}

}  // namespace test_exec_no_allocation_windowed
