// expect-error: a kernel set names an operation whose kernels are not included
// A kernel set naming MUL without its kernels' header must not compile.
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/resolve.hpp"

int main() {
  using Set = nnhal::OpSet<nnhal::OperationType::ADD, nnhal::OperationType::MUL>;
  return nnhal::kernel_table<Set>().find(nnhal::OperationType::ADD) != nullptr ? 0 : 1;
}
