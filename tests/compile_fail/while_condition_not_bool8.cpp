// expect-error: while_condition_output_is_not_tensor_bool8<nnhal::diagnostic::condition<(main\(\)::)?Cond>, nnhal::diagnostic::given<nnhal::types::TENSOR_INT32> ?>
// A WHILE whose condition returns a TENSOR_INT32 operand must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  nnhal::ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32>({{1}});
  const auto cond = cond_b.returns(cond_b.input<0>());
  auto body_b = b.add_subgraph<struct Body, I32>({{1}});
  const auto body = body_b.returns(body_b.input<0>());
  const auto i0 = b.input<I32>({{1}});
  b.while_(cond, body, i0);
  return 0;
}
