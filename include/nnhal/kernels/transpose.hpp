#pragma once
/// \file
/// TRANSPOSE kernels (the row: nnhal/ops/transpose.hpp): shape inference and one byte-moving
/// kernel for every type; 32-bit elements moved across the innermost axis go through the SIMD
/// transpose chosen at prepare (nnhal/simd/transpose_32.hpp).

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/block_copy.hpp"
#include "nnhal/kernels/common/simd_params.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/transpose.hpp"
#include "nnhal/simd/transpose_32.hpp"

namespace nnhal::kernels::transpose {

/// The permutation: input 1's values, or the reversed axes when it is omitted. Errors: rank
/// above 4 (the reference's limit), perm not 1-D with one entry per axis, an entry out of range
/// or repeated (a repeat would make the copy read past the input).
inline Expected<std::array<std::size_t, kMaxRank>> permutation(const NodeIO& io) {
  const std::size_t rank = io.input(0).dims.rank();
  if (rank > 4) return NNHAL_INVALID("input rank %zu is above 4", rank);
  std::array<std::size_t, kMaxRank> perm{};
  if (!io.has_input(1)) {
    for (std::size_t i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
    return perm;
  }
  const auto p = io.in<OperandType::TENSOR_INT32>(1);
  if (p.rank() != 1 || p.size() != rank)
    return NNHAL_INVALID("perm must be 1-D with %zu entries (the input rank)", rank);
  std::array<bool, kMaxRank> seen{};
  for (std::size_t i = 0; i < rank; ++i) {
    if (p[i] < 0 || static_cast<std::size_t>(p[i]) >= rank)
      return NNHAL_INVALID("perm[%zu] = %" PRId32 " is outside [0, %zu)", i, p[i], rank);
    if (seen[static_cast<std::size_t>(p[i])])
      return NNHAL_INVALID("perm[%zu] = %" PRId32 " is repeated", i, p[i]);
    seen[static_cast<std::size_t>(p[i])] = true;
    perm[i] = static_cast<std::size_t>(p[i]);
  }
  return perm;
}

/// out.dim[i] = in.dim[perm[i]].
inline Status infer(const NodeIO& io) {
  auto perm = permutation(io);
  if (!perm) return std::move(perm.error());
  const Dims& in = io.input(0).dims;
  Dims out;
  for (std::size_t i = 0; i < in.rank(); ++i) out.push_back(in[(*perm)[i]]);
  return set_output(io, 0, out);
}

/// One strided block copy: output axis i walks input axis perm[i]. Axes that stay contiguous
/// merge into rows moved with memcpy; a 32-bit transpose of the innermost axis runs the SIMD
/// table kept in the node's parameters.
inline Status kernel(const NodeIO& io) {
  auto perm = permutation(io);
  if (!perm) return std::move(perm.error());
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const auto src = row_major_strides(in.dims);
  const auto dst = row_major_strides(out.dims);
  CopyPlan plan;
  for (std::size_t i = 0; i < out.dims.rank(); ++i) plan.add(out.dims[i], src[(*perm)[i]], dst[i]);
  const simd::Transpose32* t32 = io.params<SimdParams<simd::Transpose32>>().simd;  // nullptr: reference kernels
  strided_copy(out.data, in.data, plan, element_size(in.type), t32 == nullptr ? nullptr : t32->transpose);
  return {};
}

/// TRANSPOSE moves bytes, so one kernel serves every data type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM,
                                    OperandType::TENSOR_FLOAT16, OperandType::TENSOR_QUANT8_ASYMM_SIGNED};
  static Status infer(const NodeIO& io) { return transpose::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare& prepare) {
    prepare.store(prepare.reference ? SimdParams<simd::Transpose32>{nullptr} : simd_params(simd::transpose_32()));
    return &kernel;
  }
};

}  // namespace nnhal::kernels::transpose

namespace nnhal {

template <>
struct Kernels<OperationType::TRANSPOSE> : kernels::transpose::Family {};
static_assert(kernels_cover_row<OperationType::TRANSPOSE>());

}  // namespace nnhal
