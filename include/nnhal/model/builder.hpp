#pragma once
/// \file
/// ModelBuilder: builds a Model in code with operand handles typed by their OperandType. Every
/// operation is checked at compile time against the operation table: an operand type
/// combination that no signature of the operation accepts does not compile.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
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

/// Builds the main subgraph of a Model.
class ModelBuilder {
 public:
  /// A model input of type T.
  template <OperandType T>
  OperandRef<T> input(OperandSpec spec = {}) {
    const auto i = add_operand(T, spec, OperandLifeTime::SUBGRAPH_INPUT);
    model_.main.inputIndexes.push_back(i);
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

  /// A constant scalar of type T.
  template <OperandType T>
  OperandRef<T> scalar(element_t<T> value) {
    static_assert(!is_tensor(T), "nnhal: use constant<T>() for tensor constants");
    const auto i = add_operand(T, {}, OperandLifeTime::CONSTANT_COPY);
    set_value(i, &value, sizeof value);
    return {i};
  }

  /// Appends operation Op reading `inputs` and producing one new operand of type Out. Does not
  /// compile when no signature of Op in the operation table accepts these operand types.
  template <OperationType Op, OperandType Out, OperandType... In>
  OperandRef<Out> operation(OperandSpec out_spec, OperandRef<In>... inputs) {
    static_assert(detail::table_accepts<Op>(std::array<OperandType, sizeof...(In)>{In...}, Out),
                  "nnhal: no signature of this operation accepts these operand types");
    const auto out = add_operand(Out, out_spec, OperandLifeTime::TEMPORARY_VARIABLE);
    Operation op;
    op.type = Op;
    (op.inputs.push_back(inputs.index), ...);
    for (std::uint32_t i : op.inputs) ++model_.main.operands[i].numberOfConsumers;
    op.outputs.push_back(out);
    model_.main.operations.push_back(std::move(op));
    return {out};
  }

  /// Marks an operation result as a model output (in call order).
  template <OperandType T>
  void output(OperandRef<T> r) {
    model_.main.operands[r.index].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    model_.main.outputIndexes.push_back(r.index);
  }

  /// Sets relaxComputationFloat32toFloat16.
  void relax_float32_to_float16(bool relax) { model_.relaxComputationFloat32toFloat16 = relax; }

  /// The model built so far.
  const Model& model() const& noexcept { return model_; }
  Model model() && noexcept { return std::move(model_); }

 private:
  std::uint32_t add_operand(OperandType t, const OperandSpec& spec, OperandLifeTime lifetime) {
    Operand op;
    op.type = t;
    op.dimensions = spec.dims;
    op.scale = spec.scale;
    op.zeroPoint = spec.zero_point;
    op.lifetime = lifetime;
    model_.main.operands.push_back(std::move(op));
    return static_cast<std::uint32_t>(model_.main.operands.size() - 1);
  }

  // Appends bytes to operandValues at the HAL alignment for their length (HAL13.md a.6).
  void set_value(std::uint32_t operand, const void* data, std::size_t bytes) {
    auto& values = model_.operandValues;
    const std::size_t align = bytes < 2 ? 1 : bytes < 4 ? 2 : 4;
    const std::size_t offset = (values.size() + align - 1) / align * align;
    values.resize(offset + bytes);
    if (bytes != 0) std::memcpy(values.data() + offset, data, bytes);
    model_.main.operands[operand].location = {0, static_cast<std::uint32_t>(offset),
                                              static_cast<std::uint32_t>(bytes)};
  }

  Model model_;
};

}  // namespace nnhal
