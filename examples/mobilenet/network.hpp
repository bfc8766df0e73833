#pragma once
/// \file
/// MobileNet v1 and v2 (width 1.0, batch 1, 224x224x3 NHWC input, 1001 classes) as nnhal models,
/// defined as in the peers' MOBILENET.md (sections 3, 4, 5 and 7): the layer tables, the
/// deterministic SplitMix64 weights, their FNV-1a fingerprint, the 8-bit quantization of v1, and
/// the construction of each network with nnhal::ModelBuilder. The weights live in one aligned
/// block the returned Network owns and the model references (CONSTANT_REFERENCE), so they are not
/// copied into the model nor by prepare (which packs what its kernels pack).
///
/// This header names the kernels the networks need (MobileNetKernels) but includes none: the file
/// that prepares them includes the kernels (network_kernels.hpp).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/interface/kernel_set.hpp"

namespace mobilenet {

using nnhal::OperandType;
using nnhal::OperationType;
inline constexpr OperandType kF32 = OperandType::TENSOR_FLOAT32;
inline constexpr OperandType kQU8 = OperandType::TENSOR_QUANT8_ASYMM;
inline constexpr OperandType kQS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;

/// The kernels the networks run, and only them (float32 for every operation; 8-bit for the v1
/// convolutions, pooling and fully connected layer and the dequantization of its logits).
using MobileNetKernels = nnhal::KernelSet<
    nnhal::Use<OperationType::CONV_2D, kF32, kQU8, kQS8>,
    nnhal::Use<OperationType::DEPTHWISE_CONV_2D, kF32, kQU8, kQS8>,
    nnhal::Use<OperationType::ADD, kF32>,
    nnhal::Use<OperationType::AVERAGE_POOL_2D, kF32, kQU8, kQS8>,
    nnhal::Use<OperationType::FULLY_CONNECTED, kF32, kQU8, kQS8>,
    nnhal::Use<OperationType::DEQUANTIZE, kQU8, kQS8>,
    nnhal::Use<OperationType::SOFTMAX, kF32>>;

inline constexpr std::uint32_t kInputH = 224, kInputW = 224, kInputC = 3, kClasses = 1001;

enum class Kind { conv, dwconv, add, gap, fc, softmax };

inline const char* kind_name(Kind k) noexcept {
  constexpr const char* names[] = {"conv", "dwconv", "add", "gap", "fc", "softmax"};
  return names[static_cast<int>(k)];
}

/// One row of a layer table (MOBILENET.md section 7).
struct Layer {
  std::string name;
  Kind kind = Kind::conv;
  std::uint32_t in_h = 0, in_w = 0, in_c = 0;
  std::uint32_t out_h = 0, out_w = 0, out_c = 0;
  std::uint32_t kernel = 1, stride = 1;
  std::uint32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;  ///< TensorFlow SAME
  bool relu6 = false;
  int reads = -1;   ///< row whose output this layer reads; -1 = the network input
  int reads2 = -1;  ///< add: the other row read

  std::size_t weight_count() const noexcept {
    switch (kind) {
      case Kind::conv: return std::size_t{out_c} * kernel * kernel * in_c;
      case Kind::dwconv: return std::size_t{kernel} * kernel * out_c;
      case Kind::fc: return std::size_t{out_c} * in_c;
      default: return 0;
    }
  }
  std::size_t bias_count() const noexcept { return weight_count() == 0 ? 0 : out_c; }
  std::uint32_t fan_in() const noexcept {
    return kind == Kind::conv ? kernel * kernel * in_c : kind == Kind::dwconv ? kernel * kernel : in_c;
  }
  double macs() const noexcept {
    const double out = double(out_h) * out_w * out_c;
    return kind == Kind::conv ? out * kernel * kernel * in_c
           : kind == Kind::dwconv ? out * kernel * kernel
           : kind == Kind::fc ? double(in_c) * out_c
                              : 0.0;
  }
};

/// A layer table and the id that seeds its weights (1 = v1, 2 = v2).
struct NetworkDef {
  const char* name = "";
  std::uint32_t id = 0;
  std::vector<Layer> layers;
};

namespace detail {

/// Appends rows, tracking the current activation shape (the last row's output).
class TableWriter {
 public:
  TableWriter(const char* name, std::uint32_t id) {
    def_.name = name;
    def_.id = id;
  }
  int last() const noexcept { return static_cast<int>(def_.layers.size()) - 1; }
  std::uint32_t channels() const noexcept { return c_; }

  void conv(std::string name, std::uint32_t k, std::uint32_t stride, std::uint32_t out_c, bool relu6) {
    push(std::move(name), Kind::conv, k, stride, out_c, relu6);
  }
  void dwconv(std::string name, std::uint32_t stride) { push(std::move(name), Kind::dwconv, 3, stride, c_, true); }
  void add(std::string name, int other) {
    push(std::move(name), Kind::add, 1, 1, c_, false);
    def_.layers.back().reads2 = other;
  }
  /// gap over the whole map, fc to the classes, softmax.
  void head() {
    Layer& g = push("gap", Kind::gap, h_, 1, c_, false);
    g.out_h = g.out_w = 1;
    g.pad_top = g.pad_left = g.pad_bottom = g.pad_right = 0;
    h_ = w_ = 1;
    push("fc", Kind::fc, 1, 1, kClasses, false);
    push("softmax", Kind::softmax, 1, 1, kClasses, false);
  }
  NetworkDef take() && { return std::move(def_); }

 private:
  Layer& push(std::string name, Kind kind, std::uint32_t k, std::uint32_t stride, std::uint32_t out_c, bool relu6) {
    Layer l;
    l.name = std::move(name);
    l.kind = kind;
    l.in_h = h_, l.in_w = w_, l.in_c = c_;
    l.kernel = k, l.stride = stride;
    // TensorFlow SAME: out = ceil(in / stride), the total padding split floor(total / 2) before.
    l.out_h = (h_ + stride - 1) / stride, l.out_w = (w_ + stride - 1) / stride, l.out_c = out_c;
    const auto total = [&](std::uint32_t out, std::uint32_t in) {
      const std::int64_t t = std::int64_t{out - 1} * stride + k - in;
      return static_cast<std::uint32_t>(t > 0 ? t : 0);
    };
    const std::uint32_t ph = total(l.out_h, h_), pw = total(l.out_w, w_);
    l.pad_top = ph / 2, l.pad_bottom = ph - ph / 2;
    l.pad_left = pw / 2, l.pad_right = pw - pw / 2;
    l.relu6 = relu6;
    l.reads = last();
    def_.layers.push_back(std::move(l));
    h_ = def_.layers.back().out_h, w_ = def_.layers.back().out_w, c_ = out_c;
    return def_.layers.back();
  }

  NetworkDef def_;
  std::uint32_t h_ = kInputH, w_ = kInputW, c_ = kInputC;
};

inline std::string block(int b, const char* suffix) { return "b" + std::to_string(b) + "_" + suffix; }

}  // namespace detail

/// MobileNet v1: 30 rows.
inline NetworkDef mobilenet_v1() {
  detail::TableWriter t("mobilenet_v1", 1);
  t.conv("conv0", 3, 2, 32, true);
  constexpr std::uint32_t out_c[13] = {64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024};
  for (int b = 1; b <= 13; ++b) {
    const bool s2 = b == 2 || b == 4 || b == 6 || b == 12;
    t.dwconv(detail::block(b, "dw"), s2 ? 2 : 1);
    t.conv(detail::block(b, "pw"), 1, 1, out_c[b - 1], true);
  }
  t.head();
  return std::move(t).take();
}

/// MobileNet v2: 65 rows.
inline NetworkDef mobilenet_v2() {
  detail::TableWriter t("mobilenet_v2", 2);
  t.conv("conv0", 3, 2, 32, true);
  struct Stage {
    std::uint32_t expand, out_c, repeat, stride;
  };
  constexpr Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                              {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  int b = 0;
  for (const Stage& s : stages)
    for (std::uint32_t r = 0; r < s.repeat; ++r, ++b) {
      const int block_input = t.last();
      const std::uint32_t in_c = t.channels(), stride = r == 0 ? s.stride : 1;
      if (s.expand > 1) t.conv(detail::block(b, "expand"), 1, 1, in_c * s.expand, true);
      t.dwconv(detail::block(b, "dw"), stride);
      t.conv(detail::block(b, "project"), 1, 1, s.out_c, false);
      if (stride == 1 && in_c == s.out_c) t.add(detail::block(b, "add"), block_input);
    }
  t.conv("conv_last", 1, 1, 1280, true);
  t.head();
  return std::move(t).take();
}

// ------------------------------------------------------------------------------- weights

/// SplitMix64, one stream per tensor (MOBILENET.md section 4).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform on [-1, 1), 24 bits, exact in float.
  float uniform() noexcept {
    const auto top = static_cast<std::int32_t>(next() >> 40);
    return static_cast<float>(top - (1 << 23)) * 0x1p-23f;
  }

 private:
  std::uint64_t state_;
};

/// The stream of tensor `t` of network `id`: 0 = input, 2i+1 = weights of row i, 2i+2 = its bias.
inline SplitMix64 stream(std::uint32_t id, std::uint64_t t) noexcept {
  return SplitMix64((std::uint64_t{id} << 32) + t);
}

/// The network input, [1, 224, 224, 3], written to `out` (224*224*3 floats).
inline void generate_input(const NetworkDef& net, float* out) {
  SplitMix64 r = stream(net.id, 0);
  for (std::size_t i = 0; i < std::size_t{kInputH} * kInputW * kInputC; ++i) out[i] = r.uniform();
}
inline std::vector<float> generate_input(const NetworkDef& net) {
  std::vector<float> x(std::size_t{kInputH} * kInputW * kInputC);
  generate_input(net, x.data());
  return x;
}

/// Weights of row `i` in the neutral layout, written to `out` (weight_count() floats).
inline void generate_weights(const NetworkDef& net, std::size_t i, float* out) {
  const Layer& l = net.layers[i];
  const float gain = l.relu6 ? 6.0f : 3.0f;
  const float a = std::sqrt(gain / static_cast<float>(l.fan_in()));
  SplitMix64 r = stream(net.id, 2 * i + 1);
  for (std::size_t j = 0; j < l.weight_count(); ++j) out[j] = a * r.uniform();
}
inline std::vector<float> generate_weights(const NetworkDef& net, std::size_t i) {
  std::vector<float> w(net.layers[i].weight_count());
  generate_weights(net, i, w.data());
  return w;
}

/// Bias of row `i` (bias_count() floats).
inline void generate_bias(const NetworkDef& net, std::size_t i, float* out) {
  SplitMix64 r = stream(net.id, 2 * i + 2);
  for (std::size_t j = 0; j < net.layers[i].bias_count(); ++j) out[j] = 0.1f * r.uniform();
}
inline std::vector<float> generate_bias(const NetworkDef& net, std::size_t i) {
  std::vector<float> b(net.layers[i].bias_count());
  generate_bias(net, i, b.data());
  return b;
}

/// FNV-1a 64 over the little-endian bytes of every generated float: input, then weights and
/// bias of each row in table order.
inline std::uint64_t fingerprint(const NetworkDef& net) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  const auto mix = [&h](const std::vector<float>& v) {
    for (const float f : v) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, sizeof bits);
      for (int byte = 0; byte < 4; ++byte) {
        h ^= (bits >> (8 * byte)) & 0xFFu;
        h *= 0x100000001B3ull;
      }
    }
  };
  mix(generate_input(net));
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    mix(generate_weights(net, i));
    mix(generate_bias(net, i));
  }
  return h;
}

// ---------------------------------------------------------------------------- 8-bit scheme

/// Element type of the activations of a built network.
enum class Precision { f32, qu8, qs8 };

inline const char* precision_name(Precision p) noexcept {
  return p == Precision::f32 ? "f32" : p == Precision::qu8 ? "qu8" : "qs8";
}

/// Fixed scales of MOBILENET.md section 5 (real = scale * (q - zero_point)).
inline constexpr float kInputScale = 1.0f / 128.0f;
inline constexpr float kReluScale = 6.0f / 255.0f;  ///< ReLU6 outputs and pooled features
inline constexpr float kLogitScale = 1.0f / 32.0f;

/// Zero points, per precision (qu8 = int8's + 128).
inline constexpr std::int32_t input_zero_point(Precision p) noexcept { return p == Precision::qu8 ? 128 : 0; }
inline constexpr std::int32_t relu_zero_point(Precision p) noexcept { return p == Precision::qu8 ? 0 : -128; }
inline constexpr std::int32_t logit_zero_point(Precision p) noexcept { return p == Precision::qu8 ? 128 : 0; }
inline constexpr std::int32_t weight_zero_point(Precision p) noexcept { return p == Precision::qu8 ? 128 : 0; }

/// Per-tensor weight scale: max|w| / 127 (1 for an all-zero tensor).
inline float weight_scale(const float* w, std::size_t n) noexcept {
  float m = 0.0f;
  for (std::size_t i = 0; i < n; ++i) m = std::max(m, std::fabs(w[i]));
  return m > 0.0f ? m / 127.0f : 1.0f;
}

/// q - zero_point of a weight, in [-127, 127].
inline std::int32_t quantize_weight(float w, float scale) noexcept {
  return std::clamp(static_cast<std::int32_t>(std::lrintf(w / scale)), -127, 127);
}

/// An int32 bias of scale input_scale * weight_scale (computed in float).
inline std::int32_t quantize_bias(float b, float input_scale, float w_scale) noexcept {
  return static_cast<std::int32_t>(std::lrintf(b / (input_scale * w_scale)));
}

/// The 8-bit network input of a float image, as stored bytes (int8 as its two's complement).
inline void quantize_input(const float* x, std::size_t n, Precision p, std::uint8_t* out) noexcept {
  const long lo = p == Precision::qu8 ? 0 : -128, hi = lo + 255;
  for (std::size_t i = 0; i < n; ++i) {
    const long q = std::lrintf(x[i] / kInputScale) + input_zero_point(p);
    out[i] = static_cast<std::uint8_t>(std::clamp(q, lo, hi));
  }
}

// --------------------------------------------------------------------------- nnhal model

/// A built network: the nnhal model, the weight block it references (keep it alive as long as
/// the model and what is prepared from it), and a name per model operation in execution order.
struct Network {
  struct FreeBlock {
    void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t{64}); }
  };
  NetworkDef def;
  Precision precision = Precision::f32;
  std::unique_ptr<std::byte[], FreeBlock> weights;
  std::size_t weight_bytes = 0;
  nnhal::Model model;
  std::vector<std::string> operation_names;

  /// Bytes of the model input ([1,224,224,3] float32, or 8-bit) and output (1001 float32).
  std::size_t input_bytes() const noexcept {
    return std::size_t{kInputH} * kInputW * kInputC * (precision == Precision::f32 ? 4 : 1);
  }
  static constexpr std::size_t output_bytes() noexcept { return std::size_t{kClasses} * 4; }
};

namespace detail {

inline constexpr std::size_t align64(std::size_t n) noexcept { return (n + 63) / 64 * 64; }

/// Builds `net` with activations of type A (float32, or 8-bit for A = QU8 / QS8).
template <OperandType A>
Network build(NetworkDef net, Precision precision) {
  constexpr bool quant = A != kF32;
  constexpr OperandType B = quant ? OperandType::TENSOR_INT32 : kF32;  // bias type
  using nnhal::OperandRef;
  using nnhal::OperandSpec;
  Network out;
  out.precision = precision;

  // Layout of the weight block: each tensor 64-byte aligned.
  const std::size_t w_elem = quant ? 1 : 4;
  std::vector<std::size_t> w_at(net.layers.size()), b_at(net.layers.size());
  std::size_t total = 0;
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    w_at[i] = total;
    total = align64(total + net.layers[i].weight_count() * w_elem);
    b_at[i] = total;
    total = align64(total + net.layers[i].bias_count() * 4);
  }
  out.weights.reset(static_cast<std::byte*>(::operator new[](total == 0 ? 64 : total, std::align_val_t{64})));
  out.weight_bytes = total;

  nnhal::ModelBuilder b;
  const std::uint32_t pool = b.pool({out.weights.get(), total});
  const auto scalar_i32 = [&](std::int32_t v) { return b.scalar<OperandType::INT32>(v); };

  struct Value {
    OperandRef<A> ref;
    float scale = 0.0f;
    std::int32_t zero_point = 0;
  };
  std::vector<Value> values(net.layers.size());
  const auto spec = [&](std::vector<std::uint32_t> dims, float scale, std::int32_t zp) {
    return quant ? OperandSpec{std::move(dims), scale, zp} : OperandSpec{std::move(dims)};
  };
  const Value input{b.input<A>(spec({1, kInputH, kInputW, kInputC}, kInputScale, input_zero_point(precision))),
                    quant ? kInputScale : 0.0f, quant ? input_zero_point(precision) : 0};

  // Weights and bias of row i, generated in place (quantized per tensor for 8-bit networks).
  std::vector<float> scratch;
  const auto weights = [&](std::size_t i, std::vector<std::uint32_t> w_dims, float in_scale) {
    const Layer& l = net.layers[i];
    const std::size_t nw = l.weight_count(), nb = l.bias_count();
    std::byte* w_dst = out.weights.get() + w_at[i];
    std::byte* b_dst = out.weights.get() + b_at[i];
    float w_scale = 0.0f;
    if constexpr (quant) {
      scratch.resize(nw + nb);
      generate_weights(net, i, scratch.data());
      generate_bias(net, i, scratch.data() + nw);
      w_scale = weight_scale(scratch.data(), nw);
      const std::int32_t zp = weight_zero_point(precision);
      for (std::size_t j = 0; j < nw; ++j)
        w_dst[j] = static_cast<std::byte>(static_cast<std::uint8_t>(quantize_weight(scratch[j], w_scale) + zp));
      for (std::size_t j = 0; j < nb; ++j) {
        const std::int32_t q = quantize_bias(scratch[nw + j], in_scale, w_scale);
        std::memcpy(b_dst + 4 * j, &q, 4);
      }
    } else {
      generate_weights(net, i, reinterpret_cast<float*>(w_dst));
      generate_bias(net, i, reinterpret_cast<float*>(b_dst));
    }
    const auto w = b.constant_reference<A>(pool, static_cast<std::uint32_t>(w_at[i]),
                                           static_cast<std::uint32_t>(nw * w_elem),
                                           spec(std::move(w_dims), w_scale, weight_zero_point(precision)));
    const auto bias = b.constant_reference<B>(pool, static_cast<std::uint32_t>(b_at[i]),
                                              static_cast<std::uint32_t>(nb * 4),
                                              spec({l.out_c}, in_scale * w_scale, 0));
    return std::pair{w, bias};
  };

  constexpr std::int32_t kSame = 1, kValid = 2, kNone = 0, kRelu6 = 3;
  OperandRef<kF32> result{};
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    const Layer& l = net.layers[i];
    const Value& src = l.reads < 0 ? input : values[static_cast<std::size_t>(l.reads)];
    const std::int32_t act = l.relu6 ? kRelu6 : kNone;
    // ReLU6 outputs (and the pooled features) in [0, 6]: 6/255 from the type's lowest value.
    const float out_scale = l.kind == Kind::fc ? kLogitScale : l.kind == Kind::gap ? src.scale : kReluScale;
    const std::int32_t out_zp = l.kind == Kind::fc    ? logit_zero_point(precision)
                                : l.kind == Kind::gap ? src.zero_point
                                                      : relu_zero_point(precision);
    Value& v = values[i];
    if (quant) v.scale = out_scale, v.zero_point = out_zp;
    const auto out_spec = [&] { return spec({1, l.out_h, l.out_w, l.out_c}, out_scale, out_zp); };
    switch (l.kind) {
      case Kind::conv: {
        const auto [w, bias] = weights(i, {l.out_c, l.kernel, l.kernel, l.in_c}, src.scale);
        v.ref = b.operation<OperationType::CONV_2D, A>(out_spec(), src.ref, w, bias, scalar_i32(kSame),
                                                         scalar_i32(static_cast<std::int32_t>(l.stride)),
                                                         scalar_i32(static_cast<std::int32_t>(l.stride)),
                                                         scalar_i32(act));
        break;
      }
      case Kind::dwconv: {
        const auto [w, bias] = weights(i, {1, l.kernel, l.kernel, l.out_c}, src.scale);
        v.ref = b.operation<OperationType::DEPTHWISE_CONV_2D, A>(
            out_spec(), src.ref, w, bias, scalar_i32(kSame), scalar_i32(static_cast<std::int32_t>(l.stride)),
            scalar_i32(static_cast<std::int32_t>(l.stride)), scalar_i32(1), scalar_i32(act));
        break;
      }
      case Kind::add:
        if constexpr (quant) return Network{};  // no 8-bit scheme for residual adds (v2)
        else
          v.ref = b.operation<OperationType::ADD, A>(out_spec(), src.ref,
                                                     values[static_cast<std::size_t>(l.reads2)].ref,
                                                     scalar_i32(kNone));
        break;
      case Kind::gap:
        v.ref = b.operation<OperationType::AVERAGE_POOL_2D, A>(
            out_spec(), src.ref, scalar_i32(kValid), scalar_i32(1), scalar_i32(1),
            scalar_i32(static_cast<std::int32_t>(l.kernel)), scalar_i32(static_cast<std::int32_t>(l.kernel)),
            scalar_i32(kNone));
        break;
      case Kind::fc: {
        const auto [w, bias] = weights(i, {l.out_c, l.in_c}, src.scale);
        v.ref = b.operation<OperationType::FULLY_CONNECTED, A>(spec({1, l.out_c}, out_scale, out_zp), src.ref, w,
                                                               bias, scalar_i32(kNone));
        break;
      }
      case Kind::softmax: {
        OperandRef<kF32> logits{src.ref.index};
        if constexpr (quant) {
          logits = b.operation<OperationType::DEQUANTIZE, kF32>(OperandSpec{{1, l.in_c}}, src.ref);
          out.operation_names.push_back("logits_dequantize");
        }
        result = b.operation<OperationType::SOFTMAX, kF32>(OperandSpec{{1, l.out_c}}, logits,
                                                           b.scalar<OperandType::FLOAT32>(1.0f));
        break;
      }
    }
    out.operation_names.push_back(l.name);
  }
  b.output(result);
  out.model = std::move(b).model();
  out.def = std::move(net);
  return out;
}

}  // namespace detail

/// Builds `net` as an nnhal model of the given precision. The 8-bit precisions are defined for
/// MobileNet v1 only (a table with residual adds gives an empty model, which fails validation).
inline Network build_network(NetworkDef net, Precision precision) {
  switch (precision) {
    case Precision::qu8: return detail::build<kQU8>(std::move(net), precision);
    case Precision::qs8: return detail::build<kQS8>(std::move(net), precision);
    case Precision::f32: break;
  }
  return detail::build<kF32>(std::move(net), precision);
}

}  // namespace mobilenet
