#pragma once
/// \file
/// Shared parts of the operations that produce TENSOR_BOOL8: the six comparisons (EQUAL,
/// GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, NOT_EQUAL) and LOGICAL_AND / LOGICAL_OR /
/// LOGICAL_NOT. Slots, signatures, broadcast shape inference and reference kernels.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "nnhal/exec/operand.hpp"
#include "nnhal/ops/common/broadcast.hpp"
#include "nnhal/ops/signature.hpp"

namespace nnhal::ops::boolean_ops {

inline constexpr std::array<Slot, 2> kBinaryInputs{{
    {"input0", Role::Data},
    {"input1", Role::Data},
}};
inline constexpr std::array<Slot, 1> kUnaryInputs{{{"input", Role::Data}}};
inline constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};

/// Comparisons: {T, T} -> {TENSOR_BOOL8}.
inline constexpr auto kComparisonSignatures = for_each_type(
    std::array<TypeVersion, 6>{{
        {OperandType::TENSOR_BOOL8, HalVersion::V1_2},
        {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
        {OperandType::TENSOR_FLOAT32, HalVersion::V1_2},
        {OperandType::TENSOR_INT32, HalVersion::V1_2},
        {OperandType::TENSOR_QUANT8_ASYMM, HalVersion::V1_2},
        {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
    }},
    [](OperandType t, HalVersion v) { return sig(v, {t, t}, {OperandType::TENSOR_BOOL8}); });

/// LOGICAL_AND / LOGICAL_OR: {B8, B8} -> {B8}.
inline constexpr std::array<Signature, 1> kLogicalBinarySignatures{{
    sig(HalVersion::V1_2, {OperandType::TENSOR_BOOL8, OperandType::TENSOR_BOOL8},
        {OperandType::TENSOR_BOOL8}),
}};
/// LOGICAL_NOT: {B8} -> {B8}.
inline constexpr std::array<Signature, 1> kLogicalNotSignatures{{
    sig(HalVersion::V1_2, {OperandType::TENSOR_BOOL8}, {OperandType::TENSOR_BOOL8}),
}};

/// Output shape = broadcast of the two inputs.
inline Status infer_broadcast(const NodeIO& io) {
  auto shape = broadcast_shape(io.input(0).dims, io.input(1).dims);
  if (!shape) return std::move(shape.error());
  RtOperand& out = io.output(0);
  out.dims = *shape;
  out.rank_known = true;
  return {};
}

/// Output shape = input shape.
inline Status infer_same(const NodeIO& io) {
  RtOperand& out = io.output(0);
  out.dims = io.input(0).dims;
  out.rank_known = true;
  return {};
}

/// Comparison predicates.
struct Equal {
  template <class T> static bool apply(T a, T b) noexcept { return a == b; }
};
struct NotEqual {
  template <class T> static bool apply(T a, T b) noexcept { return a != b; }
};
struct Less {
  template <class T> static bool apply(T a, T b) noexcept { return a < b; }
};
struct LessEqual {
  template <class T> static bool apply(T a, T b) noexcept { return a <= b; }
};
struct Greater {
  template <class T> static bool apply(T a, T b) noexcept { return a > b; }
};
struct GreaterEqual {
  template <class T> static bool apply(T a, T b) noexcept { return a >= b; }
};

/// Compares the stored values (FLOAT32, INT32, BOOL8 as bytes) or, for FLOAT16, their exact float
/// values. Output 1 for true, 0 for false.
template <class Pred, OperandType T>
Status kernel_compare(const NodeIO& io) {
  const auto a = io.in<T>(0);
  const auto b = io.in<T>(1);
  const auto o = io.out<OperandType::TENSOR_BOOL8>(0);
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      o[i] = Pred::apply(static_cast<float>(a[ia]), static_cast<float>(b[ib])) ? 1 : 0;
    else
      o[i] = Pred::apply(a[ia], b[ib]) ? 1 : 0;
  });
  return {};
}

/// The same when prepare fixed one shape for both inputs and the output: a flat loop.
template <class Pred, OperandType T>
Status kernel_compare_same_shape(const NodeIO& io) {
  const auto n = static_cast<std::size_t>(io.output(0).dims.element_count());
  const auto* a = io.in_data<T>(0);
  const auto* b = io.in_data<T>(1);
  std::uint8_t* o = io.out_data<OperandType::TENSOR_BOOL8>(0);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      o[i] = Pred::apply(static_cast<float>(a[i]), static_cast<float>(b[i])) ? 1 : 0;
    else
      o[i] = Pred::apply(a[i], b[i]) ? 1 : 0;
  }
  return {};
}

/// Quantized inputs are compared by real value, computed in float exactly as the reference:
/// float(q - zeroPoint) * scale, each input with its own scale and zero point.
template <class Pred, OperandType T>
Status kernel_compare_quant(const NodeIO& io) {
  const auto a = io.in<T>(0);
  const auto b = io.in<T>(1);
  const auto o = io.out<OperandType::TENSOR_BOOL8>(0);
  const float sa = a.scale(), sb = b.scale();
  const std::int32_t za = a.zero_point(), zb = b.zero_point();
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    const float ra = static_cast<float>(static_cast<std::int32_t>(a[ia]) - za) * sa;
    const float rb = static_cast<float>(static_cast<std::int32_t>(b[ib]) - zb) * sb;
    o[i] = Pred::apply(ra, rb) ? 1 : 0;
  });
  return {};
}

/// The comparison kernel for the operand type of input 0.
template <class Pred>
Expected<KernelFn> select_comparison(const NodeIO& io) {
  const bool flat = io.same_known_shapes();
  switch (io.input(0).type) {
    case OperandType::TENSOR_BOOL8:
      return flat ? &kernel_compare_same_shape<Pred, OperandType::TENSOR_BOOL8>
                  : &kernel_compare<Pred, OperandType::TENSOR_BOOL8>;
    case OperandType::TENSOR_FLOAT16:
      return flat ? &kernel_compare_same_shape<Pred, OperandType::TENSOR_FLOAT16>
                  : &kernel_compare<Pred, OperandType::TENSOR_FLOAT16>;
    case OperandType::TENSOR_FLOAT32:
      return flat ? &kernel_compare_same_shape<Pred, OperandType::TENSOR_FLOAT32>
                  : &kernel_compare<Pred, OperandType::TENSOR_FLOAT32>;
    case OperandType::TENSOR_INT32:
      return flat ? &kernel_compare_same_shape<Pred, OperandType::TENSOR_INT32>
                  : &kernel_compare<Pred, OperandType::TENSOR_INT32>;
    case OperandType::TENSOR_QUANT8_ASYMM:
      return &kernel_compare_quant<Pred, OperandType::TENSOR_QUANT8_ASYMM>;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return &kernel_compare_quant<Pred, OperandType::TENSOR_QUANT8_ASYMM_SIGNED>;
    default: break;
  }
  return NNHAL_FAILURE("comparison has no kernel for this operand type");
}

/// Logical operators on bytes: any non-zero byte is true.
struct And {
  static bool apply(std::uint8_t a, std::uint8_t b) noexcept { return a != 0 && b != 0; }
};
struct Or {
  static bool apply(std::uint8_t a, std::uint8_t b) noexcept { return a != 0 || b != 0; }
};

template <class Op>
Status kernel_logical(const NodeIO& io) {
  const auto a = io.in<OperandType::TENSOR_BOOL8>(0);
  const auto b = io.in<OperandType::TENSOR_BOOL8>(1);
  const auto o = io.out<OperandType::TENSOR_BOOL8>(0);
  broadcast_for_each(o.dims(), a.dims(), b.dims(), [&](std::size_t i, std::size_t ia, std::size_t ib) {
    o[i] = Op::apply(a[ia], b[ib]) ? 1 : 0;
  });
  return {};
}

inline Status kernel_logical_not(const NodeIO& io) {
  const auto a = io.in<OperandType::TENSOR_BOOL8>(0);
  const auto o = io.out<OperandType::TENSOR_BOOL8>(0);
  const std::size_t n = o.size();
  for (std::size_t i = 0; i < n; ++i) o[i] = a[i] == 0 ? 1 : 0;
  return {};
}

}  // namespace nnhal::ops::boolean_ops
