// Kernels split across a device's thread pool while several executions run at once: threads
// executing synchronously and asynchronously share one prepared model (and so one ThreadPool),
// and every output must equal the single-threaded device's bit for bit. Part of the stress
// program, so the test suite also runs it under ThreadSanitizer.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/kernels/conv_2d.hpp"
#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "nnhal/kernels/resolve.hpp"

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::INT32;
using ConvKernels = nnhal::KernelSet<nnhal::Use<OperationType::CONV_2D, F32>,
                                     nnhal::Use<OperationType::DEPTHWISE_CONV_2D, F32>>;
using ConvDevice = nnhal::Device<nnhal::SteadyClock, ConvKernels>;

constexpr std::uint32_t kH = 24, kW = 24, kIn = 16, kOut = 48;

std::vector<float> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 9) / static_cast<float>(1u << 23) - 1.0f;
  }
  return v;
}

/// x [1, 24, 24, 16] -> CONV_2D 1x1 to 48 (RELU6) -> DEPTHWISE_CONV_2D 3x3 SAME (RELU6).
nnhal::Model conv_model() {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{1, kH, kW, kIn}});
  const auto fv = pattern(std::size_t{kOut} * kIn, 11), bv = pattern(kOut, 12);
  const auto dv = pattern(std::size_t{9} * kOut, 13), dbv = pattern(kOut, 14);
  const auto same = b.scalar<I32>(1), one = b.scalar<I32>(1), relu6 = b.scalar<I32>(3);
  const auto y = b.operation<OperationType::CONV_2D, F32>({{1, kH, kW, kOut}}, x, b.constant<F32>(fv, {{kOut, 1, 1, kIn}}),
                                                          b.constant<F32>(bv, {{kOut}}), same, one, one, relu6);
  b.output(b.operation<OperationType::DEPTHWISE_CONV_2D, F32>({{1, kH, kW, kOut}}, y,
                                                              b.constant<F32>(dv, {{1, 3, 3, kOut}}),
                                                              b.constant<F32>(dbv, {{kOut}}), same, one, one, one, relu6));
  return std::move(b).model();
}

/// The input and output of one execution, in one pool.
struct Io {
  std::vector<float> pool;
  nnhal::Request request;
  explicit Io(std::uint32_t seed) : pool(pattern(std::size_t{kH} * kW * kIn, seed)) {
    const auto in_bytes = static_cast<std::uint32_t>(pool.size() * sizeof(float));
    pool.resize(pool.size() + std::size_t{kH} * kW * kOut, 0.0f);
    request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
    request.inputs = {{false, {0, 0, in_bytes}, {}}};
    request.outputs = {{false, {0, in_bytes, static_cast<std::uint32_t>(std::size_t{kH} * kW * kOut * sizeof(float))}, {}}};
  }
  const float* out() const { return pool.data() + std::size_t{kH} * kW * kIn; }
};

}  // namespace

TEST_CASE("stress: concurrent executions of a model whose kernels run on the device's thread pool") {
  const nnhal::Model model = conv_model();
  ConvDevice single;  // threads = 1: the reference
  nnhal::DeviceOptions<> options;
  options.threads = 2;
  options.worker_threads = 2;
  ConvDevice threaded(options);
  auto reference = single.prepare(model);
  auto prepared = threaded.prepare(model);
  REQUIRE(reference.has_value());
  REQUIRE(prepared.has_value());

  constexpr int kSeeds = 4;
  std::vector<std::vector<float>> expected;
  for (int s = 0; s < kSeeds; ++s) {
    Io io(static_cast<std::uint32_t>(s));
    REQUIRE((*reference)->execute(io.request).error_status() == nnhal::ErrorStatus::NONE);
    expected.emplace_back(io.out(), io.out() + std::size_t{kH} * kW * kOut);
  }

  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 20; ++k) {
        const int s = (t + k) % kSeeds;
        Io io(static_cast<std::uint32_t>(s));
        nnhal::ErrorStatus status;
        if ((k & 1) == 0) {
          status = (*prepared)->execute(io.request).error_status();
        } else {
          auto cb = std::make_shared<nnhal::ResultCallback>();
          status = (*prepared)->execute_async(io.request, {}, cb) ? cb->wait().error_status()
                                                                   : nnhal::ErrorStatus::GENERAL_FAILURE;
        }
        if (status != nnhal::ErrorStatus::NONE ||
            std::memcmp(io.out(), expected[static_cast<std::size_t>(s)].data(), expected[0].size() * sizeof(float)) != 0)
          ++failures;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(failures.load() == 0);
}
