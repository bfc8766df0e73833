// Getting started (docs/getting-started.md): a small classifier, scores = SOFTMAX(FULLY_CONNECTED(x)),
// built with the typed builder, checked for HAL version compliance, then run the way a driver
// runs it: through a Device and its prepared model, with timing, output shapes and a
// per-operation profile.

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <vector>

#include "nnhal/nnhal_all.hpp"

int main() {
  using nnhal::OperandType;
  using nnhal::OperationType;
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;

  // 1. The model: x [1, 4] -> FULLY_CONNECTED (3 units, weights [3, 4], bias [3]) -> SOFTMAX.
  //    The builder checks operand types against the operation table at compile time.
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{1, 4}});
  const float weights[] = {1, 0, 0, 0, /**/ 0, 1, 0, 0, /**/ 0, 0, 1, 1};
  const float bias[] = {0.0f, 0.5f, -1.0f};
  const auto w = b.constant<F32>(weights, {{3, 4}});
  const auto bias_operand = b.constant<F32>(bias, {{3}});
  const auto no_activation = b.scalar<OperandType::INT32>(0);
  const auto logits =
      b.operation<OperationType::FULLY_CONNECTED, F32>({{1, 3}}, x, w, bias_operand, no_activation);
  const auto beta = b.scalar<OperandType::FLOAT32>(1.0f);
  b.output(b.operation<OperationType::SOFTMAX, F32>({{1, 3}}, logits, beta));
  const nnhal::Model model = std::move(b).model();

  // 2. Which HAL version it needs, and what keeps it from an older one.
  auto compliance = nnhal::check_compliance(model);
  if (!compliance) {
    std::printf("invalid model: %s\n", compliance.error().c_str());
    return 1;
  }
  std::printf("the model needs NN HAL %s\n", nnhal::to_string(compliance->minimum).data());

  // 3. A device, as a driver service holds one; its spans feed a per-operation profile.
  nnhal::OperationProfile profile;
  nnhal::DeviceOptions<> options;
  options.trace = &profile;
  nnhal::Device<> device(options);
  auto supported = device.supported_operations(model);
  if (!supported) {
    std::printf("getSupportedOperations failed: %s\n", supported.error().c_str());
    return 1;
  }
  std::printf("supported operations: %zu of %zu\n",
              static_cast<std::size_t>(std::count(supported->begin(), supported->end(), true)), supported->size());
  auto prepared = device.prepare(model);
  if (!prepared) {
    std::printf("prepare failed: %s\n", prepared.error().c_str());
    return 1;
  }

  // 4. A request: one memory pool with the input and the output, as a driver's mapped memory.
  std::vector<float> pool = {2.0f, 1.0f, 0.5f, 0.25f, /* scores */ 0, 0, 0};
  nnhal::Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
  request.inputs = {{false, {0, 0, 16}, {}}};
  request.outputs = {{false, {0, 16, 12}, {}}};
  nnhal::ExecutionArgs<> args;
  args.measure = nnhal::MeasureTiming::YES;
  const nnhal::ExecutionResult result = (*prepared)->execute(request, args);
  if (!result.status) {
    std::printf("execution failed: %s: %s\n", nnhal::to_string(result.error_status()).data(),
                result.status.error().c_str());
    return 1;
  }
  const auto& shape = result.output_shapes[0].dimensions;
  std::printf("scores (shape %ux%u) = [%.4f, %.4f, %.4f]\n", shape[0], shape[1], pool[4], pool[5], pool[6]);
  std::printf("time on device %llu us, in driver %llu us\n",
              static_cast<unsigned long long>(result.timing.timeOnDevice),
              static_cast<unsigned long long>(result.timing.timeInDriver));

  // 5. Where the time went, per operation.
  profile.write([](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); });
  return 0;
}
