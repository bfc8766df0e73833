#pragma once
/// \file
/// The validation rule of operations with an axis scalar (SOFTMAX, LOG_SOFTMAX,
/// L2_NORMALIZATION, LOCAL_RESPONSE_NORMALIZATION): a constant axis must lie in [-rank, rank)
/// of the data input when that rank is known. Other axes are checked at execution.

#include <cstddef>
#include <cstdint>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops {

/// INVALID_ARGUMENT when input `axis_input` is present, constant and outside [-rank, rank) of
/// input `data_input`.
inline Status check_constant_axis(const OperationView& op, std::size_t axis_input, std::size_t data_input = 0) {
  if (axis_input >= op.input_count()) return {};
  const auto axis = op.constant_scalar<OperandType::INT32>(axis_input);
  const auto rank = op.input_rank(data_input);
  if (!axis || !rank) return {};
  const auto r = static_cast<std::int64_t>(*rank);
  if (*axis < -r || *axis >= r)
    return NNHAL_INVALID("input %zu (axis) is %" PRId32
                         ", outside [-%zu, %zu) for input %zu of rank %zu",
                         axis_input, *axis, *rank, *rank, data_input, *rank);
  return {};
}

}  // namespace nnhal::ops
