// expect-error: if_branch_input_type_mismatch<nnhal::diagnostic::else_branch<(main\(\)::)?Else>, nnhal::diagnostic::input<4>, nnhal::diagnostic::expected<nnhal::types::TENSOR_FLOAT32>, nnhal::diagnostic::given<nnhal::types::TENSOR_INT32> ?>
// An IF input (operation input 4) whose type differs from the else branch's input must not
// compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  auto then_b = b.add_subgraph<struct Then, I32, I32>({{1}}, {{1}});
  const auto then_g = then_b.returns(then_b.input<0>());
  auto else_b = b.add_subgraph<struct Else, I32, F32>({{1}}, {{1}});
  const auto else_g = else_b.returns(else_b.input<0>());
  const auto c = b.input<nnhal::OperandType::TENSOR_BOOL8>({{1}});
  const auto x = b.input<I32>({{1}});
  b.if_(c, then_g, else_g, x, x);
  return 0;
}
