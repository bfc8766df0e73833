#pragma once
/// \file
/// The kernels of ADD, SUB, MUL and DIV: broadcast shape inference and a kernel for every
/// element type (float through SIMD, half, int32, quant8 of both signs).

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/common/quantization.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/elementwise_f32.hpp"
#include "nnhal/simd/quant8_binary.hpp"

namespace nnhal::kernels::arithmetic {

/// Output shape = broadcast of the two inputs.
inline Status infer_broadcast(const NodeIO& io) {
  auto shape = broadcast_shape(io.input(0).dims, io.input(1).dims);
  if (!shape) return std::move(shape.error());
  io.output(0).dims = *shape;
  return {};
}

/// Elementwise functors: float, int32 (wrapping, as two's complement hardware does).
/// How an operation's quantized kernel rescales: ADD/SUB-style (inputs brought to a common
/// scale), MUL-style (one product rescale), or no quantized kernel (DIV).
enum class QuantKind { AddLike, MulLike, None };

struct Add {
  static constexpr simd::BinaryOp simd_op = simd::BinaryOp::Add;
  static constexpr QuantKind quant = QuantKind::AddLike;
  static constexpr bool negate_second = false;
  static float apply(float a, float b) noexcept { return a + b; }
  static std::int32_t apply(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  }
};
struct Sub {
  static constexpr simd::BinaryOp simd_op = simd::BinaryOp::Sub;
  static constexpr QuantKind quant = QuantKind::AddLike;
  static constexpr bool negate_second = true;  // reference: SUB is ADD with -input2_multiplier
  static float apply(float a, float b) noexcept { return a - b; }
  static std::int32_t apply(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
  }
};
struct Mul {
  static constexpr simd::BinaryOp simd_op = simd::BinaryOp::Mul;
  static constexpr QuantKind quant = QuantKind::MulLike;
  static float apply(float a, float b) noexcept { return a * b; }
  static std::int32_t apply(std::int32_t a, std::int32_t b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
  }
};
struct Div {
  static constexpr simd::BinaryOp simd_op = simd::BinaryOp::Div;
  static constexpr QuantKind quant = QuantKind::None;
  static float apply(float a, float b) noexcept { return a / b; }
  /// Floor division; x / 0 = 0 (reference behaviour); INT32_MIN / -1 wraps to INT32_MIN.
  static std::int32_t apply(std::int32_t a, std::int32_t b) noexcept {
    if (b == 0) return 0;
    if (b == -1) return static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(a));
    std::int32_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
  }
};

/// Reads the activation scalar (input 2); GENERAL_FAILURE if it is not a defined code.
inline Expected<std::int32_t> activation(const NodeIO& io) {
  const std::int32_t act = io.scalar<OperandType::INT32>(2);
  if (!is_valid_activation(act)) return NNHAL_FAILURE("invalid fused activation %" PRId32, act);
  return act;
}

/// Reference FLOAT32 kernel: any broadcast, scalar loop. The SIMD kernels are checked against it.
template <class Op>
Status reference_f32(const NodeIO& io) {
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const FloatRange r = float_activation_range(*act);
  const auto a = io.in<OperandType::TENSOR_FLOAT32>(0);
  const auto b = io.in<OperandType::TENSOR_FLOAT32>(1);
  const auto o = io.out<OperandType::TENSOR_FLOAT32>(0);
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    o[i] = r.apply(Op::apply(a[ia], b[ib]));
  });
  return {};
}

/// FLOAT32 kernel chosen at prepare time: SIMD for equal shapes and a scalar operand, the
/// reference walk for other broadcasts.
template <class Op>
Status kernel_f32(const NodeIO& io) {
  const auto a = io.in<OperandType::TENSOR_FLOAT32>(0);
  const auto b = io.in<OperandType::TENSOR_FLOAT32>(1);
  const auto o = io.out<OperandType::TENSOR_FLOAT32>(0);
  const std::size_t n = o.size();
  const bool a_full = a.size() == n, b_full = b.size() == n;
  if (!(a_full && (b_full || b.size() == 1)) && !(b_full && a.size() == 1))
    return reference_f32<Op>(io);
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const FloatRange r = float_activation_range(*act);
  if (a_full)
    io.params<SimdParams<simd::ElementwiseF32>>().simd->binary(a.data(), b.data(), !b_full, o.data(), n, r.min, r.max);
  else
    io.params<SimdParams<simd::ElementwiseF32>>().simd->binary_scalar_first(a.data()[0], b.data(), o.data(), n, r.min,
                                                                             r.max);
  return {};
}

template <class Op>
Status kernel_f16(const NodeIO& io) {
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const FloatRange r = float_activation_range(*act);
  const auto a = io.in<OperandType::TENSOR_FLOAT16>(0);
  const auto b = io.in<OperandType::TENSOR_FLOAT16>(1);
  const auto o = io.out<OperandType::TENSOR_FLOAT16>(0);
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    o[i] = Half(r.apply(Op::apply(static_cast<float>(a[ia]), static_cast<float>(b[ib]))));
  });
  return {};
}

template <class Op>
Status kernel_i32(const NodeIO& io) {
  // Reference quirk (HAL13.md i.9): INT32 arithmetic requires activation NONE, checked only at
  // execution time, as a GENERAL_FAILURE.
  if (io.scalar<OperandType::INT32>(2) != 0)
    return NNHAL_FAILURE("TENSOR_INT32 arithmetic requires fused activation NONE");
  const auto a = io.in<OperandType::TENSOR_INT32>(0);
  const auto b = io.in<OperandType::TENSOR_INT32>(1);
  const auto o = io.out<OperandType::TENSOR_INT32>(0);
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    o[i] = Op::apply(a[ia], b[ib]);
  });
  return {};
}

/// TENSOR_INT32 when prepare fixed one shape for both inputs and the output: a flat loop, no
/// views and no broadcasting (the case of loop counters and most element-wise graphs).
template <class Op>
Status kernel_i32_same_shape(const NodeIO& io) {
  if (io.scalar<OperandType::INT32>(2) != 0)
    return NNHAL_FAILURE("TENSOR_INT32 arithmetic requires fused activation NONE");
  const auto n = static_cast<std::size_t>(io.output(0).dims.element_count());
  const std::int32_t* a = io.in_data<OperandType::TENSOR_INT32>(0);
  const std::int32_t* b = io.in_data<OperandType::TENSOR_INT32>(1);
  std::int32_t* o = io.out_data<OperandType::TENSOR_INT32>(0);
  for (std::size_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b[i]);
  return {};
}

/// o[i] = one(a[ia], b[ib]) over the broadcast of a and b: a flat loop over the data when no
/// input broadcasts, broadcast_for_each otherwise.
template <class A, class B, class O, class F>
void apply_binary(const A& a, const B& b, const O& o, F&& one) {
  const std::size_t n = o.size();
  if (a.size() == n && b.size() == n) {  // same shapes: no broadcast indexing
    const auto* pa = a.data();
    const auto* pb = b.data();
    auto* po = o.data();
    for (std::size_t i = 0; i < n; ++i) po[i] = one(pa[i], pb[i]);
    return;
  }
  broadcast_for_each(o.dims(), a.dims(), b.dims(),
                     [&](std::size_t i, std::size_t ia, std::size_t ib) { o[i] = one(a[ia], b[ib]); });
}

/// Precomputed requantization of quantized ADD / SUB (TFLite's AddParams).
struct AddQuantParams {
  std::int32_t input1_offset, input2_offset, output_offset;
  quant::Multiplier input1, input2, output;
  static constexpr int kLeftShift = 20;
};

/// Builds AddQuantParams; for SUB the second multiplier is negated (reference behaviour).
inline AddQuantParams make_add_params(const RtOperand& a, const RtOperand& b, const RtOperand& o,
                                      bool subtract) noexcept {
  const double twice_max = 2.0 * static_cast<double>(a.scale > b.scale ? a.scale : b.scale);
  AddQuantParams p{};
  p.input1_offset = -a.zero_point;
  p.input2_offset = -b.zero_point;
  p.output_offset = o.zero_point;
  p.input1 = quant::quantize_multiplier(static_cast<double>(a.scale) / twice_max);
  p.input2 = quant::quantize_multiplier(static_cast<double>(b.scale) / twice_max);
  p.output = quant::quantize_multiplier(
      twice_max / (static_cast<double>(1 << AddQuantParams::kLeftShift) * static_cast<double>(o.scale)));
  if (subtract) p.input2.value = -p.input2.value;
  return p;
}

/// One element of quantized ADD / SUB as the reference computes it (the SIMD family
/// nnhal/simd/quant8_binary.hpp is checked bit for bit against it).
inline std::int32_t add_quant_one(const AddQuantParams& p, quant::QuantRange range, std::int32_t va,
                                  std::int32_t vb) noexcept {
  const std::int32_t x1 = (p.input1_offset + va) * (1 << AddQuantParams::kLeftShift);
  const std::int32_t x2 = (p.input2_offset + vb) * (1 << AddQuantParams::kLeftShift);
  const std::int32_t s1 = quant::multiply_by_quantized_multiplier(x1, p.input1.value, p.input1.shift);
  const std::int32_t s2 = quant::multiply_by_quantized_multiplier(x2, p.input2.value, p.input2.shift);
  const std::int32_t r =
      quant::multiply_by_quantized_multiplier(s1 + s2, p.output.value, p.output.shift) + p.output_offset;
  return r < range.min ? range.min : (r > range.max ? range.max : r);
}

/// Precomputed requantization of quantized MUL.
struct MulQuantParams {
  std::int32_t input1_offset, input2_offset, output_offset;
  quant::Multiplier output;
};

inline MulQuantParams make_mul_params(const RtOperand& a, const RtOperand& b, const RtOperand& o) noexcept {
  MulQuantParams p{};
  p.input1_offset = -a.zero_point;
  p.input2_offset = -b.zero_point;
  p.output_offset = o.zero_point;
  p.output = quant::quantize_multiplier(static_cast<double>(a.scale) * static_cast<double>(b.scale) /
                                        static_cast<double>(o.scale));
  return p;
}

/// One element of quantized MUL as the reference computes it.
inline std::int32_t mul_quant_one(const MulQuantParams& p, quant::QuantRange range, std::int32_t va,
                                  std::int32_t vb) noexcept {
  const std::int32_t prod = (p.input1_offset + va) * (p.input2_offset + vb);
  const std::int32_t r =
      quant::multiply_by_quantized_multiplier(prod, p.output.value, p.output.shift) + p.output_offset;
  return r < range.min ? range.min : (r > range.max ? range.max : r);
}

/// The SIMD family's form of an output multiplier: false when the shift is outside what the
/// family takes (a left shift past 31, where the reference's uint32 shift is undefined).
inline bool simd_output(const quant::Multiplier& m, std::int32_t& value, std::int32_t& left,
                        std::int32_t& right) noexcept {
  if (m.shift > 31 || m.shift < -31) return false;
  value = m.value;
  left = m.shift > 0 ? m.shift : 0;
  right = m.shift > 0 ? 0 : -m.shift;
  return true;
}

/// AddQuantParams in the SIMD family's form (clamp left open); false when the family does not
/// take them (then the scalar loop runs). The input multipliers of ADD are at most 1/2, so
/// their shifts are right shifts.
inline bool to_simd(const AddQuantParams& p, simd::Quant8AddParams& v) noexcept {
  if (p.input1.shift > 0 || p.input1.shift < -31 || p.input2.shift > 0 || p.input2.shift < -31) return false;
  v = simd::Quant8AddParams{};
  v.a_offset = p.input1_offset;
  v.b_offset = p.input2_offset;
  v.a_multiplier = p.input1.value;
  v.b_multiplier = p.input2.value;
  v.a_right = -p.input1.shift;
  v.b_right = -p.input2.shift;
  v.out_offset = p.output_offset;
  return simd_output(p.output, v.out_multiplier, v.out_left, v.out_right);
}

inline bool to_simd(const MulQuantParams& p, simd::Quant8MulParams& v) noexcept {
  v = simd::Quant8MulParams{};
  v.a_offset = p.input1_offset;
  v.b_offset = p.input2_offset;
  v.out_offset = p.output_offset;
  return simd_output(p.output, v.out_multiplier, v.out_left, v.out_right);
}

/// The same parameters with the operands swapped (for a scalar first operand).
inline simd::Quant8AddParams swapped(simd::Quant8AddParams v) noexcept {
  std::swap(v.a_offset, v.b_offset);
  std::swap(v.a_multiplier, v.b_multiplier);
  std::swap(v.a_right, v.b_right);
  return v;
}
inline simd::Quant8MulParams swapped(simd::Quant8MulParams v) noexcept {
  std::swap(v.a_offset, v.b_offset);
  return v;
}

/// A quantized node's parameters: the scalar form, and the SIMD family's table and form when it
/// takes them (simd == nullptr otherwise). Written once at prepare.
template <class Scalar, class Vector>
struct QuantNodeParams {
  Scalar scalar;
  Vector vec;
  const simd::Quant8Binary* simd;
};

template <class Scalar, class Vector>
QuantNodeParams<Scalar, Vector> make_node_params(const Scalar& p, bool reference) noexcept {
  QuantNodeParams<Scalar, Vector> np{};
  np.scalar = p;
  np.simd = !reference && to_simd(p, np.vec) ? &simd::quant8_binary() : nullptr;
  return np;
}

/// Runs quantized ADD/SUB (AddLike) or MUL: the SIMD family for equal shapes and a scalar
/// operand, the scalar reference loop (apply_binary) for other broadcasts.
template <OperandType T, class Scalar, class Vector, class One>
Status kernel_quant(const NodeIO& io, One one) {
  using E = element_t<T>;
  auto act = activation(io);
  if (!act) return std::move(act.error());
  const auto& np = io.params<QuantNodeParams<Scalar, Vector>>();
  const auto a = io.in<T>(0);
  const auto b = io.in<T>(1);
  const auto o = io.out<T>(0);
  const auto storage = quant::storage_range<E>();
  const auto range = quant::activation_range(static_cast<FusedActivationFunc>(*act), o.scale(),
                                             o.zero_point(), storage.min, storage.max);
  const std::size_t n = o.size();
  if (np.simd != nullptr) {
    const bool a_full = a.size() == n, b_full = b.size() == n;
    Vector v = np.vec;
    v.min = range.min;
    v.max = range.max;
    auto run = [&](const E* x, const E* y, bool y_scalar, const Vector& params) {
      if constexpr (std::is_same_v<Vector, simd::Quant8AddParams>)
        simd::quant8_add(*np.simd, x, y, y_scalar, o.data(), n, params);
      else
        simd::quant8_mul(*np.simd, x, y, y_scalar, o.data(), n, params);
    };
    if (a_full && (b_full || b.size() == 1)) {
      run(a.data(), b.data(), !b_full, v);
      return {};
    }
    if (b_full && a.size() == 1) {
      run(b.data(), a.data(), true, swapped(v));
      return {};
    }
  }
  apply_binary(a, b, o, [&](std::int32_t va, std::int32_t vb) { return static_cast<E>(one(np.scalar, range, va, vb)); });
  return {};
}

template <OperandType T>
Status kernel_add_quant(const NodeIO& io) {
  return kernel_quant<T, AddQuantParams, simd::Quant8AddParams>(io, &add_quant_one);
}

template <OperandType T>
Status kernel_mul_quant(const NodeIO& io) {
  return kernel_quant<T, MulQuantParams, simd::Quant8MulParams>(io, &mul_quant_one);
}

/// The kernels of ADD, SUB, MUL or DIV (Op), one per key type T, chosen once at prepare time;
/// quantized kernels get their rescaling multipliers precomputed into the node parameters.
template <class Op>
struct Family : KernelFamily {
  static Status infer(const NodeIO& io) { return infer_broadcast(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    if constexpr (T == OperandType::TENSOR_FLOAT32) {
      if (prepare.reference) return &reference_f32<Op>;
      prepare.store(simd_params(simd::elementwise_f32<Op::simd_op>()));
      return &kernel_f32<Op>;
    } else if constexpr (T == OperandType::TENSOR_FLOAT16) {
      return &kernel_f16<Op>;
    } else if constexpr (T == OperandType::TENSOR_INT32) {
      return io.same_known_shapes() && !prepare.reference ? &kernel_i32_same_shape<Op> : &kernel_i32<Op>;
    } else if constexpr (Op::quant == QuantKind::AddLike) {
      prepare.store(make_node_params<AddQuantParams, simd::Quant8AddParams>(
          make_add_params(io.input(0), io.input(1), io.output(0), Op::negate_second), prepare.reference));
      return &kernel_add_quant<T>;
    } else {
      static_assert(Op::quant == QuantKind::MulLike, "nnhal: no quantized kernel for this operation");
      prepare.store(make_node_params<MulQuantParams, simd::Quant8MulParams>(
          make_mul_params(io.input(0), io.input(1), io.output(0)), prepare.reference));
      return &kernel_mul_quant<T>;
    }
  }
};

}  // namespace nnhal::kernels::arithmetic
