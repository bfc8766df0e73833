#pragma once
/// \file
/// Validation rules on declared shapes and constant values, shared by the shape, indexing and
/// reduction rows: what their kernels would reject at execution but validation can already
/// decide (a constant block size of 0, a constant axis out of range, a paddings tensor of the
/// wrong shape, ...). Every rule checks only what is known: an unknown rank, an unknown
/// dimension (0) or a non-constant operand passes, and the kernel checks it at execution.
/// Messages name the input by position and slot name; model validation prefixes the operation.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>

#include "nnhal/core/result.hpp"
#include "nnhal/interface/operation_view.hpp"

namespace nnhal::ops::rules {

/// The values of a constant TENSOR_INT32 input (read with memcpy: constants need not be
/// aligned), when its declared shape is fully known and its bytes cover it.
class ConstInts {
 public:
  ConstInts(const std::byte* data, std::size_t count) noexcept : data_(data), count_(count) {}
  std::size_t size() const noexcept { return count_; }
  std::int32_t operator[](std::size_t i) const noexcept {
    std::int32_t v;
    std::memcpy(&v, data_ + i * sizeof v, sizeof v);
    return v;
  }

 private:
  const std::byte* data_;
  std::size_t count_;
};

inline std::optional<ConstInts> const_ints(const OperationView& op, std::size_t i) {
  const Operand& o = op.input(i);
  if (o.type != OperandType::TENSOR_INT32 || o.dimensions.empty()) return std::nullopt;
  std::size_t n = 1;
  for (std::uint32_t d : o.dimensions) {
    if (d == 0) return std::nullopt;
    n *= d;
  }
  const std::byte* p = op.constant_data(o);
  if (p == nullptr || o.location.length < n * sizeof(std::int32_t)) return std::nullopt;
  return ConstInts(p, n);
}

/// Declared dimension k of input i, or nullopt when the rank or the dimension is unknown.
inline std::optional<std::uint32_t> known_dim(const OperationView& op, std::size_t i, std::size_t k) {
  const Operand& o = op.input(i);
  if (k >= o.dimensions.size() || o.dimensions[k] == 0) return std::nullopt;
  return o.dimensions[k];
}

/// Input i (named `name`) has the declared shape `want` where known (rank and each dimension).
inline Status check_shape(const OperationView& op, std::size_t i, const char* name,
                          std::initializer_list<std::uint32_t> want) {
  const auto& d = op.input(i).dimensions;
  if (d.empty()) return {};
  if (d.size() != want.size())
    return NNHAL_INVALID("input %zu (%s) has rank %zu, it must be %zu", i, name, d.size(), want.size());
  std::size_t k = 0;
  for (std::uint32_t w : want) {
    if (d[k] != 0 && w != 0 && d[k] != w)
      return NNHAL_INVALID("input %zu (%s) has dimension %zu = %" PRIu32 ", it must be %" PRIu32, i,
                           name, k, d[k], w);
    ++k;
  }
  return {};
}

/// Input i (named `name`) is 1-D where its rank is known.
inline Status check_1d(const OperationView& op, std::size_t i, const char* name) {
  if (auto r = op.input_rank(i); r && *r != 1)
    return NNHAL_INVALID("input %zu (%s) has rank %zu, it must be 1-D", i, name, *r);
  return {};
}

/// A constant INT32 scalar input i (named `name`) lies in [lo, hi].
inline Status check_scalar_range(const OperationView& op, std::size_t i, const char* name, std::int64_t lo,
                                 std::int64_t hi) {
  if (auto v = op.constant_scalar<OperandType::INT32>(i); v && (*v < lo || *v > hi))
    return NNHAL_INVALID("input %zu (%s) is %" PRId32 ", it must be in [%lld, %lld]", i, name, *v,
                         static_cast<long long>(lo), static_cast<long long>(hi));
  return {};
}

/// Every value of a constant TENSOR_INT32 input i (named `name`) lies in [lo, hi].
inline Status check_values_range(const OperationView& op, std::size_t i, const char* name, std::int64_t lo,
                                 std::int64_t hi) {
  if (auto v = const_ints(op, i))
    for (std::size_t j = 0; j < v->size(); ++j)
      if ((*v)[j] < lo || (*v)[j] > hi)
        return NNHAL_INVALID("input %zu (%s) entry %zu is %" PRId32 ", it must be in [%lld, %lld]",
                             i, name, j, (*v)[j], static_cast<long long>(lo),
                             static_cast<long long>(hi));
  return {};
}

/// An axis input (constant scalar i, or every entry of constant tensor i) lies in
/// [-rank, rank) for the known rank of input `data` plus `extra` (EXPAND_DIMS: 1).
inline Status check_axes(const OperationView& op, std::size_t i, const char* name, std::size_t data = 0,
                         std::size_t extra = 0) {
  const auto rank = op.input_rank(data);
  if (!rank) return {};
  const auto r = static_cast<std::int64_t>(*rank + extra);
  if (op.input(i).type == OperandType::INT32) return check_scalar_range(op, i, name, -r, r - 1);
  return check_values_range(op, i, name, -r, r - 1);
}

/// Value of a constant FLOAT32 or FLOAT16 scalar input i as float, or nullopt when it is not a
/// constant (the detection rows' thresholds and scales).
inline std::optional<float> const_float(const OperationView& op, std::size_t i) {
  if (auto v = op.constant_scalar<OperandType::FLOAT32>(i)) return *v;
  if (auto v = op.constant_scalar<OperandType::FLOAT16>(i)) return static_cast<float>(*v);
  return std::nullopt;
}

/// A 16-bit input i (named `name`) has the fixed quantization of box coordinates: scale 0.125,
/// zero point 0 (the detection and region operations). Other types pass.
inline Status check_box_quant(const OperationView& op, std::size_t i, const char* name) {
  const Operand& o = op.input(i);
  if (o.type != OperandType::TENSOR_QUANT16_ASYMM && o.type != OperandType::TENSOR_QUANT16_SYMM) return {};
  if (o.scale != 0.125f || o.zeroPoint != 0)
    return NNHAL_INVALID("input %zu (%s) must have scale 0.125 and zero point 0 (has %g, %" PRId32
                         ")",
                         i, name, static_cast<double>(o.scale), o.zeroPoint);
  return {};
}

}  // namespace nnhal::ops::rules
