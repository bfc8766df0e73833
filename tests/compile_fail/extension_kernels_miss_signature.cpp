// expect-error: an extension operation's kernels must cover the key-input type of every signature
#include <array>
#include <string_view>

#include "nnhal/kernels/resolve.hpp"

namespace {
constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
constexpr auto F16 = nnhal::OperandType::TENSOR_FLOAT16;

struct Row {
  static constexpr std::array<nnhal::Slot, 1> kSlots{{{"x", nnhal::Role::Data}}};
  static constexpr std::array<nnhal::Signature, 2> kSignatures{nnhal::sig(nnhal::HalVersion::V1_2, {F32}, {F32}),
                                                              nnhal::sig(nnhal::HalVersion::V1_2, {F16}, {F16})};
  static constexpr nnhal::OperationInfo info =
      nnhal::make_extension_row("OP", {.inputs = kSlots, .outputs = kSlots, .signatures = kSignatures});
};
// A kernel for FLOAT32 only, and FLOAT16 not listed in no_kernel.
struct Kernels : nnhal::KernelFamily {
  static constexpr std::array types{F32};
  static nnhal::Status infer(const nnhal::NodeIO&) { return {}; }
  static nnhal::Status run(const nnhal::NodeIO&) { return {}; }
  template <nnhal::OperandType T>
  static nnhal::Expected<nnhal::KernelFn> select(const nnhal::NodeIO&, nnhal::KernelPrepare&) {
    return &run;
  }
};
struct Ops {
  static constexpr std::string_view name = "com.example.ops";
  static constexpr std::array<nnhal::Extension::OperandTypeInformation, 0> operand_types{};
  using operations = nnhal::ExtensionOperations<nnhal::ExtensionOp<0, Row, Kernels>>;
};
}  // namespace

int main() {
  using Set = nnhal::KernelSet<nnhal::UseExtension<Ops>>;
  return nnhal::kernel_table<Set>().extensions.size() == 1 ? 0 : 1;
}
