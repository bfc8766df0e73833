#pragma once
/// \file
/// SLICE (86): extracts `size[i]` elements from `begin[i]` along every axis (-1 = to the end);
/// out q = in. Zero-sized inputs allowed.

#include <array>
#include <cstdint>
#include <cstring>

#include "nnhal/ops/common/copy.hpp"
#include "nnhal/ops/common/signature_lists.hpp"
#include "nnhal/ops/operation_info.hpp"

namespace nnhal::ops {

namespace slice {
inline constexpr std::array<Slot, 3> kInputs{{
    {"input", Role::Data},
    {"begin", Role::Parameter},  // TENSOR_INT32 [rank]
    {"size", Role::Parameter},   // TENSOR_INT32 [rank]
}};
inline constexpr auto& kOutputs = lists::kSingleOutput;
/// {T, TENSOR_INT32, TENSOR_INT32} -> {T}: F16, F32, I32, QA8 (1.2); QAS8 (1.3).
inline constexpr auto kSignatures =
    for_each_type(lists::kFloatIntQuant, [](OperandType t, HalVersion v) {
      return sig(v, {t, OperandType::TENSOR_INT32, OperandType::TENSOR_INT32}, {t});
    });

/// Output shape = the sizes (a -1 size runs to the end). Reference checks: the input has rank
/// >= 1, begin and size hold one entry per axis, 0 <= begin <= dim, size >= 0 after expanding
/// -1, begin + size <= dim.
inline Status infer(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const auto begin = io.in<OperandType::TENSOR_INT32>(1);
  const auto size = io.in<OperandType::TENSOR_INT32>(2);
  const std::size_t rank = in.dims.rank();
  if (rank == 0) return NNHAL_INVALID("input must have rank >= 1");
  if (begin.rank() != 1 || begin.size() != rank || size.rank() != 1 || size.size() != rank)
    return NNHAL_INVALID("begin and size must be 1-D with %zu entries", rank);
  Dims out;
  out.resize(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t dim = in.dims[i];
    const std::int64_t b = begin[i];
    std::int64_t n = size[i];
    if (b < 0 || b > dim) return NNHAL_INVALID("begin[%zu] = %lld is outside [0, %lld]", i, static_cast<long long>(b), static_cast<long long>(dim));
    if (n == -1) n = dim - b;
    if (n < 0 || b + n > dim)
      return NNHAL_INVALID("size[%zu] = %lld does not fit axis %zu of size %lld from %lld", i,
                           static_cast<long long>(size[i]), i, static_cast<long long>(dim), static_cast<long long>(b));
    out[i] = static_cast<std::uint32_t>(n);
  }
  io.output(0).dims = out;
  return {};
}

/// Copies the selected box row by row (innermost axis contiguous); works on bytes, so one
/// kernel serves every element type.
inline Status kernel(const NodeIO& io) {
  const RtOperand& in = io.input(0);
  const RtOperand& out = io.output(0);
  const auto begin = io.in<OperandType::TENSOR_INT32>(1);
  const std::size_t rank = in.dims.rank();
  const std::size_t elem = element_size(in.type);
  if (out.dims.element_count() == 0) return {};
  std::array<std::size_t, kMaxRank> stride{}, idx{};
  stride[rank - 1] = elem;
  for (std::size_t k = rank - 1; k-- > 0;) stride[k] = stride[k + 1] * in.dims[k + 1];
  const std::size_t row = out.dims[rank - 1] * elem;
  const std::size_t rows = static_cast<std::size_t>(out.dims.element_count()) / out.dims[rank - 1];
  std::size_t base = 0;
  for (std::size_t k = 0; k < rank; ++k) base += static_cast<std::size_t>(begin[k]) * stride[k];
  std::byte* dst = out.data;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t offset = base;
    for (std::size_t k = 0; k + 1 < rank; ++k) offset += idx[k] * stride[k];
    std::memcpy(dst, in.data + offset, row);
    dst += row;
    for (std::size_t k = rank - 1; k-- > 0;) {  // next row: advance the outer index with carry
      if (++idx[k] < out.dims[k]) break;
      idx[k] = 0;
    }
  }
  return {};
}

inline Expected<KernelFn> select(const NodeIO&, std::span<std::byte, kNodeParamBytes>) { return &kernel; }

/// Shape inference reads the begin and size tensors (inputs 1 and 2).
inline constexpr OpImpl kImpl{&infer, &select, 0b110};
}  // namespace slice

/// SLICE in the operation table.
struct Slice : OperationDescriptor<OperationType::SLICE> {
  static constexpr OperationInfo info{
      OperationType::SLICE, "SLICE", HalVersion::V1_2, slice::kInputs,    slice::kOutputs,
      slice::kSignatures,   nullptr, &slice::kImpl,    kOpAllowsZeroSized};
};

}  // namespace nnhal::ops
