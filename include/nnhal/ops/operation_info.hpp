#pragma once
/// \file
/// OperationInfo: one row of the operation table.

#include <cstdint>
#include <span>
#include <string_view>

#include "nnhal/core/enums.hpp"
#include "nnhal/exec/operand.hpp"
#include "nnhal/ops/signature.hpp"
#include "nnhal/validate/operation_view.hpp"

namespace nnhal {

/// Behaviour flags of an operation.
enum OperationFlags : std::uint32_t {
  kOpNone = 0,
  kOpAllowsZeroSized = 1,  ///< inputs with a 0 dimension at execution are allowed ("Z")
  kOpAllowsOmitted = 2,    ///< some inputs may be NO_VALUE (see the slots' kSlotOmittable)
  kOpControlFlow = 4,      ///< IF / WHILE: validated and executed by the control-flow layer
};

/// Everything nnhal knows about one operation: name, operand slots, accepted signatures with
/// their versions, extra validation, and (when implemented) shape inference and kernel choice.
struct OperationInfo {
  OperationType type;
  std::string_view name;
  HalVersion since;
  std::span<const Slot> inputs;
  std::span<const Slot> outputs;
  std::span<const Signature> signatures;
  ValidateFn validate = nullptr;  ///< checks beyond the signature table; nullptr = none
  const OpImpl* impl = nullptr;   ///< nullptr: no kernel yet, reported unsupported
  std::uint32_t flags = kOpNone;

  constexpr bool implemented() const noexcept { return impl != nullptr; }
  constexpr bool has(OperationFlags f) const noexcept { return (flags & f) != 0; }
};

/// True when input `position` of an operation may have no value (lifetime NO_VALUE, or an
/// omitted request argument): the operation accepts omitted operands and that slot says so.
constexpr bool input_omittable(const OperationInfo& info, std::size_t position) noexcept {
  return info.has(kOpAllowsOmitted) && position < info.inputs.size() &&
         (info.inputs[position].flags & kSlotOmittable) != 0;
}

/// The `impl` of IF and WHILE: they have no kernel of their own; the executor runs them as
/// control-flow nodes over their referenced subgraphs.
inline constexpr OpImpl kControlFlowImpl{};

/// Base of the per-operation descriptor types gathered by the registry. A descriptor is a
/// struct with `static constexpr OperationInfo info`.
template <OperationType Op>
struct OperationDescriptor {
  static constexpr OperationType type = Op;
};

}  // namespace nnhal
