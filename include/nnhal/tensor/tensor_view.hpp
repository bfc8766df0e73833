#pragma once
/// \file
/// Typed views of operand data. The element type follows from the operand type, so reading a
/// TENSOR_QUANT8_ASYMM operand as float does not compile.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/operand_traits.hpp"

namespace nnhal {

/// A view of one tensor operand of type T: data pointer, shape and quantization parameters.
/// `Mutable` selects write access (outputs).
template <OperandType T, bool Mutable = false>
class TensorView {
  static_assert(is_tensor(T), "nnhal: TensorView needs a tensor operand type");

 public:
  using value_type = element_t<T>;
  using element_type = std::conditional_t<Mutable, value_type, const value_type>;
  static constexpr OperandType operand_type = T;

  constexpr TensorView() noexcept = default;
  constexpr TensorView(element_type* data, const Dims& dims, float scale = 0.0f,
                       std::int32_t zero_point = 0) noexcept
      : data_(data), dims_(dims), scale_(scale), zero_point_(zero_point) {}

  constexpr element_type* data() const noexcept { return data_; }
  constexpr const Dims& dims() const noexcept { return dims_; }
  constexpr std::size_t rank() const noexcept { return dims_.rank(); }
  constexpr std::uint32_t dim(std::size_t i) const noexcept { return dims_[i]; }
  constexpr std::size_t size() const noexcept {
    return static_cast<std::size_t>(dims_.element_count());
  }
  constexpr float scale() const noexcept { return scale_; }
  constexpr std::int32_t zero_point() const noexcept { return zero_point_; }
  constexpr element_type& operator[](std::size_t i) const noexcept { return data_[i]; }
  constexpr element_type* begin() const noexcept { return data_; }
  constexpr element_type* end() const noexcept { return data_ + size(); }

  /// The data as a pointer to U. U must be the operand type's element type: asking for any
  /// other type is a compile error, which is the point of the typed view.
  template <class U>
  constexpr U* as() const noexcept {
    static_assert(std::is_same_v<std::remove_const_t<U>, value_type>,
                  "nnhal: element type does not match the operand type");
    static_assert(Mutable || std::is_const_v<U>, "nnhal: read-only tensor view");
    return data_;
  }

  /// A read-only view of the same data.
  constexpr TensorView<T, false> as_const() const noexcept {
    return {data_, dims_, scale_, zero_point_};
  }

 private:
  element_type* data_ = nullptr;
  Dims dims_{};
  float scale_ = 0.0f;
  std::int32_t zero_point_ = 0;
};

/// A writable view.
template <OperandType T>
using MutableTensorView = TensorView<T, true>;

}  // namespace nnhal
