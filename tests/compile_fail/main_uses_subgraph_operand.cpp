// expect-error: operand_of_another_subgraph<nnhal::operations::MUL, nnhal::diagnostic::input<1>, nnhal::diagnostic::used_in<nnhal::MainGraph>, nnhal::diagnostic::belongs_to<(main\(\)::)?Branch> ?>
// An operand of a branch used in the main subgraph must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{2}});
  auto branch = b.add_subgraph<struct Branch, F32>({{2}});
  const auto act = b.scalar<nnhal::OperandType::INT32>(0);
  b.operation<nnhal::OperationType::MUL, F32>({{2}}, x, branch.input<0>(), act);
  return 0;
}
