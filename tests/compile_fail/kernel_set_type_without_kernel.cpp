// expect-error: a kernel set entry lists an operand type its operation has no kernel for
// DIV has no TENSOR_QUANT8_ASYMM_SIGNED kernel (its no_kernel list says so): asking for it must
// not compile.
#include "nnhal/kernels/div.hpp"
#include "nnhal/kernels/resolve.hpp"

int main() {
  using Set = nnhal::KernelSet<
      nnhal::Use<nnhal::OperationType::DIV, nnhal::OperandType::TENSOR_QUANT8_ASYMM_SIGNED>>;
  return nnhal::kernel_table<Set>().find(nnhal::OperationType::DIV) != nullptr ? 0 : 1;
}
