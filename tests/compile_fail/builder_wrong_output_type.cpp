// expect-error: wrong_output_type<nnhal::operations::ADD, nnhal::diagnostic::expected<nnhal::types::TENSOR_FLOAT32>, nnhal::diagnostic::given<nnhal::types::TENSOR_INT32> ?>
// ADD of two TENSOR_FLOAT32 operands declared to produce a TENSOR_INT32 must not compile; the
// error names the expected and given output types.
#include "nnhal/builder/builder.hpp"

int main() {
  nnhal::ModelBuilder b;
  const auto x = b.input<nnhal::OperandType::TENSOR_FLOAT32>({{2}});
  const auto act = b.scalar<nnhal::OperandType::INT32>(0);
  b.operation<nnhal::OperationType::ADD, nnhal::OperandType::TENSOR_INT32>({{2}}, x, x, act);
  return 0;
}
