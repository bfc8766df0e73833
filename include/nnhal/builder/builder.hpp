#pragma once
/// \file
/// ModelBuilder: builds a Model in code with operand handles typed by their OperandType. Every
/// operation is checked at compile time against the operation table: an operand type
/// combination that no signature of the operation accepts does not compile.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include "nnhal/core/operand_traits.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal {

/// A handle to an operand of type T in a ModelBuilder.
template <OperandType T>
struct OperandRef {
  static constexpr OperandType type = T;
  std::uint32_t index = 0;
};

/// Shape and quantization of an operand to create.
struct OperandSpec {
  std::vector<std::uint32_t> dims;  ///< empty for scalars (or unknown rank)
  float scale = 0.0f;
  std::int32_t zero_point = 0;
};

namespace detail {
/// True when some signature of `Op` accepts inputs `in` and the single output `out`.
template <OperationType Op, std::size_t N>
constexpr bool table_accepts(const std::array<OperandType, N>& in, OperandType out) {
  for (const Signature& s : operation_info<Op>().signatures) {
    if (!s.inputs.accepts_count(N) || !s.outputs.accepts_count(1)) continue;
    bool ok = s.outputs.code_at(0, 1) == kAnyTypeCode ||
              s.outputs.code_at(0, 1) == static_cast<std::uint8_t>(out);
    for (std::size_t i = 0; ok && i < N; ++i) {
      const std::uint8_t c = s.inputs.code_at(i, N);
      ok = c == kAnyTypeCode || c == static_cast<std::uint8_t>(in[i]);
    }
    if (ok) return true;
  }
  return false;
}
}  // namespace detail

/// An untyped operand of a GraphBuilder's subgraph, for control-flow operands whose types the
/// table does not fix.
struct AnyOperandRef {
  OperandType type;
  std::uint32_t index = 0;
};

/// Builds one subgraph of a Model: main, or a referenced subgraph for IF / WHILE.
class GraphBuilder {
 public:
  GraphBuilder(Model& model, std::uint32_t graph) noexcept : model_(&model), graph_(graph) {}

  /// Index of this subgraph in Model::referenced (meaningless for main).
  std::uint32_t referenced_index() const noexcept { return graph_ - 1; }

  /// A subgraph input of type T.
  template <OperandType T>
  OperandRef<T> input(OperandSpec spec = {}) {
    const auto i = add_operand(T, spec, OperandLifeTime::SUBGRAPH_INPUT);
    graph().inputIndexes.push_back(i);
    return {i};
  }

  /// A constant tensor of type T holding `values` (copied into the model).
  template <OperandType T>
  OperandRef<T> constant(std::span<const element_t<T>> values, OperandSpec spec) {
    static_assert(is_tensor(T), "nnhal: use scalar<T>() for scalar constants");
    const auto i = add_operand(T, spec, OperandLifeTime::CONSTANT_COPY);
    set_value(i, values.data(), values.size_bytes());
    return {i};
  }

  /// Adds `memory` to the model's memory pools and returns its index, for constant_reference().
  /// The memory is not copied: it must outlive the model and everything prepared from it.
  std::uint32_t pool(Memory memory) {
    model_->pools.push_back(memory);
    return static_cast<std::uint32_t>(model_->pools.size() - 1);
  }

  /// A constant tensor of type T whose `length` bytes stay at `offset` in memory pool `pool`
  /// (CONSTANT_REFERENCE: not copied into the model, so large weights are not duplicated).
  template <OperandType T>
  OperandRef<T> constant_reference(std::uint32_t pool, std::uint32_t offset, std::uint32_t length,
                                   OperandSpec spec) {
    static_assert(is_tensor(T), "nnhal: constant_reference() is for tensor constants");
    const auto i = add_operand(T, spec, OperandLifeTime::CONSTANT_REFERENCE);
    graph().operands[i].location = {pool, offset, length};
    return {i};
  }

  /// A constant scalar of type T.
  template <OperandType T>
  OperandRef<T> scalar(element_t<T> value) {
    static_assert(!is_tensor(T), "nnhal: use constant<T>() for tensor constants");
    const auto i = add_operand(T, {}, OperandLifeTime::CONSTANT_COPY);
    set_value(i, &value, sizeof value);
    return {i};
  }

  /// A SUBGRAPH operand naming `target` (for IF / WHILE inputs).
  OperandRef<OperandType::SUBGRAPH> subgraph(const GraphBuilder& target) {
    const auto i = add_operand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
    graph().operands[i].location = {0, target.referenced_index(), 0};
    return {i};
  }

  /// Appends operation Op reading `inputs` and producing one new operand of type Out. Does not
  /// compile when no signature of Op in the operation table accepts these operand types.
  template <OperationType Op, OperandType Out, OperandType... In>
  OperandRef<Out> operation(OperandSpec out_spec, OperandRef<In>... inputs) {
    static_assert(detail::table_accepts<Op>(std::array<OperandType, sizeof...(In)>{In...}, Out),
                  "nnhal: no signature of this operation accepts these operand types");
    const std::uint32_t ins[] = {inputs.index...};
    return {append(Op, ins, {{Out, std::move(out_spec)}})[0]};
  }

  /// Appends IF or WHILE (whose operand layout is variable; validation checks it) reading
  /// `inputs` and producing new operands of the given types; returns their indexes.
  std::vector<std::uint32_t> control_flow(OperationType op, std::span<const std::uint32_t> inputs,
                                          std::vector<std::pair<OperandType, OperandSpec>> outputs) {
    return append(op, inputs, std::move(outputs));
  }

  /// Marks an operation result as a subgraph output (in call order).
  void output(std::uint32_t operand) {
    graph().operands[operand].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    graph().outputIndexes.push_back(operand);
  }
  template <OperandType T>
  void output(OperandRef<T> r) {
    output(r.index);
  }

 protected:
  Subgraph& graph() noexcept { return graph_ == 0 ? model_->main : model_->referenced[graph_ - 1]; }

  std::uint32_t add_operand(OperandType t, const OperandSpec& spec, OperandLifeTime lifetime) {
    Operand op;
    op.type = t;
    op.dimensions = spec.dims;
    op.scale = spec.scale;
    op.zeroPoint = spec.zero_point;
    op.lifetime = lifetime;
    graph().operands.push_back(std::move(op));
    return static_cast<std::uint32_t>(graph().operands.size() - 1);
  }

  std::vector<std::uint32_t> append(OperationType type, std::span<const std::uint32_t> inputs,
                                    std::vector<std::pair<OperandType, OperandSpec>> outputs) {
    Operation op;
    op.type = type;
    op.inputs.assign(inputs.begin(), inputs.end());
    for (std::uint32_t i : op.inputs) ++graph().operands[i].numberOfConsumers;
    for (const auto& [t, spec] : outputs)
      op.outputs.push_back(add_operand(t, spec, OperandLifeTime::TEMPORARY_VARIABLE));
    graph().operations.push_back(op);
    return op.outputs;
  }

  // Appends bytes to operandValues at the HAL alignment for their length (HAL13.md a.6).
  void set_value(std::uint32_t operand, const void* data, std::size_t bytes) {
    auto& values = model_->operandValues;
    const std::size_t align = bytes < 2 ? 1 : bytes < 4 ? 2 : 4;
    const std::size_t offset = (values.size() + align - 1) / align * align;
    values.resize(offset + bytes);
    if (bytes != 0) std::memcpy(values.data() + offset, data, bytes);
    graph().operands[operand].location = {0, static_cast<std::uint32_t>(offset),
                                          static_cast<std::uint32_t>(bytes)};
  }

  Model* model_;
  std::uint32_t graph_;
};

/// Builds a Model: GraphBuilder methods build the main subgraph; add_subgraph() starts a
/// referenced one. Not copyable: its GraphBuilders point into it.
class ModelBuilder : public GraphBuilder {
 public:
  ModelBuilder() : GraphBuilder(model_storage_, 0) {}
  ModelBuilder(const ModelBuilder&) = delete;
  ModelBuilder& operator=(const ModelBuilder&) = delete;

  /// Starts a new referenced subgraph (Model::referenced[k], k in creation order).
  GraphBuilder add_subgraph() {
    model_storage_.referenced.emplace_back();
    return GraphBuilder(model_storage_, static_cast<std::uint32_t>(model_storage_.referenced.size()));
  }

  /// Sets relaxComputationFloat32toFloat16.
  void relax_float32_to_float16(bool relax) { model_storage_.relaxComputationFloat32toFloat16 = relax; }

  /// The model built so far.
  const Model& model() const& noexcept { return model_storage_; }
  Model model() && noexcept { return std::move(model_storage_); }

 private:
  Model model_storage_;
};

}  // namespace nnhal
