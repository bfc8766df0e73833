#pragma once
/// \file
/// Tensor-type lists, signature builders and validation helpers shared by the operations of
/// HAL 1.0 and 1.1 (codes 1..37): the recurring "F32, QA8 since 1.0/1.1; F16 since 1.2; QAS8
/// since 1.3" set, {T} -> {T} signatures, optional trailing inputs (layout flag, axis) that raise
/// the version, and the known-rank checks their validation performs.

#include <array>
#include <cstddef>
#include <initializer_list>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::v1_0 {

/// F32 and QA8 since `since`, F16 since 1.2, QAS8 since 1.3.
constexpr std::array<TypeVersion, 4> float_quant_types(HalVersion since) {
  return {{
      {OperandType::TENSOR_FLOAT32, since},
      {OperandType::TENSOR_QUANT8_ASYMM, since},
      {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
      {OperandType::TENSOR_QUANT8_ASYMM_SIGNED, HalVersion::V1_3},
  }};
}

/// F32 since 1.0, F16 since 1.2.
inline constexpr std::array<TypeVersion, 2> kFloatTypes{{
    {OperandType::TENSOR_FLOAT32, HalVersion::V1_0},
    {OperandType::TENSOR_FLOAT16, HalVersion::V1_2},
}};

/// The single data input of unary operations.
inline constexpr std::array<Slot, 1> kUnaryInputs{{{"input", Role::Data}}};
/// The single output of most operations.
inline constexpr std::array<Slot, 1> kSingleOutput{{{"output", Role::Data}}};

/// `seq` followed by `extra`.
constexpr TypeSeq append(TypeSeq seq, std::initializer_list<OperandType> extra) {
  for (OperandType t : extra) seq.push_back(t);
  return seq;
}

/// {T} -> {T} for each listed tensor type.
template <std::size_t N>
constexpr auto unary(const std::array<TypeVersion, N>& types) {
  return for_each_type(types, [](OperandType t, HalVersion v) { return sig(v, {t}, {t}); });
}

/// `sigs`, then a copy of each with `extra` appended to its inputs and its version raised to at
/// least `since`: an optional-by-count trailing input (layout flag, axis) added in `since`.
template <std::size_t N>
constexpr std::array<Signature, 2 * N> with_trailing(const std::array<Signature, N>& sigs,
                                                     std::initializer_list<OperandType> extra,
                                                     HalVersion since) {
  std::array<Signature, 2 * N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = sigs[i];
    out[N + i] = sig(max_version(sigs[i].version, since), append(sigs[i].inputs, extra), sigs[i].outputs);
  }
  return out;
}

/// Raises `version` to at least `v`.
constexpr void raise(HalVersion& version, HalVersion v) { version = max_version(version, v); }

/// Input `i` has rank <= `max` when its rank is known (unknown rank is checked at execution).
inline Status check_max_rank(const OperationView& op, std::size_t i, std::size_t max) {
  if (auto r = op.input_rank(i); r && *r > max)
    return NNHAL_INVALID("input %zu has rank %zu, at most %zu is supported", i, *r, max);
  return {};
}

/// Input `i` has rank `want` when its rank is known.
inline Status check_rank(const OperationView& op, std::size_t i, std::size_t want) {
  if (auto r = op.input_rank(i); r && *r != want)
    return NNHAL_INVALID("input %zu has rank %zu, it must be %zu", i, *r, want);
  return {};
}

/// ValidateFn of the operations whose only static check is "input 0 has rank <= 4 when known".
inline Status validate_rank4(const OperationView& op, HalVersion&) { return check_max_rank(op, 0, 4); }

/// L2_NORMALIZATION / LOCAL_RESPONSE_NORMALIZATION: the form without the axis input is 1.0 only
/// for a declared rank of 4; any other declared rank, unknown rank included, needs 1.2 (the
/// reference compares `dimensions.size() != 4`).
inline void raise_unless_rank4(const OperationView& op, std::size_t i, HalVersion& version) {
  if (op.input(i).dimensions.size() != 4) raise(version, HalVersion::V1_2);
}

/// PAD / SPACE_TO_BATCH_ND: a QA8 input 0 with a non-zero zeroPoint needs 1.2 (the padding value
/// is the zeroPoint, which 1.1 did not allow to differ from 0).
inline void raise_if_qa8_zero_point(const OperationView& op, HalVersion& version) {
  const Operand& in = op.input(0);
  if (in.type == OperandType::TENSOR_QUANT8_ASYMM && in.zeroPoint != 0) raise(version, HalVersion::V1_2);
}

}  // namespace nnhal::ops::v1_0
