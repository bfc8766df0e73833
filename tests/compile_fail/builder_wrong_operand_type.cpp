// expect-error: no signature of this operation accepts these operand types
// ADD of a TENSOR_QUANT8_ASYMM and a TENSOR_FLOAT32 operand must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  nnhal::ModelBuilder b;
  const auto q = b.input<nnhal::OperandType::TENSOR_QUANT8_ASYMM>({{2}, 0.5f, 0});
  const auto f = b.input<nnhal::OperandType::TENSOR_FLOAT32>({{2}});
  const auto act = b.scalar<nnhal::OperandType::INT32>(0);
  b.operation<nnhal::OperationType::ADD, nnhal::OperandType::TENSOR_FLOAT32>({{2}}, q, f, act);
  return 0;
}
