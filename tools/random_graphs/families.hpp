#pragma once
/// \file
/// The operation families random graphs are drawn from. Each model uses the operations of one
/// family plus the control-flow helpers (IF, WHILE and the ADD, LESS and CONCATENATION their
/// counters and growing tensors need), so it can also be prepared with a kernel set of that
/// family alone: the restricted-set check. The sets are compiled in families.cpp.

#include <span>
#include <string_view>

#include "nnhal/core/enums.hpp"
#include "nnhal/exec/prepared_model.hpp"

namespace nnhal::random_graphs {

struct Family {
  std::string_view name;
  /// The family's operations, without the control-flow helpers.
  std::span<const OperationType> operations;
  /// PreparedModel::prepare with the kernel set of the family and the helpers only; null when
  /// the program was built without the family sets (NNHAL_RANDOM_GRAPHS_FAMILY_SETS=0).
  Expected<PreparedModel> (*prepare)(const Model& model, const PrepareOptions& options);
};

/// The control-flow helpers every family's models may use besides its own operations.
inline constexpr OperationType kHelpers[] = {OperationType::ADD, OperationType::LESS, OperationType::CONCATENATION};

std::span<const Family> families();

}  // namespace nnhal::random_graphs
