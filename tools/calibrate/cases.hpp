#pragma once
/// \file
/// The calibrator's representative models: for each operand type, models whose first input has
/// that type and that nnhal runs today, each paired with the reference loop that computes the
/// same result (reference.hpp). Built with the typed ModelBuilder, so a model the operation
/// table does not accept does not compile.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "nnhal/core/operand_traits.hpp"
#include "nnhal/builder/builder.hpp"
#include "reference.hpp"

namespace nnhal::calibrate {

/// One representative model and its reference loop.
struct Case {
  OperandType type = OperandType::TENSOR_FLOAT32;  ///< first input's type: the entry it calibrates
  bool relaxed = false;  ///< counts for relaxedFloat32toFloat16PerformanceTensor instead
  std::string label;     ///< operation and shape, for the table
  Model model;
  RefArgs args;
  ReferenceFn reference = nullptr;
  /// Largest difference allowed between nnhal's and the reference's output elements: in units of
  /// the last place for integer types, relative (to max(1, |reference|)) for float types.
  double tolerance = 0.0;
};

namespace cases {

/// Elementwise models work on [1, 32, 32, 32]: 32768 elements, a mid-sized layer.
inline const std::vector<std::uint32_t> kShape{1, 32, 32, 32};
inline constexpr std::size_t kCount = 32 * 32 * 32;
/// Concatenation joins two [1, 32, 32, 16] along the last axis.
inline const std::vector<std::uint32_t> kHalfShape{1, 32, 32, 16};
/// Fully connected: [8, 256] x [128, 256]^T + bias -> [8, 128].
inline constexpr std::uint32_t kBatch = 8, kInputSize = 256, kUnits = 128;

inline std::string dims_text(const std::vector<std::uint32_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i == 0 ? "" : ",") + std::to_string(dims[i]);
  return s + "]";
}

inline OperandSpec spec(const std::vector<std::uint32_t>& dims, Quant q = {}) {
  return {dims, q.scale, q.zero_point};
}

/// Deterministic pseudo-random bits (xorshift32).
class Bits {
 public:
  explicit Bits(std::uint32_t seed) : s_(seed == 0 ? 0x9E3779B9u : seed) {}
  std::uint32_t next() noexcept {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 17;
    s_ ^= s_ << 5;
    return s_;
  }
  /// Uniform in [-1, 1].
  float unit() noexcept { return static_cast<float>(next() >> 8) * (2.0f / 16777215.0f) - 1.0f; }

 private:
  std::uint32_t s_;
};

/// Fills `count` elements of type `t` at `p` with deterministic values of a sensible range:
/// floats in [-1, 1], TENSOR_INT32 in [-1000, 1000], booleans 0/1, quantized types over their
/// whole storage range.
inline void fill(OperandType t, std::byte* p, std::size_t count, std::uint32_t seed) {
  Bits bits(seed);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t r = bits.next();
    switch (t) {
      case OperandType::TENSOR_FLOAT32:
        reinterpret_cast<float*>(p)[i] = bits.unit();
        break;
      case OperandType::TENSOR_FLOAT16:
        reinterpret_cast<Half*>(p)[i] = Half(bits.unit());
        break;
      case OperandType::TENSOR_INT32:
        reinterpret_cast<std::int32_t*>(p)[i] = static_cast<std::int32_t>(r % 2001) - 1000;
        break;
      case OperandType::TENSOR_BOOL8:
        reinterpret_cast<std::uint8_t*>(p)[i] = static_cast<std::uint8_t>(r & 1);
        break;
      default: {  // quantized and other byte-sized or 16-bit storage: raw bits
        const std::uint32_t size = element_size(t);
        std::memcpy(p + i * size, &r, size);
      }
    }
  }
}

/// A constant tensor of type T filled by fill(), also kept as bytes for the reference loop.
template <OperandType T>
std::vector<element_t<T>> constant_values(std::size_t count, std::uint32_t seed,
                                          std::vector<std::byte>& bytes) {
  std::vector<element_t<T>> v(count);
  fill(T, reinterpret_cast<std::byte*>(v.data()), count, seed);
  bytes.resize(count * sizeof(element_t<T>));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return v;
}

inline Case finish(OperandType type, std::string label, ModelBuilder& b, ReferenceFn ref,
                   double tol) {
  Case c;
  c.type = type;
  c.label = std::move(label);
  c.model = std::move(b).model();
  c.reference = ref;
  c.tolerance = tol;
  c.args.count = kCount;
  return c;
}

/// ADD / SUB / MUL / DIV of two [kShape] inputs, activation NONE.
template <OperationType Op, OperandType T>
Case arithmetic(const char* name, ReferenceFn ref, double tol, Quant q0 = {}, Quant q1 = {},
                Quant qo = {}) {
  ModelBuilder b;
  const auto x = b.input<T>(spec(kShape, q0));
  const auto y = b.input<T>(spec(kShape, q1));
  const auto act = b.scalar<OperandType::INT32>(0);
  b.output(b.operation<Op, T>(spec(kShape, qo), x, y, act));
  Case c = finish(T, std::string(name) + " " + dims_text(kShape), b, ref, tol);
  c.args.q0 = q0, c.args.q1 = q1, c.args.qout = qo;
  return c;
}

/// A comparison or boolean operation of two [kShape] inputs producing TENSOR_BOOL8.
template <OperationType Op, OperandType T>
Case to_bool(const char* name, ReferenceFn ref, Quant q0 = {}, Quant q1 = {}) {
  ModelBuilder b;
  const auto x = b.input<T>(spec(kShape, q0));
  const auto y = b.input<T>(spec(kShape, q1));
  b.output(b.operation<Op, OperandType::TENSOR_BOOL8>(spec(kShape), x, y));
  Case c = finish(T, std::string(name) + " " + dims_text(kShape), b, ref, 0.0);
  c.args.q0 = q0, c.args.q1 = q1;
  return c;
}

/// CONCATENATION of two [kHalfShape] inputs along axis 3 (same quantization everywhere).
template <OperandType T>
Case concatenation(ReferenceFn ref, Quant q = {}) {
  ModelBuilder b;
  const auto x = b.input<T>(spec(kHalfShape, q));
  const auto y = b.input<T>(spec(kHalfShape, q));
  const auto axis = b.scalar<OperandType::INT32>(3);
  b.output(b.operation<OperationType::CONCATENATION, T>(spec(kShape, q), x, y, axis));
  Case c = finish(T, "CONCATENATION 2x" + dims_text(kHalfShape), b, ref, 0.0);
  c.args.outer = kCount / 32;
  c.args.inner0 = c.args.inner1 = 16;
  return c;
}

/// CAST of one [kShape] input to type Out (Out == In: the identity cast, a copy).
template <OperandType In, OperandType Out>
Case cast(ReferenceFn ref, Quant q = {}) {
  ModelBuilder b;
  const auto x = b.input<In>(spec(kShape, q));
  b.output(b.operation<OperationType::CAST, Out>(spec(kShape, In == Out ? q : Quant{}), x));
  const std::string to = In == Out ? "identity" : std::string("to ") + std::string(to_string(Out));
  return finish(In, "CAST " + to + " " + dims_text(kShape), b, ref, 0.0);
}

/// FULLY_CONNECTED [kBatch, kInputSize] x [kUnits, kInputSize]^T + bias, activation NONE.
/// Float types take a bias of their own type; quantized ones a TENSOR_INT32 bias whose scale is
/// input scale * weights scale.
template <OperandType T, OperandType BiasT>
Case fully_connected(ReferenceFn ref, double tol, Quant qx = {}, Quant qw = {}, Quant qo = {}) {
  ModelBuilder b;
  RefArgs args;
  const auto x = b.input<T>(spec({kBatch, kInputSize}, qx));
  const auto wv = constant_values<T>(std::size_t{kUnits} * kInputSize, 11, args.weights);
  const auto w = b.constant<T>(std::span<const element_t<T>>(wv), spec({kUnits, kInputSize}, qw));
  const auto bv = constant_values<BiasT>(kUnits, 12, args.bias);
  const Quant qb{qx.scale * qw.scale, 0};
  const auto bias = b.constant<BiasT>(std::span<const element_t<BiasT>>(bv), spec({kUnits}, qb));
  const auto act = b.scalar<OperandType::INT32>(0);
  b.output(
      b.operation<OperationType::FULLY_CONNECTED, T>(spec({kBatch, kUnits}, qo), x, w, bias, act));
  Case c = finish(T, "FULLY_CONNECTED [8,256]x[128,256]", b, ref, tol);
  c.args.weights = std::move(args.weights);
  c.args.bias = std::move(args.bias);
  c.args.batch = kBatch, c.args.input_size = kInputSize, c.args.units = kUnits;
  c.args.q0 = qx, c.args.q1 = qw, c.args.qout = qo;
  return c;
}

/// Every representative model, in table order. FLOAT32 models appear twice: as themselves
/// and with relaxComputationFloat32toFloat16 (the relaxed tensor figure).
inline std::vector<Case> all() {
  constexpr auto F32 = OperandType::TENSOR_FLOAT32, F16 = OperandType::TENSOR_FLOAT16;
  constexpr auto I32 = OperandType::TENSOR_INT32, B8 = OperandType::TENSOR_BOOL8;
  constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM,
                 QAS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
  constexpr auto QS8 = OperandType::TENSOR_QUANT8_SYMM;
  constexpr auto QS16 = OperandType::TENSOR_QUANT16_SYMM, QA16 = OperandType::TENSOR_QUANT16_ASYMM;
  using OT = OperationType;
  constexpr double kFloat = 1e-5, kF16 = 2e-3, kSum = 1e-4, kQuant = 1.0;

  std::vector<Case> v;
  for (int relaxed = 0; relaxed < 2; ++relaxed) {
    std::vector<Case> f32;
    f32.push_back(arithmetic<OT::ADD, F32>("ADD", &ref::binary<float, ref::Plus>, kFloat));
    f32.push_back(arithmetic<OT::MUL, F32>("MUL", &ref::binary<float, ref::Times>, kFloat));
    f32.push_back(fully_connected<F32, F32>(&ref::fully_connected<float>, kSum));
    f32.push_back(to_bool<OT::LESS, F32>("LESS", &ref::less<float>));
    f32.push_back(concatenation<F32>(&ref::concat_last_axis<float>));
    for (Case& c : f32) {
      c.relaxed = relaxed != 0;
      c.model.relaxComputationFloat32toFloat16 = c.relaxed;
      v.push_back(std::move(c));
    }
  }

  v.push_back(arithmetic<OT::ADD, I32>("ADD", &ref::binary<std::int32_t, ref::Plus>, 0.0));
  v.push_back(arithmetic<OT::MUL, I32>("MUL", &ref::binary<std::int32_t, ref::Times>, 0.0));
  v.push_back(to_bool<OT::LESS, I32>("LESS", &ref::less<std::int32_t>));
  v.push_back(cast<I32, F32>(&ref::convert<std::int32_t, float>));

  const Quant ua{0.05f, 128}, ub{0.04f, 120}, uo{0.1f, 128}, umul{0.2f, 128};
  const Quant uw{0.02f, 120}, ufc{2.0f, 128};
  v.push_back(arithmetic<OT::ADD, QA8>("ADD", &ref::quant_add<std::uint8_t>, kQuant, ua, ub, uo));
  v.push_back(arithmetic<OT::MUL, QA8>("MUL", &ref::quant_mul<std::uint8_t>, kQuant, ua, ub, umul));
  v.push_back(
      fully_connected<QA8, I32>(&ref::quant_fully_connected<std::uint8_t>, kQuant, ua, uw, ufc));
  v.push_back(to_bool<OT::LESS, QA8>("LESS", &ref::quant_less<std::uint8_t>, ua, ub));
  v.push_back(concatenation<QA8>(&ref::concat_last_axis<std::uint8_t>, ua));

  v.push_back(cast<QS16, QS16>(&ref::convert<std::int16_t, std::int16_t>, Quant{0.01f, 0}));

  v.push_back(arithmetic<OT::ADD, F16>("ADD", &ref::binary<Half, ref::Plus>, kF16));
  v.push_back(arithmetic<OT::MUL, F16>("MUL", &ref::binary<Half, ref::Times>, kF16));
  v.push_back(fully_connected<F16, F16>(&ref::fully_connected<Half>, kF16));
  v.push_back(to_bool<OT::LESS, F16>("LESS", &ref::less<Half>));
  v.push_back(cast<F16, F32>(&ref::convert<Half, float>));

  v.push_back(to_bool<OT::LOGICAL_AND, B8>("LOGICAL_AND", &ref::logical_and));
  v.push_back(to_bool<OT::LOGICAL_OR, B8>("LOGICAL_OR", &ref::logical_or));
  v.push_back(to_bool<OT::EQUAL, B8>("EQUAL", &ref::equal_bytes));
  {
    ModelBuilder b;
    const auto x = b.input<B8>(spec(kShape));
    b.output(b.operation<OT::LOGICAL_NOT, B8>(spec(kShape), x));
    v.push_back(finish(B8, "LOGICAL_NOT " + dims_text(kShape), b, &ref::logical_not, 0.0));
  }

  v.push_back(cast<QA16, QA16>(&ref::convert<std::uint16_t, std::uint16_t>, Quant{0.125f, 1000}));
  v.push_back(cast<QS8, QS8>(&ref::convert<std::int8_t, std::int8_t>, Quant{0.05f, 0}));

  const Quant sa{0.05f, 0}, sb{0.04f, -8}, so{0.1f, 0}, smul{0.2f, 0};
  const Quant sw{0.02f, -8}, sfc{2.0f, 0};
  v.push_back(arithmetic<OT::ADD, QAS8>("ADD", &ref::quant_add<std::int8_t>, kQuant, sa, sb, so));
  v.push_back(arithmetic<OT::MUL, QAS8>("MUL", &ref::quant_mul<std::int8_t>, kQuant, sa, sb, smul));
  v.push_back(
      fully_connected<QAS8, I32>(&ref::quant_fully_connected<std::int8_t>, kQuant, sa, sw, sfc));
  v.push_back(to_bool<OT::LESS, QAS8>("LESS", &ref::quant_less<std::int8_t>, sa, sb));
  v.push_back(concatenation<QAS8>(&ref::concat_last_axis<std::int8_t>, sa));
  return v;
}

/// IF(c, then, else, x) on x: TENSOR_FLOAT32 [64]; then = ADD(x, 1), else = ADD(x, -1).
inline Case if_model() {
  constexpr auto F32 = OperandType::TENSOR_FLOAT32;
  const std::vector<std::uint32_t> shape{64};
  ModelBuilder b;
  const auto branch = [&]<class Tag>(float k) {
    auto g = b.add_subgraph<Tag, F32>(spec(shape));
    const float value[1] = {k};
    const auto c = g.template constant<F32>(value, spec({1}));
    const auto act = g.template scalar<OperandType::INT32>(0);
    return g.returns(g.template operation<OperationType::ADD, F32>(spec(shape), g.template input<0>(), c, act));
  };
  const auto then_g = branch.template operator()<struct Then>(1.0f);
  const auto else_g = branch.template operator()<struct Else>(-1.0f);
  const auto cond = b.input<OperandType::TENSOR_BOOL8>(spec({1}));
  const auto x = b.input<F32>(spec(shape));
  b.output(std::get<0>(b.if_(cond, then_g, else_g, x)));
  Case c = finish(F32, "IF, branches ADD [64] +1 / -1", b, &ref::branch_add, 1e-6);
  c.args.count = 64;
  return c;
}

/// WHILE(i < limit) i = i + 1 on TENSOR_INT32 [1]: condition LESS, body ADD.
inline Case while_model() {
  constexpr auto I32 = OperandType::TENSOR_INT32;
  const std::vector<std::uint32_t> one{1};
  ModelBuilder b;
  auto cond_b = b.add_subgraph<struct Cond, I32, I32>(spec(one), spec(one));
  const auto [ci, climit] = cond_b.inputs();
  const auto cond = cond_b.returns(
      cond_b.operation<OperationType::LESS, OperandType::TENSOR_BOOL8>(spec(one), ci, climit));
  auto body_b = b.add_subgraph<struct Body, I32, I32>(spec(one), spec(one));  // limit: read only
  const std::int32_t step[1] = {1};
  const auto k = body_b.constant<I32>(step, spec(one));
  const auto act = body_b.scalar<OperandType::INT32>(0);
  const auto body = body_b.returns(body_b.operation<OperationType::ADD, I32>(spec(one), body_b.input<0>(), k, act));
  const auto i0 = b.input<I32>(spec(one));
  const auto limit = b.input<I32>(spec(one));
  b.output(std::get<0>(b.while_(cond, body, i0, limit)));
  Case c = finish(I32, "WHILE i < limit: i = i + 1 [1]", b, &ref::counting_loop, 0.0);
  c.args.count = 1;
  return c;
}

}  // namespace cases
}  // namespace nnhal::calibrate
