// nnhal::Arena and building, validating and preparing a model in the caller's memory: at every
// arena size from 0 bytes up, each step either succeeds or fails with
// RESOURCE_EXHAUSTED_PERSISTENT, never touches the heap (a counting allocator) and never
// overflows the arena (NNHAL_ARENA_OVERFLOW would end the test program); once the arena is large
// enough, the prepared model computes what a model prepared on the heap does.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "../control/control_flow_models.hpp"
#include "../support/counting_allocator.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/core/arena.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/model/request_builder.hpp"

namespace {

using nnhal::Arena;
using nnhal::ErrorStatus;
using nnhal::Memories;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::test::allocations_during;
namespace cf = nnhal::test::cf;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto ResourceExhausted = ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT;

/// y = CONV_2D(x, W, b) with constant weights (the kernel packs them at preparation) followed by
/// a 2x2 average pool: x [1, 6, 6, 3] -> [1, 3, 3, 4].
struct ConvModel {
  nnhal::OperandRef<F32> x, y;
};
ConvModel build_conv(nnhal::ModelBuilder& b) {
  static const auto kWeights = [] {
    std::array<float, 4 * 3 * 3 * 3> w{};
    for (std::size_t k = 0; k < w.size(); ++k) w[k] = static_cast<float>(static_cast<int>(k % 7) - 3) * 0.125f;
    return w;
  }();
  static constexpr std::array<float, 4> kBias = {0.5f, -1.0f, 0.0f, 2.0f};
  ConvModel m;
  m.x = b.input<F32>({{1, 6, 6, 3}});
  const auto i32 = [&](std::int32_t v) { return b.scalar<OperandType::INT32>(v); };
  const auto conv = b.operation<OperationType::CONV_2D, F32>(
      {{1, 6, 6, 4}}, m.x, b.constant<F32>(kWeights, {{4, 3, 3, 3}}), b.constant<F32>(kBias, {{4}}), i32(1), i32(1),
      i32(1), i32(1), i32(1), i32(1), i32(1));
  m.y = b.operation<OperationType::AVERAGE_POOL_2D, F32>({{1, 3, 3, 4}}, conv, i32(0), i32(0), i32(0), i32(0), i32(2),
                                                          i32(2), i32(2), i32(2), i32(0));
  b.output(m.y);
  return m;
}

/// What one arena size gave: the status of building, then of preparing (NONE: success).
struct Step {
  ErrorStatus build = ErrorStatus::NONE;
  ErrorStatus prepare = ErrorStatus::NONE;
  std::size_t heap_allocations = 0;
  std::size_t peak = 0;  ///< Arena::peak() after both
  bool ok() const noexcept { return build == ErrorStatus::NONE && prepare == ErrorStatus::NONE; }
};

/// Builds with `build` and prepares in an arena of `size` bytes of `buffer`; `use` gets the
/// prepared model when both succeed (outside the allocation count).
template <class Build, class Use>
Step build_and_prepare(std::span<std::byte> buffer, std::size_t size, bool by_copy, Build&& build, Use&& use) {
  Arena arena(buffer.first(size));
  Step step;
  nnhal::Expected<nnhal::PreparedModel> prepared = nnhal::Error(ErrorStatus::GENERAL_FAILURE, "not prepared");
  auto handles = decltype(build(std::declval<nnhal::ModelBuilder&>())){};
  step.heap_allocations = allocations_during([&] {
    nnhal::ModelBuilder b(arena);
    handles = build(b);
    auto model = std::move(b).build();
    if (!model) {
      step.build = model.error().status();
      return;
    }
    nnhal::PrepareOptions options;
    options.arena = &arena;
    prepared = by_copy ? nnhal::PreparedModel::prepare(*model, options)
                       : nnhal::PreparedModel::prepare(std::move(*model), options);
    if (!prepared) step.prepare = prepared.error().status();
  });
  step.peak = arena.peak();
  if (prepared) use(*prepared, handles);
  return step;
}

/// Builds and prepares with a large arena, then at every smaller size: each step fails only
/// with RESOURCE_EXHAUSTED_PERSISTENT, and nothing touches the heap. An arena of the large run's
/// peak() bytes (the sizing docs/embedded.md gives) works; `use` gets that prepared model.
/// Returns the peak.
template <class Build, class Use>
std::size_t sweep(bool by_copy, Build&& build, Use&& use) {
  std::vector<std::byte> buffer(1 << 20);
  const auto nothing = [](auto&&...) {};
  const Step large = build_and_prepare(buffer, buffer.size(), by_copy, build, nothing);
  REQUIRE(large.ok());
  CHECK(large.heap_allocations == 0);
  std::size_t build_failures = 0, prepare_failures = 0, wrong = 0, allocating = 0;
  for (std::size_t size = 0; size < large.peak; ++size) {
    const Step s = build_and_prepare(buffer, size, by_copy, build, nothing);
    allocating += s.heap_allocations != 0;
    if (s.build != ErrorStatus::NONE) {
      ++build_failures;
      wrong += s.build != ResourceExhausted;
    } else if (s.prepare != ErrorStatus::NONE) {
      ++prepare_failures;
      wrong += s.prepare != ResourceExhausted;
    }
  }
  CHECK(allocating == 0);
  CHECK(wrong == 0);
  // Each step runs out somewhere: building, then (with a model built) preparing.
  CHECK(build_failures > 0);
  CHECK(prepare_failures > 0);
  const Step exact = build_and_prepare(buffer, large.peak, by_copy, build, use);
  CHECK(exact.ok());
  CHECK(exact.heap_allocations == 0);
  CHECK(exact.peak == large.peak);
  return large.peak;
}

/// Runs the WHILE counter prepared `prepared` from 0 to `limit`; returns the count.
std::int32_t run_loop(const nnhal::PreparedModel& prepared, const cf::WhileCounter& m, std::int32_t limit) {
  auto execution = prepared.create_execution();
  REQUIRE(execution);
  std::int32_t i0[1] = {0}, to[1] = {limit}, i_out[1] = {-1};
  nnhal::RequestBuilder rb(prepared.model());
  REQUIRE(rb.input(m.i0, std::span<const std::int32_t>(i0)));
  REQUIRE(rb.input(m.limit, std::span<const std::int32_t>(to)));
  REQUIRE(rb.output(m.i, std::span(i_out)));
  REQUIRE(rb.ready());
  REQUIRE(execution->run(rb.request()));
  return i_out[0];
}

std::vector<float> run_conv(const nnhal::PreparedModel& prepared, const ConvModel& m) {
  auto execution = prepared.create_execution();
  REQUIRE(execution);
  std::vector<float> x(6 * 6 * 3), y(3 * 3 * 4);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k % 11) * 0.25f - 1.0f;
  nnhal::RequestBuilder rb(prepared.model());
  REQUIRE(rb.input(m.x, std::span<const float>(x)));
  REQUIRE(rb.output(m.y, std::span(y)));
  REQUIRE(rb.ready());
  REQUIRE(execution->run(rb.request()));
  return y;
}

}  // namespace

TEST_CASE("an arena hands out aligned bytes front to back and takes the newest back") {
  constexpr std::size_t G = Arena::kGranule;
  alignas(64) std::byte buffer[16 * G];
  Arena arena(buffer, sizeof buffer);
  CHECK(arena.capacity() == 16 * G);
  CHECK(arena.fits(16 * G, 1));
  CHECK_FALSE(arena.fits(16 * G + 1, 1));
  void* a = arena.allocate(3, 1);
  CHECK(a == buffer);
  void* b = arena.allocate(G + 1, 8);  // at the next granule, taking two
  CHECK(static_cast<std::byte*>(b) == buffer + G);
  CHECK(arena.used() == 3 * G);
  CHECK(arena.fits(13 * G, 8));
  CHECK_FALSE(arena.fits(13 * G + 1, 1));
  void* wide = arena.allocate(1, 4 * G);  // alignment above the granule: padding before it
  CHECK(static_cast<std::byte*>(wide) == buffer + 4 * G);
  arena.deallocate(wide, 1, 4 * G);  // the newest: given back (not its padding)
  CHECK(arena.used() == 4 * G);
  arena.release();
  a = arena.allocate(3, 1);
  b = arena.allocate(G + 1, 8);
  arena.deallocate(b, G + 1, 8);  // the newest: given back
  CHECK(arena.used() == G);
  arena.deallocate(a, 3, 1);  // now the newest too
  CHECK(arena.used() == 0);
  void* c = arena.allocate(5 * G, 4);
  void* d = arena.allocate(5 * G, 4);
  arena.deallocate(c, 5 * G, 4);  // not the newest: kept until release()
  CHECK(arena.used() == 10 * G);
  CHECK(arena.peak() == 10 * G);
  (void)d;
  arena.release();
  CHECK(arena.used() == 0);
  CHECK(arena.peak() == 10 * G);
}

TEST_CASE("growing a vector in an arena that is too small fails and leaves the vector as it was") {
  alignas(64) std::byte buffer[128];
  Arena arena(buffer, sizeof buffer);
  const Memories mem(arena);
  auto v = mem.vector<std::uint32_t>();
  // Capacity 4, 8, then 16: 16 + 32 + 64 bytes (each growth leaves the old block behind).
  for (std::uint32_t k = 0; k < 16; ++k) REQUIRE(mem.push_back(v, k));
  CHECK(v.capacity() == 16);
  // A 17th element needs 68 bytes more (doubling, 128); 16 are left.
  REQUIRE_FALSE(mem.push_back(v, 16u));
  CHECK(mem.exhausted().status() == ResourceExhausted);
  CHECK(v.size() == 16);
  CHECK(v.capacity() == 16);
  for (std::uint32_t k = 0; k < v.size(); ++k) CHECK(v[k] == k);
  // The heap never runs out.
  std::vector<int> counted;
  const Memories heap;
  auto h = heap.vector<int>();
  CHECK(heap.resize(h, 100000));
  CHECK(h.size() == 100000);
}

TEST_CASE("building and preparing a WHILE model in an arena: every size fails cleanly or works, without the heap") {
  std::size_t bytes[2] = {};
  for (const bool by_copy : {false, true}) {
    CAPTURE(by_copy);
    std::int32_t count = 0;
    bytes[by_copy] = sweep(by_copy, cf::while_counter, [&](const nnhal::PreparedModel& p, const cf::WhileCounter& m) {
      count = run_loop(p, m, 37);
    });
    CHECK(count == 37);
  }
  // A copy of the model costs more than taking it over.
  CHECK(bytes[1] > bytes[0]);
  MESSAGE("WHILE model, arena bytes: " << bytes[0] << " taken over, " << bytes[1] << " copied");
}

TEST_CASE("a convolution's packed weights come from the arena too") {
  std::vector<float> in_arena;
  const std::size_t bytes =
      sweep(false, build_conv, [&](const nnhal::PreparedModel& p, const ConvModel& m) { in_arena = run_conv(p, m); });
  MESSAGE("CONV_2D + AVERAGE_POOL_2D model, arena bytes: " << bytes);
  nnhal::ModelBuilder heap;
  const ConvModel hm = build_conv(heap);
  auto prepared = nnhal::PreparedModel::prepare(heap.model());
  REQUIRE(prepared);
  CHECK(in_arena == run_conv(*prepared, hm));
}

TEST_CASE("validation's scratch comes from the arena, and a small arena is RESOURCE_EXHAUSTED") {
  const nnhal::Model model = cf::while_counter_model();
  REQUIRE(nnhal::validate_model(model));
  std::vector<std::byte> buffer(4096);
  std::size_t failures = 0, successes = 0;
  for (std::size_t size = 0; size <= buffer.size(); ++size) {
    Arena arena{std::span<std::byte>(buffer).first(size)};
    nnhal::ValidationOptions options;
    options.arena = &arena;
    ErrorStatus status = ErrorStatus::NONE;
    CHECK(allocations_during([&] {
            const auto v = nnhal::validate_model(model, options);
            status = v ? ErrorStatus::NONE : v.error().status();
          }) == 0);
    if (status == ErrorStatus::NONE) {
      ++successes;
      CHECK(arena.used() == 0);  // the scratch was given back
    } else {
      ++failures;
      CHECK(status == ResourceExhausted);
    }
  }
  CHECK(failures > 0);
  CHECK(successes > 0);
}

TEST_CASE("an operand spec of rank above NNHAL_MAX_RANK is refused by the builder") {
  std::vector<std::uint32_t> dims(nnhal::kMaxRank + 1, 1);
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({dims});
  b.output(b.operation<OperationType::RELU, F32>({dims}, x));
  auto model = std::move(b).build();
  REQUIRE_FALSE(model);
  CHECK(model.error().status() == ErrorStatus::INVALID_ARGUMENT);
}
