// expect-error: wrong_operand_type<nnhal::operations::ADD, nnhal::diagnostic::input<1>, nnhal::diagnostic::expected<nnhal::types::TENSOR_QUANT8_ASYMM>, nnhal::diagnostic::given<nnhal::types::TENSOR_FLOAT32> ?>
// ADD of a TENSOR_QUANT8_ASYMM and a TENSOR_FLOAT32 operand must not compile; the error names the
// operation, the input position (1: the first that differs from the closest signature,
// ADD(TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM, INT32)) and the expected and given types by name.
#include "nnhal/builder/builder.hpp"

int main() {
  nnhal::ModelBuilder b;
  const auto q = b.input<nnhal::OperandType::TENSOR_QUANT8_ASYMM>({{2}, 0.5f, 0});
  const auto f = b.input<nnhal::OperandType::TENSOR_FLOAT32>({{2}});
  const auto act = b.scalar<nnhal::OperandType::INT32>(0);
  b.operation<nnhal::OperationType::ADD, nnhal::OperandType::TENSOR_FLOAT32>({{2}}, q, f, act);
  return 0;
}
