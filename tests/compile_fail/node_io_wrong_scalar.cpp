// expect-error: scalar<T>\(\) needs a scalar operand type
// Asking NodeIO for a tensor type as a scalar must not compile.
#include "nnhal/interface/node_io.hpp"

int main() {
  nnhal::RtOperand table[1];
  const std::uint32_t in[1] = {0};
  const nnhal::NodeIO io(table, in, {});
  return static_cast<int>(io.scalar<nnhal::OperandType::TENSOR_FLOAT32>(0));
}
