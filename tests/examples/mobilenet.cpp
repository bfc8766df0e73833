// The MobileNet networks of examples/mobilenet (the peers' MOBILENET.md definition): the layer
// tables and weights against the spec's fingerprints and totals, and nnhal's outputs of v1 and v2
// (float32) and of v1 in qu8 and qs8 against a double-precision forward pass written here from
// the spec (plain NHWC loops, TensorFlow SAME padding computed from its formula; no nnhal
// kernel). Executions after the first allocate nothing; 1, 2 and 3 threads give the same bits.
// Compiles the networks' kernel set only.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../../examples/mobilenet/network_kernels.hpp"
#include "../support/no_allocation.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/exec/thread_pool.hpp"

namespace {

namespace mn = mobilenet;

// ------------------------------------------------------------- double-precision reference

/// An NHWC activation of batch 1 in double.
struct Act {
  std::uint32_t h = 0, w = 0, c = 0;
  std::vector<double> v;
};

std::vector<double> to_double(const std::vector<float>& f) { return {f.begin(), f.end()}; }

/// TensorFlow SAME along one axis: out = ceil(in / stride), padding before = floor(total / 2).
struct Same {
  std::uint32_t out;
  std::int64_t before;
};
Same same(std::uint32_t in, std::uint32_t k, std::uint32_t stride) {
  const std::uint32_t out = (in + stride - 1) / stride;
  const std::int64_t total = std::max<std::int64_t>(std::int64_t{out - 1} * stride + k - in, 0);
  return {out, total / 2};
}

double relu6(double x) { return std::min(std::max(x, 0.0), 6.0); }

/// Dense convolution, weights [oc][k][k][ic], bias [oc].
Act conv(const Act& x, const std::vector<double>& w, const std::vector<double>& b, std::uint32_t k,
         std::uint32_t stride, std::uint32_t oc, bool act) {
  const Same sh = same(x.h, k, stride), sw = same(x.w, k, stride);
  Act y{sh.out, sw.out, oc, std::vector<double>(std::size_t{sh.out} * sw.out * oc)};
  const std::size_t ic = x.c;
  for (std::uint32_t oy = 0; oy < y.h; ++oy)
    for (std::uint32_t ox = 0; ox < y.w; ++ox) {
      double* out = y.v.data() + (std::size_t{oy} * y.w + ox) * oc;
      std::copy(b.begin(), b.end(), out);
      for (std::uint32_t ky = 0; ky < k; ++ky) {
        const std::int64_t iy = std::int64_t{oy} * stride + ky - sh.before;
        if (iy < 0 || iy >= x.h) continue;
        for (std::uint32_t kx = 0; kx < k; ++kx) {
          const std::int64_t ix = std::int64_t{ox} * stride + kx - sw.before;
          if (ix < 0 || ix >= x.w) continue;
          const double* in = x.v.data() + (static_cast<std::size_t>(iy) * x.w + static_cast<std::size_t>(ix)) * ic;
          const double* wk = w.data() + (std::size_t{ky} * k + kx) * ic;
          for (std::uint32_t o = 0; o < oc; ++o) {
            const double* wo = wk + std::size_t{o} * k * k * ic;
            double acc = 0.0;
            for (std::size_t i = 0; i < ic; ++i) acc += in[i] * wo[i];
            out[o] += acc;
          }
        }
      }
      if (act)
        for (std::uint32_t o = 0; o < oc; ++o) out[o] = relu6(out[o]);
    }
  return y;
}

/// Depthwise convolution (multiplier 1), weights [1][k][k][c].
Act dwconv(const Act& x, const std::vector<double>& w, const std::vector<double>& b, std::uint32_t k,
           std::uint32_t stride) {
  const Same sh = same(x.h, k, stride), sw = same(x.w, k, stride);
  const std::size_t c = x.c;
  Act y{sh.out, sw.out, x.c, std::vector<double>(std::size_t{sh.out} * sw.out * c)};
  for (std::uint32_t oy = 0; oy < y.h; ++oy)
    for (std::uint32_t ox = 0; ox < y.w; ++ox) {
      double* out = y.v.data() + (std::size_t{oy} * y.w + ox) * c;
      std::copy(b.begin(), b.end(), out);
      for (std::uint32_t ky = 0; ky < k; ++ky) {
        const std::int64_t iy = std::int64_t{oy} * stride + ky - sh.before;
        if (iy < 0 || iy >= x.h) continue;
        for (std::uint32_t kx = 0; kx < k; ++kx) {
          const std::int64_t ix = std::int64_t{ox} * stride + kx - sw.before;
          if (ix < 0 || ix >= x.w) continue;
          const double* in = x.v.data() + (static_cast<std::size_t>(iy) * x.w + static_cast<std::size_t>(ix)) * c;
          const double* wk = w.data() + (std::size_t{ky} * k + kx) * c;
          for (std::size_t i = 0; i < c; ++i) out[i] += in[i] * wk[i];
        }
      }
      for (std::size_t i = 0; i < c; ++i) out[i] = relu6(out[i]);
    }
  return y;
}

/// The 1001 softmax probabilities of a network, in double, from its table and generated weights.
std::vector<double> reference(const mn::NetworkDef& net) {
  std::vector<Act> outs(net.layers.size());
  const Act input{mn::kInputH, mn::kInputW, mn::kInputC, to_double(mn::generate_input(net))};
  std::vector<double> probabilities;
  std::vector<std::size_t> last_reader(net.layers.size(), 0);
  for (std::size_t i = 0; i < net.layers.size(); ++i)
    for (const int r : {net.layers[i].reads, net.layers[i].reads2})
      if (r >= 0) last_reader[static_cast<std::size_t>(r)] = i;
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    const mn::Layer& l = net.layers[i];
    const Act& x = l.reads < 0 ? input : outs[static_cast<std::size_t>(l.reads)];
    const std::vector<double> w = to_double(mn::generate_weights(net, i)), b = to_double(mn::generate_bias(net, i));
    Act& y = outs[i];
    switch (l.kind) {
      case mn::Kind::conv: y = conv(x, w, b, l.kernel, l.stride, l.out_c, l.relu6); break;
      case mn::Kind::dwconv: y = dwconv(x, w, b, l.kernel, l.stride); break;
      case mn::Kind::add: {
        const Act& x2 = outs[static_cast<std::size_t>(l.reads2)];
        y = x;
        for (std::size_t j = 0; j < y.v.size(); ++j) y.v[j] += x2.v[j];
        break;
      }
      case mn::Kind::gap: {
        y = Act{1, 1, x.c, std::vector<double>(x.c, 0.0)};
        for (std::size_t p = 0; p < std::size_t{x.h} * x.w; ++p)
          for (std::size_t c = 0; c < x.c; ++c) y.v[c] += x.v[p * x.c + c];
        for (double& v : y.v) v /= static_cast<double>(x.h * x.w);
        break;
      }
      case mn::Kind::fc: {
        y = Act{1, 1, l.out_c, b};
        for (std::size_t o = 0; o < l.out_c; ++o)
          for (std::size_t j = 0; j < x.c; ++j) y.v[o] += w[o * x.c + j] * x.v[j];
        break;
      }
      case mn::Kind::softmax: {
        const double m = *std::max_element(x.v.begin(), x.v.end());
        double sum = 0.0;
        probabilities.resize(x.v.size());
        for (std::size_t j = 0; j < x.v.size(); ++j) sum += probabilities[j] = std::exp(x.v[j] - m);
        for (double& p : probabilities) p /= sum;
        break;
      }
    }
    // Free the activations no later row reads (keeps memory low under sanitizers).
    for (std::size_t j = 0; j < i; ++j)
      if (last_reader[j] == i) outs[j].v = {};
  }
  return probabilities;
}

/// Each reference computed once per test program.
const std::vector<double>& reference_v1() {
  static const std::vector<double> p = reference(mn::mobilenet_v1());
  return p;
}
const std::vector<double>& reference_v2() {
  static const std::vector<double> p = reference(mn::mobilenet_v2());
  return p;
}

std::size_t argmax(const auto& v) {
  return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// ------------------------------------------------------------------------ nnhal's outputs

/// Builds, prepares (the networks' kernel set, the kernels on a pool of `threads`) and runs a
/// network; checks that reruns allocate nothing; returns the probabilities.
std::vector<float> run_nnhal(const mn::NetworkDef& def, mn::Precision precision, std::size_t threads = 1) {
  const mn::Network net = mn::build_network(def, precision);
  nnhal::ThreadPool pool(threads);
  nnhal::PrepareOptions options;
  if (threads > 1) options.parallel = &pool;
  auto prepared = nnhal::PreparedModel::prepare<mn::MobileNetKernels>(net.model, options);
  REQUIRE_MESSAGE(prepared.has_value(), (prepared ? "" : prepared.error().c_str()));
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());

  const std::vector<float> x = mn::generate_input(def);
  std::vector<std::byte> input(net.input_bytes());
  if (precision == mn::Precision::f32)
    std::memcpy(input.data(), x.data(), input.size());
  else
    mn::quantize_input(x.data(), x.size(), precision, reinterpret_cast<std::uint8_t*>(input.data()));
  std::vector<float> out(mn::kClasses, -1.0f);
  nnhal::Request request;
  request.pools.push_back({{input.data(), input.size()}, 0});
  request.pools.push_back({{reinterpret_cast<std::byte*>(out.data()), out.size() * sizeof(float)}, 0});
  request.inputs.push_back({false, {0, 0, static_cast<std::uint32_t>(input.size())}, {}});
  request.outputs.push_back({false, {1, 0, static_cast<std::uint32_t>(out.size() * sizeof(float))}, {}});
  const nnhal::Status first = execution->run(request);
  REQUIRE_MESSAGE(first.has_value(), (first ? "" : first.error().c_str()));
  const std::vector<float> result = out;
  nnhal::test::check_reruns_allocate_nothing(*execution, request);
  CHECK(out == result);  // the reruns give the same output
  return result;
}

void check_float(const std::vector<float>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
  INFO("max abs diff " << worst);
  CHECK(worst <= 1e-6);
  CHECK(argmax(got) == argmax(want));
}

void check_8bit(const std::vector<float>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
  INFO("max abs diff " << worst);
  CHECK(worst <= 2e-4);
  CHECK(argmax(got) == argmax(want));
}

}  // namespace

TEST_CASE("mobilenet: layer tables, weights and fingerprints as the spec") {
  const mn::NetworkDef v1 = mn::mobilenet_v1(), v2 = mn::mobilenet_v2();
  CHECK(v1.layers.size() == 30);
  CHECK(v2.layers.size() == 65);
  // Spec totals (MOBILENET.md section 7).
  const auto totals = [](const mn::NetworkDef& n, double& macs, std::size_t& weights, std::size_t& biases) {
    macs = 0, weights = 0, biases = 0;
    for (const mn::Layer& l : n.layers) macs += l.macs(), weights += l.weight_count(), biases += l.bias_count();
  };
  double macs = 0;
  std::size_t weights = 0, biases = 0;
  totals(v1, macs, weights, biases);
  CHECK(std::round(macs / 1e3) == 568741.0);  // 568.741 M
  CHECK(weights == 4210112);
  CHECK(biases == 11945);
  totals(v2, macs, weights, biases);
  CHECK(std::round(macs / 1e3) == 300776.0);  // 300.776 M
  CHECK(weights == 3471040);
  CHECK(biases == 18057);
  // Padding of every row is TensorFlow SAME.
  for (const mn::NetworkDef* n : {&v1, &v2})
    for (const mn::Layer& l : n->layers) {
      if (l.kind != mn::Kind::conv && l.kind != mn::Kind::dwconv) continue;
      CAPTURE(l.name);
      CHECK(l.pad_top == same(l.in_h, l.kernel, l.stride).before);
      CHECK(l.pad_top + l.pad_bottom == (l.out_h - 1) * l.stride + l.kernel - l.in_h);
      CHECK(l.out_h == same(l.in_h, l.kernel, l.stride).out);
    }
  CHECK(v1.layers[3].pad_top == 0);  // b2_dw: 3x3 stride 2 on 112
  CHECK(v1.layers[3].pad_bottom == 1);
  CHECK(mn::fingerprint(v1) == 0xf0a524c54d666697ull);
  CHECK(mn::fingerprint(v2) == 0xbe236a1c807622a9ull);
}

TEST_CASE("mobilenet v1 float32 agrees with a double forward pass") {
  check_float(run_nnhal(mn::mobilenet_v1(), mn::Precision::f32), reference_v1());
}

TEST_CASE("mobilenet v2 float32 agrees with a double forward pass") {
  check_float(run_nnhal(mn::mobilenet_v2(), mn::Precision::f32), reference_v2());
}

TEST_CASE("mobilenet v1 qu8 and qs8 agree with the float reference and with each other") {
  const std::vector<float> qu8 = run_nnhal(mn::mobilenet_v1(), mn::Precision::qu8);
  const std::vector<float> qs8 = run_nnhal(mn::mobilenet_v1(), mn::Precision::qs8);
  check_8bit(qu8, reference_v1());
  check_8bit(qs8, reference_v1());
  CHECK(qu8 == qs8);
}

TEST_CASE("mobilenet: the same outputs, bit for bit, with 1, 2 and 3 threads") {
  const struct {
    mn::NetworkDef (*define)();
    mn::Precision precision;
  } cases[] = {{mn::mobilenet_v1, mn::Precision::f32}, {mn::mobilenet_v2, mn::Precision::f32},
               {mn::mobilenet_v1, mn::Precision::qs8}};
  for (const auto& c : cases) {
    CAPTURE(mn::precision_name(c.precision));
    const std::vector<float> one = run_nnhal(c.define(), c.precision, 1);
    for (std::size_t threads : {2u, 3u}) {
      CAPTURE(threads);
      const std::vector<float> many = run_nnhal(c.define(), c.precision, threads);
      REQUIRE(many.size() == one.size());
      CHECK(std::memcmp(many.data(), one.data(), one.size() * sizeof(float)) == 0);
    }
  }
}
