// HAL version compliance (nnhal/validate/compliance.hpp): the minimum version, the reasons an
// older version does not suffice, and the per-operation versions used for partitioning.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "control/control_flow_models.hpp"
#include "nnhal/validate/compliance.hpp"

using namespace nnhal;

namespace {
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto F16 = OperandType::TENSOR_FLOAT16;
constexpr auto QS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

/// main: t = ADD(x, y) (1.0); out = ABS(t) (1.2).
Model add_then_abs() {
  ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  const auto t = b.operation<OperationType::ADD, F32>({{4}}, x, y, none);
  b.output(b.operation<OperationType::ABS, F32>({{4}}, t));
  return std::move(b).model();
}
}  // namespace

TEST_CASE("compliance: a HAL 1.0 model complies with every version and has no reasons") {
  ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, F32>({{4}}, x, y, none));
  const Model model = std::move(b).model();
  auto report = check_compliance(model);
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_0);
  CHECK(report->complies_with(HalVersion::V1_0));
  CHECK(report->reasons.empty());
  CHECK(report->main_operations == std::vector<HalVersion>{HalVersion::V1_0});
  CHECK(check_complies_with(model, HalVersion::V1_0).has_value());
}

TEST_CASE("compliance: an operation new in 1.2 is named, and only it is noncompliant with 1.1") {
  const Model model = add_then_abs();
  auto report = check_compliance(model);
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_2);
  CHECK_FALSE(report->complies_with(HalVersion::V1_1));
  CHECK(report->main_operations == std::vector<HalVersion>{HalVersion::V1_0, HalVersion::V1_2});
  CHECK(report->noncompliant_operations(HalVersion::V1_1) == std::vector<std::uint32_t>{1});
  CHECK(report->noncompliant_operations(HalVersion::V1_2).empty());
  const auto above = report->above(HalVersion::V1_1);
  REQUIRE(above.size() == 1);
  CHECK(above[0]->kind == VersionReason::Kind::Operation);
  CHECK(above[0]->index == 1);
  CHECK(above[0]->message == "main operation 1 (ABS) needs HAL 1.2: ABS exists since HAL 1.2");

  const Status st = check_complies_with(model, HalVersion::V1_0);
  REQUIRE_FALSE(st.has_value());
  CHECK(st.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(has(st.error().message(), "needs HAL 1.2, not HAL 1.0"));
  CHECK(has(st.error().message(), "operation 1 (ABS)"));
  CHECK(check_complies_with(model, HalVersion::V1_2).has_value());
}

TEST_CASE("compliance: a signature newer than its operation names the operand types") {
  ModelBuilder b;
  const auto x = b.input<F16>({{4}});
  const auto y = b.input<F16>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, F16>({{4}}, x, y, none));
  auto report = check_compliance(std::move(b).model());
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_2);
  CHECK(report->main_operations == std::vector<HalVersion>{HalVersion::V1_2});
  bool operation_named = false, operand_named = false;
  for (const VersionReason& r : report->reasons) {
    if (r.kind == VersionReason::Kind::Operation)
      operation_named = r.message == "main operation 0 (ADD) needs HAL 1.2: ADD with inputs (TENSOR_FLOAT16, "
                                     "TENSOR_FLOAT16, INT32) -> outputs (TENSOR_FLOAT16) exists since HAL 1.2";
    if (r.kind == VersionReason::Kind::Operand && r.index == 0)
      operand_named = has(r.message, "main operand 0 (TENSOR_FLOAT16) needs HAL 1.2: TENSOR_FLOAT16 exists since HAL 1.2");
  }
  CHECK(operation_named);
  CHECK(operand_named);
}

TEST_CASE("compliance: an operand of unknown rank needs 1.2, and so does the operation using it") {
  ModelBuilder b;
  const auto x = b.input<F32>({});  // unknown rank
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, F32>({{4}}, x, y, none));
  auto report = check_compliance(std::move(b).model());
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_2);
  CHECK(report->main_operations == std::vector<HalVersion>{HalVersion::V1_2});
  REQUIRE(report->reasons.size() == 1);
  CHECK(report->reasons[0].message == "main operand 0 (TENSOR_FLOAT32) needs HAL 1.2: a tensor of unknown rank needs HAL 1.2");
}

TEST_CASE("compliance: signed quantization is 1.3; reasons come newest first") {
  ModelBuilder b;
  const auto x = b.input<QS8>({{4}, 0.5f, 0});
  const auto y = b.input<F32>({{4}});
  b.output(b.operation<OperationType::ABS, F32>({{4}}, y));
  b.output(b.operation<OperationType::RELU, QS8>({{4}, 0.5f, 0}, x));
  auto report = check_compliance(std::move(b).model());
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_3);
  CHECK(report->main_operations == std::vector<HalVersion>{HalVersion::V1_2, HalVersion::V1_3});
  REQUIRE_FALSE(report->reasons.empty());
  CHECK(report->reasons.front().version == HalVersion::V1_3);
  CHECK(report->reasons.back().version == HalVersion::V1_2);
  CHECK(report->noncompliant_operations(HalVersion::V1_2) == std::vector<std::uint32_t>{1});
}

TEST_CASE("compliance: control flow needs 1.3 for the operation that references it") {
  const Model model = nnhal::test::cf::while_counter_model();
  auto report = check_compliance(model);
  REQUIRE(report.has_value());
  CHECK(report->minimum == HalVersion::V1_3);
  CHECK(report->main_operations == std::vector<HalVersion>{HalVersion::V1_3});
  bool subgraphs = false, loop = false;
  for (const VersionReason& r : report->reasons) {
    subgraphs = subgraphs || (r.kind == VersionReason::Kind::Subgraphs && has(r.message, "2 referenced subgraph(s)"));
    loop = loop || r.message == "main operation 0 (WHILE) needs HAL 1.3: control flow (WHILE) exists since HAL 1.3";
  }
  CHECK(subgraphs);
  CHECK(loop);
}

TEST_CASE("compliance: an invalid model gets the validation error") {
  Model model = add_then_abs();
  model.main.operations[1].inputs[0] = 77;
  auto report = check_compliance(model);
  REQUIRE_FALSE(report.has_value());
  CHECK(report.error().status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(has(report.error().message(), "operation 1 (ABS)"));
  CHECK_FALSE(check_complies_with(model, HalVersion::V1_3).has_value());
}
