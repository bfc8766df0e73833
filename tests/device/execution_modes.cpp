// The execution modes of a device's prepared model: asynchronous (callback), fenced (waits on
// SyncFences, returns one) and burst, with driver-managed buffers through the device, and the
// documented errors of each.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "control/control_flow_models.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/model/request_builder.hpp"
#include "support/counting_allocator.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::modes {
namespace fx = nnhal::test::malformed;

inline std::vector<float> output_of(const fx::RequestFixture& r) {
  std::vector<float> out(2);
  std::memcpy(out.data(), r.pool_data(0) + 16, 8);
  return out;
}

inline std::shared_ptr<DevicePreparedModel<>> prepare_add(Device<>& device) {
  auto p = device.prepare(fx::add_model().model);
  REQUIRE(p.has_value());
  return *p;
}
}  // namespace nnhal::test::modes

using namespace nnhal;
namespace md = nnhal::test::modes;
namespace fx = nnhal::test::malformed;
using namespace std::chrono_literals;

#if NNHAL_ASYNC
TEST_CASE("modes: asynchronous execution notifies its callback exactly once") {
  Device<> device;
  auto pm = md::prepare_add(device);
  auto r = fx::add_request();
  auto callback = std::make_shared<ResultCallback>();
  ExecutionArgs<> args;
  args.measure = MeasureTiming::YES;
  REQUIRE(pm->execute_async(r.request, args, callback).has_value());
  ExecutionResult result = callback->wait();
  REQUIRE(result.status.has_value());
  CHECK(md::output_of(r) == std::vector<float>{11.0f, 22.0f});
  CHECK(result.timing.timeOnDevice <= result.timing.timeInDriver);
  CHECK(result.timing.timeInDriver != UINT64_MAX);
  CHECK(callback->notifications() == 1);

  SUBCASE("a null callback is INVALID_ARGUMENT") {
    CHECK(pm->execute_async(r.request, args, nullptr).error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("an invalid request is returned and notified") {
    auto bad = fx::add_request();
    bad.request.outputs.clear();
    auto cb = std::make_shared<ResultCallback>();
    CHECK(pm->execute_async(bad.request, args, cb).error().status() == ErrorStatus::INVALID_ARGUMENT);
    ExecutionResult notified = cb->wait();
    CHECK(notified.error_status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(notified.output_shapes.empty());
    CHECK(notified.timing.timeInDriver == UINT64_MAX);
  }
  SUBCASE("an insufficient output is notified with its shape") {
    auto small = fx::add_request();
    small.request.outputs[0].location.length = 4;
    auto cb = std::make_shared<ResultCallback>();
    REQUIRE(pm->execute_async(small.request, args, cb).has_value());
    ExecutionResult notified = cb->wait();
    CHECK(notified.error_status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    REQUIRE(notified.output_shapes.size() == 1);
    CHECK_FALSE(notified.output_shapes[0].isSufficient);
  }
}

TEST_CASE("modes: a fenced execution waits for its fences, then signals its own") {
  Device<> device;
  auto pm = md::prepare_add(device);
  auto r = fx::add_request();
  SyncFence first = SyncFence::create(), second = SyncFence::create();
  const SyncFence waits[] = {first, second};
  ExecutionArgs<> args;
  args.measure = MeasureTiming::YES;
  auto launched = pm->execute_fenced(r.request, waits, args);
  REQUIRE(launched.has_value());
  CHECK(launched->fence.state() == FenceState::Pending);
  CHECK(launched->execution_info().status == ErrorStatus::GENERAL_FAILURE);  // not signalled yet
  first.signal();
  CHECK(launched->fence.state() == FenceState::Pending);
  second.signal();
  CHECK(launched->fence.wait() == FenceState::Signaled);
  CHECK(md::output_of(r) == std::vector<float>{11.0f, 22.0f});
  const FencedExecutionInfo info = launched->execution_info();
  CHECK(info.status == ErrorStatus::NONE);
  CHECK(info.timing_launched.timeOnDevice <= info.timing_launched.timeInDriver);
  CHECK(info.timing_fenced.timeOnDevice <= info.timing_fenced.timeInDriver);
  CHECK(info.timing_fenced.timeInDriver <= info.timing_launched.timeInDriver);
}

TEST_CASE("modes: fences in error") {
  Device<> device;
  auto pm = md::prepare_add(device);
  auto r = fx::add_request();
  SUBCASE("already in error when the call is made: INVALID_ARGUMENT") {
    const SyncFence waits[] = {SyncFence::failed()};
    CHECK(pm->execute_fenced(r.request, waits).error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("an empty fence: INVALID_ARGUMENT") {
    const SyncFence waits[] = {SyncFence{}};
    CHECK(pm->execute_fenced(r.request, waits).error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("going to error later: the returned fence goes to error and nothing runs") {
    SyncFence a = SyncFence::create(), b = SyncFence::create();
    const SyncFence waits[] = {a, b};
    auto launched = pm->execute_fenced(r.request, waits);
    REQUIRE(launched.has_value());
    b.set_error();
    a.signal();
    CHECK(launched->fence.wait() == FenceState::Error);
    CHECK(launched->execution_info().status == ErrorStatus::GENERAL_FAILURE);
    CHECK(md::output_of(r) == std::vector<float>{0.0f, 0.0f});
  }
}

TEST_CASE("modes: fenced execution rejects unspecified outputs and reports execution errors") {
  Device<> device;
  auto pm = md::prepare_add(device);
  SUBCASE("no fences to wait for: it runs in the call") {
    auto r = fx::add_request();
    auto done = pm->execute_fenced(r.request, {});
    REQUIRE(done.has_value());
    CHECK(done->fence.state() == FenceState::Signaled);
    CHECK(done->execution_info().status == ErrorStatus::NONE);
    CHECK(done->execution_info().timing_launched.timeInDriver == UINT64_MAX);  // not asked for
    CHECK(md::output_of(r) == std::vector<float>{11.0f, 22.0f});
  }
  SUBCASE("an output buffer that is too small fails the call") {
    auto r = fx::add_request();
    r.request.outputs[0].location.length = 4;
    CHECK(pm->execute_fenced(r.request, {}).error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  }
  SUBCASE("outputs of unknown size are INVALID_ARGUMENT") {
    auto f = fx::add_model();
    f.model.main.operands[3].dimensions = {0};
    auto dynamic = device.prepare(f.model);
    REQUIRE(dynamic.has_value());
    auto r = fx::add_request();
    CHECK((*dynamic)->execute_fenced(r.request, {}).error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK((*dynamic)->execute(r.request).status.has_value());  // the other modes accept it
  }
  SUBCASE("the timeout after the fences is a deadline: an endless loop misses it") {
    auto looping = device.prepare(test::cf::while_counter_model());
    REQUIRE(looping.has_value());
    std::int32_t io[3] = {0, 2'000'000'000, -1};
    Request q;
    q.pools.push_back({{reinterpret_cast<std::byte*>(io), sizeof io}, 0});
    q.inputs = {{false, {0, 0, 4}, {}}, {false, {0, 4, 4}, {}}};
    q.outputs = {{false, {0, 8, 4}, {}}};
    SyncFence gate = SyncFence::create();
    const SyncFence waits[] = {gate};
    auto launched = (*looping)->execute_fenced(q, waits, {}, std::chrono::nanoseconds(1ms));
    REQUIRE(launched.has_value());
    gate.signal();
    CHECK(launched->fence.wait() == FenceState::Error);
    CHECK(launched->execution_info().status == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  }
}
#endif  // NNHAL_ASYNC

TEST_CASE("modes: a burst runs executions back to back on its own memory") {
  Device<> device;
  auto pm = md::prepare_add(device);
  auto burst = pm->configure_burst();
  REQUIRE(burst.has_value());
  for (int k = 0; k < 5; ++k) {
    auto r = fx::add_request();
    float in[2] = {static_cast<float>(k), 1.0f};
    std::memcpy(r.pool_data(0), in, 8);
    ExecutionArgs<> args;
    args.measure = MeasureTiming::YES;
    ExecutionResult res = (*burst)->execute(r.request, args);
    REQUIRE(res.status.has_value());
    CHECK(md::output_of(r) == std::vector<float>{static_cast<float>(k) + 10.0f, 21.0f});
    CHECK(res.timing.timeOnDevice <= res.timing.timeInDriver);
  }
  CHECK(pm->cached_contexts() == 0);  // the burst's context is its own, not the pool's
  auto bad = fx::add_request();
  bad.request.inputs[0].location.poolIndex = 9;
  CHECK((*burst)->execute(bad.request).error_status() == ErrorStatus::INVALID_ARGUMENT);
  ExecutionArgs<> late;
  late.deadline = SteadyClock::time_point{};
  CHECK((*burst)->execute(fx::add_request().request, late).error_status() == ErrorStatus::MISSED_DEADLINE_PERSISTENT);
}

TEST_CASE("modes: sync and burst executions into a reused result allocate nothing after the first") {
  // The ADD model, and a WHILE loop (a loop counter model: its body runs `limit` times).
  Device<> device;
  auto add = md::prepare_add(device);
  auto looped = device.prepare(nnhal::test::cf::while_counter_model());
  REQUIRE(looped.has_value());
  const std::int32_t start[1] = {0};
  std::int32_t limit[1] = {40};
  std::int32_t counted[1] = {-1};
  RequestBuilder rb((*looped)->prepared().model());
  REQUIRE(rb.input(0, std::span<const std::int32_t>(start)).has_value());
  REQUIRE(rb.input(1, std::span<const std::int32_t>(limit)).has_value());
  REQUIRE(rb.output(0, std::span<std::int32_t>(counted)).has_value());
  REQUIRE(rb.ready().has_value());
  auto add_request = fx::add_request();

  ExecutionArgs<> args;
  args.measure = MeasureTiming::YES;
  SUBCASE("synchronous") {
    ExecutionResult result;
    add->execute(add_request.request, args, result);
    (*looped)->execute(rb.request(), args, result);
    REQUIRE(result.status.has_value());
    for (std::int32_t n : {7, 40, 0}) {
      limit[0] = n;
      CHECK(test::allocations_during([&] { (*looped)->execute(rb.request(), args, result); }) == 0);
      REQUIRE(result.status.has_value());
      CHECK(counted[0] == n);
      CHECK(test::allocations_during([&] { add->execute(add_request.request, args, result); }) == 0);
      REQUIRE(result.status.has_value());
      CHECK(md::output_of(add_request) == std::vector<float>{11.0f, 22.0f});
    }
  }
  SUBCASE("burst") {
    auto add_burst = add->configure_burst();
    auto loop_burst = (*looped)->configure_burst();
    REQUIRE(add_burst.has_value());
    REQUIRE(loop_burst.has_value());
    ExecutionResult add_result, loop_result;
    (*add_burst)->execute(add_request.request, args, add_result);
    (*loop_burst)->execute(rb.request(), args, loop_result);
    REQUIRE(loop_result.status.has_value());
    for (std::int32_t n : {7, 40, 0}) {
      limit[0] = n;
      CHECK(test::allocations_during([&] { (*loop_burst)->execute(rb.request(), args, loop_result); }) == 0);
      REQUIRE(loop_result.status.has_value());
      CHECK(counted[0] == n);
      REQUIRE(loop_result.output_shapes.size() == 1);
      CHECK(loop_result.output_shapes[0].dimensions == std::vector<std::uint32_t>{1});
      CHECK(test::allocations_during([&] { (*add_burst)->execute(add_request.request, args, add_result); }) == 0);
      REQUIRE(add_result.status.has_value());
      CHECK(md::output_of(add_request) == std::vector<float>{11.0f, 22.0f});
    }
  }
}

TEST_CASE("modes: driver-managed buffers allocated by the device carry results between executions") {
  Device<> device;
  auto pm = md::prepare_add(device);
  const std::shared_ptr<DevicePreparedModel<>> models[] = {pm};
  const BufferRole out_role[] = {{0, 0, 1.0f}};
  const BufferRole in_role[] = {{0, 0, 1.0f}};
  auto buffer = device.allocate({}, models, in_role, out_role);
  REQUIRE(buffer.has_value());
  CHECK(buffer->token > 0);

  // Execution 1 writes the buffer: out = in0 + in1 = {11, 22}.
  auto r = fx::add_request();
  r.request.pools.push_back({{}, buffer->token});
  r.request.outputs[0].location = {1, 0, 0};
  REQUIRE(pm->execute(r.request).status.has_value());
  CHECK(buffer->buffer->initialized());
  // Execution 2 reads it as input 0: out = {11, 22} + {10, 20}.
  auto r2 = fx::add_request();
  r2.request.pools.push_back({{}, buffer->token});
  r2.request.inputs[0].location = {1, 0, 0};
  REQUIRE(pm->execute(r2.request).status.has_value());
  CHECK(md::output_of(r2) == std::vector<float>{21.0f, 42.0f});

  SUBCASE("a buffer of another device's prepared model is refused") {
    Device<> other;
    auto foreign = md::prepare_add(other);
    const std::shared_ptr<DevicePreparedModel<>> theirs[] = {foreign};
    CHECK(device.allocate({}, theirs, in_role, {}).error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("an unknown token is INVALID_ARGUMENT") {
    auto r3 = fx::add_request();
    r3.request.pools.push_back({{}, buffer->token + 1000});
    r3.request.inputs[0].location = {1, 0, 0};
    CHECK(pm->execute(r3.request).error_status() == ErrorStatus::INVALID_ARGUMENT);
  }
}
