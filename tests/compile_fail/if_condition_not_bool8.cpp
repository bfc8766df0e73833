// expect-error: if_condition_is_not_tensor_bool8<nnhal::diagnostic::given<nnhal::types::TENSOR_INT32> ?>
// An IF whose condition is a TENSOR_INT32 operand must not compile (HAL: TENSOR_BOOL8 [1]).
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  nnhal::ModelBuilder b;
  auto then_b = b.add_subgraph<struct Then, I32>({{1}});
  const auto then_g = then_b.returns(then_b.input<0>());
  auto else_b = b.add_subgraph<struct Else, I32>({{1}});
  const auto else_g = else_b.returns(else_b.input<0>());
  const auto c = b.input<I32>({{1}});
  const auto x = b.input<I32>({{1}});
  b.if_(c, then_g, else_g, x);
  return 0;
}
