// expect-error: a kernel set names an operation more than once
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/resolve.hpp"

int main() {
  using Set = nnhal::OpSet<nnhal::OperationType::ADD, nnhal::OperationType::ADD>;
  return nnhal::kernel_table<Set>().find(nnhal::OperationType::ADD) != nullptr ? 0 : 1;
}
