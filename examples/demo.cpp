// Builds a small model with the typed builder (y = relu(a * x + c) on 2x2 floats), validates
// it, prepares it and executes one request.

#include <cstdio>
#include <vector>

#include "nnhal/nnhal_all.hpp"

int main() {
  using nnhal::OperandType;
  using nnhal::OperationType;
  nnhal::ModelBuilder b;
  const auto a = b.input<OperandType::TENSOR_FLOAT32>({{2, 2}});
  const auto x = b.input<OperandType::TENSOR_FLOAT32>({{2, 2}});
  const float c_values[] = {0.5f, -10.0f, 1.5f, 2.0f};
  const auto c = b.constant<OperandType::TENSOR_FLOAT32>(c_values, {{2, 2}});
  const auto none = b.scalar<OperandType::INT32>(0);
  const auto relu = b.scalar<OperandType::INT32>(1);
  const auto prod = b.operation<OperationType::MUL, OperandType::TENSOR_FLOAT32>({{2, 2}}, a, x, none);
  const auto sum = b.operation<OperationType::ADD, OperandType::TENSOR_FLOAT32>({{2, 2}}, prod, c, relu);
  b.output(sum);
  const nnhal::Model model = std::move(b).model();

  auto version = nnhal::validate_model(model);
  if (!version) {
    std::printf("invalid model: %s\n", version.error().c_str());
    return 1;
  }
  std::printf("model is valid, needs NN HAL %s\n", nnhal::to_string(*version).data());

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

  // One memory pool holds both inputs and the output, as a driver's mapped memory would.
  std::vector<float> pool = {1, 2, 3, 4, /* x */ 2, 2, -1, 0.5f, /* y */ 0, 0, 0, 0};
  nnhal::Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
  request.inputs = {{false, {0, 0, 16}, {}}, {false, {0, 16, 16}, {}}};
  request.outputs = {{false, {0, 32, 16}, {}}};
  if (auto s = execution->run(request); !s) {
    std::printf("execution failed: %s: %s\n", nnhal::to_string(s.error().status()).data(), s.error().c_str());
    return 1;
  }
  const auto& shape = execution->output_shapes()[0].dimensions;
  std::printf("relu(a * x + c) = [[%g, %g], [%g, %g]] (shape %ux%u)\n", pool[8], pool[9], pool[10],
              pool[11], shape[0], shape[1]);
  return 0;
}
