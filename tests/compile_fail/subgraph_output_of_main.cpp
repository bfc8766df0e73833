// expect-error: output_of_another_subgraph<nnhal::diagnostic::output<0>, nnhal::diagnostic::used_in<(main\(\)::)?Branch>, nnhal::diagnostic::belongs_to<nnhal::MainGraph> ?>
// A main-subgraph operand returned as a branch output must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{2}});
  auto branch = b.add_subgraph<struct Branch, F32>({{2}});
  branch.returns(x);
  return 0;
}
