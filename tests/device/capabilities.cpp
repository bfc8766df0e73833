// Tests of include/nnhal/device/capabilities.hpp: the checked-in calibrated capabilities, the
// self-check, the down-conversions to older HAL shapes and the runtime's cost model.

#include "nnhal/device/capabilities.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "control/control_flow_models.hpp"
#include "nnhal/builder/builder.hpp"

namespace nnhal::test::caps {

/// Every operand type that a HAL 1.3 operandPerformance lists, in order: all but SUBGRAPH.
std::vector<OperandType> listed_types() {
  std::vector<OperandType> v;
  for (std::int32_t t = 0; t < kOperandTypeCount; ++t)
    if (static_cast<OperandType>(t) != OperandType::SUBGRAPH)
      v.push_back(static_cast<OperandType>(t));
  v.push_back(OperandType::OEM);
  v.push_back(OperandType::TENSOR_OEM_BYTE);
  return v;
}

bool same(const PerformanceInfo& a, const PerformanceInfo& b) {
  return a.execTime == b.execTime && a.powerUsage == b.powerUsage;
}

bool same(const Capabilities& a, const Capabilities& b) {
  if (!same(a.relaxedFloat32toFloat16PerformanceScalar,
            b.relaxedFloat32toFloat16PerformanceScalar) ||
      !same(a.relaxedFloat32toFloat16PerformanceTensor,
            b.relaxedFloat32toFloat16PerformanceTensor) ||
      !same(a.ifPerformance, b.ifPerformance) || !same(a.whilePerformance, b.whilePerformance) ||
      a.operandPerformance.size() != b.operandPerformance.size())
    return false;
  for (std::size_t i = 0; i < a.operandPerformance.size(); ++i)
    if (a.operandPerformance[i].type != b.operandPerformance[i].type ||
        !same(a.operandPerformance[i].info, b.operandPerformance[i].info))
      return false;
  return true;
}

/// Capabilities whose figures all differ, so a conversion that picks the wrong one shows.
Capabilities distinct_capabilities() {
  Capabilities c;
  c.relaxedFloat32toFloat16PerformanceScalar = {0.25f, 0.5f};
  c.relaxedFloat32toFloat16PerformanceTensor = {0.75f, 0.125f};
  c.ifPerformance = {2.5f, 3.5f};
  c.whilePerformance = {4.5f, 5.5f};
  float k = 1.0f;
  for (OperandType t : listed_types()) {
    c.operandPerformance.push_back({t, {k, 100.0f + k}});
    k += 1.0f;
  }
  return c;
}

/// The entry of `type`, found by a plain scan (independent of performance_of).
const OperandPerformance* entry(const Capabilities& c, OperandType type) {
  for (const OperandPerformance& p : c.operandPerformance)
    if (p.type == type) return &p;
  return nullptr;
}

/// Checks that `r` failed with INVALID_ARGUMENT and a message containing `word`.
void expect_rejected(const Status& r, const char* word) {
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().status() == ErrorStatus::INVALID_ARGUMENT);
  INFO(r.error().c_str());
  CHECK(r.error().message().find(word) != std::string_view::npos);
}

/// main(a, b) = ADD(a, b) on TENSOR_FLOAT32 [4], optionally relaxed.
Model float_add_model(bool relax) {
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;
  ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto act = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, F32>({{4}}, x, y, act));
  b.relax_float32_to_float16(relax);
  return std::move(b).model();
}

/// main(i) = ADD(CAST(i) to float, CAST(i) to float): one TENSOR_INT32 and one TENSOR_FLOAT32
/// operation.
Model cast_then_add_model() {
  constexpr auto F32 = OperandType::TENSOR_FLOAT32, I32 = OperandType::TENSOR_INT32;
  ModelBuilder b;
  const auto i = b.input<I32>({{4}});
  const auto f = b.operation<OperationType::CAST, F32>({{4}}, i);
  const auto act = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, F32>({{4}}, f, f, act));
  return std::move(b).model();
}

/// Figures as doubles, for computing expected costs in the tests.
struct Sum {
  double exec = 0.0, power = 0.0;
};
Sum operator+(Sum a, const PerformanceInfo& p) {
  return {a.exec + p.execTime, a.power + p.powerUsage};
}

void check_cost(const Expected<PerformanceInfo>& got, Sum want) {
  REQUIRE(got.has_value());
  CHECK(got->execTime == doctest::Approx(want.exec));
  CHECK(got->powerUsage == doctest::Approx(want.power));
}

TEST_CASE("capabilities: the checked-in CPU capabilities pass the self-check") {
  const Status s = check_capabilities(cpu_capabilities());
  INFO((s ? "" : s.error().c_str()));
  CHECK(s.has_value());
}

TEST_CASE("capabilities: every operand type but SUBGRAPH has exactly one entry") {
  const Capabilities c = cpu_capabilities();
  const std::vector<OperandType> types = listed_types();
  CHECK(c.operandPerformance.size() == types.size());
  for (OperandType t : types) {
    std::size_t n = 0;
    for (const OperandPerformance& p : c.operandPerformance) n += p.type == t ? 1 : 0;
    INFO(to_string(t));
    CHECK(n == 1);
  }
  CHECK(entry(c, OperandType::SUBGRAPH) == nullptr);
}

TEST_CASE("capabilities: cpu_capabilities returns the same values on every call") {
  const Capabilities a = cpu_capabilities();
  const Capabilities b = cpu_capabilities();
  CHECK(same(a, b));
  CHECK(same(a, calibrated_capabilities()));
}

TEST_CASE(
    "capabilities: performance_of finds entries and reports absent types "
    "as FLT_MAX") {
  Capabilities c = distinct_capabilities();
  for (OperandType t : listed_types()) CHECK(same(performance_of(c, t), entry(c, t)->info));
  const PerformanceInfo absent = performance_of(c, OperandType::SUBGRAPH);
  CHECK(absent.execTime == FLT_MAX);
  CHECK(absent.powerUsage == FLT_MAX);
  c.operandPerformance.clear();
  CHECK(performance_of(c, OperandType::TENSOR_FLOAT32).execTime == FLT_MAX);
}

TEST_CASE("capabilities: down-conversions pick the HAL 1.0 / 1.1 / 1.2 entries") {
  for (const Capabilities& c : {distinct_capabilities(), cpu_capabilities()}) {
    const CapabilitiesV1_0 v0 = convert_to_v1_0(c);
    CHECK(same(v0.float32Performance, entry(c, OperandType::TENSOR_FLOAT32)->info));
    CHECK(same(v0.quantized8Performance, entry(c, OperandType::TENSOR_QUANT8_ASYMM)->info));

    const CapabilitiesV1_1 v1 = convert_to_v1_1(c);
    CHECK(same(v1.float32Performance, v0.float32Performance));
    CHECK(same(v1.quantized8Performance, v0.quantized8Performance));
    CHECK(same(v1.relaxedFloat32toFloat16Performance, c.relaxedFloat32toFloat16PerformanceTensor));

    const CapabilitiesV1_2 v2 = convert_to_v1_2(c);
    CHECK(same(v2.relaxedFloat32toFloat16PerformanceScalar,
               c.relaxedFloat32toFloat16PerformanceScalar));
    CHECK(same(v2.relaxedFloat32toFloat16PerformanceTensor,
               c.relaxedFloat32toFloat16PerformanceTensor));
    std::vector<OperandPerformance> want;
    for (const OperandPerformance& p : c.operandPerformance)
      if (p.type != OperandType::TENSOR_QUANT8_ASYMM_SIGNED) want.push_back(p);
    REQUIRE(v2.operandPerformance.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK(v2.operandPerformance[i].type == want[i].type);
      CHECK(same(v2.operandPerformance[i].info, want[i].info));
    }
  }
  // The distinct figures make sure relaxed tensor, not relaxed scalar, went to 1.1.
  const Capabilities d = distinct_capabilities();
  CHECK_FALSE(same(convert_to_v1_1(d).relaxedFloat32toFloat16Performance,
                   d.relaxedFloat32toFloat16PerformanceScalar));
}

TEST_CASE(
    "capabilities: 1.0 conversion of capabilities without the entries "
    "gives FLT_MAX") {
  Capabilities c = distinct_capabilities();
  std::erase_if(c.operandPerformance, [](const OperandPerformance& p) {
    return p.type == OperandType::TENSOR_FLOAT32 || p.type == OperandType::TENSOR_QUANT8_ASYMM;
  });
  const CapabilitiesV1_0 v0 = convert_to_v1_0(c);
  CHECK(v0.float32Performance.execTime == FLT_MAX);
  CHECK(v0.quantized8Performance.powerUsage == FLT_MAX);
}

TEST_CASE(
    "capabilities: check_capabilities accepts valid tables, FLT_MAX "
    "figures and an empty list") {
  CHECK(check_capabilities(distinct_capabilities()).has_value());
  Capabilities c = distinct_capabilities();
  c.ifPerformance = kPerformanceAbsent;
  c.operandPerformance[0].info = kPerformanceAbsent;
  CHECK(check_capabilities(c).has_value());
  c.operandPerformance.clear();
  CHECK(check_capabilities(c).has_value());
}

TEST_CASE("capabilities: check_capabilities rejects malformed tables") {
  Capabilities c = distinct_capabilities();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();

  SUBCASE("unsorted") {
    std::swap(c.operandPerformance[2], c.operandPerformance[3]);
    expect_rejected(check_capabilities(c), "sorted");
  }
  SUBCASE("duplicate") {
    c.operandPerformance.insert(c.operandPerformance.begin() + 4, c.operandPerformance[4]);
    expect_rejected(check_capabilities(c), "strictly increasing");
  }
  SUBCASE("SUBGRAPH") {
    const auto at =
        std::find_if(c.operandPerformance.begin(), c.operandPerformance.end(),
                     [](const OperandPerformance& p) { return p.type == OperandType::OEM; });
    c.operandPerformance.insert(at, OperandPerformance{OperandType::SUBGRAPH, {1.0f, 1.0f}});
    expect_rejected(check_capabilities(c), "SUBGRAPH");
  }
  SUBCASE("not an operand type") {
    c.operandPerformance.insert(c.operandPerformance.end() - 2,
                                OperandPerformance{static_cast<OperandType>(16), {1.0f, 1.0f}});
    expect_rejected(check_capabilities(c), "not an operand type");
  }
  SUBCASE("zero execTime") {
    c.operandPerformance[5].info.execTime = 0.0f;
    expect_rejected(check_capabilities(c), "operandPerformance[5] (TENSOR_QUANT8_ASYMM): execTime");
  }
  SUBCASE("negative powerUsage") {
    c.operandPerformance[1].info.powerUsage = -1.0f;
    expect_rejected(check_capabilities(c), "operandPerformance[1] (INT32): powerUsage");
  }
  SUBCASE("NaN execTime") {
    c.operandPerformance[0].info.execTime = nan;
    expect_rejected(check_capabilities(c), "(FLOAT32): execTime");
  }
  SUBCASE("infinite powerUsage") {
    c.operandPerformance.back().info.powerUsage = inf;
    expect_rejected(check_capabilities(c), "TENSOR_OEM_BYTE");
  }
  SUBCASE("zero relaxed scalar") {
    c.relaxedFloat32toFloat16PerformanceScalar.execTime = 0.0f;
    expect_rejected(check_capabilities(c), "relaxedFloat32toFloat16PerformanceScalar");
  }
  SUBCASE("NaN relaxed tensor") {
    c.relaxedFloat32toFloat16PerformanceTensor.powerUsage = nan;
    expect_rejected(check_capabilities(c), "relaxedFloat32toFloat16PerformanceTensor");
  }
  SUBCASE("negative ifPerformance") {
    c.ifPerformance.execTime = -0.5f;
    expect_rejected(check_capabilities(c), "ifPerformance");
  }
  SUBCASE("zero whilePerformance") {
    c.whilePerformance.powerUsage = 0.0f;
    expect_rejected(check_capabilities(c), "whilePerformance");
  }
}

TEST_CASE("capabilities: cost of an ordinary operation is its first input's figure") {
  for (const Capabilities& c : {distinct_capabilities(), cpu_capabilities()}) {
    const Model plain = float_add_model(false);
    check_cost(model_cost(c, plain), Sum{} + performance_of(c, OperandType::TENSOR_FLOAT32));
    check_cost(operation_cost(c, plain, plain.main, plain.main.operations[0]),
               Sum{} + performance_of(c, OperandType::TENSOR_FLOAT32));
    const Model relaxed = float_add_model(true);
    check_cost(model_cost(c, relaxed), Sum{} + c.relaxedFloat32toFloat16PerformanceTensor);
    const Model two = cast_then_add_model();
    check_cost(model_cost(c, two), Sum{} + performance_of(c, OperandType::TENSOR_INT32) +
                                       performance_of(c, OperandType::TENSOR_FLOAT32));
  }
}

TEST_CASE(
    "capabilities: a FLOAT32 scalar first input costs the relaxed scalar figure when relaxed") {
  // Not a valid model (no operation takes a scalar first), but the cost model only reads types.
  Model m;
  m.main.operands.push_back(Operand{});  // FLOAT32 scalar
  m.main.operations.push_back(Operation{OperationType::ADD, {0}, {}});
  for (const Capabilities& c : {distinct_capabilities(), cpu_capabilities()}) {
    m.relaxComputationFloat32toFloat16 = false;
    check_cost(model_cost(c, m), Sum{} + performance_of(c, OperandType::FLOAT32));
    m.relaxComputationFloat32toFloat16 = true;
    check_cost(model_cost(c, m), Sum{} + c.relaxedFloat32toFloat16PerformanceScalar);
  }
}

TEST_CASE("capabilities: cost of IF and WHILE follows the runtime's formula") {
  for (const Capabilities& c : {distinct_capabilities(), cpu_capabilities()}) {
    const PerformanceInfo i32 = performance_of(c, OperandType::TENSOR_INT32);
    // if_model: then = ADD, else = SUB, both on TENSOR_INT32.
    const Model m_if = cf::if_model();
    const Sum branches = Sum{} + i32 + i32;
    check_cost(model_cost(c, m_if), Sum{c.ifPerformance.execTime + 0.5 * branches.exec,
                                        c.ifPerformance.powerUsage + 0.5 * branches.power});
    // while_counter_model: cond = LESS, body = ADD, both on TENSOR_INT32.
    const Model m_while = cf::while_counter_model();
    check_cost(model_cost(c, m_while), Sum{} + c.whilePerformance + i32 + i32);
    check_cost(subgraph_cost(c, m_while, m_while.referenced[0]), Sum{} + i32);
  }
}

TEST_CASE("capabilities: cost of a subgraph referenced twice and of absent types") {
  const Capabilities c = distinct_capabilities();
  Model m = cf::if_model();
  // Point the else branch at the then branch: cost = if + 0.5 * 2 * cost(then).
  for (Operand& op : m.main.operands)
    if (op.type == OperandType::SUBGRAPH) op.location.offset = 0;
  const PerformanceInfo i32 = performance_of(c, OperandType::TENSOR_INT32);
  check_cost(model_cost(c, m), Sum{} + c.ifPerformance + i32);

  Capabilities no_int = c;
  std::erase_if(no_int.operandPerformance,
                [](const OperandPerformance& p) { return p.type == OperandType::TENSOR_INT32; });
  const auto saturated = model_cost(no_int, cf::while_counter_model());
  REQUIRE(saturated.has_value());
  CHECK(saturated->execTime == FLT_MAX);
  CHECK(saturated->powerUsage == FLT_MAX);
}

TEST_CASE("capabilities: cost model rejects broken control-flow references") {
  const Capabilities c = distinct_capabilities();
  SUBCASE("subgraph index out of range") {
    Model m = cf::if_model();
    for (Operand& op : m.main.operands)
      if (op.type == OperandType::SUBGRAPH) op.location.offset = 7;
    const auto r = model_cost(c, m);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().status() == ErrorStatus::INVALID_ARGUMENT);
    CHECK(r.error().message().find("referenced subgraph 7") != std::string_view::npos);
  }
  SUBCASE("a subgraph that refers to itself") {
    Model m = cf::if_model();
    // referenced[0] becomes a copy of main, whose IF names referenced[0] again.
    m.referenced[0] = m.main;
    const auto r = model_cost(c, m);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message().find("refers back to itself") != std::string_view::npos);
  }
  SUBCASE("an operation without inputs") {
    Model m = float_add_model(false);
    m.main.operations[0].inputs.clear();
    const auto r = model_cost(c, m);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message().find("operations[0]") != std::string_view::npos);
  }
}

}  // namespace nnhal::test::caps
