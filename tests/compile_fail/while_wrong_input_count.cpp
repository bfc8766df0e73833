// expect-error: wrong_number_of_inputs<nnhal::operations::WHILE, nnhal::diagnostic::condition<(main\(\)::)?Cond>, nnhal::diagnostic::expected<nnhal::diagnostic::count<4(ul|UL)?> ?>, nnhal::diagnostic::given<nnhal::diagnostic::count<3(ul|UL)?> ?> ?>
// A WHILE passing one loop operand to a condition and body that take two must not compile (the
// counts are the WHILE's: condition, body, then the loop operands).
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  constexpr auto B8 = nnhal::OperandType::TENSOR_BOOL8;
  nnhal::ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32, I32>({{1}}, {{1}});
  const auto [ci, climit] = cond_b.inputs();
  const auto cond = cond_b.returns(cond_b.operation<nnhal::OperationType::LESS, B8>({{1}}, ci, climit));
  auto body_b = b.add_subgraph<struct Body, I32, I32>({{1}}, {{1}});
  const auto body = body_b.returns(body_b.input<0>());
  const auto i0 = b.input<I32>({{1}});
  b.while_(cond, body, i0);
  return 0;
}
