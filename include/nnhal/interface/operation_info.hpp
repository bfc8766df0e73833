#pragma once
/// \file
/// OperationInfo: one row of the operation table — what validation, the typed builder, the
/// support query and the cache fingerprint know of an operation. A row is constexpr data and
/// one validation function; kernels live apart (nnhal/kernels/).
///
/// Each row header specializes `Row<Op>` with `static constexpr OperationInfo info =
/// make_row(Op, {...})`, naming its members; the name, the first HAL version and the mask of
/// value-read inputs are derived from the operation code, the signatures and the slots.

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "nnhal/core/enums.hpp"
#include "nnhal/interface/operation_view.hpp"
#include "nnhal/interface/signature.hpp"

namespace nnhal {

/// Behaviour flags of an operation.
enum OperationFlags : std::uint32_t {
  kOpNone = 0,
  kOpAllowsZeroSized = 1,  ///< inputs with a 0 dimension at execution are allowed ("Z")
  kOpAllowsOmitted = 2,    ///< some inputs may be NO_VALUE (see the slots' kSlotOmittable)
  kOpControlFlow = 4,      ///< IF / WHILE: validated and executed by the control-flow layer
};

/// Everything the table knows about one operation.
struct OperationInfo {
  OperationType type = OperationType::ADD;
  std::string_view name;           ///< derived: to_string(type)
  HalVersion since = HalVersion::V1_0;  ///< derived: the oldest signature's version
  std::span<const Slot> inputs;
  std::span<const Slot> outputs;
  std::span<const Signature> signatures;
  ValidateFn validate = nullptr;  ///< checks beyond the signature table; nullptr = none
  std::uint32_t flags = kOpNone;
  /// The inputs of the implicit-padding form, for operations that have one (`inputs` is then
  /// the explicit form); empty otherwise. See input_slots().
  std::span<const Slot> implicit_inputs;
  /// Derived from kSlotValueRead: bit i set when shape inference reads the value of input i.
  std::uint64_t value_inputs = 0;

  constexpr bool has(OperationFlags f) const noexcept { return (flags & f) != 0; }
};

/// The members a row names; make_row derives the rest.
struct RowSpec {
  std::span<const Slot> inputs;
  std::span<const Slot> outputs;
  std::span<const Signature> signatures;
  ValidateFn validate = nullptr;
  std::uint32_t flags = kOpNone;
  std::span<const Slot> implicit_inputs = {};  ///< see OperationInfo::implicit_inputs
};

/// Builds the row of operation `type` from its named members.
constexpr OperationInfo make_row(OperationType type, const RowSpec& spec) {
  OperationInfo info;
  info.type = type;
  info.name = to_string(type);
  info.inputs = spec.inputs;
  info.outputs = spec.outputs;
  info.signatures = spec.signatures;
  info.validate = spec.validate;
  info.flags = spec.flags;
  info.implicit_inputs = spec.implicit_inputs;
  info.since = HalVersion::UNSUPPORTED;
  for (const Signature& s : spec.signatures) info.since = std::min(info.since, s.version);
  for (std::size_t i = 0; i < spec.inputs.size() && i < 64; ++i)
    if ((spec.inputs[i].flags & kSlotValueRead) != 0) info.value_inputs |= std::uint64_t{1} << i;
  return info;
}

/// The row of operation Op: specialized by nnhal/ops/<name>.hpp.
template <OperationType Op>
struct Row;

/// The rows a validation reads, by operation code: every row (nnhal::all_operation_rows(), what
/// validate_model uses), or only those of a kernel set's operations (a set with the SetRowsOnly
/// entry; see nnhal/interface/kernel_set.hpp), so that a firmware links no other row.
struct OperationRows {
  std::array<const OperationInfo*, static_cast<std::size_t>(kOperationTypeCount)> rows{};
  /// True when every operation code has its row here.
  bool all = false;

  /// The row of `type`, or nullptr (a code outside 0..101, or an operation not here).
  constexpr const OperationInfo* find(OperationType type) const noexcept {
    const auto code = static_cast<std::int32_t>(type);
    if (code < 0 || code >= kOperationTypeCount) return nullptr;
    return rows[static_cast<std::size_t>(code)];
  }
};

/// True when input `position` of an operation may have no value (lifetime NO_VALUE, or an
/// omitted request argument): the operation accepts omitted operands and that slot says so.
constexpr bool input_omittable(const OperationInfo& info, std::size_t position) noexcept {
  return info.has(kOpAllowsOmitted) && position < info.inputs.size() &&
         (info.inputs[position].flags & kSlotOmittable) != 0;
}

/// The slots of `op`'s inputs: the implicit-padding form when the row has one and `op` fits it
/// (its input count lies between the form's required slots and all of them, and every layout
/// slot present holds a BOOL), otherwise `info.inputs`. That is the reference's rule without
/// naming a position: CONV_2D with 10 inputs is implicit (with layout and dilation) when input
/// 7 is BOOL and explicit when it is INT32.
inline std::span<const Slot> input_slots(const OperationInfo& info, const OperationView& op) noexcept {
  const std::span<const Slot> imp = info.implicit_inputs;
  if (imp.empty()) return info.inputs;
  const std::size_t n = op.input_count();
  std::size_t required = 0;
  for (const Slot& s : imp) required += (s.flags & kSlotTrailing) == 0 ? 1 : 0;
  if (n < required || n > imp.size()) return info.inputs;
  for (std::size_t i = 0; i < n; ++i)
    if (imp[i].role == Role::Layout && op.input(i).type != OperandType::BOOL) return info.inputs;
  return imp;
}

}  // namespace nnhal
