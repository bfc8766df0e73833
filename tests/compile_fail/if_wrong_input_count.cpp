// expect-error: wrong_number_of_inputs<nnhal::operations::IF, nnhal::diagnostic::then_branch<(main\(\)::)?Then>, nnhal::diagnostic::expected<nnhal::diagnostic::count<5(ul|UL)?> ?>, nnhal::diagnostic::given<nnhal::diagnostic::count<4(ul|UL)?> ?> ?>
// An IF passing one input to branches that take two must not compile (the counts are the IF's:
// condition, two branches, then the branch inputs).
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  nnhal::ModelBuilder b;
  auto then_b = b.add_subgraph<struct Then, I32, I32>({{1}}, {{1}});
  const auto then_g = then_b.returns(then_b.input<0>());
  auto else_b = b.add_subgraph<struct Else, I32, I32>({{1}}, {{1}});
  const auto else_g = else_b.returns(else_b.input<0>());
  const auto c = b.input<nnhal::OperandType::TENSOR_BOOL8>({{1}});
  const auto x = b.input<I32>({{1}});
  b.if_(c, then_g, else_g, x);
  return 0;
}
