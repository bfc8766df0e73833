// A Device whose kernel set registers extensions (include/nnhal/device/device.hpp): it reports
// them (getSupportedExtensions), supports and runs their operations, and binds its compilation
// caches to them, so that a device with another extension set does not reuse a cache.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "interface/extension_fixture.hpp"
#include "nnhal/device/device.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_device_extension {

using namespace nnhal;
using namespace nnhal::test::ext;

namespace {
std::string message_of(const Status& s) { return s ? std::string() : std::string(s.error().c_str()); }

/// Runs chain_model()'s request on `prepared` and returns the output.
template <class P>
std::vector<float> run_chain(P& prepared, const ChainData& d) {
  ChainRequest q(d);
  const ExecutionResult r = prepared.execute(q.request);
  REQUIRE_MESSAGE(r.status.has_value(), message_of(r.status));
  return q.output();
}
}  // namespace

TEST_CASE("device: supported_extensions reports the kernel set's extensions and their operand types") {
  Device<SteadyClock, Set> device;
  const std::vector<Extension> found = device.supported_extensions();
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == TestOps::name);
  CHECK(found[1].name == OtherOps::name);
  REQUIRE(found[0].operandTypes.size() == TestOps::operand_types.size());
  for (std::size_t i = 0; i < TestOps::operand_types.size(); ++i) {
    CHECK(found[0].operandTypes[i].type == TestOps::operand_types[i].type);
    CHECK(found[0].operandTypes[i].isTensor == TestOps::operand_types[i].isTensor);
    CHECK(found[0].operandTypes[i].byteSize == TestOps::operand_types[i].byteSize);
  }
  REQUIRE(found[1].operandTypes.size() == 1);
  CHECK(found[1].operandTypes[0].byteSize == OtherOps::operand_types[0].byteSize);
  CHECK(Device<SteadyClock, BuiltinOnly>().supported_extensions().empty());
}

TEST_CASE("device: extension operations are supported, prepared and executed") {
  Device<SteadyClock, Set> device;
  auto flags = device.supported_operations(chain_model());
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>{true, true, true});

  auto prepared = device.prepare(chain_model());
  REQUIRE_MESSAGE(prepared.has_value(), std::string(prepared ? "" : prepared.error().c_str()));
  const ChainData d;
  const std::vector<float> got = run_chain(**prepared, d), want = d.expected();
  for (std::size_t i = 0; i < 4; ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-6));

  SUBCASE("a device without the extension finds the model invalid") {
    Device<SteadyClock, OtherOnly> other;
    auto other_flags = other.supported_operations(chain_model());
    REQUIRE_FALSE(other_flags.has_value());
    CHECK(other_flags.error().status() == ErrorStatus::INVALID_ARGUMENT);
    auto refused = other.prepare(chain_model());
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(std::string(refused.error().c_str()).find("operation 1: extension operation 0x10000") != std::string::npos);
  }
}

TEST_CASE("device: a cache keeps the extension map and is bound to the device's extensions") {
  MemoryCacheFile model_file, data_file;
  CacheFile* model_files[] = {&model_file};
  CacheFile* data_files[] = {&data_file};
  PrepareArgs<> args;
  args.model_cache = model_files;
  args.data_cache = data_files;
  args.token[0] = 7;
  const ChainData d;
  Device<SteadyClock, Set> device;
  auto prepared = device.prepare(chain_model(), args);
  REQUIRE(prepared.has_value());
  REQUIRE_FALSE(model_file.bytes().empty());

  auto restored = device.prepare_from_cache({}, model_files, data_files, args.token);
  REQUIRE_MESSAGE(restored.has_value(), std::string(restored ? "" : restored.error().c_str()));
  CHECK((*restored)->prepared().model().extensionNameToPrefix.size() == 1);
  CHECK((*restored)->prepared().model().extensionNameToPrefix[0].name == kTestOps);
  CHECK((*restored)->prepared().model().extensionNameToPrefix[0].prefix == 1);
  CHECK(run_chain(**restored, d) == run_chain(**prepared, d));

  SUBCASE("a device with another extension set does not reuse it") {
    Device<SteadyClock, OtherOnly> other;
    auto foreign = other.prepare_from_cache({}, model_files, data_files, args.token);
    REQUIRE_FALSE(foreign.has_value());
    CHECK(foreign.error().status() == ErrorStatus::GENERAL_FAILURE);
    CHECK(std::string(foreign.error().c_str()).find("fingerprint") != std::string::npos);
  }
  SUBCASE("nor one without extensions, even for a built-in model") {
    Model builtin = chain_model();
    builtin.main.operations[1] = {OperationType::ADD, {3, 3, 2}, {4}};
    builtin.main.operands[3].numberOfConsumers = 2;
    builtin.main.operands[2].numberOfConsumers = 3;
    builtin.extensionNameToPrefix.clear();
    REQUIRE(device.prepare(builtin, args).has_value());
    Device<SteadyClock, BuiltinOnly> plain;
    auto foreign = plain.prepare_from_cache({}, model_files, data_files, args.token);
    REQUIRE_FALSE(foreign.has_value());
    CHECK(foreign.error().status() == ErrorStatus::GENERAL_FAILURE);
    // Its own cache of that model it reads.
    REQUIRE(plain.prepare(builtin, args).has_value());
    CHECK(plain.prepare_from_cache({}, model_files, data_files, args.token).has_value());
  }
}

TEST_CASE("device: a policy can refuse extension operations") {
  DeviceOptions<> options;
  options.policy.extension_operations = false;
  Device<SteadyClock, Set> device(options);
  auto flags = device.supported_operations(chain_model());
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>{true, false, true});
  auto refused = device.prepare(chain_model());
  REQUIRE_FALSE(refused.has_value());
  CHECK(std::string(refused.error().c_str()).find("main operation 1 (GELU) is not supported by this device") !=
        std::string::npos);
}

TEST_CASE("device: operands of an extension's types are checked and run by their registered sizes") {
  Device<SteadyClock, Set> device;
  auto flags = device.supported_operations(round_trip_model());
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>{true, true});
  auto prepared = device.prepare(round_trip_model());
  REQUIRE_MESSAGE(prepared.has_value(), std::string(prepared ? "" : prepared.error().c_str()));
  std::vector<float> pool{1.0f, -2.5f, 3.14159f, 1.0e-3f, 0, 0, 0, 0};
  Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
  request.inputs = {{false, {0, 0, 16}, {}}};
  request.outputs = {{false, {0, 16, 16}, {}}};
  const ExecutionResult r = (*prepared)->execute(request);
  REQUIRE_MESSAGE(r.status.has_value(), message_of(r.status));
  for (std::size_t i = 0; i < 4; ++i) CHECK(pool[4 + i] == from_bf16(to_bf16(pool[i])));

  SUBCASE("a policy refusing extensions refuses their operand types too") {
    DeviceOptions<> options;
    options.policy.extension_operations = false;
    Device<SteadyClock, Set> strict(options);
    auto none = strict.supported_operations(round_trip_model());
    REQUIRE(none.has_value());
    CHECK(*none == std::vector<bool>{false, false});
  }
}

}  // namespace test_device_extension
