// nnhal on a microcontroller: a firmware image for QEMU's mps2-an500 board (Cortex-M7), built
// by examples/firmware/CMakeLists.txt and run by ctest firmware_qemu.
//
// The program builds a model with the typed builder, x <- FC(x, W, b) + c repeated n times in a
// WHILE loop, prepares it with a kernel set of the four operations it runs (building, validating
// and preparing all take their memory from a static arena, not the heap; a second build in an
// arena too small for it must fail with RESOURCE_EXHAUSTED_PERSISTENT), and executes it
// through nnhal::PreparedModel / Execution (the device layer's interfaces are not needed here)
// with a clock reading the board's 1 ms SysTick counter. It checks the result against plain C++
// loops, then runs a loop whose condition stays true until the loop timeout ends it with
// MISSED_DEADLINE_TRANSIENT, and measures the time of one loop iteration. It prints the heap
// allocations made along the way. The exit code says whether every check passed.
//
// The board (tick counter, console, exit, allocation count) is behind board.h: startup.c on the
// board, board_host.cpp when the same file is built as a host program.

#include <array>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <utility>

#include "board_support.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/core/format.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/fully_connected.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/while.hpp"
#include "nnhal/model/request_builder.hpp"

namespace {

using firmware::CountText;
using firmware::print;
using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

/// The kernels compiled into the image: WHILE, and FULLY_CONNECTED, ADD and LESS on float32 only
/// (the loop counter is a float too, so no int32 kernel is linked). SetRowsOnly: models are
/// validated against these operations' rows only, so the image holds no other operation's
/// signatures or rules.
using Kernels = nnhal::KernelSet<nnhal::Use<OperationType::WHILE>, nnhal::Use<OperationType::FULLY_CONNECTED, F32>,
                                 nnhal::Use<OperationType::ADD, F32>, nnhal::Use<OperationType::LESS, F32>,
                                 nnhal::SetRowsOnly>;

using firmware::TickClock;

// The loop body x <- FC(x, W, b) + c on a vector of 4. Every value is a multiple of 1/4 and the
// rows of W sum (in absolute value) to at most 3/4, so after kIterations iterations every value
// is a multiple of 4^-kIterations below 16 in magnitude: 24 significant bits hold it exactly, and
// every product and sum on the way is exact in float32 in any order. The kernel and the plain
// loops below therefore agree bit for bit, whatever order either sums in.
constexpr std::uint32_t kUnits = 4;
constexpr std::int32_t kIterations = 8;
constexpr std::array<float, kUnits * kUnits> kWeights = {0.5f,  0.25f, 0.0f,  0.0f,    //
                                                         0.0f,  0.5f,  -0.25f, 0.0f,   //
                                                         0.25f, 0.0f,  0.25f, 0.25f,   //
                                                         -0.25f, 0.0f, 0.0f,  0.5f};
constexpr std::array<float, kUnits> kBias = {1.0f, -0.5f, 0.25f, 2.0f};
constexpr std::array<float, kUnits> kAddend = {0.5f, 0.5f, -1.0f, 0.0f};
constexpr std::array<float, kUnits> kStart = {1.0f, 2.0f, 3.0f, 4.0f};
using Vector = std::array<float, kUnits>;

/// The same computation in plain C++.
Vector expected_result(Vector x, std::int32_t iterations) {
  for (std::int32_t i = 0; i < iterations; ++i) {
    Vector y{};
    for (std::uint32_t u = 0; u < kUnits; ++u) {
      float sum = kBias[u];
      for (std::uint32_t k = 0; k < kUnits; ++k) sum += kWeights[u * kUnits + k] * x[k];
      y[u] = sum + kAddend[u];
    }
    x = y;
  }
  return x;
}

/// The model and the handles of its inputs and outputs.
struct LoopModel {
  nnhal::Model model;
  nnhal::OperandRef<F32> i0, x0, limit, i, x;
};

/// main(i0, x0, limit) = WHILE (i < limit) { i = i + 1; x = FC(x, W, b) + c }, returning (i, x),
/// built in `arena` (or RESOURCE_EXHAUSTED_PERSISTENT when it is too small).
/// The counter i is a float32 [1]: i + 1 is exact up to 2^24, far beyond any count used here.
nnhal::Expected<LoopModel> loop_model(nnhal::Arena& arena) {
  const nnhal::OperandSpec one{{1}};
  const nnhal::OperandSpec row{{1, kUnits}};
  nnhal::ModelBuilder b(arena);

  auto cond_b = b.add_subgraph<struct Cond, F32, F32, F32>(one, row, one);
  const auto [ci, cx, climit] = cond_b.inputs();
  (void)cx;
  const auto cond = cond_b.returns(cond_b.operation<OperationType::LESS, OperandType::TENSOR_BOOL8>(one, ci, climit));

  auto body_b = b.add_subgraph<struct Body, F32, F32, F32>(one, row, one);
  const auto [bi, bx, blimit] = body_b.inputs();
  (void)blimit;
  const float step[1] = {1.0f};
  const auto none = body_b.scalar<OperandType::INT32>(0);  // no fused activation
  const auto next_i = body_b.operation<OperationType::ADD, F32>(one, bi, body_b.constant<F32>(step, one), none);
  const auto fc = body_b.operation<OperationType::FULLY_CONNECTED, F32>(
      row, bx, body_b.constant<F32>(kWeights, {{kUnits, kUnits}}), body_b.constant<F32>(kBias, {{kUnits}}), none);
  const auto next_x = body_b.operation<OperationType::ADD, F32>(row, fc, body_b.constant<F32>(kAddend, row), none);
  const auto body = body_b.returns(next_i, next_x);

  const auto i0 = b.input<F32>(one);
  const auto x0 = b.input<F32>(row);
  const auto limit = b.input<F32>(one);
  const auto [i, x] = b.while_(cond, body, i0, x0, limit);
  b.output(i, x);
  auto model = std::move(b).build();
  if (!model) return std::move(model.error());
  return LoopModel{std::move(*model), i0, x0, limit, i, x};
}

/// The memory building, validating and preparing the model take, with room to spare: measured
/// with nnhal::Arena::peak(), which the program prints (9,600 bytes on the board, where pointers
/// are 4 bytes; 13,392 on a 64-bit host).
constexpr std::size_t kArenaBytes = 16 * 1024;
/// Enough for the model on the board (4,456 bytes), not for its preparation.
constexpr std::size_t kSmallArenaBytes = 6 * 1024;
alignas(16) std::byte arena_memory[kArenaBytes];

/// Prints "what: STATUS message" and gives the exit code of a failed step. The image is built
/// with NNHAL_ERROR_MESSAGES=0 by default (CMakeLists.txt), and then the message is empty.
int fail(const char* what, const nnhal::Error& error) {
  print("%s: %s %s\n", what, nnhal::to_string(error.status()).data(), error.c_str());
  return 1;
}

void print_vector(const char* name, const Vector& v) {
  print("%s = [%f, %f, %f, %f]\n", name, static_cast<double>(v[0]), static_cast<double>(v[1]),
        static_cast<double>(v[2]), static_cast<double>(v[3]));
}

}  // namespace

int main() {
  print("nnhal firmware example on %s\n", board_name());
  firmware::AllocationCounter allocations;

  int failures = 0;
  {
    // An arena too small for the model (on the board the model fits in it, its preparation does
    // not): the step that runs out says so, and nothing is taken from the heap.
    nnhal::Arena small(arena_memory, kSmallArenaBytes);
    auto small_model = loop_model(small);
    auto status = small_model ? nnhal::Status() : nnhal::Status(small_model.error());
    if (small_model) {
      nnhal::PrepareOptions options;
      options.arena = &small;
      auto p = nnhal::PreparedModel::prepare<Kernels>(std::move(small_model->model), options);
      if (!p) status = p.error();
    }
    const bool exhausted = !status && status.error().status() == nnhal::ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT;
    print("a %u-byte arena: %s while %s; heap allocations %s\n", static_cast<unsigned>(kSmallArenaBytes),
          status ? "NO ERROR" : nnhal::to_string(status.error().status()).data(),
          small_model ? "preparing" : "building", CountText(allocations.since_last()).text);
    if (!exhausted) ++failures;
  }

  nnhal::Arena arena(arena_memory, sizeof arena_memory);
  auto built = loop_model(arena);
  if (!built) return fail("building the model failed", built.error());
  LoopModel& m = *built;
  print("heap allocations: building the model %s (arena: %lu bytes)\n", CountText(allocations.since_last()).text,
        static_cast<unsigned long>(arena.used()));

  // The prepared model takes the model over (prepared->model() from here on): no second copy.
  // The plan and validation's scratch come from the arena too.
  nnhal::PrepareOptions prepare_options;
  prepare_options.arena = &arena;
  auto prepared = nnhal::PreparedModel::prepare<Kernels>(std::move(m.model), prepare_options);
  if (!prepared) return fail("prepare failed", prepared.error());
  print("heap allocations: validating and preparing %s (arena: %lu bytes used, %lu at most, of %lu)\n",
        CountText(allocations.since_last()).text, static_cast<unsigned long>(arena.used()),
        static_cast<unsigned long>(arena.peak()), static_cast<unsigned long>(arena.capacity()));
  auto execution = prepared->create_execution(TickClock{});
  if (!execution) return fail("cannot create an execution", execution.error());
  print("heap allocations: creating the execution %s\n", CountText(allocations.since_last()).text);
  float i0[1] = {0.0f};
  float limit[1] = {kIterations};
  Vector x0 = kStart;
  float i_out[1] = {0.0f};
  Vector x_out{};
  nnhal::RequestBuilder rb(prepared->model());
  for (const nnhal::Status& s : {rb.input(m.i0, std::span<const float>(i0)), rb.input(m.x0, std::span<const float>(x0)),
                                 rb.input(m.limit, std::span<const float>(limit)), rb.output(m.i, std::span(i_out)),
                                 rb.output(m.x, std::span(x_out)), rb.ready()})
    if (!s) return fail("request", s.error());
  print("heap allocations: the request %s\n", CountText(allocations.since_last()).text);

  // 1. The result, checked against the plain loops.
  const Vector expected = expected_result(kStart, kIterations);
  for (int run = 1; run <= 2; ++run) {
    x_out = {};
    i_out[0] = 0.0f;
    const auto status = execution->run(rb.request());
    const CountText made(allocations.since_last());
    if (!status) {
      print("run %d ", run);
      return fail("failed", status.error());
    }
    const bool ok = i_out[0] == kIterations && std::memcmp(x_out.data(), expected.data(), sizeof expected) == 0;
    print_vector("x", x_out);
    print_vector("expected", expected);
    print("run %d: %ld iterations, result %s; heap allocations during the run: %s\n", run,
          static_cast<long>(i_out[0]), ok ? "ok" : "WRONG", made.text);
    if (!ok) ++failures;
  }

  // 2. Time per iteration: more iterations until the loop runs for at least 100 ticks (counts
  //    up to 2^24, all exact in float32).
  for (std::int32_t n = 1000; n <= (1 << 24); n *= 4) {
    limit[0] = static_cast<float>(n);
    const std::uint32_t start = board_ticks();
    const auto status = execution->run(rb.request());
    const std::uint32_t ms = board_ticks() - start;
    if (!status || i_out[0] != limit[0]) {
      print("timing run of %ld iterations ", static_cast<long>(n));
      if (status) {
        print("wrong count\n");
        return 1;
      }
      return fail("failed", status.error());
    }
    if (ms >= 100) {
      const float ns = static_cast<float>(ms) * 1e6f / static_cast<float>(n);
      print("time per loop iteration: %ld ns (%ld iterations in %lu ms)\n", static_cast<long>(ns), static_cast<long>(n),
            static_cast<unsigned long>(ms));
      break;
    }
  }
  print("heap allocations during the timing runs: %s\n", CountText(allocations.since_last()).text);

  // 3. A loop that does not end by itself: i < infinity always holds (i + 1 stops growing at
  //    2^24), so the 100 ms loop timeout has to stop it.
  limit[0] = std::numeric_limits<float>::infinity();
  nnhal::ExecuteOptions<TickClock> options;
  options.loop_timeout = std::chrono::milliseconds(100);
  const std::uint32_t start = board_ticks();
  const auto endless = execution->run(rb.request(), options);
  const std::uint32_t ms = board_ticks() - start;
  const bool timed_out = !endless && endless.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT;
  print("endless loop, 100 ms loop timeout: %s after %lu ms; heap allocations during the run: %s\n",
        endless ? "NONE" : nnhal::to_string(endless.error().status()).data(), static_cast<unsigned long>(ms),
        CountText(allocations.since_last()).text);
  if (!timed_out) ++failures;

  if (board_allocations() >= 0)
    print("heap allocations in all: %ld; heap size: %ld bytes\n", board_allocations(), board_heap_bytes());
  print("%s\n", failures == 0 ? "firmware: all checks passed" : "firmware: FAILED");
  return failures == 0 ? 0 : 1;
}
