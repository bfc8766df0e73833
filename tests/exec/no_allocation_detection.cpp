// A counting allocator proves that executing prepared one-operation models of the detection,
// hashing and sampling kernels allocates nothing: GENERATE_PROPOSALS, whose output size depends
// on the data (shape inference runs at execution, on scratch planned at prepare),
// DETECTION_POSTPROCESSING, HEATMAP_MAX_KEYPOINT, LSH_PROJECTION and RANDOM_MULTINOMIAL.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "../support/no_allocation.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "validate/model_fixtures.hpp"
#include "validate/one_op_fixture.hpp"

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::malformed::OneOp;
namespace mf = nnhal::test::malformed;

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;

/// The request inputs' bytes, in order.
struct Inputs {
  std::vector<std::vector<std::byte>> bytes;
  template <class T>
  Inputs& add(const std::vector<T>& v) {
    bytes.emplace_back(v.size() * sizeof(T));
    std::memcpy(bytes.back().data(), v.data(), bytes.back().size());
    return *this;
  }
};

/// Prepares the model, runs it once, then counts the allocations of two more runs; outputs get
/// `out_bytes` each and must come out the same every run.
void check_runs_without_allocating(const OneOp& op, const Inputs& in, const std::vector<std::uint32_t>& out_bytes) {
  auto prepared = nnhal::PreparedModel::prepare(op.model());
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  mf::RequestFixture r;
  std::uint32_t total = 0;
  for (const auto& b : in.bytes) total += static_cast<std::uint32_t>(b.size());
  for (std::uint32_t b : out_bytes) total += b;
  const std::uint32_t pool = r.add_pool(total);
  std::uint32_t at = 0;
  for (const auto& b : in.bytes) {
    std::memcpy(r.pool_data(pool) + at, b.data(), b.size());
    r.request.inputs.push_back(mf::RequestFixture::arg(pool, at, static_cast<std::uint32_t>(b.size())));
    at += static_cast<std::uint32_t>(b.size());
  }
  const std::uint32_t out_at = at;
  for (std::uint32_t b : out_bytes) {
    r.request.outputs.push_back(mf::RequestFixture::arg(pool, at, b));
    at += b;
  }
  const auto first = execution->run(r.request);
  REQUIRE(first.has_value());
  const std::vector<std::byte> expected(r.pool_data(pool) + out_at, r.pool_data(pool) + total);
  nnhal::test::check_reruns_allocate_nothing(*execution, r.request);
  CHECK(std::memcmp(expected.data(), r.pool_data(pool) + out_at, expected.size()) == 0);
}

}  // namespace

TEST_CASE("GENERATE_PROPOSALS sizes its outputs at execution without allocating") {
  OneOp op(OperationType::GENERATE_PROPOSALS);
  op.tensor(F32, {1, 2, 2, 2}).tensor(F32, {1, 2, 2, 8}).tensor(F32, {2, 4}).tensor(F32, {1, 2});
  op.f32(4).f32(4).ints({-1, -1}).f32(0.3f).f32(1).flag(false);
  op.output(F32).output(F32).output(I32);
  Inputs in;
  in.add(std::vector<float>{0.8f, 0.9f, 0.85f, 0.75f, 0.7f, 0.6f, 0.65f, 0.95f});
  std::vector<float> deltas(32);
  for (std::size_t i = 0; i < deltas.size(); ++i) deltas[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.1f;
  in.add(deltas).add(std::vector<float>{0, 1, 4, 3, 1, 0, 3, 4}).add(std::vector<float>{32, 32});
  check_runs_without_allocating(op, in, {8 * 4, 8 * 16, 8 * 4});
}

TEST_CASE("DETECTION_POSTPROCESSING executes without allocating") {
  OneOp op(OperationType::DETECTION_POSTPROCESSING);
  op.tensor(F32, {1, 3, 3}).tensor(F32, {1, 3, 4}).tensor(F32, {3, 4});
  op.f32(10).f32(10).f32(5).f32(5).flag(true).ints({3, 1, 2}).f32(0.1f).f32(0.5f).flag(false);
  op.output(F32).output(F32).output(I32).output(I32);
  Inputs in;
  in.add(std::vector<float>{0.1f, 0.9f, 0.2f, 0.1f, 0.8f, 0.7f, 0.1f, 0.3f, 0.6f});
  in.add(std::vector<float>(12, 0.1f)).add(std::vector<float>{5, 5, 10, 10, 6, 6, 10, 10, 50, 50, 10, 10});
  check_runs_without_allocating(op, in, {3 * 4, 12 * 4, 3 * 4, 4});
}

TEST_CASE("HEATMAP_MAX_KEYPOINT, LSH_PROJECTION and RANDOM_MULTINOMIAL execute without allocating") {
  OneOp heat(OperationType::HEATMAP_MAX_KEYPOINT);
  heat.tensor(F32, {1, 3, 3, 2}).tensor(F32, {1, 4}).flag(false).output(F32).output(F32);
  Inputs hin;
  hin.add(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}).add(std::vector<float>{0, 0, 6, 6});
  check_runs_without_allocating(heat, hin, {2 * 4, 4 * 4});

  OneOp lsh(OperationType::LSH_PROJECTION);
  lsh.tensor(F32, {4, 2}).tensor(I32, {3, 2}).tensor(F32, {3}).ints({3}).output(I32);
  Inputs lin;
  lin.add(std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f}).add(std::vector<std::int32_t>{1, 2, 3, 4, 5, 6});
  lin.add(std::vector<float>{0.5f, -1.0f, 2.0f});
  check_runs_without_allocating(lsh, lin, {4 * 4});

  OneOp mn(OperationType::RANDOM_MULTINOMIAL);
  mn.tensor(F32, {2, 10}).ints({16}).tensor(I32, {2}).output(I32);
  Inputs min;
  std::vector<float> logits(20);
  for (std::size_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<float>(i % 5) * 0.3f;
  min.add(logits).add(std::vector<std::int32_t>{3, 4});
  check_runs_without_allocating(mn, min, {2 * 16 * 4});
}
