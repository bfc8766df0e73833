// Vendor extensions (include/nnhal/interface/extension.hpp, nnhal/kernels/extension.hpp):
// the model's extensionNameToPrefix is validated; extension operand and operation codes are
// valid only when the model maps their prefix to a registered extension that defines them (and
// then their row's signatures and rule apply); a kernel set's extension operations are
// supported, prepared and run like built-in ones; models without extensions are unchanged.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "interface/extension_fixture.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/util/trace.hpp"
#include "nnhal/validate/compliance.hpp"
#include "support/counting_allocator.hpp"
#include "support/run_model.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_interface_extension {

using namespace nnhal;
using namespace nnhal::test::ext;

namespace {

std::string message_of(const Expected<HalVersion>& v) { return v ? std::string() : std::string(v.error().c_str()); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Validates `m` with the extensions of Set and requires INVALID_ARGUMENT; returns the message.
std::string rejected(const Model& m) {
  auto v = validate_model<Set>(m);
  REQUIRE_FALSE(v.has_value());
  CHECK(v.error().status() == ErrorStatus::INVALID_ARGUMENT);
  return v.error().c_str();
}

}  // namespace

TEST_CASE("extension codes: prefix in the high 16 bits, type within the extension in the low 16") {
  static_assert(extension_code(1, 0) == 0x10000);
  static_assert(extension_prefix(0x7FFF0003) == 0x7FFF && type_within_extension(0x7FFF0003) == 3);
  static_assert(is_extension(static_cast<OperationType>(0x10000)) && !is_extension(OperationType::OEM_OPERATION));
  static_assert(is_extension(static_cast<OperandType>(0x10001)) && !is_extension(OperandType::TENSOR_OEM_BYTE));
  CHECK(is_valid_extension_name("com.example.fused_gelu"));
  CHECK(is_valid_extension_name("a.b_2"));
  CHECK_FALSE(is_valid_extension_name("nodot"));
  CHECK_FALSE(is_valid_extension_name("com.Example"));
  CHECK_FALSE(is_valid_extension_name("com-example.x"));
  CHECK_FALSE(is_valid_extension_name(""));
}

TEST_CASE("a kernel set's extensions are in its table, in order; sets without any have none") {
  const KernelTable& with = kernel_table<Set>();
  REQUIRE(with.extensions.size() == 2);
  CHECK(with.extensions[0]->name == "com.example.test_ops");
  CHECK(with.extensions[1]->name == "com.example.other_ops");
  CHECK(with.extensions[0]->operations.size() == 4);
  CHECK(with.extensions[0]->operation(0)->kernel != nullptr);
  CHECK(with.extensions[0]->operation(1)->kernel != nullptr);
  CHECK(with.extensions[0]->operation(3)->kernel == nullptr);  // OPAQUE: no kernels
  CHECK(with.extensions[0]->operation(4) == nullptr);
  CHECK(with.extensions[0]->operand_type(1)->byteSize == 8);
  CHECK(with.extensions[0]->operand_type(2) == nullptr);
  CHECK(kernel_table<BuiltinOnly>().extensions.empty());
  // Built-in entries keep their kernels beside the extensions.
  CHECK(with.contains(OperationType::ADD));
  CHECK(with.contains(OperationType::MUL));
  CHECK_FALSE(with.contains(OperationType::SUB));
}

TEST_CASE("validation accepts a registered extension operation at any prefix, as HAL 1.2") {
  for (std::uint16_t prefix : {std::uint16_t{1}, std::uint16_t{7}, std::uint16_t{0x7FFF}}) {
    CAPTURE(prefix);
    auto v = validate_model<Set>(gelu_model(prefix));
    REQUIRE_MESSAGE(v.has_value(), message_of(v));
    CHECK(*v == HalVersion::V1_2);
  }
  auto chain = validate_model<Set>(chain_model());
  REQUIRE_MESSAGE(chain.has_value(), message_of(chain));
  CHECK(*chain == HalVersion::V1_2);
  // Through ValidationOptions, as a driver with its own list would.
  ValidationOptions options;
  options.extensions = kernel_table<Set>().extensions;
  CHECK(validate_model(chain_model(), options).has_value());
}

TEST_CASE("validation rejects extension operations without a registered extension, naming the operation") {
  SUBCASE("no extensions registered: validate_model on its own") {
    auto v = validate_model(chain_model());
    REQUIRE_FALSE(v.has_value());
    CHECK(v.error().status() == ErrorStatus::INVALID_ARGUMENT);
    const std::string m = v.error().c_str();
    CHECK(has(m, "operation 1: extension operation 0x10000 (prefix 1, com.example.test_ops) has no registered extension"));
    CHECK(validate_model<BuiltinOnly>(chain_model()).error().status() == ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("the prefix is not in the model's map") {
    const std::string m = rejected(chain_model(extension_code(2, 0), {{std::string(kTestOps), 1}}));
    CHECK(has(m, "operation 1: extension operation 0x20000 (prefix 2) has no registered extension"));
    CHECK(has(m, "extensionNameToPrefix"));
  }
  SUBCASE("the map names an extension that is not registered") {
    const std::string m = rejected(chain_model(extension_code(1, 0), {{"com.example.unknown", 1}}));
    CHECK(has(m, "operation 1: extension operation 0x10000 (prefix 1, com.example.unknown) has no registered extension"));
  }
  SUBCASE("an operation type the registered extension does not define") {
    const std::string m = rejected(chain_model(extension_code(1, 5), {{std::string(kTestOps), 1}}));
    CHECK(has(m, "operation 1: extension operation 0x10005: extension com.example.test_ops defines no operation 5"));
  }
}

TEST_CASE("an extension operation's row applies: its signatures and its rule") {
  SUBCASE("no signature accepts TENSOR_INT32") {
    const Model m = unary_model(extension_code(1, 0), operand(OperandType::TENSOR_INT32, {}, 1),
                                operand(OperandType::TENSOR_INT32, {}, 0));
    CHECK(has(rejected(m), "operation 0 (GELU): no signature accepts inputs (TENSOR_INT32)"));
  }
  SUBCASE("the rule: rank above 4") {
    const Model m =
        unary_model(extension_code(1, 0), operand(F32, {}, 1, {1, 1, 1, 1, 4}), operand(F32, {}, 0, {1, 1, 1, 1, 4}));
    CHECK(has(rejected(m), "operation 0 (GELU): input rank 5 is above 4"));
  }
  SUBCASE("a local operand type in a signature means the extension's type at the model's prefix") {
    const Operand ext_in = operand(static_cast<OperandType>(extension_code(3, 0)), {}, 1);
    auto v = validate_model<Set>(unary_model(extension_code(3, 1), ext_in, operand(F32, {}, 0), 3));
    REQUIRE_MESSAGE(v.has_value(), message_of(v));
    CHECK(*v == HalVersion::V1_2);
    // The built-in type with the local code's value is not the extension's type.
    const Operand builtin = operand(static_cast<OperandType>(kExtensionLocalBase), {}, 1);
    CHECK(validate_model<Set>(unary_model(extension_code(3, 1), builtin, operand(F32, {}, 0), 3)).error().status() ==
          ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE("extensionNameToPrefix: valid names, unique names and prefixes, prefix below 32768") {
  Model m = chain_model();
  SUBCASE("duplicate names") {
    m.extensionNameToPrefix.push_back({std::string(kTestOps), 2});
    CHECK(has(rejected(m), "extensionNameToPrefix[1]: name com.example.test_ops is also entry 0"));
  }
  SUBCASE("duplicate prefixes") {
    m.extensionNameToPrefix.push_back({"com.example.other_ops", 1});
    CHECK(has(rejected(m), "extensionNameToPrefix[1] (com.example.other_ops): prefix 1 is also the prefix of com.example.test_ops"));
  }
  SUBCASE("bad names") {
    for (const char* name : {"nodot", "com.Example.ops", "com.example-ops", ""}) {
      CAPTURE(name);
      m.extensionNameToPrefix = {{std::string(kTestOps), 1}, {name, 2}};
      CHECK(has(rejected(m), "extensionNameToPrefix[1]: \"" + std::string(name) + "\" is not a valid extension name"));
    }
  }
  SUBCASE("a map of 32768 entries: the first entry that repeats a name or a prefix, in order") {
    // Checked by sorting, not by comparing every pair (an untrusted map may be long). 32767
    // entries and the repeating one: exactly Limits::max_extension_entries.
    m.extensionNameToPrefix.clear();
    for (std::uint16_t p = 0; p < 32767; ++p)
      m.extensionNameToPrefix.push_back({"com.example.ops" + std::to_string(32767 - p), p});
    auto named = m;
    named.extensionNameToPrefix.push_back({"com.example.ops32762", 9});  // entry 5's name, entry 9's prefix
    REQUIRE(named.extensionNameToPrefix.size() == Limits{}.max_extension_entries);
    CHECK(has(rejected(named), "extensionNameToPrefix[32767]: name com.example.ops32762 is also entry 5"));
    auto prefixed = m;
    prefixed.extensionNameToPrefix.push_back({"com.example.ops32758", 3});  // entry 9's name, entry 3's prefix
    CHECK(has(rejected(prefixed),
              "extensionNameToPrefix[32767] (com.example.ops32758): prefix 3 is also the prefix of com.example.ops32764"));
  }
  SUBCASE("prefix 32768") {
    m.extensionNameToPrefix.push_back({"com.example.other_ops", 0x8000});
    CHECK(has(rejected(m), "extensionNameToPrefix[1] (com.example.other_ops): prefix 32768 is above 32767"));
  }
  SUBCASE("a map alone makes a built-in model HAL 1.2") {
    Model builtin = chain_model();
    builtin.main.operations[1].type = OperationType::RELU;
    auto plain = validate_model(builtin);  // no extension code left
    REQUIRE_MESSAGE(plain.has_value(), message_of(plain));
    CHECK(*plain == HalVersion::V1_2);
    builtin.extensionNameToPrefix.clear();
    CHECK(*validate_model(builtin) == HalVersion::V1_0);
  }
}

TEST_CASE("extension operand types: defined by the registered extension, scale and zeroPoint 0") {
  const auto ext_type = [](std::uint16_t prefix, std::uint16_t type) {
    return static_cast<OperandType>(extension_code(prefix, type));
  };
  const auto widen = [](Operand in) { return unary_model(extension_code(1, 1), std::move(in), operand(F32, {}, 0)); };
  SUBCASE("accepted") {
    auto v = validate_model<Set>(widen(operand(ext_type(1, 0), {}, 1)));
    REQUIRE_MESSAGE(v.has_value(), message_of(v));
    CHECK(*v == HalVersion::V1_2);
  }
  SUBCASE("a type the extension does not define") {
    CHECK(has(rejected(widen(operand(ext_type(1, 7), {}, 1))),
              "operand 0: extension operand type 0x10007: extension com.example.test_ops defines no operand type 7"));
  }
  SUBCASE("a prefix the model does not map") {
    CHECK(has(rejected(widen(operand(ext_type(4, 0), {}, 1))),
              "operand 0: extension operand type 0x40000 (prefix 4) has no registered extension"));
  }
  SUBCASE("a non-zero scale or zeroPoint") {
    Operand scaled = operand(ext_type(1, 0), {}, 1);
    scaled.scale = 0.5f;
    CHECK(has(rejected(widen(scaled)), "operand 0: extension operand type 0x10000 requires scale 0 and zeroPoint 0"));
    Operand shifted = operand(ext_type(1, 0), {}, 1);
    shifted.zeroPoint = 3;
    CHECK(has(rejected(widen(shifted)), "requires scale 0 and zeroPoint 0, got 0 and 3"));
  }
  SUBCASE("a scalar type with dimensions") {
    CHECK(has(rejected(widen(operand(ext_type(1, 1), {}, 1, {2}))),
              "scalar extension operand type 0x10001 has 1 dimensions"));
  }
  SUBCASE("a constant's length follows the registered byte size") {
    Model m = widen(operand(ext_type(1, 0), {}, 1, {3}));
    m.main.operands[0].lifetime = OperandLifeTime::CONSTANT_COPY;
    m.main.inputIndexes.clear();
    m.operandValues.assign(8, 0);
    m.main.operands[0].location = {0, 0, 6};  // 3 elements of 2 bytes
    auto v = validate_model<Set>(m);
    CHECK_MESSAGE(v.has_value(), message_of(v));
    m.main.operands[0].location = {0, 0, 8};
    CHECK(has(rejected(m), "constant length 8 differs from its data size 6"));
  }
}

TEST_CASE("supported operations: registered extension operations with kernels are supported") {
  auto flags = supported_operations<Set>(chain_model());
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>{true, true, true});
  // Without the extension the model is invalid, so the query fails as validation does.
  auto without = supported_operations<BuiltinOnly>(chain_model());
  REQUIRE_FALSE(without.has_value());
  CHECK(without.error().status() == ErrorStatus::INVALID_ARGUMENT);
  // Operations of the extension's own operand types.
  auto round_trip = supported_operations<Set>(round_trip_model());
  REQUIRE(round_trip.has_value());
  CHECK(*round_trip == std::vector<bool>{true, true});
  // OPAQUE has no kernels: valid but unsupported, and refused at prepare by name.
  const auto bf16 = static_cast<OperandType>(extension_code(1, 0));
  const Model opaque = unary_model(extension_code(1, 3), operand(bf16, {}, 1), operand(bf16, {}, 0));
  REQUIRE(validate_model<Set>(opaque).has_value());
  auto opaque_flags = supported_operations<Set>(opaque);
  REQUIRE(opaque_flags.has_value());
  CHECK(*opaque_flags == std::vector<bool>{false});
  auto refused = PreparedModel::prepare<Set>(opaque);
  REQUIRE_FALSE(refused.has_value());
  CHECK(has(refused.error().c_str(), "operation 0 (OPAQUE) has no kernel"));
}

TEST_CASE("operands of an extension's types are sized by its registration: request arguments and temporaries") {
  const std::vector<float> x{1.0f, -2.5f, 3.14159f, 1.0e-3f};
  SUBCASE("a temporary between NARROW and WIDEN") {
    const auto r = nnhal::test::run_model<Set>(round_trip_model(), {nnhal::test::arg_of<float>(x)},
                                               {nnhal::test::output_of(16)});
    REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
    CHECK(r.guards_intact);
    const std::vector<float> got = r.output<float>(0);
    REQUIRE(got.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) CHECK(got[i] == from_bf16(to_bf16(x[i])));
  }
  std::vector<std::uint16_t> bf16(4);
  for (std::size_t i = 0; i < 4; ++i) bf16[i] = to_bf16(x[i]);
  const Model widen = unary_model(extension_code(1, 1), operand(static_cast<OperandType>(extension_code(1, 0)), {}, 1),
                                  operand(F32, {}, 0));
  SUBCASE("a request input of the extension's type: 4 elements of 2 bytes") {
    const auto r = nnhal::test::run_model<Set>(widen, {nnhal::test::arg_of<std::uint16_t>(bf16)},
                                               {nnhal::test::output_of(16)});
    REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
    for (std::size_t i = 0; i < 4; ++i) CHECK(r.output<float>(0)[i] == from_bf16(bf16[i]));
  }
  SUBCASE("a request input shorter than its registered size") {
    bf16.pop_back();
    const auto r = nnhal::test::run_model<Set>(widen, {nnhal::test::arg_of<std::uint16_t>(bf16)},
                                               {nnhal::test::output_of(16)});
    REQUIRE_FALSE(r.status.has_value());
    CHECK(r.status.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(has(r.status.error().c_str(), "input 0: buffer of 6 bytes is smaller than the 8 bytes of its data"));
  }
}

TEST_CASE("an extension operation is prepared and run between built-in ones") {
  const ChainData d;
  const auto r = nnhal::test::run_model<Set>(
      chain_model(), {nnhal::test::arg_of<float>(d.x), nnhal::test::arg_of<float>(d.y), nnhal::test::arg_of<float>(d.z)},
      {nnhal::test::output_of(16)});
  REQUIRE_MESSAGE(r.status.has_value(), std::string(r.status ? "" : r.status.error().c_str()));
  CHECK(r.guards_intact);
  const std::vector<float> got = r.output<float>(0), want = d.expected();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-6));

  SUBCASE("at another prefix") {
    ChainRequest q(d);
    auto prepared = PreparedModel::prepare<Set>(chain_model(extension_code(9, 0), {{std::string(kTestOps), 9}}));
    REQUIRE(prepared.has_value());
    auto execution = prepared->create_execution();
    REQUIRE(execution.has_value());
    REQUIRE(execution->run(q.request).has_value());
    CHECK(q.output() == got);
  }
  SUBCASE("refused at prepare without the extension, naming the operation") {
    auto refused = PreparedModel::prepare<OtherOnly>(chain_model());
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(has(refused.error().c_str(), "operation 1: extension operation 0x10000"));
  }
}

TEST_CASE("built-in models are unchanged by a kernel set with extensions") {
  Model builtin = chain_model();
  builtin.main.operations[1].type = OperationType::ADD;
  builtin.main.operations[1].inputs = {3, 3, 2};
  builtin.main.operands[3].numberOfConsumers = 2;
  builtin.main.operands[2].numberOfConsumers = 3;
  builtin.extensionNameToPrefix.clear();
  CHECK(*validate_model(builtin) == *validate_model<Set>(builtin));
  CHECK(*validate_model(builtin) == HalVersion::V1_0);
  const ChainData d;
  const std::vector<nnhal::test::Arg> in = {nnhal::test::arg_of<float>(d.x), nnhal::test::arg_of<float>(d.y),
                                            nnhal::test::arg_of<float>(d.z)};
  const auto with = nnhal::test::run_model<Set>(builtin, in, {nnhal::test::output_of(16)});
  const auto without = nnhal::test::run_model<BuiltinOnly>(builtin, in, {nnhal::test::output_of(16)});
  REQUIRE(with.status.has_value());
  REQUIRE(without.status.has_value());
  CHECK(with.output<float>(0) == without.output<float>(0));
  for (std::size_t i = 0; i < 4; ++i)
    CHECK(with.output<float>(0)[i] == doctest::Approx(2 * (d.x[i] + d.y[i]) * d.z[i]).epsilon(1e-6));
}

TEST_CASE("compliance: the extension map and extension operations explain HAL 1.2") {
  ValidationOptions options;
  options.extensions = kernel_table<Set>().extensions;
  auto report = check_compliance(chain_model(), options);
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_2);
  bool map = false, operation = false;
  for (const VersionReason& r : report->reasons) {
    map = map || (r.kind == VersionReason::Kind::Extensions && has(r.message, "extensionNameToPrefix"));
    operation = operation || (r.kind == VersionReason::Kind::Operation && r.index == 1 &&
                              has(r.message, "extension operation 0x10000: extensions exist since HAL 1.2"));
  }
  CHECK(map);
  CHECK(operation);
  CHECK_FALSE(check_complies_with(chain_model(), HalVersion::V1_1, options).has_value());
  CHECK(check_complies_with(chain_model(), HalVersion::V1_2, options).has_value());
}

namespace {
/// Keeps the names of node spans.
struct NodeNames final : TraceSink {
  std::vector<std::string> names;
  std::int64_t now_ns() noexcept override { return 0; }
  void span(const Span& s) noexcept override {
    if (s.kind == SpanKind::Node) names.emplace_back(s.name);
  }
};
}  // namespace

TEST_CASE("a trace names an extension node by its row") {
  auto prepared = PreparedModel::prepare<Set>(chain_model());
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  ChainRequest q{ChainData{}};
  NodeNames sink;
  ExecuteOptions<> options;
  options.trace = &sink;
  REQUIRE(execution->run(q.request, options).has_value());
  CHECK(sink.names == std::vector<std::string>{"ADD", "GELU", "MUL"});
}

TEST_CASE("running extension operations and operands allocates nothing") {
  auto prepared = PreparedModel::prepare<Set>(round_trip_model());
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  std::vector<float> pool{1.0f, -2.5f, 3.14159f, 1.0e-3f, 0, 0, 0, 0};
  Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
  request.inputs = {{false, {0, 0, 16}, {}}};
  request.outputs = {{false, {0, 16, 16}, {}}};
  REQUIRE(execution->run(request).has_value());
  CHECK(nnhal::test::allocations_during([&] { REQUIRE(execution->run(request).has_value()); }) == 0);
  for (std::size_t i = 0; i < 4; ++i) CHECK(pool[4 + i] == from_bf16(to_bf16(pool[i])));
}

}  // namespace test_interface_extension
