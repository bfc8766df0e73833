#pragma once
/// \file
/// Helpers for the shape / indexing / reduction kernel tests: row-major index arithmetic done
/// the slow, obvious way (the references the kernels are checked against), a seeded random
/// generator, and element conversion for type-parametrized tests.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/half.hpp"
#include "nnhal/core/operand_traits.hpp"

namespace nnhal::test {

/// Row-major multi-index <-> flat index.
inline std::vector<std::uint32_t> unflatten(std::size_t flat, const Dims& d) {
  std::vector<std::uint32_t> idx(d.rank());
  for (std::size_t k = d.rank(); k-- > 0;) {
    idx[k] = static_cast<std::uint32_t>(flat % d[k]);
    flat /= d[k];
  }
  return idx;
}
inline std::size_t flatten(const std::vector<std::uint32_t>& idx, const Dims& d) {
  std::size_t flat = 0;
  for (std::size_t k = 0; k < d.rank(); ++k) flat = flat * d[k] + idx[k];
  return flat;
}

/// 0, 1, 2, ... as elements of type E (exact in every element type for small counts; wraps for
/// 8-bit types, which is fine for data-movement tests).
template <class E>
std::vector<E> iota_of(std::size_t n, int start = 0) {
  std::vector<E> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int x = start + static_cast<int>(i);
    if constexpr (std::is_same_v<E, Half>)
      v.push_back(Half(static_cast<float>(x % 1000)));
    else if constexpr (std::is_same_v<E, float>)
      v.push_back(static_cast<float>(x));
    else
      v.push_back(static_cast<E>(x));
  }
  return v;
}

/// Element equality by value (Half by bits).
template <class E>
bool same(const E& a, const E& b) {
  if constexpr (std::is_same_v<E, Half>)
    return a.bits == b.bits;
  else
    return a == b;
}
template <class E>
bool same(const std::vector<E>& a, const std::vector<E>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

/// Python slice semantics per axis (an independent formulation of the reference's clamping).
inline std::vector<std::int64_t> slice_positions(std::int64_t dim, std::int64_t b, std::int64_t e, std::int64_t s,
                                          bool mask_b, bool mask_e) {
  auto norm = [&](std::int64_t v, bool positive) {
    if (v < 0) v += dim;
    if (positive) return std::clamp<std::int64_t>(v, 0, dim);
    return std::clamp<std::int64_t>(v, -1, dim - 1);
  };
  const bool positive = s > 0;
  const std::int64_t first = mask_b ? (positive ? 0 : dim - 1) : norm(b, positive);
  const std::int64_t last = mask_e ? (positive ? dim : -1) : norm(e, positive);
  std::vector<std::int64_t> r;
  for (std::int64_t i = first; positive ? i < last : i > last; i += s) r.push_back(i);
  return r;
}

/// A tag carrying an operand type, for TEST_CASE_TEMPLATE.
template <OperandType T>
struct TypeTag {
  static constexpr OperandType type = T;
};

/// A deterministic generator (fixed seed per test).
struct Rng {
  std::mt19937 gen;
  explicit Rng(std::uint32_t seed) : gen(seed) {}
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  Dims shape(std::size_t rank, int lo, int hi) {
    Dims d;
    for (std::size_t k = 0; k < rank; ++k) d.push_back(static_cast<std::uint32_t>(uniform(lo, hi)));
    return d;
  }
};

}  // namespace nnhal::test
