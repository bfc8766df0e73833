// expect-error: while_body_input_type_mismatch<nnhal::diagnostic::body<(main\(\)::)?Body>, nnhal::diagnostic::input<3>, nnhal::diagnostic::expected<nnhal::types::TENSOR_FLOAT32>, nnhal::diagnostic::given<nnhal::types::TENSOR_INT32> ?>
// A WHILE whose second loop operand (operation input 3) is TENSOR_INT32 while the body takes a
// TENSOR_FLOAT32 there must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  constexpr auto F32 = nnhal::OperandType::TENSOR_FLOAT32;
  constexpr auto B8 = nnhal::OperandType::TENSOR_BOOL8;
  nnhal::ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32, I32>({{1}}, {{1}});
  const auto [ci, climit] = cond_b.inputs();
  const auto cond = cond_b.returns(cond_b.operation<nnhal::OperationType::LESS, B8>({{1}}, ci, climit));
  auto body_b = b.add_subgraph<struct Body, I32, F32>({{1}}, {{1}});
  const auto one = body_b.scalar<nnhal::OperandType::INT32>(0);
  const auto body = body_b.returns(body_b.operation<nnhal::OperationType::ADD, I32>({{1}}, body_b.input<0>(), body_b.input<0>(), one));
  const auto i0 = b.input<I32>({{1}});
  b.while_(cond, body, i0, i0);
  return 0;
}
