#pragma once
/// \file
/// SVDF (27): one step of a singular-value-decomposition filter (a rank-`rank` approximation of
/// a fully connected layer over a memory of past inputs); outputs the new state and the output.

#include <array>

#include "nnhal/ops/common/v1_0_signatures.hpp"
#include "nnhal/interface/operation_info.hpp"

namespace nnhal::ops {

namespace svdf {
inline constexpr std::array<Slot, 7> kInputs{{
    {"input", Role::Data},
    {"weights_feature", Role::Weights},
    {"weights_time", Role::Weights},
    {"bias", Role::Bias, kSlotOmittable},  // NO_VALUE: no bias
    {"state_in", Role::State},
    {"rank", Role::Parameter},
    {"activation", Role::Activation},
}};
inline constexpr std::array<Slot, 2> kOutputs{{
    {"state_out", Role::State},
    {"output", Role::Data},
}};
/// {T x 5, INT32, INT32} -> {T, T}: F32 1.0; F16 1.2.
inline constexpr auto kSignatures = for_each_type(v1_0::kFloatTypes, [](OperandType t, HalVersion v) {
  return sig(v, {t, t, t, t, t, OperandType::INT32, OperandType::INT32}, {t, t});
});
}  // namespace svdf

}  // namespace nnhal::ops

namespace nnhal {

/// SVDF in the operation table.
template <>
struct Row<OperationType::SVDF> {
  static constexpr OperationInfo info = make_row(OperationType::SVDF, {
      .inputs = ops::svdf::kInputs,
      .outputs = ops::svdf::kOutputs,
      .signatures = ops::svdf::kSignatures,
      .flags = kOpAllowsOmitted,
  });
};

}  // namespace nnhal
