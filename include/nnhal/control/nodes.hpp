#pragma once
/// \file
/// The prepared forms of IF and WHILE. Both refer to other prepared subgraphs by index
/// (0 = main, 1 + i = Model::referenced[i]) and to their outer operands through ranges of the
/// enclosing SubgraphPlan's index list, like ComputeNode.

#include <cstdint>

namespace nnhal {

/// IF: run `branch[0]` (then) when the condition's first byte is non-zero, else `branch[1]`.
/// Inputs are the data operands (IF inputs 3...), outputs the IF outputs.
struct IfNode {
  std::uint32_t condition = 0;  ///< outer operand
  std::uint32_t branch[2] = {0, 0};
  std::uint32_t inputs_at = 0, input_count = 0;
  std::uint32_t outputs_at = 0, output_count = 0;
};

/// WHILE: run `body` while `condition` yields true. Inputs are the data operands (WHILE inputs
/// 2...): the first `carried` (= m + k) are carried from iteration to iteration, the rest are
/// read-only; outputs are the first m carried values after the loop.
struct WhileNode {
  std::uint32_t condition = 0, body = 0;  ///< subgraph indexes
  std::uint32_t inputs_at = 0, input_count = 0;
  std::uint32_t outputs_at = 0, output_count = 0;
  std::uint32_t carried = 0;
  std::uint32_t state = 0;  ///< index of this loop's double buffers in an execution
};

}  // namespace nnhal
