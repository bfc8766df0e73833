// expect-error: wrong_number_of_inputs<nnhal::operations::ADD, void, nnhal::diagnostic::expected<nnhal::diagnostic::count<3(ul|UL)?> ?>, nnhal::diagnostic::given<nnhal::diagnostic::count<2(ul|UL)?> ?> ?>
// ADD without its activation scalar must not compile; the error names the operation and the
// expected and given numbers of inputs.
#include "nnhal/builder/builder.hpp"

int main() {
  nnhal::ModelBuilder b;
  const auto x = b.input<nnhal::OperandType::TENSOR_FLOAT32>({{2}});
  b.operation<nnhal::OperationType::ADD, nnhal::OperandType::TENSOR_FLOAT32>({{2}}, x, x);
  return 0;
}
