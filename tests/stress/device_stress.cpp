// Many executions at once on one device: threads mixing synchronous, asynchronous, fenced and
// burst executions of two prepared models (one with a WHILE loop), sharing a driver-managed
// input buffer, while another thread keeps releasing idle execution memory. Every result is
// checked. Built as its own program so the test suite can also run it under ThreadSanitizer.
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "control/control_flow_models.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/while.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::stress {
namespace fx = nnhal::test::malformed;

/// The kernels of the two models (the program compiles only these).
using StressKernels = KernelSet<Use<OperationType::WHILE>, Use<OperationType::LESS, OperandType::TENSOR_INT32>,
                                Use<OperationType::ADD, OperandType::TENSOR_INT32, OperandType::TENSOR_FLOAT32>>;

/// One request for the WHILE counter model (count from 0 to `limit`) with its own memory.
struct CounterRequest {
  std::int32_t io[3] = {0, 0, -1};
  Request request;
  explicit CounterRequest(std::int32_t limit) {
    io[1] = limit;
    request.pools.push_back({{reinterpret_cast<std::byte*>(io), sizeof io}, 0});
    request.inputs = {{false, {0, 0, 4}, {}}, {false, {0, 4, 4}, {}}};
    request.outputs = {{false, {0, 8, 4}, {}}};
  }
};

enum class Mode { Sync, Async, Fenced, Burst };

/// Runs `request` on `model` in `mode`; returns the execution's status.
inline ErrorStatus run(DevicePreparedModel<>& model, Burst<>& burst, const Request& request, Mode mode) {
  switch (mode) {
    case Mode::Sync:
      return model.execute(request).error_status();
    case Mode::Burst:
      return burst.execute(request).error_status();
    case Mode::Async: {
      auto cb = std::make_shared<ResultCallback>();
      if (Status s = model.execute_async(request, {}, cb); !s) return s.error().status();
      return cb->wait().error_status();
    }
    case Mode::Fenced: {
      // Wait on a fence another thread signals.
      SyncFence gate = SyncFence::create();
      const SyncFence waits[] = {gate};
      auto launched = model.execute_fenced(request, waits);
      if (!launched) return launched.error().status();
      std::thread signaller([gate]() mutable { gate.signal(); });
      const FenceState st = launched->fence.wait();
      signaller.join();
      return st == FenceState::Signaled ? ErrorStatus::NONE : launched->execution_info().status;
    }
  }
  return ErrorStatus::GENERAL_FAILURE;
}
}  // namespace nnhal::test::stress

using namespace nnhal;
namespace st = nnhal::test::stress;
namespace fx = nnhal::test::malformed;

TEST_CASE("stress: concurrent executions in every mode on one device") {
  DeviceOptions<> options;
  options.worker_threads = 3;
  Device<SteadyClock, st::StressKernels> device(options);
  auto add = device.prepare(fx::add_model().model);
  auto counter = device.prepare(test::cf::while_counter_model());
  REQUIRE(add.has_value());
  REQUIRE(counter.has_value());

  // A shared input buffer holding {100, 200} for input 0 of the ADD model.
  const std::shared_ptr<DevicePreparedModel<>> models[] = {*add};
  const BufferRole role[] = {{0, 0, 1.0f}};
  auto shared = device.allocate({}, models, role, {});
  REQUIRE(shared.has_value());
  float init[2] = {100.0f, 200.0f};
  const std::uint32_t dims[] = {2};
  REQUIRE(shared->buffer->copy_from({reinterpret_cast<std::byte*>(init), sizeof init}, dims).has_value());

  constexpr int kThreads = 6;
  constexpr int kRounds = 200;
  std::atomic<int> failures{0};
  std::atomic<bool> stop{false};
  std::thread trimmer([&] {
    while (!stop.load()) {
      (*add)->release_idle_memory();
      (*counter)->release_idle_memory();
      std::this_thread::yield();
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto add_burst = (*add)->configure_burst();
      auto counter_burst = (*counter)->configure_burst();
      if (!add_burst || !counter_burst) {
        ++failures;
        return;
      }
      for (int k = 0; k < kRounds; ++k) {
        const auto mode = static_cast<st::Mode>((t + k) % 4);
        if ((k & 1) == 0) {
          const std::int32_t limit = 10 * t + k;
          st::CounterRequest q(limit);
          if (st::run(**counter, **counter_burst, q.request, mode) != ErrorStatus::NONE || q.io[2] != limit) ++failures;
        } else {
          auto r = fx::add_request();  // in1 = {10, 20}
          const bool use_buffer = (k % 3) == 0;
          if (use_buffer) {
            r.request.pools.push_back({{}, shared->token});
            r.request.inputs[0].location = {1, 0, 0};
          }
          if (st::run(**add, **add_burst, r.request, mode) != ErrorStatus::NONE) {
            ++failures;
            continue;
          }
          float out[2];
          std::memcpy(out, r.pool_data(0) + 16, 8);
          const float a0 = use_buffer ? 100.0f : 1.0f, a1 = use_buffer ? 200.0f : 2.0f;
          if (out[0] != a0 + 10.0f || out[1] != a1 + 20.0f) ++failures;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  stop = true;
  trimmer.join();
  CHECK(failures.load() == 0);
  CHECK(shared->buffer->initialized());
}
