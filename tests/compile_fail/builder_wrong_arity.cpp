// expect-error: no signature of this operation accepts these operand types
// ADD without its activation scalar must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  nnhal::ModelBuilder b;
  const auto x = b.input<nnhal::OperandType::TENSOR_FLOAT32>({{2}});
  b.operation<nnhal::OperationType::ADD, nnhal::OperandType::TENSOR_FLOAT32>({{2}}, x, x);
  return 0;
}
