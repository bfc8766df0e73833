// Uses one trivial thing from nnhal, through the umbrella header.
#include <nnhal/nnhal.hpp>

#include <cstdio>

int main() {
  constexpr auto type = nnhal::OperandType::TENSOR_FLOAT32;
  static_assert(static_cast<int>(type) == 3, "HAL 1.3 numbers TENSOR_FLOAT32 as 3");
  std::printf("nnhal consumer: TENSOR_FLOAT32 = %d\n", static_cast<int>(type));
  return 0;
}
