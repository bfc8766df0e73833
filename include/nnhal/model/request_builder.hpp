#pragma once
/// \file
/// RequestBuilder: a Request made from typed spans instead of raw HAL records. Inputs and
/// outputs of a model's main subgraph are bound by position, or by the typed builder's operand
/// handle (nnhal::OperandRef<T>), to `std::span`s of the operand type's element type; the
/// builder writes the HAL Request and its memory pools (one pool per argument, pointing at the
/// caller's memory: nothing is copied). After an execution, output_view() reads an output as a
/// typed TensorView of the caller's buffer with the dimensions the execution reported.
///
///     nnhal::RequestBuilder rb(model);
///     rb.input(x, std::span<const float>(x_values));   // x: OperandRef<TENSOR_FLOAT32>
///     rb.output(y, std::span<float>(y_values));
///     if (auto s = rb.ready(); !s) ...                  // every argument bound?
///     execution->run(rb.request());                     // the same Request for every run
///     auto y_view = rb.output_view(y, execution->output_shapes());
///
/// Errors are values. The builder allocates when it is constructed; binding again (new data in
/// the same places, or the same span) and running the same Request allocate nothing. Drivers
/// that receive a HAL Request keep using it as it is.

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/tensor/tensor_view.hpp"

namespace nnhal {

/// A typed operand handle: `H::type` is a constant OperandType and `h.index` the operand's
/// index in its subgraph (nnhal::OperandRef<T> of nnhal/builder/builder.hpp).
template <class H>
concept TypedOperandHandle = requires(const H& h) {
  requires std::is_same_v<std::remove_cvref_t<decltype(H::type)>, OperandType>;
  typename std::integral_constant<OperandType, H::type>;
  { h.index } -> std::convertible_to<std::uint32_t>;
};

namespace detail {
/// True when E is the element type of the fundamental operand type `t`.
template <class E>
constexpr bool element_type_of(OperandType t) noexcept {
  return [t]<std::size_t... I>(std::index_sequence<I...>) {
    return ((t == static_cast<OperandType>(I) && std::is_same_v<E, element_t<static_cast<OperandType>(I)>>) || ...);
  }(std::make_index_sequence<kOperandTypeCount>{});
}
}  // namespace detail

/// Builds a Request for the main subgraph of one model from typed spans. See the file comment.
class RequestBuilder {
 public:
  /// Reads the main subgraph's input and output operands (type, declared dimensions): the
  /// builder does not keep a reference to `model`.
  explicit RequestBuilder(const Model& model) {
    const Subgraph& g = model.main;
    inputs_.reserve(g.inputIndexes.size());
    outputs_.reserve(g.outputIndexes.size());
    for (std::uint32_t i : g.inputIndexes) inputs_.push_back(describe(g, i));
    for (std::uint32_t i : g.outputIndexes) outputs_.push_back(describe(g, i));
    request_.inputs.resize(inputs_.size());
    request_.outputs.resize(outputs_.size());
    request_.pools.resize(inputs_.size() + outputs_.size());
    for (std::size_t k = 0; k < inputs_.size(); ++k) request_.inputs[k].dimensions.reserve(inputs_[k].declared.rank());
    for (std::size_t k = 0; k < outputs_.size(); ++k)
      request_.outputs[k].dimensions.reserve(outputs_[k].declared.rank());
  }

  /// Number of inputs / outputs of the model's main subgraph.
  std::size_t input_count() const noexcept { return inputs_.size(); }
  std::size_t output_count() const noexcept { return outputs_.size(); }

  /// Position of operand `index` among main's inputs (outputs when `output`), or an error.
  Expected<std::size_t> position_of(std::uint32_t index, bool output) const {
    const auto& args = output ? outputs_ : inputs_;
    for (std::size_t k = 0; k < args.size(); ++k)
      if (args[k].operand == index) return k;
    return NNHAL_INVALID("operand %" PRIu32 " is not a model %s", index,
                         output ? "output" : "input");
  }

  /// Binds input `position` to `data`. E must be the element type of the input's operand type.
  /// `dims` gives the dimensions of an input whose declared ones are not all known (and, when
  /// given for a known shape, must equal it); `data` must hold exactly that many elements.
  template <class E>
  Status input(std::size_t position, std::span<const E> data, std::span<const std::uint32_t> dims = {}) {
    return bind(false, position, detail::element_type_of<E>, data.data(), data.size(), sizeof(E), dims);
  }
  template <class E>
  Status input(std::size_t position, std::span<E> data, std::span<const std::uint32_t> dims = {}) {
    return input(position, std::span<const E>(data), dims);
  }
  /// Binds the input of handle `h` (an operand of main) to elements of its operand type: a span
  /// of any other element type does not compile.
  template <TypedOperandHandle H>
  Status input(const H& h, std::span<const element_t<H::type>> data, std::span<const std::uint32_t> dims = {}) {
    auto k = position_of(h.index, false);
    if (!k) return std::move(k.error());
    return input(*k, data, dims);
  }

  /// Leaves input `position` without a value (`hasNoValue`), for an optional operand.
  Status omit_input(std::size_t position) {
    if (position >= inputs_.size())
      return NNHAL_INVALID("input %zu does not exist (the model has %zu)", position, inputs_.size());
    RequestArgument& a = request_.inputs[position];
    a.hasNoValue = true;
    a.location = {};
    a.dimensions.clear();
    request_.pools[position] = {};
    inputs_[position].bound = true;
    return {};
  }
  template <TypedOperandHandle H>
  Status omit_input(const H& h) {
    auto k = position_of(h.index, false);
    if (!k) return std::move(k.error());
    return omit_input(*k);
  }

  /// Binds output `position` to `data`, which receives the result: it must hold at least the
  /// elements of the declared shape when that is known; otherwise it is the capacity, and the
  /// execution reports the shape (OUTPUT_INSUFFICIENT_SIZE when it does not fit). `dims`
  /// optionally states the shape expected.
  template <class E>
  Status output(std::size_t position, std::span<E> data, std::span<const std::uint32_t> dims = {}) {
    static_assert(!std::is_const_v<E>, "nnhal: an output needs a writable span");
    return bind(true, position, detail::element_type_of<E>, data.data(), data.size(), sizeof(E), dims);
  }
  template <TypedOperandHandle H>
  Status output(const H& h, std::span<element_t<H::type>> data, std::span<const std::uint32_t> dims = {}) {
    auto k = position_of(h.index, true);
    if (!k) return std::move(k.error());
    return output(*k, data, dims);
  }

  /// Success when every input and output is bound (or the input omitted).
  Status ready() const {
    for (std::size_t k = 0; k < inputs_.size(); ++k)
      if (!inputs_[k].bound)
        return NNHAL_INVALID("input %zu (operand %" PRIu32 ") is not bound", k, inputs_[k].operand);
    for (std::size_t k = 0; k < outputs_.size(); ++k)
      if (!outputs_[k].bound)
        return NNHAL_INVALID("output %zu (operand %" PRIu32 ") is not bound", k,
                             outputs_[k].operand);
    return {};
  }

  /// The HAL Request, pointing at the bound spans; valid as long as they are. Run it as many
  /// times as needed: binding again updates it in place.
  const Request& request() const noexcept { return request_; }

  /// Output `position` of operand type T after an execution: the bound buffer seen as a tensor
  /// with the dimensions `shapes` (Execution::output_shapes()) reports. An error when the type is
  /// not the output's, the output is not bound, the shapes are missing or the buffer was too
  /// small (the execution then failed with OUTPUT_INSUFFICIENT_SIZE).
  template <OperandType T>
  Expected<TensorView<T>> output_view(std::size_t position, std::span<const OutputShape> shapes) const {
    if (position >= outputs_.size())
      return NNHAL_INVALID("output %zu does not exist (the model has %zu)", position, outputs_.size());
    const Arg& a = outputs_[position];
    if (a.type != T)
      return NNHAL_INVALID("output %zu (operand %" PRIu32 ") is %s, not %s", position, a.operand,
                           to_string(a.type).data(), to_string(T).data());
    if (!a.bound)
      return NNHAL_INVALID("output %zu (operand %" PRIu32 ") is not bound", position, a.operand);
    if (position >= shapes.size())
      return NNHAL_INVALID("no shape for output %zu (%zu shapes: did the execution succeed?)", position, shapes.size());
    const OutputShape& s = shapes[position];
    Dims dims;
    if (!dims.assign(s.dimensions))
      return NNHAL_INVALID("output %zu has rank %zu, above %zu", position, s.dimensions.size(), kMaxRank);
    if (!s.isSufficient || dims.element_count() > a.elements)
      return NNHAL_INVALID(
          "output %zu (operand %" PRIu32 ") needs %llu elements, its buffer holds %zu", position,
          a.operand, static_cast<unsigned long long>(dims.element_count()), a.elements);
    const auto* data = reinterpret_cast<const element_t<T>*>(request_.pools[inputs_.size() + position].memory.data);
    return TensorView<T>(data, dims, a.scale, a.zero_point);
  }
  /// The output of handle `h` after an execution (see above).
  template <TypedOperandHandle H>
  Expected<TensorView<H::type>> output_view(const H& h, std::span<const OutputShape> shapes) const {
    auto k = position_of(h.index, true);
    if (!k) return std::move(k.error());
    return output_view<H::type>(*k, shapes);
  }

 private:
  struct Arg {
    std::uint32_t operand = 0;
    OperandType type = OperandType::TENSOR_FLOAT32;
    Dims declared;            ///< empty: unknown rank
    bool rank_known = false;  ///< scalars have rank 0 and known "dimensions"
    float scale = 0.0f;
    std::int32_t zero_point = 0;
    bool bound = false;
    std::size_t elements = 0;  ///< elements of the bound span
  };

  static Arg describe(const Subgraph& g, std::uint32_t index) {
    Arg a;
    a.operand = index;
    if (index >= g.operands.size()) return a;  // an invalid model: binding reports it
    const Operand& o = g.operands[index];
    a.type = o.type;
    a.rank_known = !o.dimensions.empty() || !is_tensor(o.type);
    (void)a.declared.assign(o.dimensions);
    a.scale = o.scale;
    a.zero_point = o.zeroPoint;
    return a;
  }

  Status bind(bool output, std::size_t position, bool (*element_matches)(OperandType) noexcept, const void* data,
              std::size_t count, std::size_t element_bytes, std::span<const std::uint32_t> dims) {
    auto& args = output ? outputs_ : inputs_;
    const char* what = output ? "output" : "input";
    if (position >= args.size())
      return NNHAL_INVALID("%s %zu does not exist (the model has %zu)", what, position, args.size());
    Arg& a = args[position];
    if (!element_matches(a.type))
      return NNHAL_INVALID("%s %zu (operand %" PRIu32
                           ") is %s: the span's element type (%zu bytes) is not its element type",
                           what, position, a.operand, to_string(a.type).data(), element_bytes);
    // The shape: the declared one when fully known, else the one given, which must agree with
    // every known declared entry.
    Dims shape;
    if (!dims.empty()) {
      if (!shape.assign(dims)) return NNHAL_INVALID("%s %zu: rank %zu is above %zu", what, position, dims.size(), kMaxRank);
      if (a.rank_known && shape.rank() != a.declared.rank())
        return NNHAL_INVALID("%s %zu (operand %" PRIu32 "): rank %zu given, the model declares %zu",
                             what, position, a.operand, shape.rank(), a.declared.rank());
      for (std::size_t d = 0; a.rank_known && d < shape.rank(); ++d)
        if (a.declared[d] != 0 && a.declared[d] != shape[d])
          return NNHAL_INVALID("%s %zu (operand %" PRIu32 "): dimension %zu is %" PRIu32
                               ", the model declares %" PRIu32,
                               what, position, a.operand, d, shape[d], a.declared[d]);
    } else if (a.rank_known && a.declared.all_known()) {
      shape = a.declared;
    } else if (!output) {
      return NNHAL_INVALID("input %zu (operand %" PRIu32
                           ") has unknown dimensions in the model: give them",
                           position, a.operand);
    }
    const bool shape_known = !dims.empty() || (a.rank_known && a.declared.all_known());
    if (shape_known) {
      const std::uint64_t need = shape.element_count();
      if (!output && count != need)
        return NNHAL_INVALID("input %zu (operand %" PRIu32
                             "): the span holds %zu elements, the shape has %llu",
                             position, a.operand, count, static_cast<unsigned long long>(need));
      if (output && count < need)
        return NNHAL_INVALID("output %zu (operand %" PRIu32
                             "): the span holds %zu elements, the shape needs %llu",
                             position, a.operand, count, static_cast<unsigned long long>(need));
    }
    if (count > UINT32_MAX / element_bytes)
      return NNHAL_INVALID("%s %zu (operand %" PRIu32
                           "): %zu elements exceed a HAL location (4 GiB)",
                           what, position, a.operand, count);
    RequestArgument& r = output ? request_.outputs[position] : request_.inputs[position];
    const std::size_t pool = output ? inputs_.size() + position : position;
    r.hasNoValue = false;
    r.location = {static_cast<std::uint32_t>(pool), 0, static_cast<std::uint32_t>(count * element_bytes)};
    // Given dimensions go in the request (unknown declared ones need them); with none given the
    // request relies on the model's, as a HAL client would.
    r.dimensions.assign(dims.begin(), dims.end());
    // Inputs are only read by an execution; Memory has one pointer type for both directions.
    request_.pools[pool] = {{static_cast<std::byte*>(const_cast<void*>(data)), count * element_bytes}, 0};
    a.bound = true;
    a.elements = count;
    return {};
  }

  std::vector<Arg> inputs_, outputs_;
  Request request_;
};

}  // namespace nnhal
