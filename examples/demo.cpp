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

  // Bind the inputs and the output by their handles to typed spans: the request points at these
  // vectors (nothing is copied), and the same request serves every run.
  const std::vector<float> a_values = {1, 2, 3, 4}, x_values = {2, 2, -1, 0.5f};
  std::vector<float> y_values(4);
  nnhal::RequestBuilder request(model);
  for (auto s : {request.input(a, a_values), request.input(x, x_values), request.output(sum, y_values)}) {
    if (!s) {
      std::printf("cannot bind: %s\n", s.error().c_str());
      return 1;
    }
  }
  if (auto s = execution->run(request.request()); !s) {
    std::printf("execution failed: %s: %s\n", nnhal::to_string(s.error().status()).data(), s.error().c_str());
    return 1;
  }
  // The output as a typed tensor of y_values, shaped by the execution.
  auto y = request.output_view(sum, execution->output_shapes());
  if (!y) {
    std::printf("no output: %s\n", y.error().c_str());
    return 1;
  }
  std::printf("relu(a * x + c) = [[%g, %g], [%g, %g]] (shape %ux%u)\n", (*y)[0], (*y)[1], (*y)[2], (*y)[3],
              y->dim(0), y->dim(1));
  return 0;
}
