#pragma once
/// \file
/// The vocabulary of the operation table: operand slots (name, role, optionality), operand-type
/// signatures with the HAL version each needs, and constexpr helpers to build signature lists.
/// Every operation row (nnhal/ops/<name>.hpp) describes itself with these types;
/// nnhal/ops/registry.hpp gathers the rows into the one table.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "nnhal/core/enums.hpp"

namespace nnhal {

/// What an operation input or output is for.
enum class Role : std::uint8_t {
  Data,        ///< a data tensor
  Weights,     ///< weights / filter / lookup table
  Bias,        ///< bias tensor
  Parameter,   ///< a scalar or small tensor that parameterises the operation
  Activation,  ///< fused activation code (INT32 scalar)
  Layout,      ///< NCHW flag (BOOL scalar)
  Condition,   ///< IF condition
  Subgraph,    ///< SUBGRAPH reference (IF branches, WHILE condition/body)
  State,       ///< recurrent state
  Padding,     ///< implicit padding scheme code (INT32 scalar: 1 SAME, 2 VALID)
};

/// A closed set of values of an INT32 or BOOL scalar slot: bit v is set when value v (0..31) is
/// accepted. 0 = no closed set. Model validation rejects a constant outside the set
/// (nnhal/validate/slot_values.hpp); a value given at run time is checked by the kernel.
using ValueSet = std::uint32_t;

/// The set of the listed values (each in 0..31).
constexpr ValueSet value_set(std::initializer_list<int> values) {
  ValueSet s = 0;
  for (int v : values) s |= ValueSet{1} << v;
  return s;
}

/// Fused activation codes (FusedActivationFunc): NONE, RELU, RELU1, RELU6. The default set of a
/// Role::Activation slot, also for RNN, BIDIRECTIONAL_SEQUENCE_RNN, UNIDIRECTIONAL_SEQUENCE_RNN
/// and SVDF, whose kernels here take these four codes only.
inline constexpr ValueSet kFuseCodes = value_set({0, 1, 2, 3});
/// Activation of the LSTM family (TFLite's enum): NONE 0, RELU 1, RELU6 3, TANH 4, SIGMOID 6.
inline constexpr ValueSet kLstmActivations = value_set({0, 1, 3, 4, 6});
/// Implicit padding schemes: SAME 1, VALID 2, and 0. The default set of a Role::Padding slot.
/// Quirk, following the reference: 0 is not a PaddingCode, but HAL13.md lists it as
/// "none/unknown" and the reference executor pads only for SAME, so 0 runs as VALID there (no
/// padding); nnhal accepts it the same way, as a constant and at run time.
inline constexpr ValueSet kPaddingCodes = value_set({0, 1, 2});
/// false / true: the set of every BOOL scalar input, and of INT32 flags (0 or 1). The reference
/// reads any non-zero BOOL byte as true; a constant BOOL byte other than 0 or 1 is refused.
inline constexpr ValueSet kFlagValues = value_set({0, 1});

/// Flags of an operand slot.
enum SlotFlags : std::uint8_t {
  kSlotRequired = 0,
  kSlotOmittable = 1,  ///< the operand may have lifetime NO_VALUE (optional by value)
  kSlotTrailing = 2,   ///< the input may be left out of the list entirely (optional by count)
  kSlotRepeated = 4,   ///< the slot stands for one or more operands (CONCATENATION, SPLIT, IF)
  kSlotValueRead = 8,  ///< shape inference reads the tensor's *value* (RESHAPE's shape): the
                       ///< node's shapes are static only when it is a constant
};

/// One input or output position of an operation.
struct Slot {
  std::string_view name;
  Role role = Role::Data;
  std::uint8_t flags = kSlotRequired;
  /// Closed set of accepted constant values; 0 = the default of the role (kFuseCodes for
  /// Activation, kPaddingCodes for Padding), or none.
  ValueSet values = 0;
};

/// Largest number of operands in one signature (BIDIRECTIONAL_SEQUENCE_LSTM has 61 inputs).
inline constexpr std::size_t kMaxSignatureArity = 64;

/// Matches any operand type (IF/WHILE data operands, checked by their own validation).
inline constexpr std::uint8_t kAnyTypeCode = 0xFF;

/// A sequence of operand types. When `repeat` >= 0, the type at that position may occur one or
/// more times (the operand count is then at least `size`).
///
/// The codes are packed eight to a 64-bit word: the table holds thousands of signatures and a
/// compiler evaluates them as constants element by element, so eight words instead of 64 bytes
/// make the table cheaper to compile (the bytes in a binary are the same).
struct TypeSeq {
  static constexpr std::size_t kWords = kMaxSignatureArity / 8;
  std::array<std::uint64_t, kWords> words{};
  std::uint8_t size = 0;
  std::int8_t repeat = -1;

  constexpr TypeSeq() = default;
  constexpr TypeSeq(std::initializer_list<OperandType> types, int repeat_at = -1) {
    for (OperandType t : types) push_back(t);
    repeat = static_cast<std::int8_t>(repeat_at);
  }
  /// The type code at position i (kAnyTypeCode or an OperandType value).
  constexpr std::uint8_t code(std::size_t i) const {
    return static_cast<std::uint8_t>(words[i / 8] >> (8 * (i % 8)));
  }
  constexpr OperandType operator[](std::size_t i) const { return OperandType{code(i)}; }
  /// Appends a type (or kAnyTypeCode). Precondition: size < kMaxSignatureArity.
  constexpr void push_back(std::uint8_t c) {
    words[size / 8] |= std::uint64_t{c} << (8 * (size % 8));
    ++size;
  }
  constexpr void push_back(OperandType t) { push_back(static_cast<std::uint8_t>(t)); }

  /// Type expected at operand position `pos` of a list of `count` operands, or kAnyTypeCode.
  /// Precondition: accepts_count(count).
  constexpr std::uint8_t code_at(std::size_t pos, std::size_t count) const {
    if (repeat < 0) return code(pos);
    const std::size_t r = static_cast<std::size_t>(repeat);
    const std::size_t extra = count - size;
    if (pos < r) return code(pos);
    if (pos <= r + extra) return code(r);
    return code(pos - extra);
  }
  constexpr bool accepts_count(std::size_t count) const {
    return repeat < 0 ? count == size : count >= size;
  }
};
static_assert(kMaxSignatureArity % 8 == 0);

/// One accepted combination of operand types and the HAL version it needs.
struct Signature {
  HalVersion version = HalVersion::V1_0;
  TypeSeq inputs;
  TypeSeq outputs;
};

/// Builds a signature: `sig(V1_0, {in...}, {out...})`.
constexpr Signature sig(HalVersion v, TypeSeq in, TypeSeq out) { return Signature{v, in, out}; }

/// A tensor type and the version from which an operation accepts it.
struct TypeVersion {
  OperandType type;
  HalVersion version;
};

/// Applies `make(type, version)` to every entry, yielding one signature each.
template <std::size_t N, class F>
constexpr std::array<Signature, N> for_each_type(const std::array<TypeVersion, N>& types, F make) {
  std::array<Signature, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = make(types[i].type, types[i].version);
  return out;
}

/// Concatenates signature arrays.
template <std::size_t... N>
constexpr auto join(const std::array<Signature, N>&... parts) {
  std::array<Signature, (N + ... + 0)> out{};
  std::size_t at = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + static_cast<std::ptrdiff_t>(at)),
    at += N),
   ...);
  return out;
}

/// The FLOAT16 scalar for TENSOR_FLOAT16 operations, FLOAT32 otherwise ("fT" in operations.md).
constexpr OperandType float_scalar_for(OperandType tensor) {
  return tensor == OperandType::TENSOR_FLOAT16 ? OperandType::FLOAT16 : OperandType::FLOAT32;
}

}  // namespace nnhal
