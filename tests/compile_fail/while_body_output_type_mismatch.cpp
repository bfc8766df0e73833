// expect-error: while_body_output_type_mismatch<nnhal::diagnostic::body<(main\(\)::)?Body>, nnhal::diagnostic::output<0>, nnhal::diagnostic::expected<nnhal::types::TENSOR_INT32>, nnhal::diagnostic::given<nnhal::types::TENSOR_BOOL8> ?>
// A WHILE body whose output 0 is not of the type of the loop operand it carries (body input 0)
// must not compile.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  constexpr auto B8 = nnhal::OperandType::TENSOR_BOOL8;
  nnhal::ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32, I32>({{1}}, {{1}});
  const auto [ci, climit] = cond_b.inputs();
  const auto cond = cond_b.returns(cond_b.operation<nnhal::OperationType::LESS, B8>({{1}}, ci, climit));
  auto body_b = b.add_subgraph<struct Body, I32, I32>({{1}}, {{1}});
  const auto [bi, blimit] = body_b.inputs();
  const auto body = body_b.returns(body_b.operation<nnhal::OperationType::LESS, B8>({{1}}, bi, blimit));
  const auto i0 = b.input<I32>({{1}});
  const auto limit = b.input<I32>({{1}});
  b.while_(cond, body, i0, limit);
  return 0;
}
