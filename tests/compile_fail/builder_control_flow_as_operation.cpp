// expect-error: build_control_flow_with_if_or_while<nnhal::operations::WHILE ?>
// WHILE built through operation<>() (which cannot check its subgraphs) must not compile: if_()
// and while_() build control flow.
#include "nnhal/builder/builder.hpp"

int main() {
  constexpr auto I32 = nnhal::OperandType::TENSOR_INT32;
  nnhal::ModelBuilder b;
  const auto x = b.input<I32>({{1}});
  const nnhal::OperandRef<nnhal::OperandType::SUBGRAPH> forged{0};
  b.operation<nnhal::OperationType::WHILE, I32>({{1}}, forged, forged, x);
  return 0;
}
