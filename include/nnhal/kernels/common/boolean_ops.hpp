#pragma once
/// \file
/// The kernels of the operations that produce TENSOR_BOOL8: the six comparisons and
/// LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT. Broadcast shape inference and reference kernels.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/broadcast.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal::kernels::boolean_ops {

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

/// The comparisons' kernels (Pred), one per key type T: a flat loop when prepare fixed one
/// shape for both inputs and the output, else broadcasting; quantized inputs by real value.
template <class Pred>
struct ComparisonFamily : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_BOOL8, OperandType::TENSOR_FLOAT16,
                                    OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                                    OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return infer_broadcast(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare&) {
    if constexpr (is_quantized(T)) return &kernel_compare_quant<Pred, T>;
    else return io.same_known_shapes() ? &kernel_compare_same_shape<Pred, T> : &kernel_compare<Pred, T>;
  }
};

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

/// LOGICAL_AND / LOGICAL_OR (Op): TENSOR_BOOL8 only.
template <class Op>
struct LogicalFamily : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_BOOL8};
  static Status infer(const NodeIO& io) { return infer_broadcast(io); }
  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel_logical<Op>;
  }
};

/// LOGICAL_NOT: TENSOR_BOOL8 only.
struct LogicalNotFamily : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_BOOL8};
  static Status infer(const NodeIO& io) { return infer_same(io); }
  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel_logical_not;
  }
};

}  // namespace nnhal::kernels::boolean_ops
