#pragma once
/// \file
/// Compile-time errors of the typed builder. Each rule the builder checks has a class template
/// named after the rule, whose template arguments say where and what: the operation
/// (`operations::ADD`), the position (`input<1>`), the expected and given operand types
/// (`expected<types::TENSOR_INT32>`), the subgraphs involved (by their tag types). Breaking a
/// rule instantiates that template, whose static_assert fails; g++ ("In instantiation of ...")
/// and clang ("in instantiation of template class ...") both print the template with its
/// arguments by name. Only the failing path instantiates anything here, so a model that
/// compiles pays nothing for these.

#include <array>
#include <cstddef>
#include <cstdint>

#include "nnhal/builder/type_names.hpp"
#include "nnhal/interface/signature.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal {

/// The tag of a model's main subgraph (operand handles without a tag belong to it).
struct MainGraph;

/// Template arguments of the builder's compile-time errors (declared only).
namespace diagnostic {
template <std::size_t I>
struct input;  ///< operation input position I (0-based, as in the HAL)
template <std::size_t I>
struct output;  ///< output position I (0-based)
template <class TypeName>
struct expected;
template <class TypeName>
struct given;
template <std::size_t N>
struct count;  ///< a number of operands
template <class Tag>
struct used_in;  ///< the subgraph being built
template <class Tag>
struct belongs_to;  ///< the subgraph an operand handle comes from
template <class Tag>
struct then_branch;
template <class Tag>
struct else_branch;
template <class Tag>
struct condition;  ///< a WHILE condition subgraph
template <class Tag>
struct body;  ///< a WHILE body subgraph
}  // namespace diagnostic

namespace detail {
template <class...>
inline constexpr bool always_false = false;
}  // namespace detail

/// The rules; their names are what a compiler shows first.
namespace diagnostic {

template <class Operation, class Position, class Expected, class Given>
struct wrong_operand_type {
  static_assert(detail::always_false<Operation, Position, Expected, Given>,
                "nnhal: no signature of this operation accepts these operand types: the template arguments "
                "name the operation, the first input that differs from the closest signature, the type that "
                "signature expects there and the type given");
};

template <class Operation, class Expected, class Given>
struct wrong_output_type {
  static_assert(detail::always_false<Operation, Expected, Given>,
                "nnhal: no signature of this operation accepts these operand types: the inputs match a "
                "signature whose output type is the expected one, not the one given");
};

template <class Operation, class Where, class Expected, class Given>
struct wrong_number_of_inputs {
  static_assert(detail::always_false<Operation, Where, Expected, Given>,
                "nnhal: wrong number of inputs: the template arguments name the operation (and the subgraph "
                "it calls), the expected number of inputs and the number given");
};

template <class Operation>
struct no_single_output_signature {
  static_assert(detail::always_false<Operation>,
                "nnhal: operation<>() builds operations with one output; this operation has none");
};

template <class Operation>
struct build_control_flow_with_if_or_while {
  static_assert(detail::always_false<Operation>,
                "nnhal: IF and WHILE are built with if_() and while_(), which check their subgraphs");
};

template <class Operation, class Position, class UsedIn, class BelongsTo>
struct operand_of_another_subgraph {
  static_assert(detail::always_false<Operation, Position, UsedIn, BelongsTo>,
                "nnhal: an operand handle of another subgraph is used here; operands cannot cross "
                "subgraphs (pass them as IF / WHILE inputs instead)");
};

template <class Position, class UsedIn, class BelongsTo>
struct output_of_another_subgraph {
  static_assert(detail::always_false<Position, UsedIn, BelongsTo>,
                "nnhal: a subgraph output must be an operand of that subgraph");
};

template <class Given>
struct if_condition_is_not_tensor_bool8 {
  static_assert(detail::always_false<Given>, "nnhal: the IF condition (input 0) must be a TENSOR_BOOL8 operand");
};

template <class Branch, class Position, class Expected, class Given>
struct if_branch_input_type_mismatch {
  static_assert(detail::always_false<Branch, Position, Expected, Given>,
                "nnhal: an IF input's type differs from the branch's input type");
};

template <class Position, class ThenBranch, class ElseBranch, class Expected, class Given>
struct if_branch_output_type_mismatch {
  static_assert(detail::always_false<Position, ThenBranch, ElseBranch, Expected, Given>,
                "nnhal: the then and else branches of an IF must have the same output types (expected: the "
                "then branch's, given: the else branch's)");
};

template <class ThenCount, class ElseCount>
struct if_branch_output_count_mismatch {
  static_assert(detail::always_false<ThenCount, ElseCount>,
                "nnhal: the then and else branches of an IF must have the same number of outputs");
};

template <class Branch>
struct if_branch_has_no_output {
  static_assert(detail::always_false<Branch>, "nnhal: an IF branch must have at least one output");
};

template <class Condition, class Given>
struct while_condition_output_is_not_tensor_bool8 {
  static_assert(detail::always_false<Condition, Given>,
                "nnhal: a WHILE condition must return exactly one TENSOR_BOOL8 operand");
};

template <class Condition, class Position, class Expected, class Given>
struct while_condition_input_type_mismatch {
  static_assert(detail::always_false<Condition, Position, Expected, Given>,
                "nnhal: a WHILE input's type differs from the condition's input type");
};

template <class Body, class Position, class Expected, class Given>
struct while_body_input_type_mismatch {
  static_assert(detail::always_false<Body, Position, Expected, Given>,
                "nnhal: a WHILE input's type differs from the body's input type");
};

template <class Body, class Position, class Expected, class Given>
struct while_body_output_type_mismatch {
  static_assert(detail::always_false<Body, Position, Expected, Given>,
                "nnhal: a WHILE body output must have the type of the loop operand it carries (the body "
                "input at the same position)");
};

template <class Body, class Outputs, class Inputs>
struct while_body_output_count_out_of_range {
  static_assert(detail::always_false<Body, Outputs, Inputs>,
                "nnhal: a WHILE body must have at least one output and no more outputs than inputs");
};

template <class Requested, class BodyOutputs>
struct while_output_count_out_of_range {
  static_assert(detail::always_false<Requested, BodyOutputs>,
                "nnhal: a WHILE has between 1 and (body outputs) outputs");
};

}  // namespace diagnostic

namespace detail {

/// Operand type code `c` of a signature accepts type `t`.
constexpr bool code_accepts(std::uint8_t c, OperandType t) noexcept {
  return c == kAnyTypeCode || static_cast<std::int32_t>(c) == static_cast<std::int32_t>(t);
}

/// True when some signature of `Op` accepts inputs `in` and the single output `out`.
template <OperationType Op, std::size_t N>
constexpr bool table_accepts(const std::array<OperandType, N>& in, OperandType out) {
  for (const Signature& s : operation_info<Op>().signatures) {
    if (!s.inputs.accepts_count(N) || !s.outputs.accepts_count(1)) continue;
    bool ok = code_accepts(s.outputs.code_at(0, 1), out);
    for (std::size_t i = 0; ok && i < N; ++i) ok = code_accepts(s.inputs.code_at(i, N), in[i]);
    if (ok) return true;
  }
  return false;
}

/// Why no signature accepts an operand list, against the closest signature: the one of the
/// right arity matching the most leading inputs (then: whose output matches); without one of
/// the right arity, the arity nearest to the given one.
struct SignatureMiss {
  enum Kind { kInputType, kOutputType, kInputCount, kNoSingleOutput } kind = kNoSingleOutput;
  std::size_t position = 0;         ///< kInputType
  std::int32_t expected = 0;        ///< kInputType / kOutputType: the expected type code
  std::size_t expected_count = 0;   ///< kInputCount
};

template <OperationType Op, std::size_t N>
constexpr SignatureMiss closest_signature_miss(const std::array<OperandType, N>& in, OperandType out) {
  SignatureMiss miss;
  bool arity_found = false;
  std::size_t best_lead = 0, best_distance = ~std::size_t{0};
  bool best_out = false;
  for (const Signature& s : operation_info<Op>().signatures) {
    if (!s.outputs.accepts_count(1)) continue;
    if (!s.inputs.accepts_count(N)) {
      const std::size_t size = s.inputs.size;
      const std::size_t distance = size > N ? size - N : N - size;
      if (!arity_found && distance < best_distance) {
        best_distance = distance;
        miss = {SignatureMiss::kInputCount, 0, 0, size};
      }
      continue;
    }
    std::size_t lead = 0;
    while (lead < N && code_accepts(s.inputs.code_at(lead, N), in[lead])) ++lead;
    const bool out_ok = code_accepts(s.outputs.code_at(0, 1), out);
    if (!arity_found || lead > best_lead || (lead == best_lead && out_ok && !best_out)) {
      arity_found = true;
      best_lead = lead;
      best_out = out_ok;
      if (lead < N)
        miss = {SignatureMiss::kInputType, lead, s.inputs.code_at(lead, N), 0};
      else
        miss = {SignatureMiss::kOutputType, 0, s.outputs.code_at(0, 1), 0};
    }
  }
  return miss;
}

/// Instantiates the error naming why operation Op does not accept inputs Ts... and output Out.
template <OperationType Op, OperandType Out, OperandType... Ts>
constexpr void report_signature_miss() {
  constexpr SignatureMiss m = closest_signature_miss<Op>(std::array<OperandType, sizeof...(Ts)>{Ts...}, Out);
  using Operation = operation_name<Op>;
  if constexpr (m.kind == SignatureMiss::kInputType) {
    constexpr OperandType given_type = std::array<OperandType, sizeof...(Ts)>{Ts...}[m.position];
    (void)sizeof(diagnostic::wrong_operand_type<Operation, diagnostic::input<m.position>,
                                                diagnostic::expected<operand_type_name<OperandType{m.expected}>>,
                                                diagnostic::given<operand_type_name<given_type>>>);
  } else if constexpr (m.kind == SignatureMiss::kOutputType) {
    (void)sizeof(diagnostic::wrong_output_type<Operation,
                                               diagnostic::expected<operand_type_name<OperandType{m.expected}>>,
                                               diagnostic::given<operand_type_name<Out>>>);
  } else if constexpr (m.kind == SignatureMiss::kInputCount) {
    (void)sizeof(diagnostic::wrong_number_of_inputs<Operation, void, diagnostic::expected<diagnostic::count<m.expected_count>>,
                                                    diagnostic::given<diagnostic::count<sizeof...(Ts)>>>);
  } else {
    (void)sizeof(diagnostic::no_single_output_signature<Operation>);
  }
}

/// Position of the first false entry (N when none).
template <std::size_t N>
constexpr std::size_t first_false(const std::array<bool, N>& a) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (!a[i]) return i;
  return N;
}

/// Position of the first difference between two type lists over their common length.
template <std::size_t N, std::size_t M>
constexpr std::size_t first_difference(const std::array<OperandType, N>& a,
                                       const std::array<OperandType, M>& b) noexcept {
  for (std::size_t i = 0; i < N && i < M; ++i)
    if (a[i] != b[i]) return i;
  return N < M ? N : M;
}

}  // namespace detail
}  // namespace nnhal
