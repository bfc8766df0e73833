#pragma once
/// \file
/// Shared parts of the elementwise kernels (ABS, EXP, LOG, NEG, RSQRT, SIN, SQRT, FLOOR, RELU*,
/// LOGISTIC, TANH, ELU, HARD_SWISH, QUANTIZE, DEQUANTIZE): same-shape inference with the
/// operation's rank limit, a map over float data computed in float (FLOAT16 is widened, computed
/// and rounded once, as the reference does), and the prepare-time check of an output whose
/// quantization the reference fixes.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nnhal/core/operand_traits.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/kernel.hpp"

namespace nnhal::kernels::elementwise {

/// Output shape = input 0's shape; a rank above `max_rank` (known only now when the model left
/// it unknown) is an error naming the operation.
inline Status infer_same_shape(const NodeIO& io, std::string_view op, std::size_t max_rank = kMaxRank) {
  const Dims& in = io.input(0).dims;
  if (in.rank() > max_rank)
    return NNHAL_INVALID("%s input 0 has rank %zu, at most %zu is supported", op.data(), in.rank(), max_rank);
  RtOperand& out = io.output(0);
  out.dims = in;
  out.rank_known = true;
  return {};
}

/// out[i] = F(in[i]) for a float tensor type T (FLOAT32 or FLOAT16), computed in float.
template <OperandType T, class F>
void map_float(const NodeIO& io, F&& f) {
  const auto in = io.in<T>(0);
  const auto out = io.out<T>(0);
  const std::size_t n = in.size();
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      out[i] = Half(f(static_cast<float>(in[i])));
    else
      out[i] = f(in[i]);
  }
}

/// The value of a float scalar input of the matching type (FLOAT16 for TENSOR_FLOAT16 data,
/// FLOAT32 otherwise), as float.
template <OperandType T>
float float_scalar(const NodeIO& io, std::size_t i) noexcept {
  if constexpr (T == OperandType::TENSOR_FLOAT16)
    return static_cast<float>(io.scalar<OperandType::FLOAT16>(i));
  else
    return io.scalar<OperandType::FLOAT32>(i);
}

/// GENERAL_FAILURE unless output 0 has exactly the quantization the reference computes for it
/// (the reference sets it at execution and rejects a declared output that differs).
inline Status require_output_quant(const NodeIO& io, std::string_view op, float scale, std::int32_t zero_point) {
  const RtOperand& out = io.output(0);
  if (out.scale != scale || out.zero_point != zero_point)
    return NNHAL_FAILURE("%s output has scale %g and zeroPoint %" PRId32
                         "; the operation produces scale %g and zeroPoint %" PRId32,
                         op.data(), static_cast<double>(out.scale), out.zero_point,
                         static_cast<double>(scale), zero_point);
  return {};
}

/// GENERAL_FAILURE unless output 0 keeps input 0's quantization (operations whose output the
/// reference gives the input's scale and zero point).
inline Status require_input_quant(const NodeIO& io, std::string_view op) {
  return require_output_quant(io, op, io.input(0).scale, io.input(0).zero_point);
}

/// The float types of the elementwise math operations.
inline constexpr std::array kFloatTypes{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};
/// The float types and TENSOR_INT32 (ABS, NEG).
inline constexpr std::array kFloatIntTypes{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                                           OperandType::TENSOR_INT32};

/// A family of elementwise kernels without quantization: Op::apply(float) -> float for the float
/// types (FLOAT16 computed in float) and Op::apply(std::int32_t) for TENSOR_INT32, over
/// `Types`; Op::kName names the operation and Op::kMaxRank is its rank limit.
template <class Op, const auto& Types = kFloatTypes>
struct MathFamily : KernelFamily {
  static constexpr auto types = Types;

  static Status infer(const NodeIO& io) { return infer_same_shape(io, Op::kName, Op::kMaxRank); }

  template <OperandType T>
  static Status kernel(const NodeIO& io) {
    if constexpr (T == OperandType::TENSOR_INT32) {
      const std::size_t n = static_cast<std::size_t>(io.input(0).dims.element_count());
      const std::int32_t* in = io.in_data<T>(0);
      std::int32_t* out = io.out_data<T>(0);
      for (std::size_t i = 0; i < n; ++i) out[i] = Op::apply(in[i]);
    } else {
      map_float<T>(io, [](float x) { return Op::apply(x); });
    }
    return {};
  }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::elementwise
