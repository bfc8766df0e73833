// A program of two files that runs models with the default kernel set (every kernel) but
// compiles the kernels once: this file includes only the light headers and declares the set's
// kernels extern; kernels.cpp compiles them.
#include <cstdio>
#include <utility>
#include <vector>

#include "nnhal/nnhal.hpp"

NNHAL_EXTERN_KERNEL_SET(nnhal::AllKernels);
NNHAL_EXTERN_EXECUTION(nnhal::SteadyClock);

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

/// out = (x * y) + x over 4 floats.
nnhal::Model mul_add_model() {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  const auto product = b.operation<OperationType::MUL, F32>({{4}}, x, y, none);
  b.output(b.operation<OperationType::ADD, F32>({{4}}, product, x, none));
  return std::move(b).model();
}

}  // namespace

int main() {
  const nnhal::Model model = mul_add_model();
  auto supported = nnhal::supported_operations(model);
  if (!supported) {
    std::printf("invalid model: %s\n", supported.error().c_str());
    return 1;
  }
  auto prepared = nnhal::PreparedModel::prepare(model);
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
  std::printf("supported: MUL %d, ADD %d; x * y + x = [%g, %g, %g, %g]\n", static_cast<int>((*supported)[0]),
              static_cast<int>((*supported)[1]), pool[8], pool[9], pool[10], pool[11]);
  return 0;
}
