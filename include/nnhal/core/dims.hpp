#pragma once
/// \file
/// Dims: a tensor shape held inline (no heap), up to NNHAL_MAX_RANK dimensions, plus the shape
/// arithmetic every layer needs (element counts and byte sizes with overflow checks).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "nnhal/config.hpp"

namespace nnhal {

/// Maximum rank held by Dims.
inline constexpr std::size_t kMaxRank = NNHAL_MAX_RANK;

/// A shape of known rank <= kMaxRank. A 0 entry means "unknown" in declarations and "empty"
/// in a concrete runtime shape, as in the HAL.
class Dims {
 public:
  constexpr Dims() noexcept = default;
  constexpr Dims(std::initializer_list<std::uint32_t> d) noexcept {
    for (auto v : d) push_back(v);
  }
  /// Copies `d`; returns false (leaving *this unchanged) when d.size() > kMaxRank.
  constexpr bool assign(std::span<const std::uint32_t> d) noexcept {
    if (d.size() > kMaxRank) return false;
    rank_ = static_cast<std::uint8_t>(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) d_[i] = d[i];
    return true;
  }
  constexpr void push_back(std::uint32_t v) noexcept {
    if (rank_ < kMaxRank) d_[rank_++] = v;
  }
  constexpr void resize(std::size_t r, std::uint32_t fill = 0) noexcept {
    for (std::size_t i = rank_; i < r && i < kMaxRank; ++i) d_[i] = fill;
    rank_ = static_cast<std::uint8_t>(r < kMaxRank ? r : kMaxRank);
  }
  constexpr std::size_t rank() const noexcept { return rank_; }
  constexpr std::size_t size() const noexcept { return rank_; }
  constexpr bool empty() const noexcept { return rank_ == 0; }
  constexpr std::uint32_t operator[](std::size_t i) const noexcept { return d_[i]; }
  constexpr std::uint32_t& operator[](std::size_t i) noexcept { return d_[i]; }
  constexpr const std::uint32_t* begin() const noexcept { return d_.data(); }
  constexpr const std::uint32_t* end() const noexcept { return d_.data() + rank_; }
  constexpr std::span<const std::uint32_t> span() const noexcept { return {d_.data(), rank_}; }

  /// True when no entry is 0.
  constexpr bool all_known() const noexcept {
    for (std::size_t i = 0; i < rank_; ++i)
      if (d_[i] == 0) return false;
    return true;
  }
  /// Product of the entries (1 for rank 0). Saturates at UINT64_MAX on overflow.
  constexpr std::uint64_t element_count() const noexcept {
    std::uint64_t n = 1;
    for (std::size_t i = 0; i < rank_; ++i)  // no division: this runs for every kernel call
      if (__builtin_mul_overflow(n, std::uint64_t{d_[i]}, &n)) return UINT64_MAX;
    return n;
  }

  friend constexpr bool operator==(const Dims& a, const Dims& b) noexcept {
    if (a.rank_ != b.rank_) return false;
    for (std::size_t i = 0; i < a.rank_; ++i)
      if (a.d_[i] != b.d_[i]) return false;
    return true;
  }

 private:
  std::array<std::uint32_t, kMaxRank> d_{};
  std::uint8_t rank_ = 0;
};

/// Product of `dims` in 64 bits; returns false on overflow of uint64.
constexpr bool checked_product(std::span<const std::uint32_t> dims, std::uint64_t& out) noexcept {
  std::uint64_t n = 1;
  for (auto d : dims) {
    if (d != 0 && n > UINT64_MAX / d) return false;
    n *= d;
  }
  out = n;
  return true;
}

}  // namespace nnhal
