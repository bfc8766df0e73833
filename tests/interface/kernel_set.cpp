// Kernel sets (include/nnhal/interface/kernel_set.hpp, nnhal/kernels/): what a set leaves out is
// unsupported and refused at prepare with an error naming it; a type-restricted entry runs only
// its types; a kernel's workspace comes from the execution's arena and its packed data from the
// plan.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "support/run_model.hpp"

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto Q8 = OperandType::TENSOR_QUANT8_ASYMM;

/// out = (x <first> y) <second> x over 4 elements of type T.
template <OperationType First, OperationType Second, OperandType T = F32>
nnhal::Model chain_model(float scale = 0.0f) {
  nnhal::ModelBuilder b;
  const nnhal::OperandSpec spec{{4}, scale, 0};
  const auto x = b.input<T>(spec);
  const auto y = b.input<T>(spec);
  const auto none = b.scalar<OperandType::INT32>(0);
  const auto t = b.operation<First, T>(spec, x, y, none);
  b.output(b.operation<Second, T>(spec, t, x, none));
  return std::move(b).model();
}

}  // namespace

TEST_CASE("an operation outside the kernel set is unsupported and refused at prepare, by name") {
  using AddOnly = nnhal::OpSet<OperationType::ADD>;
  const nnhal::Model model = chain_model<OperationType::MUL, OperationType::ADD>();
  auto flags = nnhal::supported_operations<AddOnly>(model);
  REQUIRE(flags.has_value());
  CHECK(*flags == std::vector<bool>{false, true});
  CHECK(*nnhal::supported_operations(model) == std::vector<bool>{true, true});  // every kernel

  auto prepared = nnhal::PreparedModel::prepare<AddOnly>(model);
  REQUIRE_FALSE(prepared.has_value());
  const std::string message = prepared.error().c_str();
  CHECK(message.find("MUL") != std::string::npos);
  CHECK(message.find("kernel set") != std::string::npos);
}

TEST_CASE("SetRowsOnly: preparation validates with the set's rows only, and still refuses the rest") {
  using AddRows = nnhal::KernelSet<nnhal::Use<OperationType::ADD, F32>, nnhal::SetRowsOnly>;
  const nnhal::KernelTable& table = nnhal::kernel_table<AddRows>();
  REQUIRE(table.rows != nullptr);
  CHECK_FALSE(table.rows->all);
  CHECK(table.rows->find(OperationType::ADD) == &nnhal::Row<OperationType::ADD>::info);
  CHECK(table.rows->find(OperationType::MUL) == nullptr);
  CHECK(nnhal::kernel_table<nnhal::OpSet<OperationType::ADD>>().rows == &nnhal::all_operation_rows());

  // In the set: validated against ADD's row and run.
  const nnhal::Model adds = chain_model<OperationType::ADD, OperationType::ADD>();
  const auto r = nnhal::test::run_model<AddRows>(
      adds, {nnhal::test::arg_of<float>({1, 2, 3, 4}), nnhal::test::arg_of<float>({10, 20, 30, 40})},
      {nnhal::test::output_of(16)});
  REQUIRE(r.status.has_value());
  CHECK(r.output<float>(0) == std::vector<float>{12, 24, 36, 48});

  // ADD's own rules still hold: a fused activation outside 0..3 is refused as with every row.
  nnhal::Model bad_activation = adds;
  const std::int32_t seven = 7;
  for (const nnhal::Operand& o : bad_activation.main.operands)
    if (o.type == OperandType::INT32) std::memcpy(bad_activation.operandValues.data() + o.location.offset, &seven, 4);
  auto refused = nnhal::PreparedModel::prepare<AddRows>(bad_activation);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(std::string(refused.error().c_str()).find("must be one of") != std::string::npos);

  // Outside the set: refused by name, whether or not the operation would pass its own row.
  const nnhal::Model with_mul = chain_model<OperationType::MUL, OperationType::ADD>();
  for (const nnhal::Model& m : {with_mul, [&] {
                                  nnhal::Model broken = with_mul;
                                  broken.main.operations[0].inputs.pop_back();  // MUL without activation
                                  return broken;
                                }()}) {
    auto prepared = nnhal::PreparedModel::prepare<AddRows>(m);
    REQUIRE_FALSE(prepared.has_value());
    CHECK(prepared.error().status() == nnhal::ErrorStatus::GENERAL_FAILURE);
    const std::string message = prepared.error().c_str();
    CHECK(message.find("operation 0 (MUL) is not in this program's kernel set") != std::string::npos);
    // validate_model<Set> reads the set's rows as preparation does, and says the same.
    auto validated = nnhal::validate_model<AddRows>(m);
    REQUIRE_FALSE(validated.has_value());
    CHECK(validated.error().status() == nnhal::ErrorStatus::GENERAL_FAILURE);
    CHECK(std::string(validated.error().c_str()) == message);
  }
  // validate_model itself reads every row: the broken MUL is INVALID_ARGUMENT there.
  nnhal::Model broken = with_mul;
  broken.main.operations[0].inputs.pop_back();
  CHECK(nnhal::validate_model(broken).error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  // In the set, validate_model<Set> gives what validate_model gives: the version, or ADD's rule.
  const auto version = nnhal::validate_model<AddRows>(adds);
  REQUIRE(version.has_value());
  CHECK(*version == *nnhal::validate_model(adds));
  auto bad = nnhal::validate_model<AddRows>(bad_activation);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(std::string(bad.error().c_str()) == nnhal::validate_model(bad_activation).error().c_str());
}

TEST_CASE("a type-restricted entry runs its types and reports the others unsupported") {
  using AddF32 = nnhal::KernelSet<nnhal::Use<OperationType::ADD, F32>>;
  const nnhal::Model f32 = chain_model<OperationType::ADD, OperationType::ADD>();
  const auto r = nnhal::test::run_model<AddF32>(
      f32, {nnhal::test::arg_of<float>({1, 2, 3, 4}), nnhal::test::arg_of<float>({10, 20, 30, 40})},
      {nnhal::test::output_of(16)});
  REQUIRE(r.status.has_value());
  CHECK(r.output<float>(0) == std::vector<float>{12, 24, 36, 48});

  const nnhal::Model q8 = chain_model<OperationType::ADD, OperationType::ADD, Q8>(0.5f);
  CHECK(*nnhal::supported_operations<AddF32>(q8) == std::vector<bool>{false, false});
  CHECK(*nnhal::supported_operations(q8) == std::vector<bool>{true, true});
  CHECK_FALSE(nnhal::PreparedModel::prepare<AddF32>(q8).has_value());
}

TEST_CASE("DIV's listed QUANT8_ASYMM_SIGNED gap is valid but unsupported") {
  nnhal::ModelBuilder b;
  constexpr auto QS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  const nnhal::OperandSpec spec{{4}, 0.5f, 0};
  const auto x = b.input<QS8>(spec);
  const auto none = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::DIV, QS8>(spec, x, x, none));
  const nnhal::Model model = std::move(b).model();
  auto flags = nnhal::supported_operations(model);
  REQUIRE(flags.has_value());  // valid: the reference validation accepts it
  CHECK(*flags == std::vector<bool>{false});
}

namespace {

/// A kernel family for ADD that uses a workspace and packed data: out = a + b + packed value.
/// It fills its whole workspace before reading its inputs, so a workspace that overlapped a
/// live tensor would corrupt the result.
struct ScratchAdd : nnhal::KernelFamily {
  static constexpr std::size_t kWorkspace = 4096;
  static constexpr std::array types{F32};
  static nnhal::Status infer(const nnhal::NodeIO& io) { return nnhal::Kernels<OperationType::ADD>::infer(io); }

  template <OperandType T>
  static nnhal::Expected<nnhal::KernelFn> select(const nnhal::NodeIO&, nnhal::KernelPrepare& prepare) {
    prepare.workspace_bytes = kWorkspace;
    if (std::byte* packed = prepare.pack(sizeof(float)); packed != nullptr) {
      const float bias = 100.0f;
      std::memcpy(packed, &bias, sizeof bias);
    }
    return &run;
  }

  static nnhal::Status run(const nnhal::NodeIO& io) {
    std::byte* ws = io.workspace();
    if (ws == nullptr || reinterpret_cast<std::uintptr_t>(ws) % 64 != 0)
      return NNHAL_FAILURE("workspace missing or misaligned");
    std::memset(ws, 0x7F, kWorkspace);
    float bias = 0;
    std::memcpy(&bias, io.packed(), sizeof bias);
    const auto a = io.in<F32>(0);
    const auto b = io.in<F32>(1);
    const auto o = io.out<F32>(0);
    for (std::size_t i = 0; i < o.size(); ++i) o[i] = a[i] + b[i] + bias;
    return {};
  }
};

}  // namespace

TEST_CASE("a kernel's workspace is planned into the arena and its packed data kept in the plan") {
  using Set = nnhal::KernelSet<nnhal::UseKernels<OperationType::ADD, ScratchAdd>>;
  const nnhal::Model model = chain_model<OperationType::ADD, OperationType::ADD>();
  auto prepared = nnhal::PreparedModel::prepare<Set>(model);
  REQUIRE(prepared.has_value());
  // The intermediate tensor (16 bytes, 64 aligned) and one workspace at a time.
  CHECK(prepared->arena_bytes() >= ScratchAdd::kWorkspace + 64);

  const auto r = nnhal::test::run_model<Set>(
      model, {nnhal::test::arg_of<float>({1, 2, 3, 4}), nnhal::test::arg_of<float>({10, 20, 30, 40})},
      {nnhal::test::output_of(16)});
  REQUIRE(r.status.has_value());
  // (x + y + 100) + x + 100
  CHECK(r.output<float>(0) == std::vector<float>{212, 224, 236, 248});
  CHECK(r.guards_intact);
}
