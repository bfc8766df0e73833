#pragma once
/// \file
/// THE operation table: one row (OperationInfo) per HAL 1.3 operation code 0..101, gathered at
/// compile time from the rows the per-operation headers define (`Row<Op>`, nnhal/ops/<name>.hpp)
/// in the order of the one operation list, NNHAL_OPERATION_TYPES. Validation, the typed builder,
/// the supported-operations query and the cache fingerprint read this table. It holds no kernels
/// (those are in nnhal/kernels/, chosen by a kernel set), so including it is cheap.

#include <array>
#include <cstdint>
#include <span>

#include "nnhal/ops/add.hpp"
#include "nnhal/ops/average_pool_2d.hpp"
#include "nnhal/ops/concatenation.hpp"
#include "nnhal/ops/conv_2d.hpp"
#include "nnhal/ops/depthwise_conv_2d.hpp"
#include "nnhal/ops/depth_to_space.hpp"
#include "nnhal/ops/dequantize.hpp"
#include "nnhal/ops/embedding_lookup.hpp"
#include "nnhal/ops/floor.hpp"
#include "nnhal/ops/fully_connected.hpp"
#include "nnhal/ops/hashtable_lookup.hpp"
#include "nnhal/ops/l2_normalization.hpp"
#include "nnhal/ops/l2_pool_2d.hpp"
#include "nnhal/ops/local_response_normalization.hpp"
#include "nnhal/ops/logistic.hpp"
#include "nnhal/ops/lsh_projection.hpp"
#include "nnhal/ops/lstm.hpp"
#include "nnhal/ops/max_pool_2d.hpp"
#include "nnhal/ops/mul.hpp"
#include "nnhal/ops/relu.hpp"
#include "nnhal/ops/relu1.hpp"
#include "nnhal/ops/relu6.hpp"
#include "nnhal/ops/reshape.hpp"
#include "nnhal/ops/resize_bilinear.hpp"
#include "nnhal/ops/rnn.hpp"
#include "nnhal/ops/softmax.hpp"
#include "nnhal/ops/space_to_depth.hpp"
#include "nnhal/ops/svdf.hpp"
#include "nnhal/ops/tanh.hpp"
#include "nnhal/ops/batch_to_space_nd.hpp"
#include "nnhal/ops/div.hpp"
#include "nnhal/ops/mean.hpp"
#include "nnhal/ops/pad.hpp"
#include "nnhal/ops/space_to_batch_nd.hpp"
#include "nnhal/ops/squeeze.hpp"
#include "nnhal/ops/strided_slice.hpp"
#include "nnhal/ops/sub.hpp"
#include "nnhal/ops/transpose.hpp"
#include "nnhal/ops/abs.hpp"
#include "nnhal/ops/argmax.hpp"
#include "nnhal/ops/argmin.hpp"
#include "nnhal/ops/axis_aligned_bbox_transform.hpp"
#include "nnhal/ops/bidirectional_sequence_lstm.hpp"
#include "nnhal/ops/bidirectional_sequence_rnn.hpp"
#include "nnhal/ops/box_with_nms_limit.hpp"
#include "nnhal/ops/cast.hpp"
#include "nnhal/ops/channel_shuffle.hpp"
#include "nnhal/ops/detection_postprocessing.hpp"
#include "nnhal/ops/equal.hpp"
#include "nnhal/ops/exp.hpp"
#include "nnhal/ops/expand_dims.hpp"
#include "nnhal/ops/gather.hpp"
#include "nnhal/ops/generate_proposals.hpp"
#include "nnhal/ops/greater.hpp"
#include "nnhal/ops/greater_equal.hpp"
#include "nnhal/ops/grouped_conv_2d.hpp"
#include "nnhal/ops/heatmap_max_keypoint.hpp"
#include "nnhal/ops/instance_normalization.hpp"
#include "nnhal/ops/less.hpp"
#include "nnhal/ops/less_equal.hpp"
#include "nnhal/ops/log.hpp"
#include "nnhal/ops/logical_and.hpp"
#include "nnhal/ops/logical_not.hpp"
#include "nnhal/ops/logical_or.hpp"
#include "nnhal/ops/log_softmax.hpp"
#include "nnhal/ops/maximum.hpp"
#include "nnhal/ops/minimum.hpp"
#include "nnhal/ops/neg.hpp"
#include "nnhal/ops/not_equal.hpp"
#include "nnhal/ops/pad_v2.hpp"
#include "nnhal/ops/pow.hpp"
#include "nnhal/ops/prelu.hpp"
#include "nnhal/ops/quantize.hpp"
#include "nnhal/ops/quantized_16bit_lstm.hpp"
#include "nnhal/ops/random_multinomial.hpp"
#include "nnhal/ops/reduce_all.hpp"
#include "nnhal/ops/reduce_any.hpp"
#include "nnhal/ops/reduce_max.hpp"
#include "nnhal/ops/reduce_min.hpp"
#include "nnhal/ops/reduce_prod.hpp"
#include "nnhal/ops/reduce_sum.hpp"
#include "nnhal/ops/roi_align.hpp"
#include "nnhal/ops/roi_pooling.hpp"
#include "nnhal/ops/rsqrt.hpp"
#include "nnhal/ops/select.hpp"
#include "nnhal/ops/sin.hpp"
#include "nnhal/ops/slice.hpp"
#include "nnhal/ops/split.hpp"
#include "nnhal/ops/sqrt.hpp"
#include "nnhal/ops/tile.hpp"
#include "nnhal/ops/topk_v2.hpp"
#include "nnhal/ops/transpose_conv_2d.hpp"
#include "nnhal/ops/unidirectional_sequence_lstm.hpp"
#include "nnhal/ops/unidirectional_sequence_rnn.hpp"
#include "nnhal/ops/resize_nearest_neighbor.hpp"
#include "nnhal/ops/quantized_lstm.hpp"
#include "nnhal/ops/if.hpp"
#include "nnhal/ops/while.hpp"
#include "nnhal/ops/elu.hpp"
#include "nnhal/ops/hard_swish.hpp"
#include "nnhal/ops/fill.hpp"
#include "nnhal/ops/rank.hpp"

namespace nnhal {

namespace detail {
#define NNHAL_OPERATION_ROW(name, code) Row<OperationType::name>::info,
/// Every row, in code order.
inline constexpr std::array<OperationInfo, static_cast<std::size_t>(kOperationTypeCount)> kOperationTable{
    NNHAL_OPERATION_TYPES(NNHAL_OPERATION_ROW)};
#undef NNHAL_OPERATION_ROW

constexpr bool operation_table_is_complete() {
  for (std::size_t i = 0; i < kOperationTable.size(); ++i)
    if (static_cast<std::size_t>(kOperationTable[i].type) != i) return false;
  return true;
}
static_assert(operation_table_is_complete(),
              "the operation table must hold every HAL 1.3 operation code 0..101, in order");

#define NNHAL_OPERATION_ROW_ADDRESS(name, code) &Row<OperationType::name>::info,
inline constexpr OperationRows kAllOperationRows{{NNHAL_OPERATION_TYPES(NNHAL_OPERATION_ROW_ADDRESS)}, true};
#undef NNHAL_OPERATION_ROW_ADDRESS
}  // namespace detail

/// Every row, by operation code: what validate_model and validate_request read, and preparation
/// with any kernel set but one that says SetRowsOnly.
constexpr const OperationRows& all_operation_rows() noexcept { return detail::kAllOperationRows; }

/// The whole table, indexed by operation code.
inline constexpr std::span<const OperationInfo> operation_table() noexcept {
  return detail::kOperationTable;
}

/// The table row of `type`, or nullptr for codes outside 0..101 (OEM, extensions, unknown).
constexpr const OperationInfo* find_operation(OperationType type) noexcept {
  const auto code = static_cast<std::int32_t>(type);
  if (code < 0 || code >= kOperationTypeCount) return nullptr;
  return &detail::kOperationTable[static_cast<std::size_t>(code)];
}

/// The table row of a compile-time known operation.
template <OperationType Op>
constexpr const OperationInfo& operation_info() noexcept {
  return Row<Op>::info;
}

}  // namespace nnhal
