#pragma once
/// \file
/// Typed handles of the builder: an operand handle carries its operand type and the subgraph
/// it belongs to (a tag type), and a subgraph handle carries its input and output operand
/// types, so that IF and WHILE can be checked against the HAL's rules at compile time.

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "nnhal/builder/diagnostics.hpp"
#include "nnhal/core/enums.hpp"

namespace nnhal {

/// A handle to an operand of type T in subgraph G (a tag type; MainGraph for the main
/// subgraph). Handles of different subgraphs are different types, so one cannot be used in
/// another subgraph's builder.
template <OperandType T, class G = MainGraph>
struct OperandRef {
  static constexpr OperandType type = T;
  using graph = G;
  std::uint32_t index = 0;  ///< index in its subgraph's operands
};

/// The operand types of a subgraph's inputs, in order.
template <OperandType... T>
struct In {};
/// The operand types of a subgraph's outputs, in order.
template <OperandType... T>
struct Out {};

template <class Tag, class Inputs, class Outputs>
class SubgraphRef;

/// A finished referenced subgraph (Model::referenced[referenced_index()]) tagged Tag, taking
/// inputs of types I... and returning outputs of types O...; IF and WHILE take these.
template <class Tag, OperandType... I, OperandType... O>
class SubgraphRef<Tag, In<I...>, Out<O...>> {
 public:
  using tag = Tag;
  static constexpr std::array<OperandType, sizeof...(I)> inputs{I...};
  static constexpr std::array<OperandType, sizeof...(O)> outputs{O...};

  /// Declared only: its return type is output_refs (public, as clang checks access where the
  /// alias is used).
  template <class G, std::size_t... K>
  static auto first_refs(std::index_sequence<K...>) -> std::tuple<OperandRef<outputs[K], G>...>;

  /// Handles, in subgraph G, of operands with this subgraph's first M output types.
  template <class G, std::size_t M = sizeof...(O)>
  using output_refs = decltype(first_refs<G>(std::make_index_sequence<M>{}));

  explicit constexpr SubgraphRef(std::uint32_t referenced_index) noexcept : index_(referenced_index) {}
  /// Index of this subgraph in Model::referenced.
  constexpr std::uint32_t referenced_index() const noexcept { return index_; }

 private:
  std::uint32_t index_;
};

namespace detail {
template <class T>
inline constexpr bool is_subgraph = false;
template <class Tag, class I, class O>
inline constexpr bool is_subgraph<SubgraphRef<Tag, I, O>> = true;
}  // namespace detail

/// A subgraph handle made by SubgraphBuilder::returns().
template <class S>
concept TypedSubgraph = detail::is_subgraph<S>;

}  // namespace nnhal
