// compile-cost case add_model_old_api: one ADD model (two inputs of 4 floats, activation 0),
// validated, prepared and run with the API as it was before the kernel-set restructure, where
// preparing a model always instantiates every operation's kernels. It is the "before"
// counterpart of examples/op_subset.cpp and is expected to stop compiling once the API changes.
#include <cstdio>
#include <utility>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/model/builder.hpp"
#include "nnhal/validate/model.hpp"

int main() {
  using nnhal::OperandType;
  using nnhal::OperationType;
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{4}});
  const auto y = b.input<F32>({{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<OperationType::ADD, F32>({{4}}, x, y, none));
  const nnhal::Model model = std::move(b).model();

  if (auto version = nnhal::validate_model(model); !version) {
    std::printf("invalid model: %s\n", version.error().c_str());
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
  std::printf("x + y = [%g, %g, %g, %g]\n", pool[8], pool[9], pool[10], pool[11]);
  return 0;
}
