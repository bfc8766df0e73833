// A counting allocator proves that executing prepared models of the float LSTM operations
// allocates nothing: the gate buffers and states live in the execution's workspace, constant
// weights are packed at prepare, and weights given as runtime inputs are packed into the
// workspace on each run. LSTM (float32, projection and layer normalization, constant weights),
// UNIDIRECTIONAL_SEQUENCE_LSTM (float16, batch-major, CIFG and peephole, runtime weights) and
// BIDIRECTIONAL_SEQUENCE_LSTM (float32, cross-linked auxiliary input, merged outputs, states).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../support/no_allocation.hpp"
#include "nnhal/core/half.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "validate/model_fixtures.hpp"

namespace {

using nnhal::Half;
using nnhal::Model;
using nnhal::Operand;
using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
namespace mf = nnhal::test::malformed;
using Shape = nnhal::Vector<std::uint32_t>;

std::size_t count(const Shape& s) {
  std::size_t n = 1;
  for (std::uint32_t d : s) n *= d;
  return n;
}

/// Deterministic values in about [-0.5, 0.5] for element i of operand k.
float value(std::size_t k, std::size_t i) {
  return static_cast<float>(static_cast<int>((i * 7919 + k * 104729) % 97) - 48) / 96.0f;
}

/// Builds one operation's model input by input; tensors of type `t` (float32 or float16).
struct Builder {
  Model m;
  OperandType t;
  nnhal::Vector<std::uint32_t> ins, outs;
  std::vector<Shape> request_inputs, request_outputs;
  bool half() const { return t == OperandType::TENSOR_FLOAT16; }

  std::uint32_t add(Operand op) {
    m.main.operands.push_back(std::move(op));
    return static_cast<std::uint32_t>(m.main.operands.size() - 1);
  }
  template <class T>
  void constant(OperandType type, const Shape& dims, const std::vector<T>& v) {
    auto& bytes = m.operandValues;
    bytes.resize((bytes.size() + 7) / 8 * 8);
    const auto at = static_cast<std::uint32_t>(bytes.size());
    const auto n = static_cast<std::uint32_t>(v.size() * sizeof(T));
    bytes.resize(at + n);
    std::memcpy(bytes.data() + at, v.data(), n);
    ins.push_back(add(mf::copy_constant(type, dims, at, n)));
  }
  /// A tensor: a constant, or a request input when `input`.
  Builder& tensor(const Shape& dims, bool input = false) {
    if (input) {
      const std::uint32_t i = add(mf::make_operand(t, dims, mf::kInput));
      ins.push_back(i);
      m.main.inputIndexes.push_back(i);
      request_inputs.push_back(dims);
      return *this;
    }
    const std::size_t k = ins.size();
    if (half()) {
      std::vector<Half> v(count(dims));
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = Half(value(k, i));
      constant(t, dims, v);
    } else {
      std::vector<float> v(count(dims));
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = value(k, i);
      constant(t, dims, v);
    }
    return *this;
  }
  Builder& omit() {
    ins.push_back(add(mf::make_operand(t, {}, OperandLifeTime::NO_VALUE)));
    return *this;
  }
  Builder& scalars(std::int32_t activation, float clip) {
    constant(OperandType::INT32, {}, std::vector<std::int32_t>{activation});
    for (int i = 0; i < 2; ++i) {
      if (half())
        constant(OperandType::FLOAT16, {}, std::vector<Half>{Half(clip)});
      else
        constant(OperandType::FLOAT32, {}, std::vector<float>{clip});
    }
    return *this;
  }
  Builder& flag(bool v) {
    constant(OperandType::BOOL, {}, std::vector<std::uint8_t>{v ? std::uint8_t{1} : std::uint8_t{0}});
    return *this;
  }
  Builder& output(const Shape& dims) {
    const std::uint32_t o = add(mf::make_operand(t, dims, mf::kOutput));
    outs.push_back(o);
    m.main.outputIndexes.push_back(o);
    request_outputs.push_back(dims);
    return *this;
  }
  Model finish(OperationType type) {
    m.main.operations.push_back({type, ins, outs});
    mf::fix_consumers(m);
    return m;
  }
  /// Cell inputs 1..17: `cifg` omits the input gate, `peephole` and `projection` as named.
  Builder& cell(std::uint32_t input, std::uint32_t cells, std::uint32_t output, bool cifg, bool peephole,
                bool projection, bool runtime) {
    for (int g = 0; g < 4; ++g) g == 0 && cifg ? omit() : tensor({cells, input}, runtime);
    for (int g = 0; g < 4; ++g) g == 0 && cifg ? omit() : tensor({cells, output}, runtime);
    for (int g = 0; g < 3; ++g) (g == 0 && cifg) || !peephole ? omit() : tensor({cells}, runtime);
    for (int g = 0; g < 4; ++g) g == 0 && cifg ? omit() : tensor({cells}, runtime);
    if (projection) return tensor({output, cells}, runtime).tensor({output}, runtime);
    return omit().omit();
  }
};

/// Prepares `model`, runs it once, then counts the allocations of two more runs.
void check_runs_without_allocating(const Builder& b, const Model& model) {
  auto prepared = nnhal::PreparedModel::prepare(model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  const std::size_t elem = b.half() ? 2 : 4;
  std::size_t in_bytes = 0, out_bytes = 0;
  for (const Shape& s : b.request_inputs) in_bytes += count(s) * elem;
  for (const Shape& s : b.request_outputs) out_bytes += count(s) * elem;
  mf::RequestFixture r;
  const std::uint32_t pool = r.add_pool(in_bytes + out_bytes);
  std::byte* data = r.pool_data(pool);
  std::size_t at = 0;
  for (std::size_t k = 0; k < b.request_inputs.size(); ++k) {
    const std::size_t n = count(b.request_inputs[k]);
    for (std::size_t i = 0; i < n; ++i) {
      if (b.half()) {
        const Half h(value(1000 + k, i));
        std::memcpy(data + at + i * 2, &h, 2);
      } else {
        const float f = value(1000 + k, i);
        std::memcpy(data + at + i * 4, &f, 4);
      }
    }
    r.request.inputs.push_back(mf::RequestFixture::arg(pool, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(n * elem)));
    at += n * elem;
  }
  for (const Shape& s : b.request_outputs) {
    const std::size_t n = count(s) * elem;
    r.request.outputs.push_back(mf::RequestFixture::arg(pool, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(n)));
    at += n;
  }
  const auto first = execution->run(r.request);
  REQUIRE(first.has_value());
  std::vector<std::byte> expected(data + in_bytes, data + in_bytes + out_bytes);
  bool varied = false;  // the result is not trivial
  for (std::size_t i = elem; i < out_bytes; ++i) varied = varied || expected[i] != expected[i % elem];
  CHECK(varied);
  nnhal::test::check_reruns_allocate_nothing(*execution, r.request);
  CHECK(std::memcmp(expected.data(), data + in_bytes, out_bytes) == 0);
}

}  // namespace

TEST_CASE("LSTM (float32, projection, layer norm, constant weights) executes without allocating") {
  Builder b{{}, OperandType::TENSOR_FLOAT32, {}, {}, {}, {}};
  b.tensor({2, 6}, true).cell(6, 8, 5, false, true, true, false);
  b.tensor({2, 5}, true).tensor({2, 8}, true).scalars(4, 3.0f);
  for (int g = 0; g < 4; ++g) b.tensor({8});
  b.output({2, 32}).output({2, 5}).output({2, 8}).output({2, 5});
  const Model m = b.finish(OperationType::LSTM);
  check_runs_without_allocating(b, m);
}

TEST_CASE("UNIDIRECTIONAL_SEQUENCE_LSTM (float16, batch-major, CIFG, runtime weights) executes without allocating") {
  Builder b{{}, OperandType::TENSOR_FLOAT16, {}, {}, {}, {}};
  b.tensor({2, 4, 3}, true).cell(3, 6, 6, true, true, false, true);
  b.tensor({2, 6}, true).tensor({2, 6}, true).scalars(4, 0.0f).flag(false);
  for (int g = 0; g < 4; ++g) b.omit();
  b.output({2, 4, 6}).output({2, 6}).output({2, 6});
  const Model m = b.finish(OperationType::UNIDIRECTIONAL_SEQUENCE_LSTM);
  check_runs_without_allocating(b, m);
}

TEST_CASE("BIDIRECTIONAL_SEQUENCE_LSTM (float32, auxiliary input, merged outputs) executes without allocating") {
  Builder b{{}, OperandType::TENSOR_FLOAT32, {}, {}, {}, {}};
  b.tensor({3, 2, 4}, true).cell(4, 5, 5, false, false, false, false).cell(4, 6, 3, false, true, true, false);
  b.tensor({2, 5}, true).tensor({2, 5}, true).tensor({2, 3}, true).tensor({2, 6}, true);
  b.tensor({3, 2, 4}, true);
  for (int g = 0; g < 4; ++g) b.tensor({5, 4});
  for (int g = 0; g < 4; ++g) b.tensor({6, 4});
  b.scalars(4, 0.0f).flag(true).flag(true);
  for (int g = 0; g < 8; ++g) b.omit();
  b.output({3, 2, 8}).output({2, 5}).output({2, 5}).output({2, 3}).output({2, 6});
  const Model m = b.finish(OperationType::BIDIRECTIONAL_SEQUENCE_LSTM);
  check_runs_without_allocating(b, m);
}
