#pragma once
/// \file
/// Reductions over a set of axes (REDUCE_ALL/ANY/MAX/MIN/PROD/SUM, MEAN): shape inference and
/// one loop nest shared by all of them. The input axes are split into the trailing run of
/// kept axes ("inner", contiguous in input and output) and, before it, kept ("outer") and
/// reduced axes, each list merged where neighbours are contiguous. For every outer position the
/// reduced positions are visited in row-major order (the order in which the reference adds
/// them), and the innermost loop is contiguous: over inner positions (a block of accumulators)
/// when the last axis is kept, over the last reduced run when it is reduced. These loops are
/// scalar; when the reduced axes are the innermost contiguous block (every reduced axis after
/// every kept one, size-1 axes aside), FLOAT32 SUM / PROD / MAX / MIN / MEAN and 8-bit MAX /
/// MIN / MEAN run contiguous rows through the SIMD family nnhal/simd/reduce_f32.hpp instead
/// (chosen at prepare; exact for max, min and the 8-bit mean, reassociated float sums and
/// products within the bounds stated in nnhal/simd/reduce_f32-inl.h).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "nnhal/core/half.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/copy.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/simd/reduce_f32.hpp"

namespace nnhal::kernels {

/// An element as the type it is compared and accumulated in: float for half, itself otherwise.
template <class E>
constexpr auto widen(E v) noexcept {
  if constexpr (std::is_same_v<E, Half>)
    return static_cast<float>(v);
  else
    return v;
}

/// A list of axes (size, element stride), adjacent contiguous axes merged, size-1 axes dropped.
struct AxisList {
  std::array<std::size_t, kMaxRank> size{};
  std::array<std::ptrdiff_t, kMaxRank> stride{};
  std::size_t rank = 0;

  void add(std::size_t n, std::ptrdiff_t s) noexcept {
    if (n == 1) return;
    if (rank > 0 && stride[rank - 1] == s * static_cast<std::ptrdiff_t>(n)) {
      size[rank - 1] *= n;
      stride[rank - 1] = s;
      return;
    }
    size[rank] = n;
    stride[rank] = s;
    ++rank;
  }
  std::size_t count() const noexcept {
    std::size_t n = 1;
    for (std::size_t k = 0; k < rank; ++k) n *= size[k];
    return n;
  }
};

/// Calls f(offset) for every position of `l` in row-major order. Precondition: no size is 0.
template <class F>
void for_each_offset(const AxisList& l, F&& f) {
  std::array<std::size_t, kMaxRank> idx{};
  std::ptrdiff_t off = 0;
  for (;;) {
    f(off);
    std::size_t k = l.rank;
    for (; k > 0; --k) {
      if (++idx[k - 1] < l.size[k - 1]) {
        off += l.stride[k - 1];
        break;
      }
      idx[k - 1] = 0;
      off -= l.stride[k - 1] * static_cast<std::ptrdiff_t>(l.size[k - 1] - 1);
    }
    if (k == 0) return;
  }
}

/// Reduces `src` (shape `dims`) over `axes` into `dst` (row-major, reduced axes removed):
/// `Op::init()`, `Op::step(acc, element)` and `Op::finish(acc, count)` where count is the
/// number of reduced elements per output.
template <class Op, class E, class O>
void reduce(const E* src, const Dims& dims, const AxisSet& axes, O* dst) {
  using Acc = decltype(Op::init());
  const std::size_t rank = dims.rank();
  std::size_t t = 0;  // one past the last reduced axis
  for (std::size_t k = 0; k < rank; ++k)
    if (axes.on[k]) t = k + 1;
  const auto strides = [&] {
    std::array<std::ptrdiff_t, kMaxRank> s{};
    std::ptrdiff_t n = 1;
    for (std::size_t k = rank; k-- > 0;) {
      s[k] = n;
      n *= static_cast<std::ptrdiff_t>(dims[k]);
    }
    return s;
  }();
  const std::size_t inner = dims_product(dims, t, rank);
  AxisList outer, reduced;
  std::size_t outer_count = 1, reduced_count = 1;
  for (std::size_t k = 0; k < t; ++k) {
    (axes.on[k] ? reduced : outer).add(dims[k], strides[k]);
    (axes.on[k] ? reduced_count : outer_count) *= dims[k];
  }
  if (outer_count == 0 || inner == 0) return;
  if (reduced_count == 0) {  // nothing to reduce: every output is the empty reduction
    std::fill_n(dst, outer_count * inner, Op::finish(Op::init(), 0));
    return;
  }
  if (inner == 1 && reduced.rank > 0 && reduced.stride[reduced.rank - 1] == 1) {
    // The last axis is reduced: its (merged) run is contiguous, the innermost loop walks it.
    const std::size_t run = reduced.size[reduced.rank - 1];
    AxisList rest = reduced;
    rest.rank -= 1;
    for_each_offset(outer, [&](std::ptrdiff_t o) {
      Acc acc = Op::init();
      for_each_offset(rest, [&](std::ptrdiff_t r) {
        const E* p = src + o + r;
        for (std::size_t j = 0; j < run; ++j) acc = Op::step(acc, p[j]);
      });
      *dst++ = Op::finish(acc, reduced_count);
    });
    return;
  }
  // The last axis is kept: accumulate a block of inner positions at a time.
  constexpr std::size_t kBlock = 64;
  for_each_offset(outer, [&](std::ptrdiff_t o) {
    for (std::size_t c0 = 0; c0 < inner; c0 += kBlock) {
      const std::size_t n = std::min(kBlock, inner - c0);
      std::array<Acc, kBlock> acc;
      for (std::size_t j = 0; j < n; ++j) acc[j] = Op::init();
      for_each_offset(reduced, [&](std::ptrdiff_t r) {
        const E* p = src + o + r + c0;
        for (std::size_t j = 0; j < n; ++j) acc[j] = Op::step(acc[j], p[j]);
      });
      for (std::size_t j = 0; j < n; ++j) dst[c0 + j] = Op::finish(acc[j], reduced_count);
    }
    dst += inner;
  });
}

namespace reduce_common {

/// Output shape of {input, axes, keep_dims}: keep_dims is BOOL (REDUCE_*) or INT32 > 0 (MEAN).
/// Errors: input rank above 4, axes not 1-D or out of range.
template <OperandType KeepType>
Status infer(const NodeIO& io) {
  const Dims& in = io.input(0).dims;
  if (in.rank() > 4) return NNHAL_INVALID("input rank %zu is above 4", in.rank());
  auto axes = read_axes(io, 1, in.rank());
  if (!axes) return std::move(axes.error());
  const bool keep = io.scalar<KeepType>(2) > 0;
  return set_output(io, 0, reduced_dims(in, *axes, keep));
}

/// The kernel of reduction Op on type T.
template <class Op, OperandType T>
Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  auto axes = read_axes(io, 1, in.dims.rank());
  if (!axes) return std::move(axes.error());
  reduce<Op>(io.in_data<T>(0), in.dims, *axes, io.out_data<T>(0));
  return {};
}

inline constexpr std::array kFloat{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32};
inline constexpr std::array kFloatQuant{OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32,
                                        OperandType::TENSOR_QUANT8_ASYMM,
                                        OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
inline constexpr std::array kBool{OperandType::TENSOR_BOOL8};

/// Converts an accumulator back to the element type E.
template <class E, class Acc>
constexpr E narrow(Acc v) noexcept {
  if constexpr (std::is_same_v<E, Half>)
    return Half(static_cast<float>(v));
  else
    return static_cast<E>(v);
}

/// REDUCE_SUM / REDUCE_PROD (float accumulators for half, as the reference's float16 path
/// computes through float).
template <class E>
struct Sum {
  static constexpr float init() noexcept { return 0.0f; }
  static constexpr float step(float a, E v) noexcept { return a + widen(v); }
  static constexpr E finish(float a, std::size_t) noexcept { return narrow<E>(a); }
};
template <class E>
struct Prod {
  static constexpr float init() noexcept { return 1.0f; }
  static constexpr float step(float a, E v) noexcept { return a * widen(v); }
  static constexpr E finish(float a, std::size_t) noexcept { return narrow<E>(a); }
};

/// REDUCE_MAX / REDUCE_MIN, in the stored domain (out q = in, so quantized values compare as
/// stored). The empty reduction gives the identity (-inf / +inf, or the storage limit).
template <class E, bool IsMax>
struct Extreme {
  using Acc = decltype(widen(E{}));
  static constexpr Acc init() noexcept {
    if constexpr (std::numeric_limits<Acc>::has_infinity)
      return IsMax ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::infinity();
    else
      return IsMax ? std::numeric_limits<Acc>::lowest() : std::numeric_limits<Acc>::max();
  }
  static constexpr Acc step(Acc a, E v) noexcept {
    const Acc w = widen(v);
    return IsMax ? (w > a ? w : a) : (w < a ? w : a);
  }
  static constexpr E finish(Acc a, std::size_t) noexcept { return narrow<E>(a); }
};
template <class E>
using Max = Extreme<E, true>;
template <class E>
using Min = Extreme<E, false>;

/// REDUCE_ALL / REDUCE_ANY on TENSOR_BOOL8 (non-zero = true; the output is 0 or 1).
template <class E>
struct All {
  static constexpr bool init() noexcept { return true; }
  static constexpr bool step(bool a, E v) noexcept { return a && v != 0; }
  static constexpr E finish(bool a, std::size_t) noexcept { return a ? 1 : 0; }
};
template <class E>
struct Any {
  static constexpr bool init() noexcept { return false; }
  static constexpr bool step(bool a, E v) noexcept { return a || v != 0; }
  static constexpr E finish(bool a, std::size_t) noexcept { return a ? 1 : 0; }
};

/// MEAN as the reference computes it (tflite reference_ops::Mean via meanGeneric): float
/// inputs sum in float (half converted to float) and divide by the count; quantized inputs sum
/// the stored values in an integer and divide with C++ integer division, i.e. truncate toward
/// zero (no rounding, no requantization: out q = in). The reference leaves the output 0 for an
/// empty reduction.
template <class E>
struct Mean {
  static constexpr bool kFloat = std::is_same_v<E, float> || std::is_same_v<E, Half>;
  using Acc = std::conditional_t<kFloat, float, std::int64_t>;
  static constexpr Acc init() noexcept { return 0; }
  static constexpr Acc step(Acc a, E v) noexcept { return a + static_cast<Acc>(widen(v)); }
  static constexpr E finish(Acc a, std::size_t count) noexcept {
    if (count == 0) return narrow<E>(0);
    if constexpr (kFloat)
      return narrow<E>(a / static_cast<float>(count));
    else
      return static_cast<E>(a / static_cast<std::int64_t>(count));
  }
};

/// The SIMD row kernel of reduction Op, if it has one: `fn` (a member of simd::ReduceF32) and
/// whether its results are still to be divided by the row length (the float mean, whose rows
/// are sums).
template <class Op>
struct SimdRows {};

// The operations with a SIMD row kernel (nnhal/simd/reduce_f32.hpp).
template <>
struct SimdRows<Sum<float>> {
  static constexpr auto fn = &simd::ReduceF32::sum;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Prod<float>> {
  static constexpr auto fn = &simd::ReduceF32::prod;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Max<float>> {
  static constexpr auto fn = &simd::ReduceF32::max;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Min<float>> {
  static constexpr auto fn = &simd::ReduceF32::min;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Max<std::uint8_t>> {
  static constexpr auto fn = &simd::ReduceF32::max_u8;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Min<std::uint8_t>> {
  static constexpr auto fn = &simd::ReduceF32::min_u8;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Max<std::int8_t>> {
  static constexpr auto fn = &simd::ReduceF32::max_i8;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Min<std::int8_t>> {
  static constexpr auto fn = &simd::ReduceF32::min_i8;
  static constexpr bool divide = false;
};
/// Float MEAN: the row sums, then each divided by the count as Mean::finish does.
template <>
struct SimdRows<Mean<float>> {
  static constexpr auto fn = &simd::ReduceF32::sum;
  static constexpr bool divide = true;
};
template <>
struct SimdRows<Mean<std::uint8_t>> {
  static constexpr auto fn = &simd::ReduceF32::mean_u8;
  static constexpr bool divide = false;
};
template <>
struct SimdRows<Mean<std::int8_t>> {
  static constexpr auto fn = &simd::ReduceF32::mean_i8;
  static constexpr bool divide = false;
};

/// When the reduced axes of `dims` are the innermost contiguous block (size-1 axes aside),
/// sets the number of rows and their length and returns true. False for an empty tensor.
inline bool innermost_rows(const Dims& dims, const AxisSet& axes, std::size_t& rows, std::size_t& n) noexcept {
  rows = 1;
  n = 1;
  bool reducing = false;
  for (std::size_t k = 0; k < dims.rank(); ++k) {
    if (dims[k] == 0) return false;
    if (dims[k] == 1) continue;
    if (axes.on[k]) {
      reducing = true;
      n *= dims[k];
    } else {
      if (reducing) return false;
      rows *= dims[k];
    }
  }
  return true;
}

/// The kernel of reduction Op on type T with a SIMD row kernel: rows through the table chosen
/// at prepare when the reduced axes are innermost, else the general loop nest.
template <class Op, OperandType T>
Status kernel_rows(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  auto axes = read_axes(io, 1, in.dims.rank());
  if (!axes) return std::move(axes.error());
  using E = element_t<T>;
  std::size_t rows = 0, n = 0;
  if (!innermost_rows(in.dims, *axes, rows, n)) {
    reduce<Op>(io.in_data<T>(0), in.dims, *axes, io.out_data<T>(0));
    return {};
  }
  E* out = io.out_data<T>(0);
  (io.params<SimdParams<simd::ReduceF32>>().simd->*SimdRows<Op>::fn)(io.in_data<T>(0), rows, n, out);
  if constexpr (SimdRows<Op>::divide) {
    // Mean::finish for n > 0 (a / float(n)) in blocks of 16 rows, a fixed trip count that g++
    // vectorizes at -O2 too (its cheap cost model leaves a loop of run-time length scalar): a
    // division per row is a noticeable share of a short row's time.
    const float count = static_cast<float>(n);
    std::size_t r = 0;
    for (; r + 16 <= rows; r += 16)
      for (std::size_t k = 0; k < 16; ++k) out[r + k] = out[r + k] / count;
    for (; r < rows; ++r) out[r] = out[r] / count;
  }
  return {};
}

/// A reduction family: Op<E> for each type of `Types`.
template <template <class> class Op, OperandType KeepType, const auto& Types>
struct Family : KernelFamily {
  static constexpr auto types = Types;
  static Status infer(const NodeIO& io) { return reduce_common::infer<KeepType>(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare& prepare) {
    using O = Op<element_t<T>>;
    if constexpr (requires { SimdRows<O>::fn; }) {
      if (!prepare.reference) {  // reference kernels: the general loop nest
        prepare.store(simd_params(simd::reduce_f32()));
        return &kernel_rows<O, T>;
      }
    }
    return &kernel<O, T>;
  }
};

}  // namespace reduce_common

}  // namespace nnhal::kernels
