// expect-error: element type does not match the operand type
// Reading a TENSOR_QUANT8_ASYMM operand as float must not compile.
#include "nnhal/tensor/tensor_view.hpp"

int main() {
  const unsigned char bytes[4] = {1, 2, 3, 4};
  nnhal::TensorView<nnhal::OperandType::TENSOR_QUANT8_ASYMM> view(bytes, nnhal::Dims{4}, 0.5f, 0);
  const float* wrong = view.as<const float>();
  return wrong != nullptr;
}
