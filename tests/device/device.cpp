// Device (IDevice) end to end: identity and capabilities, the supported-operations query and
// prepare under a driver's SupportPolicy, prepare from cache, and every documented error path
// of prepare and of synchronous execution.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "control/control_flow_models.hpp"
#include "support/counting_allocator.hpp"
#include "nnhal/device/device.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::device {
namespace fx = nnhal::test::malformed;
using namespace std::chrono_literals;

/// The floats of the output of add_request() ([16, 24) of its pool).
inline std::vector<float> add_output(const fx::RequestFixture& r) {
  std::vector<float> out(2);
  std::memcpy(out.data(), r.pool_data(0) + 16, 8);
  return out;
}

inline std::string message_of(const Status& s) { return s ? std::string() : std::string(s.error().c_str()); }

/// add_model() with an IF around it: main IF(cond, then = ADD branch, else = SUB branch).
inline fx::ModelFixture if_model() { return fx::if_model(); }
}  // namespace nnhal::test::device

using namespace nnhal;
namespace dt = nnhal::test::device;
namespace fx = nnhal::test::malformed;
using namespace std::chrono_literals;

TEST_CASE("device: identity, capabilities and cache file counts are constants") {
  Device<> device;
  CHECK(device.status() == DeviceStatus::AVAILABLE);
  CHECK(device.type() == DeviceType::CPU);
  CHECK(device.feature_level() == HalVersion::V1_3);
  CHECK_FALSE(device.version_string().empty());
  CHECK(device.supported_extensions().empty());
  CHECK(device.cache_files_needed() == std::pair<std::uint32_t, std::uint32_t>{kModelCacheFiles, kDataCacheFiles});
  const Capabilities a = device.capabilities();
  const Capabilities b = Device<>().capabilities();
  CHECK(check_capabilities(a).has_value());
  REQUIRE(a.operandPerformance.size() == b.operandPerformance.size());
  for (std::size_t i = 0; i < a.operandPerformance.size(); ++i) {
    CHECK(a.operandPerformance[i].type == b.operandPerformance[i].type);
    CHECK(a.operandPerformance[i].info.execTime == b.operandPerformance[i].info.execTime);
  }
  CHECK(a.whilePerformance.execTime == b.whilePerformance.execTime);
}

TEST_CASE("device: supported operations follow the driver's policy, IF only with its branches") {
  auto f = fx::if_model();
  {
    Device<> device;
    auto flags = device.supported_operations(f.model);
    REQUIRE(flags.has_value());
    CHECK(*flags == std::vector<bool>{true});
  }
  SUBCASE("an operation excluded inside a branch makes the IF unsupported") {
    DeviceOptions<> options;
    options.policy.exclude(OperationType::MUL);  // the else branch
    Device<> device(options);
    auto flags = device.supported_operations(f.model);
    REQUIRE(flags.has_value());
    CHECK(*flags == std::vector<bool>{false});
    auto prepared = device.prepare(f.model);
    REQUIRE_FALSE(prepared.has_value());
    CHECK(prepared.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(std::string(prepared.error().c_str()).find("referenced[1] operation 0 (MUL)") != std::string::npos);
  }
  SUBCASE("IF itself excluded") {
    DeviceOptions<> options;
    options.policy.exclude(OperationType::IF);
    Device<> device(options);
    CHECK(*device.supported_operations(f.model) == std::vector<bool>{false});
  }
  SUBCASE("by operand type") {
    DeviceOptions<> options;
    options.policy.exclude(OperandType::TENSOR_FLOAT32);
    Device<> device(options);
    CHECK(*device.supported_operations(fx::add_model().model) == std::vector<bool>{false});
  }
  SUBCASE("excluding a code outside the HAL 1.3 tables changes nothing (regression: it threw)") {
    SupportPolicy policy;
    policy.exclude(static_cast<OperationType>(102))
        .exclude(static_cast<OperationType>(0x10000))
        .exclude(static_cast<OperationType>(-1))
        .exclude(static_cast<OperandType>(16))
        .exclude(static_cast<OperandType>(0x10001))
        .exclude(OperandType::TENSOR_OEM_BYTE);
    CHECK(policy.operations.all());
    CHECK(policy.operand_types.all());
    DeviceOptions<> options;
    options.policy = policy;
    Device<> device(options);
    CHECK(*device.supported_operations(fx::add_model().model) == std::vector<bool>{true});
  }
  SUBCASE("by a predicate over the operation's parameters") {
    DeviceOptions<> options;
    // Only ADD whose first input has 2 elements: add_chain_model's two ADDs qualify.
    options.policy.predicate = [](const OperationView& op) {
      return op.operation.type != OperationType::ADD || op.input(0).dimensions == nnhal::Vector<std::uint32_t>{2};
    };
    Device<> device(options);
    CHECK(*device.supported_operations(fx::add_chain_model().model) == std::vector<bool>{true, true});
    options.policy.predicate = [](const OperationView& op) { return op.input(0).lifetime != OperandLifeTime::TEMPORARY_VARIABLE; };
    Device<> picky(options);
    CHECK(*picky.supported_operations(fx::add_chain_model().model) == std::vector<bool>{true, false});
  }
  SUBCASE("by a memory limit") {
    DeviceOptions<> options;
    options.policy.memory_limit = 16;  // ADD on [2] floats touches 8 + 8 + 4 + 8 bytes
    Device<> device(options);
    CHECK(*device.supported_operations(fx::add_model().model) == std::vector<bool>{false});
    options.policy.memory_limit = 28;
    Device<> roomy(options);
    CHECK(*roomy.supported_operations(fx::add_model().model) == std::vector<bool>{true});
  }
}

TEST_CASE("device: the supported-operations query and prepare reject an invalid model") {
  Device<> device;
  auto f = fx::add_model();
  f.model.main.operations[0].inputs[0] = 99;
  auto flags = device.supported_operations(f.model);
  REQUIRE_FALSE(flags.has_value());
  CHECK(flags.error().status() == ErrorStatus::INVALID_ARGUMENT);
  auto prepared = device.prepare(f.model);
  REQUIRE_FALSE(prepared.has_value());
  CHECK(prepared.error().status() == ErrorStatus::INVALID_ARGUMENT);
}

TEST_CASE("device: prepare checks its arguments and its deadline") {
  ManualClock clock(1ms);
  clock.advance(5ms);
  Device<ManualClock> device(DeviceOptions<ManualClock>{"manual", {}, 1, clock});
  auto f = fx::add_model();
  PrepareArgs<ManualClock> args;
  args.preference = static_cast<ExecutionPreference>(7);
  CHECK(device.prepare(f.model, args).error().status() == ErrorStatus::INVALID_ARGUMENT);
  args = {};
  args.priority = static_cast<Priority>(-1);
  CHECK(device.prepare(f.model, args).error().status() == ErrorStatus::INVALID_ARGUMENT);
  args = {};
  args.deadline = ManualClock::time_point{};  // the device's clock reads 5 ms and more
  auto late = device.prepare(f.model, args);
  REQUIRE_FALSE(late.has_value());
  CHECK(late.error().status() == ErrorStatus::MISSED_DEADLINE_PERSISTENT);
  args.deadline = ManualClock::time_point{1h};
  args.preference = ExecutionPreference::SUSTAINED_SPEED;
  args.priority = Priority::HIGH;
  auto ok = device.prepare(f.model, args);
  REQUIRE(ok.has_value());
  CHECK((*ok)->settings().preference == ExecutionPreference::SUSTAINED_SPEED);
  CHECK((*ok)->settings().priority == Priority::HIGH);
}

TEST_CASE("device: prepare refuses a model whose execution memory exceeds the policy's limit") {
  // t1..t4 = x + x are all alive when y = t1 + t2 and z = t3 + t4 run: the arena needs at least
  // four [4] float tensors (64 bytes) while no operation touches more than 3 * 16 + 4 bytes.
  ModelBuilder b;
  constexpr auto F = OperandType::TENSOR_FLOAT32;
  const OperandSpec four{{4}};
  const auto x = b.input<F>(four);
  const auto act = b.scalar<OperandType::INT32>(0);
  const auto t1 = b.operation<OperationType::ADD, F>(four, x, x, act);
  const auto t2 = b.operation<OperationType::ADD, F>(four, x, x, act);
  const auto t3 = b.operation<OperationType::ADD, F>(four, x, x, act);
  const auto t4 = b.operation<OperationType::ADD, F>(four, x, x, act);
  const auto y = b.operation<OperationType::ADD, F>(four, t1, t2, act);
  const auto z = b.operation<OperationType::ADD, F>(four, t3, t4, act);
  b.output(b.operation<OperationType::ADD, F>(four, y, z, act));
  const Model model = std::move(b).model();

  DeviceOptions<> options;
  options.policy.memory_limit = 3 * 16 + 4;
  Device<> device(options);
  const auto flags = device.supported_operations(model);
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>(7, true));
  auto prepared = device.prepare(model);
  REQUIRE_FALSE(prepared.has_value());
  CHECK(prepared.error().status() == ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  options.policy.memory_limit = 3 * 16 + 3;  // now every operation is over the limit
  Device<> tighter(options);
  CHECK(*tighter.supported_operations(model) == std::vector<bool>(7, false));
  CHECK(tighter.prepare(model).error().status() == ErrorStatus::INVALID_ARGUMENT);
}

TEST_CASE("device: a prepared model caches itself and comes back from the cache") {
  Device<> device;
  auto f = fx::constant_reference_model();
  MemoryCacheFile model_file, data_file;
  CacheFile* model_files[] = {&model_file};
  CacheFile* data_files[] = {&data_file};
  PrepareArgs<> args;
  args.model_cache = model_files;
  args.data_cache = data_files;
  args.token[0] = 42;
  REQUIRE(device.prepare(f.model, args).has_value());
  REQUIRE_FALSE(model_file.bytes().empty());
  REQUIRE_FALSE(data_file.bytes().empty());
  f.storage.clear();  // the original pool is gone: the cached model owns its constants

  auto restored = device.prepare_from_cache({}, model_files, data_files, args.token);
  REQUIRE_MESSAGE(restored.has_value(), std::string(restored ? "" : restored.error().c_str()));
  auto r = fx::one_in_one_out_request();
  const ExecutionResult result = (*restored)->execute(r.request);
  REQUIRE(result.status.has_value());
  float out[2];
  std::memcpy(out, r.pool_data(0) + 8, 8);
  CHECK(out[0] == 2.0f);  // 1 + 1
  CHECK(out[1] == 4.0f);  // 2 + 2

  SUBCASE("a corrupted model cache is rejected") {
    model_file.bytes()[model_file.bytes().size() / 2] ^= std::byte{1};
    auto bad = device.prepare_from_cache({}, model_files, data_files, args.token);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().status() == ErrorStatus::GENERAL_FAILURE);
  }
  SUBCASE("a truncated data cache is rejected") {
    data_file.bytes().pop_back();
    CHECK(device.prepare_from_cache({}, model_files, data_files, args.token).error().status() ==
          ErrorStatus::GENERAL_FAILURE);
  }
  SUBCASE("another token is rejected") {
    CacheToken other = args.token;
    other[31] = 7;
    CHECK(device.prepare_from_cache({}, model_files, data_files, other).error().status() ==
          ErrorStatus::GENERAL_FAILURE);
  }
  SUBCASE("wrong numbers of files are INVALID_ARGUMENT") {
    CHECK(device.prepare_from_cache({}, {}, data_files, args.token).error().status() ==
          ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("wrong numbers of files when preparing only mean no cache") {
    MemoryCacheFile other_model, other_data;
    CacheFile* two[] = {&other_model, &other_model};
    CacheFile* one[] = {&other_data};
    PrepareArgs<> odd;
    odd.model_cache = two;
    odd.data_cache = one;
    REQUIRE(device.prepare(fx::add_model().model, odd).has_value());
    CHECK(other_model.bytes().empty());
    CHECK(other_data.bytes().empty());
  }
}

TEST_CASE("device: synchronous execution, its results, timing and every documented error") {
  Device<> device;
  auto f = fx::add_model();
  auto prepared = device.prepare(f.model);
  REQUIRE(prepared.has_value());
  auto& pm = **prepared;

  auto r = fx::add_request();
  ExecutionArgs<> args;
  ExecutionResult ok = pm.execute(r.request, args);
  REQUIRE(ok.status.has_value());
  CHECK(dt::add_output(r) == std::vector<float>{11.0f, 22.0f});
  CHECK(ok.timing.timeOnDevice == UINT64_MAX);  // not asked for
  CHECK(ok.timing.timeInDriver == UINT64_MAX);
  REQUIRE(ok.output_shapes.size() == 1);
  CHECK(ok.output_shapes[0].dimensions == std::vector<std::uint32_t>{2});
  CHECK(ok.output_shapes[0].isSufficient);

  args.measure = MeasureTiming::YES;
  ExecutionResult timed = pm.execute(r.request, args);
  REQUIRE(timed.status.has_value());
  CHECK(timed.timing.timeOnDevice != UINT64_MAX);
  CHECK(timed.timing.timeInDriver != UINT64_MAX);
  CHECK(timed.timing.timeOnDevice <= timed.timing.timeInDriver);

  SUBCASE("invalid request: INVALID_ARGUMENT, no shapes, no timing") {
    r.request.inputs.pop_back();
    ExecutionResult bad = pm.execute(r.request, args);
    REQUIRE_FALSE(bad.status.has_value());
    CHECK(bad.error_status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(bad.output_shapes.empty());
    CHECK(bad.timing.timeInDriver == UINT64_MAX);
  }
  SUBCASE("output buffer too small: OUTPUT_INSUFFICIENT_SIZE with the shape needed") {
    auto small = fx::add_request();
    small.request.outputs[0].location.length = 4;
    ExecutionResult res = pm.execute(small.request, args);
    CHECK(res.error_status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    REQUIRE(res.output_shapes.size() == 1);
    CHECK_FALSE(res.output_shapes[0].isSufficient);
    CHECK(res.output_shapes[0].dimensions == std::vector<std::uint32_t>{2});
    CHECK(res.timing.timeInDriver == UINT64_MAX);
  }
  SUBCASE("deadline already passed: MISSED_DEADLINE_PERSISTENT") {
    args.deadline = SteadyClock::time_point{};
    ExecutionResult late = pm.execute(r.request, args);
    CHECK(late.error_status() == ErrorStatus::MISSED_DEADLINE_PERSISTENT);
    CHECK(late.output_shapes.empty());
    CHECK(late.timing.timeOnDevice == UINT64_MAX);
  }
}

TEST_CASE("device: executing into a reused ExecutionResult allocates nothing after the first execution") {
  Device<> device;
  auto f = fx::add_model();
  auto prepared = device.prepare(f.model);
  REQUIRE(prepared.has_value());
  auto r = fx::add_request();
  ExecutionArgs<> args;
  args.measure = MeasureTiming::YES;
  ExecutionResult result;
  (*prepared)->execute(r.request, args, result);
  REQUIRE(result.status.has_value());
  for (int run = 0; run < 3; ++run) {
    CHECK(test::allocations_during([&] { (*prepared)->execute(r.request, args, result); }) == 0);
    REQUIRE(result.status.has_value());
    CHECK(dt::add_output(r) == std::vector<float>{11.0f, 22.0f});
    REQUIRE(result.output_shapes.size() == 1);
    CHECK(result.output_shapes[0].dimensions == std::vector<std::uint32_t>{2});
    CHECK(result.timing.timeOnDevice != UINT64_MAX);
  }
  // A failure leaves no stale shapes or timing behind.
  auto bad = fx::add_request();
  bad.request.inputs.clear();
  (*prepared)->execute(bad.request, args, result);
  CHECK(result.error_status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(result.output_shapes.empty());
  CHECK(result.timing.timeOnDevice == UINT64_MAX);
}

TEST_CASE("device: the loop timeout ends an endless WHILE, deterministically with a manual clock") {
  Device<ManualClock> device(DeviceOptions<ManualClock>{"manual", {}, 1, ManualClock(1ms)});
  auto prepared = device.prepare(test::cf::while_counter_model());
  REQUIRE(prepared.has_value());
  std::int32_t io[3] = {0, 1'000'000'000, -1};
  Request q;
  q.pools.push_back({{reinterpret_cast<std::byte*>(io), sizeof io}, 0});
  q.inputs = {{false, {0, 0, 4}, {}}, {false, {0, 4, 4}, {}}};
  q.outputs = {{false, {0, 8, 4}, {}}};
  ExecutionArgs<ManualClock> args;
  args.loop_timeout = 20ms;
  args.measure = MeasureTiming::YES;
  ExecutionResult r = (*prepared)->execute(q, args);
  CHECK(r.error_status() == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  CHECK(r.output_shapes.empty());
  CHECK(r.timing.timeOnDevice == UINT64_MAX);
  // A deadline reached while the loop runs (long before its timeout): MISSED_DEADLINE_TRANSIENT.
  ExecutionArgs<ManualClock> with_deadline;
  with_deadline.deadline = ManualClock::time_point{std::chrono::nanoseconds(1s)};  // loop timeout 2 s
  r = (*prepared)->execute(q, with_deadline);
  CHECK(r.error_status() == ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  io[1] = 5;
  r = (*prepared)->execute(q, args);
  REQUIRE(r.status.has_value());
  CHECK(io[2] == 5);
  // Every clock reading moves the manual clock on by 1 ms, so the timings are whole ms.
  CHECK(r.timing.timeOnDevice % 1000 == 0);
  CHECK(r.timing.timeOnDevice < r.timing.timeInDriver);
}

TEST_CASE("device: idle execution memory is released on request") {
  Device<> device;
  auto prepared = device.prepare(fx::add_model().model);
  REQUIRE(prepared.has_value());
  CHECK((*prepared)->cached_contexts() == 0);  // prepare reserves no execution memory
  auto r = fx::add_request();
  REQUIRE((*prepared)->execute(r.request).status.has_value());
  CHECK((*prepared)->cached_contexts() == 1);
  REQUIRE((*prepared)->execute(r.request).status.has_value());
  CHECK((*prepared)->cached_contexts() == 1);  // reused, not grown
  (*prepared)->release_idle_memory();
  CHECK((*prepared)->cached_contexts() == 0);
  REQUIRE((*prepared)->execute(r.request).status.has_value());
  CHECK(dt::add_output(r) == std::vector<float>{11.0f, 22.0f});
}

TEST_CASE("device: a prepared model left idle gives its execution memory back after its period") {
  Device<> device;
  PrepareArgs<> args;
  args.idle_release = std::chrono::milliseconds(1);
  auto prepared = device.prepare(fx::add_model().model, args);
  REQUIRE(prepared.has_value());
  auto r = fx::add_request();
  REQUIRE((*prepared)->execute(r.request).status.has_value());
  // The device's housekeeping thread releases it within about 1.5 periods; wait for it without
  // asserting on any duration (the bound only keeps a broken build from hanging).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while ((*prepared)->cached_contexts() != 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK((*prepared)->cached_contexts() == 0);
  REQUIRE((*prepared)->execute(r.request).status.has_value());  // and it runs again as before
  CHECK(dt::add_output(r) == std::vector<float>{11.0f, 22.0f});
}
