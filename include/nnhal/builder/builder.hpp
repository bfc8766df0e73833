#pragma once
/// \file
/// ModelBuilder: builds a Model in code with typed handles, checked at compile time.
///
/// - Operand handles carry their operand type and their subgraph (a tag type): an operation
///   whose operand types no signature of the operation table accepts does not compile, nor does
///   an operation reading an operand of another subgraph.
/// - Referenced subgraphs are made by `add_subgraph<Tag, InputTypes...>(specs...)` and finished
///   by `returns(outputs...)`, which gives a `SubgraphRef<Tag, In<...>, Out<...>>` handle; IF and
///   WHILE (`if_`, `while_`) take those handles and check the HAL's layout rules (HAL13.md d.2-d.4)
///   where types decide them; shapes and quantization are checked by validation.
///
/// The errors name the rule, the operation, the position and the operand types
/// (nnhal/builder/diagnostics.hpp).
///
///     nnhal::ModelBuilder b;
///     auto cond = b.add_subgraph<struct Cond, I32, I32>(one, one);
///     auto [i, limit] = cond.inputs();
///     const auto less = cond.returns(cond.operation<OperationType::LESS, BOOL8>(one, i, limit));
///     ...
///     auto [result] = b.while_(less, body, i0, limit0);

#include <array>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "nnhal/builder/diagnostics.hpp"
#include "nnhal/builder/subgraph.hpp"
#include "nnhal/core/dims.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal {

/// The dimensions of an OperandSpec, held inline (making a spec takes no heap): at most
/// kMaxRank (NNHAL_MAX_RANK, the largest rank the executor runs). A longer list is kept as
/// "too long" (and no dimension of it), and the builder refuses it (INVALID_ARGUMENT).
class SpecDims {
 public:
  SpecDims() noexcept = default;
  SpecDims(std::initializer_list<std::uint32_t> d) noexcept : too_long_(!dims_.assign({d.begin(), d.size()})) {}
  /// From any contiguous list of uint32 (a std::vector, a std::array, a span).
  template <class R>
    requires requires(const R& r) {
      { std::data(r) } -> std::convertible_to<const std::uint32_t*>;
      std::size(r);
    }
  SpecDims(const R& r) noexcept  // NOLINT: implicit, as the std::vector it replaces
      : too_long_(!dims_.assign({std::data(r), std::size(r)})) {}

  std::span<const std::uint32_t> span() const noexcept { return dims_.span(); }
  std::size_t size() const noexcept { return dims_.size(); }
  bool empty() const noexcept { return dims_.empty(); }
  std::uint32_t operator[](std::size_t i) const noexcept { return dims_[i]; }
  const std::uint32_t* begin() const noexcept { return dims_.begin(); }
  const std::uint32_t* end() const noexcept { return dims_.end(); }
  /// More than kMaxRank dimensions were given.
  bool too_long() const noexcept { return too_long_; }

 private:
  Dims dims_;
  bool too_long_ = false;
};

/// Shape and quantization of an operand to create.
struct OperandSpec {
  SpecDims dims;  ///< empty for scalars (or unknown rank)
  float scale = 0.0f;
  std::int32_t zero_point = 0;
};

/// while_<kAllOutputs>: the WHILE has one output per body output.
inline constexpr std::size_t kAllOutputs = ~std::size_t{0};

namespace detail {
template <OperandType>
struct spec_of {
  using type = const OperandSpec&;
};

/// True when every handle type's subgraph is G.
template <class G, class... Gs>
inline constexpr bool all_in_graph = (std::is_same_v<Gs, G> && ...);

/// Reports the first of Gs... that is not G, at input position First + k of operation Op.
template <class G, OperationType Op, std::size_t First, class... Gs>
constexpr void report_foreign_operand() {
  constexpr std::size_t k = first_false(std::array<bool, sizeof...(Gs)>{std::is_same_v<Gs, G>...});
  (void)sizeof(diagnostic::operand_of_another_subgraph<operation_name<Op>, diagnostic::input<First + k>,
                                                       diagnostic::used_in<G>,
                                                       diagnostic::belongs_to<std::tuple_element_t<k, std::tuple<Gs...>>>>);
}

/// True when the types `want` (a subgraph's inputs) are X..., in number and order.
template <auto want, OperandType... X>
inline constexpr bool inputs_match = want.size() == sizeof...(X) &&
                                     first_difference(want, std::array<OperandType, sizeof...(X)>{X...}) == want.size();

/// Reports why `want` differs from X...: a count error, or a type error
/// `Mismatch<Where, input<First + k>, expected, given>` at the first difference.
template <OperationType Op, class Where, template <class, class, class, class> class Mismatch, std::size_t First,
          auto want, OperandType... X>
constexpr void report_inputs() {
  constexpr std::array<OperandType, sizeof...(X)> got{X...};
  if constexpr (want.size() != got.size()) {
    (void)sizeof(diagnostic::wrong_number_of_inputs<operation_name<Op>, Where,
                                                    diagnostic::expected<diagnostic::count<First + want.size()>>,
                                                    diagnostic::given<diagnostic::count<First + got.size()>>>);
  } else {
    constexpr std::size_t k = first_difference(want, got);
    (void)sizeof(Mismatch<Where, diagnostic::input<First + k>, diagnostic::expected<operand_type_name<want[k]>>,
                          diagnostic::given<operand_type_name<got[k]>>>);
  }
}

/// Number of outputs of a WHILE asked for M (kAllOutputs or a count) of a body with n outputs.
constexpr std::size_t while_output_count(std::size_t m, std::size_t n) noexcept {
  return m == kAllOutputs || m > n ? n : m;
}

/// What the builders of one model share: where the model's lists grow, and the first failure
/// to get memory there (after which nothing more is added).
struct BuildState {
  Memories memory;
  Status status;
};

/// What GraphBuilder<G> does without its subgraph tag G: adding operands, operations, values and
/// inputs and outputs to the model. Kept out of the template so that a program compiles it once,
/// not once per subgraph tag (a WHILE with a condition and a body has three).
/// Every list grows in the model's memory after a check that the bytes are there; the first
/// failure is kept in the BuildState, and from then on every call adds nothing and returns
/// handles that must not be used (ModelBuilder::build() reports the failure).
class GraphBuilderBase {
 public:
  GraphBuilderBase(Model& model, std::uint32_t graph, BuildState& state) noexcept
      : model_(&model), graph_(graph), state_(&state) {}

  /// Adds `memory` to the model's memory pools and returns its index, for constant_reference().
  /// The memory is not copied: it must outlive the model and everything prepared from it.
  std::uint32_t pool(Memory memory) {
    if (!ok() || !grew(state_->memory.push_back(model_->pools, memory))) return 0;
    return static_cast<std::uint32_t>(model_->pools.size() - 1);
  }

 protected:
  bool ok() const noexcept { return state_->status.has_value(); }
  /// Keeps the first failure; true when `s` succeeded.
  bool note(Status s) noexcept {
    if (s) return true;
    if (ok()) state_->status = std::move(s);
    return false;
  }
  /// The same for a Memories call: true when it grew the list.
  bool grew(bool grown) noexcept {
    if (grown) return true;
    if (ok()) state_->status = memory().exhausted();
    return false;
  }
  const Memories& memory() const noexcept { return state_->memory; }
  Subgraph& graph() noexcept { return graph_ == 0 ? model_->main : model_->referenced[graph_ - 1]; }

  /// Appends an operand to the current subgraph; its index (0 after a failure).
  std::uint32_t push_operand(OperandType t, std::span<const std::uint32_t> dims, float scale, std::int32_t zero_point,
                             const OptionalChannelQuant& channel, OperandLifeTime lifetime) {
    if (!ok()) return 0;
    const Memories& mem = memory();
    Subgraph& g = graph();
    auto dimensions = mem.vector<std::uint32_t>();
    auto scales = mem.vector<float>();
    if (!grew(mem.assign(dimensions, dims)) || !grew(mem.grow(g.operands, g.operands.size() + 1))) return 0;
    if (channel && !grew(mem.assign(scales, std::span<const float>(channel->scales)))) return 0;
    // Made with its lists in place: assigning a list of another memory would copy it into the
    // memory of the list assigned to.
    g.operands.push_back(Operand{
        t, std::move(dimensions), 0, scale, zero_point, lifetime, {},
        channel ? OptionalChannelQuant(SymmPerChannelQuantParams{std::move(scales), channel->channelDim})
                : OptionalChannelQuant()});
    return static_cast<std::uint32_t>(g.operands.size() - 1);
  }

  std::uint32_t add_operand(OperandType t, const OperandSpec& spec, OperandLifeTime lifetime) {
    if (ok() && spec.dims.too_long())
      note(NNHAL_INVALID("an operand of rank above %zu (NNHAL_MAX_RANK)", kMaxRank));
    return push_operand(t, spec.dims.span(), spec.scale, spec.zero_point, OptionalChannelQuant(), lifetime);
  }

  /// A SUBGRAPH operand naming Model::referenced[index].
  std::uint32_t subgraph_operand(std::uint32_t referenced_index) {
    const auto i = add_operand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
    if (ok()) graph().operands[i].location = {0, referenced_index, 0};
    return i;
  }

  /// Appends an operation with `count` new TEMPORARY_VARIABLE outputs, numbered consecutively;
  /// returns the first one's index. Output k is shaped (type, dimensions, quantization) as the
  /// k-th output operand of referenced subgraph `like` when `like` is not kNoLike, else as
  /// (`out`, `spec`).
  static constexpr std::uint32_t kNoLike = ~std::uint32_t{0};
  std::uint32_t append(OperationType type, std::span<const std::uint32_t> inputs, std::size_t count,
                       std::uint32_t like, OperandType out = OperandType::FLOAT32, const OperandSpec* spec = nullptr) {
    if (!ok()) return 0;
    const Memories& mem = memory();
    Subgraph& g = graph();
    Operation op{type, mem.vector<std::uint32_t>(), mem.vector<std::uint32_t>()};
    // Room first for everything, so that `like`'s operands (possibly of this subgraph) stay put.
    if (!grew(mem.assign(op.inputs, inputs)) || !grew(mem.reserve(op.outputs, count)) ||
        !grew(mem.grow(g.operands, g.operands.size() + count)) || !grew(mem.grow(g.operations, g.operations.size() + 1)))
      return 0;
    const auto first = static_cast<std::uint32_t>(g.operands.size());
    for (std::size_t k = 0; k < count; ++k) {
      if (like != kNoLike) {
        const Subgraph& from = model_->referenced[like];
        const Operand& o = from.operands[from.outputIndexes[k]];
        push_operand(o.type, o.dimensions, o.scale, o.zeroPoint, o.channelQuant, OperandLifeTime::TEMPORARY_VARIABLE);
      } else {
        add_operand(out, *spec, OperandLifeTime::TEMPORARY_VARIABLE);
      }
      if (!ok()) return 0;
      op.outputs.push_back(first + static_cast<std::uint32_t>(k));
    }
    for (std::uint32_t i : op.inputs) ++g.operands[i].numberOfConsumers;
    g.operations.push_back(std::move(op));
    return first;
  }

  /// Appends an operation with one new TEMPORARY_VARIABLE output of type `out` shaped by `spec`;
  /// returns its index.
  std::uint32_t append_one(OperationType type, std::span<const std::uint32_t> inputs, OperandType out,
                           const OperandSpec& spec) {
    return append(type, inputs, 1, kNoLike, out, &spec);
  }

  // Appends bytes to operandValues at the HAL alignment for their length (HAL13.md a.6).
  void set_value(std::uint32_t operand, const void* data, std::size_t bytes) {
    if (!ok()) return;
    auto& values = model_->operandValues;
    const std::size_t align = bytes < 2 ? 1 : bytes < 4 ? 2 : 4;
    const std::size_t offset = (values.size() + align - 1) / align * align;
    if (!grew(memory().grow_to(values, offset + bytes))) return;
    if (bytes != 0) std::memcpy(values.data() + offset, data, bytes);
    graph().operands[operand].location = {0, static_cast<std::uint32_t>(offset),
                                          static_cast<std::uint32_t>(bytes)};
  }

  void mark_output(std::uint32_t operand) {
    if (!ok() || !grew(memory().push_back(graph().outputIndexes, operand))) return;
    graph().operands[operand].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  }

  std::uint32_t add_input(OperandType t, const OperandSpec& spec) {
    const auto i = add_operand(t, spec, OperandLifeTime::SUBGRAPH_INPUT);
    if (!ok() || !grew(memory().push_back(graph().inputIndexes, i))) return 0;
    return i;
  }

  Model* model_;
  std::uint32_t graph_;
  BuildState* state_;
};

}  // namespace detail

/// Builds one subgraph (tagged G) of a Model: the main one (ModelBuilder) or a referenced one
/// (SubgraphBuilder). Every handle it takes must be of subgraph G; every handle it returns is.
template <class G>
class GraphBuilder : public detail::GraphBuilderBase {
 public:
  using tag = G;

  GraphBuilder(Model& model, std::uint32_t graph, detail::BuildState& state) noexcept
      : GraphBuilderBase(model, graph, state) {}

  /// A constant tensor of type T holding `values` (copied into the model).
  template <OperandType T>
  OperandRef<T, G> constant(std::span<const element_t<T>> values, OperandSpec spec) {
    static_assert(is_tensor(T), "nnhal: use scalar<T>() for scalar constants");
    const auto i = add_operand(T, spec, OperandLifeTime::CONSTANT_COPY);
    set_value(i, values.data(), values.size_bytes());
    return {i};
  }

  /// A constant tensor of type T whose `length` bytes stay at `offset` in memory pool `pool`
  /// (CONSTANT_REFERENCE: not copied into the model, so large weights are not duplicated).
  template <OperandType T>
  OperandRef<T, G> constant_reference(std::uint32_t pool, std::uint32_t offset, std::uint32_t length,
                                      OperandSpec spec) {
    static_assert(is_tensor(T), "nnhal: constant_reference() is for tensor constants");
    const auto i = add_operand(T, spec, OperandLifeTime::CONSTANT_REFERENCE);
    if (ok()) graph().operands[i].location = {pool, offset, length};
    return {i};
  }

  /// A constant scalar of type T.
  template <OperandType T>
  OperandRef<T, G> scalar(element_t<T> value) {
    static_assert(!is_tensor(T), "nnhal: use constant<T>() for tensor constants");
    const auto i = add_operand(T, {}, OperandLifeTime::CONSTANT_COPY);
    set_value(i, &value, sizeof value);
    return {i};
  }

  /// Appends operation Op reading `inputs` and producing one new operand of type Out. Does not
  /// compile for IF and WHILE (if_() and while_() build those), when an input belongs to another
  /// subgraph, or when no signature of Op in the
  /// operation table accepts these operand types (the error names the input position and the
  /// expected and given types, against the closest signature).
  template <OperationType Op, OperandType Out, OperandType... Ts, class... Gs>
  OperandRef<Out, G> operation(OperandSpec out_spec, OperandRef<Ts, Gs>... inputs) {
    if constexpr (Op == OperationType::IF || Op == OperationType::WHILE) {
      (void)sizeof(diagnostic::build_control_flow_with_if_or_while<detail::operation_name<Op>>);
      return {};
    } else if constexpr (!detail::all_in_graph<G, Gs...>) {
      detail::report_foreign_operand<G, Op, 0, Gs...>();
      return {};
    } else if constexpr (!detail::table_accepts<Op>(std::array<OperandType, sizeof...(Ts)>{Ts...}, Out)) {
      detail::report_signature_miss<Op, Out, Ts...>();
      return {};
    } else {
      const std::uint32_t ins[] = {inputs.index..., 0};
      return {append_one(Op, std::span(ins, sizeof...(Ts)), Out, out_spec)};
    }
  }

  /// Appends IF(condition, then_branch, else_branch, inputs...). Does not compile unless the
  /// condition is TENSOR_BOOL8, the inputs have the branches' input types (in number and
  /// order), both branches return the same types, and every handle is of this subgraph. The
  /// outputs take the then branch's output operands' shapes and quantization; returns them.
  template <OperandType C, class GC, TypedSubgraph Then, TypedSubgraph Else, OperandType... X, class... GX>
  typename Then::template output_refs<G> if_(OperandRef<C, GC> condition, const Then& then_branch,
                                             const Else& else_branch, OperandRef<X, GX>... inputs) {
    using Result = typename Then::template output_refs<G>;
    using ThenWhere = diagnostic::then_branch<typename Then::tag>;
    using ElseWhere = diagnostic::else_branch<typename Else::tag>;
    constexpr auto then_out = Then::outputs;
    constexpr auto else_out = Else::outputs;
    constexpr std::size_t out_diff = detail::first_difference(then_out, else_out);
    if constexpr (!detail::all_in_graph<G, GC>) {
      detail::report_foreign_operand<G, OperationType::IF, 0, GC>();
      return {};
    } else if constexpr (!detail::all_in_graph<G, GX...>) {
      detail::report_foreign_operand<G, OperationType::IF, 3, GX...>();
      return {};
    } else if constexpr (C != OperandType::TENSOR_BOOL8) {
      (void)sizeof(diagnostic::if_condition_is_not_tensor_bool8<diagnostic::given<detail::operand_type_name<C>>>);
      return {};
    } else if constexpr (!detail::inputs_match<Then::inputs, X...>) {
      detail::report_inputs<OperationType::IF, ThenWhere, diagnostic::if_branch_input_type_mismatch, 3, Then::inputs,
                            X...>();
      return {};
    } else if constexpr (!detail::inputs_match<Else::inputs, X...>) {
      detail::report_inputs<OperationType::IF, ElseWhere, diagnostic::if_branch_input_type_mismatch, 3, Else::inputs,
                            X...>();
      return {};
    } else if constexpr (then_out.size() == 0) {
      (void)sizeof(diagnostic::if_branch_has_no_output<ThenWhere>);
      return {};
    } else if constexpr (then_out.size() != else_out.size()) {
      (void)sizeof(diagnostic::if_branch_output_count_mismatch<
                   diagnostic::then_branch<diagnostic::count<then_out.size()>>,
                   diagnostic::else_branch<diagnostic::count<else_out.size()>>>);
      return {};
    } else if constexpr (out_diff < then_out.size()) {
      (void)sizeof(diagnostic::if_branch_output_type_mismatch<
                   diagnostic::output<out_diff>, ThenWhere, ElseWhere,
                   diagnostic::expected<detail::operand_type_name<then_out[out_diff]>>,
                   diagnostic::given<detail::operand_type_name<else_out[out_diff]>>>);
      return {};
    } else {
      const std::uint32_t ins[] = {condition.index, subgraph_operand(then_branch.referenced_index()),
                                   subgraph_operand(else_branch.referenced_index()), inputs.index...};
      return append_control_flow<Result>(OperationType::IF, ins, then_branch.referenced_index());
    }
  }

  /// Appends WHILE(condition, body, inputs...) with M outputs (default: one per body output).
  /// Does not compile unless the condition returns one TENSOR_BOOL8 operand, the condition and
  /// the body take the inputs' types (in number and order), each body output has the type of
  /// the body input at its position (the loop operand it carries), 1 <= M <= body outputs, and
  /// every handle is of this subgraph. The outputs take the body's output operands' shapes and
  /// quantization; returns them.
  template <std::size_t M = kAllOutputs, TypedSubgraph Cond, TypedSubgraph Body, OperandType... X, class... GX>
  typename Body::template output_refs<G, detail::while_output_count(M, Body::outputs.size())> while_(
      const Cond& condition, const Body& body, OperandRef<X, GX>... inputs) {
    using Result = typename Body::template output_refs<G, detail::while_output_count(M, Body::outputs.size())>;
    using CondWhere = diagnostic::condition<typename Cond::tag>;
    using BodyWhere = diagnostic::body<typename Body::tag>;
    constexpr auto cond_out = Cond::outputs;
    constexpr auto body_in = Body::inputs;
    constexpr auto body_out = Body::outputs;
    constexpr std::size_t carried_diff = detail::first_difference(body_in, body_out);
    if constexpr (!detail::all_in_graph<G, GX...>) {
      detail::report_foreign_operand<G, OperationType::WHILE, 2, GX...>();
      return {};
    } else if constexpr (cond_out.size() != 1) {
      (void)sizeof(diagnostic::while_condition_output_is_not_tensor_bool8<
                   CondWhere, diagnostic::given<diagnostic::count<cond_out.size()>>>);
      return {};
    } else if constexpr (cond_out[0] != OperandType::TENSOR_BOOL8) {
      (void)sizeof(diagnostic::while_condition_output_is_not_tensor_bool8<
                   CondWhere, diagnostic::given<detail::operand_type_name<cond_out[0]>>>);
      return {};
    } else if constexpr (!detail::inputs_match<Cond::inputs, X...>) {
      detail::report_inputs<OperationType::WHILE, CondWhere, diagnostic::while_condition_input_type_mismatch, 2,
                            Cond::inputs, X...>();
      return {};
    } else if constexpr (!detail::inputs_match<Body::inputs, X...>) {
      detail::report_inputs<OperationType::WHILE, BodyWhere, diagnostic::while_body_input_type_mismatch, 2,
                            Body::inputs, X...>();
      return {};
    } else if constexpr (body_out.size() == 0 || body_out.size() > body_in.size()) {
      (void)sizeof(diagnostic::while_body_output_count_out_of_range<
                   BodyWhere, diagnostic::given<diagnostic::count<body_out.size()>>, diagnostic::count<body_in.size()>>);
      return {};
    } else if constexpr (carried_diff < body_out.size()) {
      (void)sizeof(diagnostic::while_body_output_type_mismatch<
                   BodyWhere, diagnostic::output<carried_diff>,
                   diagnostic::expected<detail::operand_type_name<body_in[carried_diff]>>,
                   diagnostic::given<detail::operand_type_name<body_out[carried_diff]>>>);
      return {};
    } else if constexpr (M != kAllOutputs && (M == 0 || M > body_out.size())) {
      (void)sizeof(diagnostic::while_output_count_out_of_range<diagnostic::count<M>,
                                                               diagnostic::count<body_out.size()>>);
      return {};
    } else {
      const std::uint32_t ins[] = {subgraph_operand(condition.referenced_index()),
                                   subgraph_operand(body.referenced_index()), inputs.index...};
      return append_control_flow<Result>(OperationType::WHILE, ins, body.referenced_index());
    }
  }

 protected:
  /// Appends IF / WHILE whose outputs are shaped as the first outputs of `like` (a branch or
  /// the body), as many as Result holds.
  template <class Result>
  Result append_control_flow(OperationType type, std::span<const std::uint32_t> inputs, std::uint32_t like) {
    constexpr std::size_t n = std::tuple_size_v<Result>;
    const std::uint32_t first = append(type, inputs, n, like);
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return Result(std::tuple_element_t<K, Result>{first + static_cast<std::uint32_t>(K)}...);
    }(std::make_index_sequence<n>{});
  }

  /// Marks operand handles as the subgraph's outputs, in order (reporting one of another
  /// subgraph).
  template <OperandType... T, class... Gs>
  bool set_outputs(const OperandRef<T, Gs>&... outputs) {
    if constexpr (!detail::all_in_graph<G, Gs...>) {
      constexpr std::size_t k = detail::first_false(std::array<bool, sizeof...(Gs)>{std::is_same_v<Gs, G>...});
      (void)sizeof(diagnostic::output_of_another_subgraph<diagnostic::output<k>, diagnostic::used_in<G>,
                                                          diagnostic::belongs_to<std::tuple_element_t<k, std::tuple<Gs...>>>>);
      return false;
    } else {
      (mark_output(outputs.index), ...);
      return true;
    }
  }
};

/// Builds the referenced subgraph tagged Tag whose inputs have types Ins... (created with it,
/// in order). Finish it with returns(), which gives the typed handle IF and WHILE take.
template <class Tag, OperandType... Ins>
class SubgraphBuilder : public GraphBuilder<Tag> {
 public:
  SubgraphBuilder(Model& model, std::uint32_t graph, detail::BuildState& state,
                  typename detail::spec_of<Ins>::type... specs)
      : GraphBuilder<Tag>(model, graph, state) {
    std::size_t k = 0;
    ((inputs_[k++] = this->add_input(Ins, specs)), ...);
  }

  /// Handles of the subgraph's inputs, in order (for structured bindings).
  std::tuple<OperandRef<Ins, Tag>...> inputs() const {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
      return std::tuple<OperandRef<Ins, Tag>...>(OperandRef<Ins, Tag>{inputs_[K]}...);
    }(std::make_index_sequence<sizeof...(Ins)>{});
  }

  /// Handle of input K.
  template <std::size_t K>
  std::tuple_element_t<K, std::tuple<OperandRef<Ins, Tag>...>> input() const {
    return {inputs_[K]};
  }

  /// Sets the subgraph's outputs (replacing any set before) and returns its typed handle.
  template <OperandType... Os, class... Gs>
  SubgraphRef<Tag, In<Ins...>, Out<Os...>> returns(OperandRef<Os, Gs>... outputs) {
    if (this->ok()) {
      this->graph().outputIndexes.clear();
      this->set_outputs(outputs...);
    }
    return SubgraphRef<Tag, In<Ins...>, Out<Os...>>(this->graph_ - 1);
  }

 private:
  std::array<std::uint32_t, sizeof...(Ins)> inputs_{};
};

/// Builds a Model: GraphBuilder methods build the main subgraph (tag MainGraph);
/// add_subgraph() starts a referenced one. Not copyable: its builders point into it.
///
/// Given an Arena, every list of the model lives in it and nothing is taken from the heap; when
/// the arena runs out, the builder stops adding, and build() and status() report
/// RESOURCE_EXHAUSTED_PERSISTENT. The arena must outlive the model.
class ModelBuilder : public GraphBuilder<MainGraph> {
 public:
  ModelBuilder() : GraphBuilder(model_storage_, 0, state_) {}
  explicit ModelBuilder(Arena& arena)
      : GraphBuilder(model_storage_, 0, state_), state_{Memories(arena), {}}, model_storage_(Model::in(&arena)) {}
  ModelBuilder(const ModelBuilder&) = delete;
  ModelBuilder& operator=(const ModelBuilder&) = delete;

  /// A main-subgraph input of type T (model inputs are numbered in call order).
  template <OperandType T>
  OperandRef<T> input(OperandSpec spec = {}) {
    return {add_input(T, spec)};
  }

  /// Marks operands of the main subgraph as model outputs (in call order).
  template <OperandType... T, class... Gs>
  void output(OperandRef<T, Gs>... r) {
    set_outputs(r...);
  }

  /// Starts a new referenced subgraph (Model::referenced[k], k in creation order) tagged Tag
  /// (a type naming it, e.g. `struct Body`), with inputs of types Ins... shaped by `specs`.
  /// Handles of its operands are of type OperandRef<T, Tag>: another subgraph's builder does
  /// not take them. Subgraphs made with the same tag share handle types (use that only for
  /// subgraphs built in a loop).
  template <class Tag, OperandType... Ins>
  SubgraphBuilder<Tag, Ins...> add_subgraph(typename detail::spec_of<Ins>::type... specs) {
    static_assert(!std::is_same_v<Tag, MainGraph>, "nnhal: MainGraph is the main subgraph's tag");
    if (ok() && grew(state_.memory.grow(model_storage_.referenced, model_storage_.referenced.size() + 1)))
      model_storage_.referenced.push_back(Subgraph::in(state_.memory.resource()));
    return SubgraphBuilder<Tag, Ins...>(model_storage_, static_cast<std::uint32_t>(model_storage_.referenced.size()),
                                        state_, specs...);
  }

  /// Sets relaxComputationFloat32toFloat16.
  void relax_float32_to_float16(bool relax) { model_storage_.relaxComputationFloat32toFloat16 = relax; }

  /// The model built so far (incomplete after a failure: see status()).
  const Model& model() const& noexcept { return model_storage_; }
  Model model() && noexcept { return std::move(model_storage_); }

  /// Success, or the first failure to get memory (RESOURCE_EXHAUSTED_PERSISTENT).
  const Status& status() const noexcept { return state_.status; }
  /// The model, or the first failure.
  Expected<Model> build() && {
    if (!state_.status) return state_.status.error();
    return std::move(model_storage_);
  }

 private:
  // The base class keeps their addresses (it is made before them, but reads them only later).
  detail::BuildState state_;
  Model model_storage_;
};

}  // namespace nnhal
