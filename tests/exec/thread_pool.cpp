// ThreadPool and kernels split across threads: every piece runs once, concurrent and nested
// callers are safe, and the threaded kernels (CONV_2D by pixels and by channel panels,
// DEPTHWISE_CONV_2D by rows, FULLY_CONNECTED by units; float32 and 8-bit) give the same bits
// for any number of threads, allocating nothing while they execute.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "support/no_allocation.hpp"
#include "support/reversed_parallel.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/exec/thread_pool.hpp"
#include "nnhal/kernels/conv_2d.hpp"
#include "nnhal/kernels/depthwise_conv_2d.hpp"
#include "nnhal/kernels/fully_connected.hpp"
#include "nnhal/kernels/resolve.hpp"

// This file's own scope: test files are compiled in groups (NNHAL_UNITY_TESTS).
namespace test_exec_thread_pool {

namespace {

using nnhal::OperandType;
using nnhal::OperationType;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::INT32;
constexpr auto QU8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto QS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
using Kernels = nnhal::KernelSet<nnhal::Use<OperationType::CONV_2D, F32, QU8, QS8>,
                                 nnhal::Use<OperationType::DEPTHWISE_CONV_2D, F32, QU8, QS8>,
                                 nnhal::Use<OperationType::FULLY_CONNECTED, F32, QU8, QS8>>;

/// Values in [-1, 1) from a 32-bit LCG, the same on every run.
std::vector<float> pseudo_random(std::size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<std::int32_t>(seed >> 8) - (1 << 23)) / static_cast<float>(1 << 23);
  }
  return v;
}

/// A model with one input and one output; sizes in elements of `element_bytes` bytes.
struct Net {
  nnhal::Model model;
  std::size_t in_floats = 0, out_floats = 0;
  std::size_t element_bytes = sizeof(float);
};

/// Bytes of a pseudo-random pattern for 8-bit tensors.
template <class E>
std::vector<E> pseudo_random_bytes(std::size_t n, std::uint32_t seed) {
  std::vector<E> v(n);
  for (E& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<E>(static_cast<std::uint8_t>(seed >> 24));
  }
  return v;
}

/// The 8-bit twin of conv_net (type T: uint8 or int8, per-tensor weights).
template <OperandType T>
Net conv_net_q8(std::uint32_t h, std::uint32_t w, std::uint32_t ic, std::uint32_t oc, std::uint32_t k,
                std::int32_t stride) {
  using E = nnhal::element_t<T>;
  constexpr std::int32_t zero = T == QU8 ? 128 : 0;
  nnhal::ModelBuilder b;
  const std::uint32_t oh = (h + static_cast<std::uint32_t>(stride) - 1) / static_cast<std::uint32_t>(stride);
  const std::uint32_t ow = (w + static_cast<std::uint32_t>(stride) - 1) / static_cast<std::uint32_t>(stride);
  const float in_scale = 1.0f / 128, w_scale = 1.0f / 256, act_scale = 6.0f / 255;
  const auto x = b.input<T>({{1, h, w, ic}, in_scale, zero});
  const auto filter_values = pseudo_random_bytes<E>(std::size_t{oc} * k * k * ic, 1);
  const auto dw_values = pseudo_random_bytes<E>(std::size_t{9} * oc, 3);
  std::vector<std::int32_t> bias_values(oc), dw_bias_values(oc);
  for (std::uint32_t c = 0; c < oc; ++c) {
    bias_values[c] = static_cast<std::int32_t>(c * 37 % 2001) - 1000;
    dw_bias_values[c] = static_cast<std::int32_t>(c * 53 % 301) - 150;
  }
  const auto filter = b.constant<T>(filter_values, {{oc, k, k, ic}, w_scale, zero});
  const auto bias = b.constant<OperandType::TENSOR_INT32>(bias_values, {{oc}, in_scale * w_scale, 0});
  const auto same = b.scalar<I32>(1), s = b.scalar<I32>(stride), one = b.scalar<I32>(1), relu6 = b.scalar<I32>(3);
  const auto y = b.operation<OperationType::CONV_2D, T>({{1, oh, ow, oc}, act_scale, T == QU8 ? 0 : -128}, x, filter,
                                                        bias, same, s, s, relu6);
  const auto dw = b.constant<T>(dw_values, {{1, 3, 3, oc}, w_scale, zero});
  const auto dw_bias = b.constant<OperandType::TENSOR_INT32>(dw_bias_values, {{oc}, act_scale * w_scale, 0});
  b.output(b.operation<OperationType::DEPTHWISE_CONV_2D, T>({{1, oh, ow, oc}, act_scale, T == QU8 ? 0 : -128}, y, dw,
                                                            dw_bias, same, one, one, one, relu6));
  return {std::move(b).model(), std::size_t{h} * w * ic, std::size_t{oh} * ow * oc, 1};
}

/// x [1, h, w, ic] -> CONV_2D k x k / stride, SAME, RELU6, to oc channels -> DEPTHWISE_CONV_2D 3x3
/// SAME, RELU6 -> output.
Net conv_net(std::uint32_t h, std::uint32_t w, std::uint32_t ic, std::uint32_t oc, std::uint32_t k,
             std::int32_t stride) {
  nnhal::ModelBuilder b;
  const std::uint32_t oh = (h + static_cast<std::uint32_t>(stride) - 1) / static_cast<std::uint32_t>(stride);
  const std::uint32_t ow = (w + static_cast<std::uint32_t>(stride) - 1) / static_cast<std::uint32_t>(stride);
  const auto x = b.input<F32>({{1, h, w, ic}});
  const auto filter_values = pseudo_random(std::size_t{oc} * k * k * ic, 1);
  const auto bias_values = pseudo_random(oc, 2);
  const auto dw_values = pseudo_random(std::size_t{9} * oc, 3);
  const auto dw_bias_values = pseudo_random(oc, 4);
  const auto filter = b.constant<F32>(filter_values, {{oc, k, k, ic}});
  const auto bias = b.constant<F32>(bias_values, {{oc}});
  const auto same = b.scalar<I32>(1), s = b.scalar<I32>(stride), one = b.scalar<I32>(1), relu6 = b.scalar<I32>(3);
  const auto y = b.operation<OperationType::CONV_2D, F32>({{1, oh, ow, oc}}, x, filter, bias, same, s, s, relu6);
  const auto dw = b.constant<F32>(dw_values, {{1, 3, 3, oc}});
  const auto dw_bias = b.constant<F32>(dw_bias_values, {{oc}});
  b.output(b.operation<OperationType::DEPTHWISE_CONV_2D, F32>({{1, oh, ow, oc}}, y, dw, dw_bias, same, one, one,
                                                              one, relu6));
  return {std::move(b).model(), std::size_t{h} * w * ic, std::size_t{oh} * ow * oc};
}

/// x [1, n] -> FULLY_CONNECTED to `units` -> output.
Net fc_net(std::uint32_t n, std::uint32_t units) {
  nnhal::ModelBuilder b;
  const auto x = b.input<F32>({{1, n}});
  const auto weight_values = pseudo_random(std::size_t{units} * n, 5);
  const auto bias_values = pseudo_random(units, 6);
  const auto weights = b.constant<F32>(weight_values, {{units, n}});
  const auto bias = b.constant<F32>(bias_values, {{units}});
  b.output(b.operation<OperationType::FULLY_CONNECTED, F32>({{1, units}}, x, weights, bias, b.scalar<I32>(0)));
  return {std::move(b).model(), n, units};
}

/// x [1, n] of type T -> FULLY_CONNECTED to `units` (8-bit, per-tensor) -> output.
template <OperandType T>
Net fc_net_q8(std::uint32_t n, std::uint32_t units) {
  using E = nnhal::element_t<T>;
  constexpr std::int32_t zero = T == QU8 ? 128 : 0;
  nnhal::ModelBuilder b;
  const auto x = b.input<T>({{1, n}, 1.0f / 128, zero});
  const auto weight_values = pseudo_random_bytes<E>(std::size_t{units} * n, 5);
  std::vector<std::int32_t> bias_values(units);
  for (std::uint32_t u = 0; u < units; ++u) bias_values[u] = static_cast<std::int32_t>(u * 41 % 3001) - 1500;
  const auto weights = b.constant<T>(weight_values, {{units, n}, 1.0f / 256, zero});
  const auto bias = b.constant<OperandType::TENSOR_INT32>(bias_values, {{units}, 1.0f / 128 / 256, 0});
  b.output(b.operation<OperationType::FULLY_CONNECTED, T>({{1, units}, 1.0f / 16, zero}, x, weights, bias,
                                                          b.scalar<I32>(0)));
  return {std::move(b).model(), n, units, 1};
}

/// Runs `net` prepared with `parallel` on a fixed input; checks the reruns allocate nothing.
std::vector<std::byte> run(const Net& net, nnhal::Parallel* parallel) {
  nnhal::PrepareOptions options;
  options.parallel = parallel;
  auto prepared = nnhal::PreparedModel::prepare<Kernels>(net.model, options);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  // The input: pseudo-random floats, or their bytes for an 8-bit model.
  std::vector<float> input = pseudo_random(net.in_floats, 7);
  const auto in_bytes = static_cast<std::uint32_t>(net.in_floats * net.element_bytes);
  const auto out_bytes = static_cast<std::uint32_t>(net.out_floats * net.element_bytes);
  std::vector<std::byte> pool(std::size_t{in_bytes} + out_bytes);
  std::memcpy(pool.data(), input.data(), in_bytes);
  nnhal::Request request;
  request.pools.push_back({{pool.data(), pool.size()}, 0});
  request.inputs = {{false, {0, 0, in_bytes}, {}}};
  request.outputs = {{false, {0, in_bytes, out_bytes}, {}}};
  REQUIRE(execution->run(request).has_value());
  nnhal::test::check_reruns_allocate_nothing(*execution, request);
  return {pool.begin() + in_bytes, pool.end()};
}

bool same_bits(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

TEST_CASE("ThreadPool: every piece once, from concurrent and nested callers") {
  nnhal::ThreadPool pool(3);
  CHECK(pool.concurrency() == 3);
  std::atomic<int> total{0};
  auto job = [&] {
    for (int round = 0; round < 200; ++round) {
      std::atomic<int> hits[3] = {0, 0, 0};
      std::atomic<int> running[3] = {0, 0, 0};
      nnhal::for_each_piece(&pool, 300, 1, 1, [&](std::size_t begin, std::size_t end, std::size_t worker) {
        // No two pieces run at the same time under one worker index.
        CHECK(running[worker].fetch_add(1) == 0);
        // A nested call while the pool is busy runs on this thread.
        nnhal::for_each_piece(&pool, 2, 1, 1, [&](std::size_t, std::size_t, std::size_t) {});
        hits[worker].fetch_add(static_cast<int>(end - begin));
        running[worker].fetch_sub(1);
      });
      CHECK(hits[0].load() + hits[1].load() + hits[2].load() == 300);
      total.fetch_add(1);
    }
  };
  std::thread a(job), b(job);
  job();
  a.join();
  b.join();
  CHECK(total.load() == 600);
  nnhal::ThreadPool alone(1);
  CHECK(alone.concurrency() == 1);
  int count = 0;
  nnhal::for_each_piece(&alone, 10, 1, 1, [&](std::size_t begin, std::size_t end, std::size_t) {
    count += static_cast<int>(end - begin);
  });
  CHECK(count == 10);
}

TEST_CASE("threaded CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: the same bits for 1, 2, 3 and 4 pieces") {
  const Net nets[] = {
      conv_net(20, 20, 32, 64, 1, 1),   // 400 pixels: split by pixels
      conv_net(15, 15, 8, 96, 3, 2),    // 64 pixels, 96 channels: split by channel panels
      conv_net(7, 7, 40, 160, 1, 1),    // 49 pixels: panels
      conv_net(33, 9, 3, 24, 3, 2),     // few channels, odd sizes
      fc_net(256, 200),
      conv_net_q8<QU8>(20, 20, 32, 64, 1, 1),
      conv_net_q8<QU8>(15, 15, 8, 96, 3, 2),
      conv_net_q8<QS8>(20, 20, 32, 64, 1, 1),
      conv_net_q8<QS8>(33, 9, 3, 24, 3, 2),
      fc_net_q8<QU8>(300, 333),
      fc_net_q8<QS8>(64, 257),
  };
  nnhal::ThreadPool two(2), three(3);
  nnhal::test::Reversed four(4);
  for (const Net& net : nets) {
    const std::vector<std::byte> alone = run(net, nullptr);
    CHECK(same_bits(alone, run(net, &two)));
    CHECK(same_bits(alone, run(net, &three)));
    CHECK(same_bits(alone, run(net, &four)));
  }
  CHECK(four.max_pieces > 1);  // the kernels did split
}

}  // namespace test_exec_thread_pool
