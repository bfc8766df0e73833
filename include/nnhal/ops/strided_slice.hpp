#pragma once
/// \file
/// STRIDED_SLICE (35): extracts a strided slice with begin/end/shrink masks; the output keeps the
/// input's quantization.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/ops/common/value_rules.hpp"

namespace nnhal::ops {

namespace strided_slice {
inline constexpr std::array<Slot, 7> kInputs{{
    {"input", Role::Data},
    {"begin", Role::Parameter, kSlotValueRead},
    {"end", Role::Parameter, kSlotValueRead},
    {"strides", Role::Parameter, kSlotValueRead},
    {"begin_mask", Role::Parameter},
    {"end_mask", Role::Parameter},
    {"shrink_axis_mask", Role::Parameter},
}};
inline constexpr auto& kOutputs = v1_0::kSingleOutput;
/// {T, 3 x TENSOR_INT32, 3 x INT32} -> {T}: F32, QA8 1.1; F16 1.2; QAS8 1.3.
inline constexpr auto kSignatures = for_each_type(
    v1_0::float_quant_types(HalVersion::V1_1), [](OperandType t, HalVersion v) {
      using enum OperandType;
      return sig(v, {t, TENSOR_INT32, TENSOR_INT32, TENSOR_INT32, INT32, INT32, INT32}, {t});
  });

/// Input rank <= 4 when known; begin, end and strides 1-D with one entry per axis where known;
/// constant strides non-zero. Other begin/end/stride values are runtime checks.
inline Status validate(const OperationView& op, HalVersion& version) {
  NNHAL_TRY(v1_0::validate_rank4(op, version));
  const auto rank = op.input_rank(0);
  const std::uint32_t n = rank ? static_cast<std::uint32_t>(*rank) : 0u;
  NNHAL_TRY(rules::check_shape(op, 1, "begin", {n}));
  NNHAL_TRY(rules::check_shape(op, 2, "end", {n}));
  NNHAL_TRY(rules::check_shape(op, 3, "strides", {n}));
  if (auto s = rules::const_ints(op, 3))
    for (std::size_t i = 0; i < s->size(); ++i)
      if ((*s)[i] == 0) return NNHAL_INVALID("input 3 (strides) entry %zu is 0", i);
  return {};
}
}  // namespace strided_slice

}  // namespace nnhal::ops

namespace nnhal {

/// STRIDED_SLICE in the operation table.
template <>
struct Row<OperationType::STRIDED_SLICE> {
  static constexpr OperationInfo info = make_row(OperationType::STRIDED_SLICE, {
      .inputs = ops::strided_slice::kInputs,
      .outputs = ops::strided_slice::kOutputs,
      .signatures = ops::strided_slice::kSignatures,
      .validate = &ops::strided_slice::validate,
  });
};

}  // namespace nnhal
