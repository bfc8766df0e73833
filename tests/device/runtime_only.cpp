// WHILE operands of unknown size (HAL13.md d.4 rule 4, c.1.1, e.3): a HAL 1.3 driver refuses
// them with INVALID_ARGUMENT from getSupportedOperations, prepare and prepareFromCache, which is
// what a default Device does; DeviceOptions::allow_runtime_only lets a framework-side
// interpreter run them. Every operand position of the rule, and the same loop with known sizes.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "nnhal/device/device.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::runtime_only {
namespace fx = nnhal::test::malformed;

/// A variant of fx::while_model() (x [1], limit [1] -> WHILE x < limit: x += 1) and the
/// fragments the strict device's message must contain.
struct Case {
  const char* name;
  std::function<void(Model&)> change;
  std::vector<std::string> facts;
};

std::vector<Case> cases() {
  return {
      {"condition input", [](Model& m) { m.referenced[0].operands[0].dimensions = {0}; },
       {"main", "operation 0 (WHILE)", "condition referenced[0] input 0 (operand 0)", "unknown size"}},
      {"body input", [](Model& m) { m.referenced[1].operands[0].dimensions = {0}; },
       {"main", "operation 0 (WHILE)", "body referenced[1] input 0 (operand 0)", "unknown size"}},
      {"body output", [](Model& m) { m.referenced[1].operands[4].dimensions = {0}; },
       {"main", "operation 0 (WHILE)", "body referenced[1] output 0 (operand 4)", "unknown size"}},
      {"WHILE output", [](Model& m) { m.main.operands[4].dimensions = {0}; },
       {"main", "operation 0 (WHILE)", "WHILE output 0 (operand 4)", "unknown size"}},
      {"unknown rank (an input-only WHILE input)", [](Model& m) { m.main.operands[1].dimensions.clear(); },
       {"main", "operation 0 (WHILE)", "WHILE input 3 (operand 1)", "unknown rank"}},
      {"a zero dimension (a carried WHILE input)", [](Model& m) { m.main.operands[0].dimensions = {0}; },
       {"main", "operation 0 (WHILE)", "WHILE input 2 (operand 0)", "dimension 0 is 0"}},
  };
}

/// Runs x = 0, limit = 5 and checks the loop counted to 5. Request dimensions are given, so
/// inputs of unknown size are fully specified.
void check_runs(DevicePreparedModel<>& pm) {
  fx::RequestFixture r;
  const std::uint32_t p = r.add_pool(12);
  const float in[2] = {0.0f, 5.0f};
  std::memcpy(r.pool_data(p), in, sizeof in);
  r.request.inputs = {fx::RequestFixture::arg(p, 0, 4, {1}), fx::RequestFixture::arg(p, 4, 4, {1})};
  r.request.outputs = {fx::RequestFixture::arg(p, 8, 4)};
  const ExecutionResult res = pm.execute(r.request);
  REQUIRE_MESSAGE(res.status.has_value(), std::string(res.status ? "" : res.status.error().c_str()));
  float out = 0;
  std::memcpy(&out, r.pool_data(p) + 8, 4);
  CHECK(out == 5.0f);
}

void check_refused(const Error& e, const std::vector<std::string>& facts) {
  CHECK(e.status() == ErrorStatus::INVALID_ARGUMENT);
  const std::string message(e.message());
  for (const std::string& fact : facts) {
    CAPTURE(fact);
    CHECK_MESSAGE(message.find(fact) != std::string::npos, message);
  }
}

Device<>& strict_device() {
  static Device<> d;
  return d;
}
Device<>& runtime_device() {
  static Device<> d([] {
    DeviceOptions<> o;
    o.allow_runtime_only = true;
    return o;
  }());
  return d;
}

}  // namespace nnhal::test::runtime_only

using namespace nnhal;
namespace ro = nnhal::test::runtime_only;
namespace fx = nnhal::test::malformed;

TEST_CASE("runtime-only: a default device is strict; the option accepts and runs the loop") {
  CHECK_FALSE(ro::strict_device().allows_runtime_only());
  CHECK(ro::runtime_device().allows_runtime_only());
  for (const ro::Case& c : ro::cases()) {
    const std::string name = c.name;
    CAPTURE(name);
    auto f = fx::while_model();
    c.change(f.model);

    // The strict device: INVALID_ARGUMENT at every entry, naming the WHILE, subgraph, operand.
    auto flags = ro::strict_device().supported_operations(f.model);
    REQUIRE_FALSE(flags.has_value());
    ro::check_refused(flags.error(), c.facts);
    auto prepared = ro::strict_device().prepare(f.model);
    REQUIRE_FALSE(prepared.has_value());
    ro::check_refused(prepared.error(), c.facts);

    // The option: supported, prepared and run.
    auto lenient = ro::runtime_device().supported_operations(f.model);
    REQUIRE(lenient.has_value());
    CHECK(*lenient == std::vector<bool>{true});
    MemoryCacheFile model_file, data_file;
    CacheFile* model_files[] = {&model_file};
    CacheFile* data_files[] = {&data_file};
    PrepareArgs<> args;
    args.model_cache = model_files;
    args.data_cache = data_files;
    args.token[0] = 4;
    auto ok = ro::runtime_device().prepare(f.model, args);
    REQUIRE_MESSAGE(ok.has_value(), std::string(ok ? "" : ok.error().c_str()));
    ro::check_runs(**ok);

    // A cache of such a model (written by the permissive device) is refused by the strict one
    // and accepted by the permissive one.
    auto from_cache = ro::strict_device().prepare_from_cache({}, model_files, data_files, args.token);
    REQUIRE_FALSE(from_cache.has_value());
    ro::check_refused(from_cache.error(), c.facts);
    CHECK(from_cache.error().message().find("prepareFromCache") != std::string_view::npos);
    auto restored = ro::runtime_device().prepare_from_cache({}, model_files, data_files, args.token);
    REQUIRE(restored.has_value());
    ro::check_runs(**restored);
  }
}

TEST_CASE("runtime-only: the same loop with every size known is accepted by both devices") {
  auto f = fx::while_model();
  for (Device<>* device : {&ro::strict_device(), &ro::runtime_device()}) {
    CAPTURE(device->allows_runtime_only());
    auto flags = device->supported_operations(f.model);
    REQUIRE(flags.has_value());
    CHECK(*flags == std::vector<bool>{true});
    auto prepared = device->prepare(f.model);
    REQUIRE(prepared.has_value());
    ro::check_runs(**prepared);
  }
}

TEST_CASE("runtime-only: the executor below the device holds the same rule, with the same option") {
  auto f = fx::while_model();
  f.model.referenced[1].operands[4].dimensions = {0};  // a body output of unknown size
  auto strict = PreparedModel::prepare(f.model);
  REQUIRE_FALSE(strict.has_value());
  ro::check_refused(strict.error(), {"body referenced[1] output 0 (operand 4)", "unknown size"});
  CHECK_FALSE(supported_operations(f.model).has_value());
  PrepareOptions options;
  options.validation.allow_runtime_only = true;
  CHECK(PreparedModel::prepare(f.model, options).has_value());
  CHECK(supported_operations(f.model, options.validation).has_value());
}
