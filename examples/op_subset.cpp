// A program that runs only ADD. It names a kernel set of ADD alone, with SetRowsOnly, so only
// ADD's kernels and ADD's row (its signatures and validation rule) are compiled into it: the
// program validates, prepares and runs ADD models and knows nothing of the other operations. A
// model with an operation outside the set is reported unsupported and refused at validation and
// prepare with an error that names it. (Without SetRowsOnly, validation would know every
// operation, at the cost of every row's rule in the program.)
#include <cstdio>
#include <utility>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/support.hpp"

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

/// The kernel set of this program: ADD, and only its FLOAT32 kernel; ADD's row only.
using AddOnly = nnhal::KernelSet<nnhal::Use<OperationType::ADD, F32>, nnhal::SetRowsOnly>;

/// out = x <op> y over 4 floats.
template <OperationType Op>
nnhal::Model binary_model() {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<Op, F32>({{4}}, x, y, none));
  return std::move(b).model();
}

}  // namespace

int main() {
  const nnhal::Model model = binary_model<OperationType::ADD>();
  if (auto version = nnhal::validate_model<AddOnly>(model); !version) {
    std::printf("invalid model: %s\n", version.error().c_str());
    return 1;
  }
  auto prepared = nnhal::PreparedModel::prepare<AddOnly>(model);
  if (!prepared) {
    std::printf("prepare failed: %s\n", prepared.error().c_str());
    return 1;
  }
  auto execution = prepared->create_execution();
  if (!execution) {
    std::printf("cannot create an execution: %s\n", execution.error().c_str());
    return 1;
  }
  std::vector<float> pool = {1, 2, 3, 4, /* y */ 10, 20, 30, 40, /* out */ 0, 0, 0, 0};
  nnhal::Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
  request.inputs = {{false, {0, 0, 16}, {}}, {false, {0, 16, 16}, {}}};
  request.outputs = {{false, {0, 32, 16}, {}}};
  if (auto s = execution->run(request); !s) {
    std::printf("execution failed: %s\n", s.error().c_str());
    return 1;
  }
  std::printf("x + y = [%g, %g, %g, %g]\n", pool[8], pool[9], pool[10], pool[11]);

  // MUL is a valid operation, but not in this program's kernel set: the supported-operations
  // query says so (a HAL runtime then gives it to another device), validation and prepare refuse it.
  const nnhal::Model mul = binary_model<OperationType::MUL>();
  auto supported = nnhal::supported_operations<AddOnly>(mul);
  auto invalid = nnhal::validate_model<AddOnly>(mul);
  auto refused = nnhal::PreparedModel::prepare<AddOnly>(mul);
  if (!supported || (*supported)[0] || invalid || refused) {
    std::printf("a MUL model should be unsupported and refused by an ADD-only program\n");
    return 1;
  }
  std::printf("MUL: supported = %d; validate: %s; prepare: %s\n", static_cast<int>((*supported)[0]),
              invalid.error().c_str(), refused.error().c_str());
  return 0;
}
