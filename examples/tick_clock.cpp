// A firmware-style clock for nnhal: time comes from a free-running 32-bit tick counter (as a
// SysTick or timer register would provide), converted to nanoseconds with wrap-around handled by
// unsigned subtraction. Here a thread plays the timer interrupt, ticking every millisecond; on a
// device `counter` would point at the hardware register.
//
// The program runs a WHILE loop that counts to 1000, then one that never ends, which the loop
// timeout stops with MISSED_DEADLINE_TRANSIENT. Like a firmware image, it compiles only the
// kernels it runs (WHILE, and LESS and ADD on int32).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/while.hpp"

namespace {

using Kernels = nnhal::KernelSet<nnhal::Use<nnhal::OperationType::WHILE>,
                                 nnhal::Use<nnhal::OperationType::LESS, nnhal::OperandType::TENSOR_INT32>,
                                 nnhal::Use<nnhal::OperationType::ADD, nnhal::OperandType::TENSOR_INT32>>;

/// A clock reading a millisecond tick counter.
struct TickClock {
  struct time_point {
    std::uint32_t ticks;
    friend std::chrono::nanoseconds operator-(time_point a, time_point b) noexcept {
      // Signed difference of the wrapping counter: correct for intervals under 2^31 ticks.
      return std::chrono::milliseconds(static_cast<std::int32_t>(a.ticks - b.ticks));
    }
  };
  const std::atomic<std::uint32_t>* counter;
  time_point now() const noexcept { return {counter->load(std::memory_order_relaxed)}; }
};
static_assert(nnhal::Clock<TickClock>);

/// main(i0, limit) = WHILE (i < limit) i = i + 1, on TENSOR_INT32 [1].
nnhal::Model counter_model() {
  using nnhal::OperandType;
  using nnhal::OperationType;
  constexpr auto I32 = OperandType::TENSOR_INT32;
  const nnhal::OperandSpec one{{1}};
  nnhal::ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32, I32>(one, one);
  const auto [ci, climit] = cond_b.inputs();
  const auto cond = cond_b.returns(cond_b.operation<OperationType::LESS, OperandType::TENSOR_BOOL8>(one, ci, climit));
  auto body_b = b.add_subgraph<struct Body, I32, I32>(one, one);  // (i, limit) -> i + 1
  const std::int32_t step[1] = {1};
  const auto body = body_b.returns(body_b.operation<OperationType::ADD, I32>(
      one, body_b.input<0>(), body_b.constant<I32>(step, one), body_b.scalar<OperandType::INT32>(0)));
  const auto i0 = b.input<I32>(one);
  const auto limit = b.input<I32>(one);
  const auto [result] = b.while_(cond, body, i0, limit);
  b.output(result);
  return std::move(b).model();
}

}  // namespace

int main() {
  // The "timer interrupt": starts near the 32-bit wrap to show that wrap-around is harmless.
  std::atomic<std::uint32_t> ticks{0xFFFFFFF0u};
  std::atomic<bool> running{true};
  std::thread systick([&] {
    while (running) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ticks.fetch_add(1, std::memory_order_relaxed);
    }
  });

  int status = 1;
  auto prepared = nnhal::PreparedModel::prepare<Kernels>(counter_model());
  if (!prepared) {
    std::printf("prepare failed: %s\n", prepared.error().c_str());
  } else if (auto execution = prepared->create_execution(TickClock{&ticks}); !execution) {
    std::printf("cannot create an execution: %s\n", execution.error().c_str());
  } else {
    std::int32_t io[3] = {0, 1000, 0};
    nnhal::Request request;
    request.pools.push_back({{reinterpret_cast<std::byte*>(io), sizeof io}, 0});
    request.inputs = {{false, {0, 0, 4}, {}}, {false, {0, 4, 4}, {}}};
    request.outputs = {{false, {0, 8, 4}, {}}};

    const auto counted = execution->run(request);
    std::printf("counting to 1000: %s, result %d\n", counted ? "ok" : counted.error().c_str(), io[2]);

    io[0] = 0;
    io[1] = 2'000'000'000;  // effectively endless
    nnhal::ExecuteOptions<TickClock> options;
    options.loop_timeout = std::chrono::milliseconds(50);
    const auto endless = execution->run(request, options);
    std::printf("endless loop with a 50 ms timeout: %s (%s)\n",
                endless ? "NONE" : nnhal::to_string(endless.error().status()).data(),
                endless ? "" : endless.error().c_str());
    const bool timed_out = !endless && endless.error().status() == nnhal::ErrorStatus::MISSED_DEADLINE_TRANSIENT;
    status = counted && io[2] != 0 && timed_out ? 0 : 1;
  }
  running = false;
  systick.join();
  return status;
}
