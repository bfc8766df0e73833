// expect-error: operand_of_another_subgraph<nnhal::operations::ADD, nnhal::diagnostic::input<0>, nnhal::diagnostic::used_in<(main\(\)::)?Branch>, nnhal::diagnostic::belongs_to<nnhal::MainGraph> ?>
// An operand of the main subgraph used in a branch's operation must not compile: operands cross
// subgraphs only as IF / WHILE inputs.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{2}});
  auto branch = b.add_subgraph<struct Branch, F32>({{2}});
  const auto act = branch.scalar<nnhal::OperandType::INT32>(0);
  branch.operation<nnhal::OperationType::ADD, F32>({{2}}, x, branch.input<0>(), act);
  return 0;
}
