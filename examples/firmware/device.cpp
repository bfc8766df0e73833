// nnhal's device layer on a microcontroller: the second firmware image of examples/firmware
// (firmware_device.elf), built by examples/firmware/CMakeLists.txt and run by ctest firmware_qemu.
//
// Where main.cpp runs a model through nnhal::PreparedModel / Execution, this program uses the
// driver-facing interfaces a driver would: a nnhal::Device with the board's SysTick clock and a
// kernel set of the three operations it runs, two prepared models (an ADD, and a WHILE loop),
// synchronous executions (DevicePreparedModel::execute) and bursts (Burst::execute), both into an
// ExecutionResult that is kept from one execution to the next. It checks every result against
// plain C++ and counts the heap allocations of each step: after the first execution of a model
// (which creates its execution context and sizes the result's vectors), executions allocate
// nothing. The exit code says whether every check passed and every such count was 0.
//
// The board is behind board.h, as for main.cpp; the top-level project also builds this file with
// board_host.cpp as a host program (ctest example.firmware_device).

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <utility>

#include "board_support.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/core/format.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/kernels/add.hpp"
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

/// The device's kernel set: WHILE, and ADD and LESS on float32. SetRowsOnly: the device
/// validates models, requests and caches against these operations' rows only (its cache
/// fingerprint is theirs too), so the image links no other operation's row.
using Kernels = nnhal::KernelSet<nnhal::Use<OperationType::WHILE>, nnhal::Use<OperationType::ADD, F32>,
                                 nnhal::Use<OperationType::LESS, F32>, nnhal::SetRowsOnly>;

using firmware::TickClock;

using Device = nnhal::Device<TickClock, Kernels>;
using Args = nnhal::ExecutionArgs<TickClock>;

/// Executions after the first one, in each mode.
constexpr int kRuns = 10;

// Every value below is a multiple of 1/4 and stays under 2^10 in magnitude, so every sum is
// exact in float32: the kernels and the plain loops agree bit for bit.
constexpr std::uint32_t kWidth = 8;
using Vector = std::array<float, kWidth>;
constexpr Vector kStep = {0.25f, -0.5f, 1.0f, 0.0f, -1.25f, 2.0f, 0.75f, -3.0f};
constexpr Vector kStart = {1.0f, 2.0f, -3.0f, 4.5f, 0.25f, -6.0f, 7.0f, 8.75f};

/// out = a + b on [2, 8].
struct AddModel {
  nnhal::Model model;
  nnhal::OperandRef<F32> a, b, out;
};
AddModel add_model() {
  const nnhal::OperandSpec shape{{2, kWidth}};
  nnhal::ModelBuilder builder;
  const auto a = builder.input<F32>(shape);
  const auto b = builder.input<F32>(shape);
  const auto out = builder.operation<OperationType::ADD, F32>(shape, a, b, builder.scalar<OperandType::INT32>(0));
  builder.output(out);
  return {std::move(builder).model(), a, b, out};
}

/// main(i0, x0, limit) = WHILE (i < limit) { i = i + 1; x = x + step }, returning (i, x), on a
/// float32 counter [1] and a vector [1, 8].
struct LoopModel {
  nnhal::Model model;
  nnhal::OperandRef<F32> i0, x0, limit, i, x;
};
LoopModel loop_model() {
  const nnhal::OperandSpec one{{1}};
  const nnhal::OperandSpec row{{1, kWidth}};
  nnhal::ModelBuilder b;

  auto cond_b = b.add_subgraph<struct Cond, F32, F32, F32>(one, row, one);
  const auto [ci, cx, climit] = cond_b.inputs();
  (void)cx;
  const auto cond = cond_b.returns(cond_b.operation<OperationType::LESS, OperandType::TENSOR_BOOL8>(one, ci, climit));

  auto body_b = b.add_subgraph<struct Body, F32, F32, F32>(one, row, one);
  const auto [bi, bx, blimit] = body_b.inputs();
  (void)blimit;
  const float one_value[1] = {1.0f};
  const auto none = body_b.scalar<OperandType::INT32>(0);  // no fused activation
  const auto next_i = body_b.operation<OperationType::ADD, F32>(one, bi, body_b.constant<F32>(one_value, one), none);
  const auto next_x = body_b.operation<OperationType::ADD, F32>(row, bx, body_b.constant<F32>(kStep, row), none);
  const auto body = body_b.returns(next_i, next_x);

  const auto i0 = b.input<F32>(one);
  const auto x0 = b.input<F32>(row);
  const auto limit = b.input<F32>(one);
  const auto [i, x] = b.while_(cond, body, i0, x0, limit);
  b.output(i, x);
  return {std::move(b).model(), i0, x0, limit, i, x};
}

/// The checks of the program: a failed one is printed and counted.
struct Checks {
  int failures = 0;
  firmware::AllocationCounter allocations;

  /// Prints the heap allocations of a step that may allocate.
  void step(const char* what) { print("heap allocations: %s %s\n", what, CountText(allocations.since_last()).text); }

  /// Counts a failure unless `ok`.
  bool expect(bool ok, const char* what) {
    if (!ok) {
      print("CHECK FAILED: %s\n", what);
      ++failures;
    }
    return ok;
  }
  bool expect(const nnhal::Status& s, const char* what) {
    if (!s) {
      print("CHECK FAILED: %s: %s\n", what, s.error().c_str());
      ++failures;
    }
    return static_cast<bool>(s);
  }
};

/// Whether `result` reports the output shapes `expected` (all sufficient).
bool shapes_ok(const nnhal::ExecutionResult& result, std::initializer_list<std::initializer_list<std::uint32_t>> expected) {
  if (result.output_shapes.size() != expected.size()) return false;
  std::size_t i = 0;
  for (const auto& dims : expected) {
    const nnhal::OutputShape& shape = result.output_shapes[i++];
    if (!shape.isSufficient || !std::equal(dims.begin(), dims.end(), shape.dimensions.begin(), shape.dimensions.end()))
      return false;
  }
  return true;
}

/// One prepared model's request and how to check its result, for the runs of both modes.
/// `prepare_run(k)` sets the inputs of run k (0: the first) and clears the outputs;
/// `result_ok(k, result)` compares the outputs with plain C++ and the output shapes with the
/// model's.
template <class Case>
void run_modes(Checks& checks, const char* name, Device::PreparedModelPtr& prepared, Case& c) {
  Args args;
  args.measure = nnhal::MeasureTiming::YES;
  char what[64];

  // executeSynchronously, into one ExecutionResult.
  nnhal::ExecutionResult result;
  c.prepare_run(0);
  prepared->execute(c.request(), args, result);
  nnhal::format(what, sizeof what, "%s: device sync, first execution", name);
  if (checks.expect(result.status, what)) checks.expect(c.result_ok(0, result), what);
  checks.step(what);
  bool all_ok = true;
  for (int k = 1; k <= kRuns; ++k) {
    c.prepare_run(k);
    // A deadline a minute ahead: the executor reads the device's clock between operations.
    args.deadline = TickClock::time_point{board_ticks() + 60000u};
    prepared->execute(c.request(), args, result);
    all_ok = all_ok && result.status && c.result_ok(k, result);
  }
  args.deadline.reset();
  long made = checks.allocations.since_last();
  nnhal::format(what, sizeof what, "%s: device sync, executions after the first", name);
  checks.expect(all_ok, what);
  checks.expect(made <= 0, what);  // -1: not counted (host)
  print("%s: device sync: %d executions after the first, heap allocations %s (last: %lu us in the driver)\n", name,
        kRuns, CountText(made).text, static_cast<unsigned long>(result.timing.timeInDriver));

  // configureExecutionBurst, then the same through the burst, into another ExecutionResult.
  auto burst = prepared->configure_burst();
  nnhal::format(what, sizeof what, "%s: configure_burst", name);
  if (!checks.expect(burst ? nnhal::Status{} : nnhal::Status(burst.error()), what)) return;
  checks.step(what);
  nnhal::ExecutionResult burst_result;
  c.prepare_run(0);
  (*burst)->execute(c.request(), args, burst_result);
  nnhal::format(what, sizeof what, "%s: device burst, first execution", name);
  if (checks.expect(burst_result.status, what)) checks.expect(c.result_ok(0, burst_result), what);
  checks.step(what);
  all_ok = true;
  for (int k = 1; k <= kRuns; ++k) {
    c.prepare_run(k);
    (*burst)->execute(c.request(), args, burst_result);
    all_ok = all_ok && burst_result.status && c.result_ok(k, burst_result);
  }
  made = checks.allocations.since_last();
  nnhal::format(what, sizeof what, "%s: device burst, executions after the first", name);
  checks.expect(all_ok, what);
  checks.expect(made <= 0, what);
  print("%s: device burst: %d executions after the first, heap allocations %s\n", name, kRuns, CountText(made).text);
}

/// The ADD model's request: a[j] = j / 4 - 1 + k, b[j] = 3 - j / 2 (run k).
struct AddCase {
  const AddModel& m;
  std::array<float, 2 * kWidth> a{}, b{}, out{};
  nnhal::RequestBuilder rb;

  AddCase(const AddModel& model, const nnhal::Model& prepared_model) : m(model), rb(prepared_model) {}
  nnhal::Status bind() {
    for (const nnhal::Status& s : {rb.input(m.a, std::span<const float>(a)), rb.input(m.b, std::span<const float>(b)),
                                   rb.output(m.out, std::span(out)), rb.ready()})
      if (!s) return s;
    return {};
  }
  const nnhal::Request& request() const { return rb.request(); }
  void prepare_run(int k) {
    for (std::uint32_t j = 0; j < a.size(); ++j) {
      a[j] = static_cast<float>(j) / 4.0f - 1.0f + static_cast<float>(k);
      b[j] = 3.0f - static_cast<float>(j) / 2.0f;
    }
    out.fill(-999.0f);
  }
  bool result_ok(int, const nnhal::ExecutionResult& result) const {
    std::array<float, 2 * kWidth> expected{};
    for (std::uint32_t j = 0; j < a.size(); ++j) expected[j] = a[j] + b[j];
    return std::memcmp(out.data(), expected.data(), sizeof expected) == 0 && shapes_ok(result, {{2, kWidth}});
  }
};

/// The WHILE model's request: the loop runs 8 + k times (run k).
struct LoopCase {
  const LoopModel& m;
  float i0[1] = {0.0f}, limit[1] = {0.0f}, i_out[1] = {0.0f};
  Vector x0 = kStart, x_out{};
  nnhal::RequestBuilder rb;

  LoopCase(const LoopModel& model, const nnhal::Model& prepared_model) : m(model), rb(prepared_model) {}
  nnhal::Status bind() {
    for (const nnhal::Status& s :
         {rb.input(m.i0, std::span<const float>(i0)), rb.input(m.x0, std::span<const float>(x0)),
          rb.input(m.limit, std::span<const float>(limit)), rb.output(m.i, std::span(i_out)),
          rb.output(m.x, std::span(x_out)), rb.ready()})
      if (!s) return s;
    return {};
  }
  const nnhal::Request& request() const { return rb.request(); }
  static int iterations(int k) { return 8 + k; }
  void prepare_run(int k) {
    limit[0] = static_cast<float>(iterations(k));
    i_out[0] = -1.0f;
    x_out.fill(-999.0f);
  }
  bool result_ok(int k, const nnhal::ExecutionResult& result) const {
    Vector expected = kStart;
    for (int n = 0; n < iterations(k); ++n)
      for (std::uint32_t j = 0; j < kWidth; ++j) expected[j] += kStep[j];
    return i_out[0] == static_cast<float>(iterations(k)) &&
           std::memcmp(x_out.data(), expected.data(), sizeof expected) == 0 && shapes_ok(result, {{1}, {1, kWidth}});
  }
};

}  // namespace

int main() {
  print("nnhal firmware_device example (device layer) on %s\n", board_name());
  Checks checks;

  nnhal::DeviceOptions<TickClock> options;
  options.name = "nnhal-m7";
  options.worker_threads = 1;  // hosted builds (NNHAL_ASYNC): one worker; the board has none
  Device device(std::move(options));
  checks.step("creating the device");

  const AddModel add = add_model();
  const LoopModel loop = loop_model();
  checks.step("building both models");

  // Device::prepare copies what it needs from the model (the HAL hands a driver a model it
  // does not own), so the built models stay here and the requests name their operands.
  auto add_prepared = device.prepare(add.model);
  if (!checks.expect(add_prepared ? nnhal::Status{} : nnhal::Status(add_prepared.error()), "prepare ADD"))
    return 1;
  checks.step("preparing ADD");
  auto loop_prepared = device.prepare(loop.model);
  if (!checks.expect(loop_prepared ? nnhal::Status{} : nnhal::Status(loop_prepared.error()), "prepare WHILE"))
    return 1;
  checks.step("preparing WHILE");
  print("execution bytes: ADD %lu, WHILE %lu\n", static_cast<unsigned long>((*add_prepared)->prepared().execution_bytes()),
        static_cast<unsigned long>((*loop_prepared)->prepared().execution_bytes()));

  AddCase add_case(add, (*add_prepared)->prepared().model());
  LoopCase loop_case(loop, (*loop_prepared)->prepared().model());
  if (!checks.expect(add_case.bind(), "ADD request") || !checks.expect(loop_case.bind(), "WHILE request")) return 1;
  checks.step("the requests");

  run_modes(checks, "ADD", *add_prepared, add_case);
  run_modes(checks, "WHILE", *loop_prepared, loop_case);

  if (board_allocations() >= 0)
    print("heap allocations in all: %ld; heap size: %ld bytes\n", board_allocations(), board_heap_bytes());
  print("%s\n", checks.failures == 0 ? "firmware_device: all checks passed" : "firmware_device: FAILED");
  return checks.failures == 0 ? 0 : 1;
}
