// expect-error: if_branch_output_type_mismatch<nnhal::diagnostic::output<1>, nnhal::diagnostic::then_branch<(main\(\)::)?Then>, nnhal::diagnostic::else_branch<(main\(\)::)?Else>, nnhal::diagnostic::expected<nnhal::types::TENSOR_INT32>, nnhal::diagnostic::given<nnhal::types::TENSOR_FLOAT32> ?>
// IF branches whose second outputs differ in type must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  auto then_b = b.add_subgraph<struct Then, I32, F32>({{1}}, {{1}});
  const auto then_g = then_b.returns(then_b.input<1>(), then_b.input<0>());
  auto else_b = b.add_subgraph<struct Else, I32, F32>({{1}}, {{1}});
  const auto else_g = else_b.returns(else_b.input<1>(), else_b.input<1>());
  const auto c = b.input<nnhal::OperandType::TENSOR_BOOL8>({{1}});
  const auto i = b.input<I32>({{1}});
  const auto f = b.input<F32>({{1}});
  b.if_(c, then_g, else_g, i, f);
  return 0;
}
