// Embedded profile: the umbrella header and every public header (the generated
// nnhal_all_public_headers.hpp lists them) must compile with -fno-exceptions -fno-rtti
// -Wall -Wextra -Wpedantic -Werror on both g++ and clang++. No doctest, no I/O, no heap.
#include <nnhal/nnhal.hpp>

#include "nnhal_all_public_headers.hpp"

int main() {
  // Touch one value so the program is not empty; it cannot fail at run time.
  return static_cast<int>(nnhal::OperandType::FLOAT32);
}
