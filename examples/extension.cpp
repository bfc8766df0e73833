// A vendor extension: `com.example.fused_gelu` defines one operation, GELU over TENSOR_FLOAT32,
// written as nnhal's own operations are (a row and a kernel family). The program's kernel set
// names it beside ADD and MUL, and runs a model ADD -> GELU -> MUL in which GELU's code is the
// extension's: 0x10000 | 0, with the prefix 1 that the model maps to the extension's name.
// A model whose extension code leads to no registered extension is rejected with
// INVALID_ARGUMENT.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string_view>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/interface/extension.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/mul.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/model/request_builder.hpp"

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

// --- The extension -------------------------------------------------------------------------

/// GELU's row: one float tensor in, one of the same shape out, since HAL 1.2 (extensions need it).
struct GeluRow {
  static constexpr std::array<nnhal::Slot, 1> kInputs{{{"input", nnhal::Role::Data}}};
  static constexpr std::array<nnhal::Slot, 1> kOutputs{{{"output", nnhal::Role::Data}}};
  static constexpr std::array<nnhal::Signature, 1> kSignatures{
      nnhal::sig(nnhal::HalVersion::V1_2, {F32}, {F32})};
  static constexpr nnhal::OperationInfo info = nnhal::make_extension_row("GELU", {
      .inputs = kInputs,
      .outputs = kOutputs,
      .signatures = kSignatures,
      .flags = nnhal::kOpAllowsZeroSized,
  });
};

/// GELU's kernels: x * Phi(x), Phi the standard normal distribution function.
struct GeluKernels : nnhal::KernelFamily {
  static constexpr std::array types{F32};

  static nnhal::Status infer(const nnhal::NodeIO& io) {
    return nnhal::kernels::elementwise::infer_same_shape(io, "GELU");
  }

  static nnhal::Status run(const nnhal::NodeIO& io) {
    const auto n = static_cast<std::size_t>(io.input(0).dims.element_count());
    const float* x = io.in_data<F32>(0);
    float* y = io.out_data<F32>(0);
    for (std::size_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] / std::sqrt(2.0f)));
    return {};
  }

  template <OperandType T>
  static nnhal::Expected<nnhal::KernelFn> select(const nnhal::NodeIO&, nnhal::KernelPrepare&) {
    return &run;
  }
};

/// The extension: its name, operand types (none of its own) and operations.
struct FusedGelu {
  static constexpr std::string_view name = "com.example.fused_gelu";
  static constexpr std::array<nnhal::Extension::OperandTypeInformation, 0> operand_types{};
  using operations = nnhal::ExtensionOperations<nnhal::ExtensionOp<0, GeluRow, GeluKernels>>;
};

/// This program's kernels: ADD, MUL and the extension.
using Set = nnhal::KernelSet<nnhal::Use<OperationType::ADD, F32>, nnhal::Use<OperationType::MUL, F32>,
                             nnhal::UseExtension<FusedGelu>>;

// --- A model using it ----------------------------------------------------------------------

nnhal::Operand tensor(nnhal::OperandLifeTime lifetime, std::uint32_t consumers) {
  nnhal::Operand op;
  op.type = F32;
  op.dimensions = {4};
  op.lifetime = lifetime;
  op.numberOfConsumers = consumers;
  return op;
}

/// out = GELU(x + y) * z; GELU's code is `gelu_code`, and the model maps `prefix` to `extension`.
nnhal::Model gelu_model(std::int32_t gelu_code, std::string extension, std::uint16_t prefix) {
  using L = nnhal::OperandLifeTime;
  nnhal::Model m;
  nnhal::Operand none;
  none.type = OperandType::INT32;
  none.lifetime = L::CONSTANT_COPY;
  none.location = {0, 0, 4};
  none.numberOfConsumers = 2;
  m.operandValues.assign(4, 0);  // fused activation NONE
  m.main.operands = {tensor(L::SUBGRAPH_INPUT, 1),  tensor(L::SUBGRAPH_INPUT, 1),     none,
                     tensor(L::TEMPORARY_VARIABLE, 1), tensor(L::TEMPORARY_VARIABLE, 1),
                     tensor(L::SUBGRAPH_INPUT, 1),  tensor(L::SUBGRAPH_OUTPUT, 0)};
  m.main.operations = {{OperationType::ADD, {0, 1, 2}, {3}},
                       {static_cast<OperationType>(gelu_code), {3}, {4}},
                       {OperationType::MUL, {4, 5, 2}, {6}}};
  m.main.inputIndexes = {0, 1, 5};
  m.main.outputIndexes = {6};
  m.extensionNameToPrefix = {{std::move(extension), prefix}};
  return m;
}

}  // namespace

int main() {
  const std::int32_t gelu = nnhal::extension_code(1, 0);  // prefix 1, GELU = operation 0
  const nnhal::Model model = gelu_model(gelu, "com.example.fused_gelu", 1);
  auto prepared = nnhal::PreparedModel::prepare<Set>(model);
  if (!prepared) {
    std::printf("prepare failed: %s\n", prepared.error().c_str());
    return 1;
  }
  auto execution = prepared->create_execution();
  if (!execution) {
    std::printf("cannot create an execution: %s\n", execution.error().c_str());
    return 1;
  }
  const std::vector<float> x = {-2, -1, 0, 1}, y = {0, 0.5f, 0.5f, 1}, z = {2, 2, 2, 2};
  std::vector<float> out(4);
  nnhal::RequestBuilder request(model);  // inputs and output bound by position
  for (auto s : {request.input(0, std::span(x)), request.input(1, std::span(y)), request.input(2, std::span(z)),
                 request.output(0, std::span(out))}) {
    if (!s) {
      std::printf("cannot bind: %s\n", s.error().c_str());
      return 1;
    }
  }
  if (auto s = execution->run(request.request()); !s) {
    std::printf("execution failed: %s\n", s.error().c_str());
    return 1;
  }
  std::printf("HAL version %s; GELU(x + y) * z = [%.6f, %.6f, %.6f, %.6f]\n",
              std::string(nnhal::to_string(prepared->version())).c_str(), out[0], out[1], out[2], out[3]);

  // The same model, its GELU code's prefix mapped to an extension this program does not register.
  const nnhal::Model unknown = gelu_model(nnhal::extension_code(2, 0), "com.example.unknown_ops", 2);
  auto refused = nnhal::PreparedModel::prepare<Set>(unknown);
  if (refused) {
    std::printf("a model using an unregistered extension should be rejected\n");
    return 1;
  }
  std::printf("unregistered extension: %s: %s\n", std::string(nnhal::to_string(refused.error().status())).c_str(),
              refused.error().c_str());
  return 0;
}
