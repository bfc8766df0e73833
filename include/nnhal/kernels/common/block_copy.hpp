#pragma once
/// \file
/// Strided block copies for the data-movement kernels (TRANSPOSE, STRIDED_SLICE, PAD, the
/// space/batch/depth shuffles, CHANNEL_SHUFFLE): a copy is described once as up to kMaxCopyAxes
/// axes, each with a size and a source and destination stride in elements. Before copying, axes
/// of size 1 are dropped, the axes are ordered by destination stride and neighbours that are
/// contiguous in both tensors are merged, so a copy that keeps the innermost axis in place moves
/// whole rows with memcpy and only a true transpose of the innermost axis copies element by
/// element (a plain strided loop, no index arithmetic per element).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/core/dims.hpp"

namespace nnhal::kernels {

/// A 2-D transpose of 32-bit elements: dst[j * dst_stride + i] = src[i * src_stride + j] for
/// i < rows, j < cols (simd::Transpose32::transpose, which a kernel picks at prepare).
using Transpose32Fn = void (*)(const void* src, void* dst, std::size_t rows, std::size_t cols,
                               std::ptrdiff_t src_stride, std::ptrdiff_t dst_stride);

/// Most axes one copy may have (a 4-D shuffle splits two axes into block and position: 6).
inline constexpr std::size_t kMaxCopyAxes = 2 * kMaxRank;

/// One axis of a strided copy: `size` positions, `src` / `dst` element strides.
struct CopyAxis {
  std::size_t size = 1;
  std::ptrdiff_t src = 0;
  std::ptrdiff_t dst = 0;
};

/// The axes of a strided copy, outermost first as added.
class CopyPlan {
 public:
  /// Adds an axis. Adding more than kMaxCopyAxes axes is a precondition violation (callers
  /// build fixed-rank plans); the extra axis is ignored.
  constexpr void add(std::size_t size, std::ptrdiff_t src, std::ptrdiff_t dst) noexcept {
    if (size == 0) empty_ = true;
    if (size == 1 || rank_ == kMaxCopyAxes) return;
    axes_[rank_++] = {size, src, dst};
  }
  constexpr bool empty() const noexcept { return empty_; }
  constexpr std::size_t rank() const noexcept { return rank_; }
  constexpr const CopyAxis& operator[](std::size_t i) const noexcept { return axes_[i]; }

  /// Orders the axes by decreasing |dst stride| (stable) and merges neighbours contiguous in
  /// both source and destination.
  constexpr void normalize() noexcept {
    for (std::size_t i = 1; i < rank_; ++i)
      for (std::size_t j = i; j > 0 && magnitude(axes_[j - 1].dst) < magnitude(axes_[j].dst); --j) {
        const CopyAxis t = axes_[j];
        axes_[j] = axes_[j - 1];
        axes_[j - 1] = t;
      }
    std::size_t r = 0;
    for (std::size_t i = 0; i < rank_; ++i) {
      const CopyAxis a = axes_[i];
      if (r > 0) {
        CopyAxis& outer = axes_[r - 1];
        const auto n = static_cast<std::ptrdiff_t>(a.size);
        if (outer.src == a.src * n && outer.dst == a.dst * n) {
          outer = {outer.size * a.size, a.src, a.dst};
          continue;
        }
      }
      axes_[r++] = a;
    }
    rank_ = r;
  }

 private:
  static constexpr std::ptrdiff_t magnitude(std::ptrdiff_t v) noexcept { return v < 0 ? -v : v; }

  std::array<CopyAxis, kMaxCopyAxes> axes_{};
  std::size_t rank_ = 0;
  bool empty_ = false;
};

namespace detail {

/// Calls body(dst, src) for every position of the `n` axes, the pointers moved by their strides
/// (row-major order, index advanced with carry).
template <std::size_t Elem, class Body>
void for_each_position(const CopyAxis* axes, std::size_t n, std::byte* dst, const std::byte* src, Body&& body) {
  constexpr auto e = static_cast<std::ptrdiff_t>(Elem);
  std::array<std::size_t, kMaxCopyAxes> idx{};
  for (;;) {
    body(dst, src);
    std::size_t k = n;
    for (; k > 0; --k) {
      const CopyAxis& a = axes[k - 1];
      if (++idx[k - 1] < a.size) {
        src += a.src * e;
        dst += a.dst * e;
        break;
      }
      idx[k - 1] = 0;
      src -= a.src * e * static_cast<std::ptrdiff_t>(a.size - 1);
      dst -= a.dst * e * static_cast<std::ptrdiff_t>(a.size - 1);
    }
    if (k == 0) return;
  }
}

/// A 2-D transpose: axis `j` is contiguous in the source, axis `i` in the destination. Copied
/// in square tiles of 64 x 64 elements (at most 32 KiB, so a tile's source lines stay in L1
/// while it is written): reads and writes both use whole cache lines. Measured on a
/// [224*224, 64] float transpose, 64-element tiles take about half the time of an untiled copy,
/// smaller ones gain little.
template <std::size_t Elem>
void transpose_tiles(std::byte* dst, const std::byte* src, const CopyAxis& j, const CopyAxis& i) noexcept {
  constexpr std::size_t kTile = 64;
  constexpr auto e = static_cast<std::ptrdiff_t>(Elem);
  for (std::size_t j0 = 0; j0 < j.size; j0 += kTile) {
    const std::size_t jn = j.size - j0 < kTile ? j.size - j0 : kTile;
    for (std::size_t i0 = 0; i0 < i.size; i0 += kTile) {
      const std::size_t in = i.size - i0 < kTile ? i.size - i0 : kTile;
      for (std::size_t jj = j0; jj < j0 + jn; ++jj) {
        std::byte* d = dst + (static_cast<std::ptrdiff_t>(jj) * j.dst + static_cast<std::ptrdiff_t>(i0)) * e;
        const std::byte* s = src + (static_cast<std::ptrdiff_t>(jj) + static_cast<std::ptrdiff_t>(i0) * i.src) * e;
        for (std::size_t ii = 0; ii < in; ++ii, d += e, s += i.src * e) std::memcpy(d, s, Elem);
      }
    }
  }
}

template <std::size_t Elem>
void strided_copy_sized(std::byte* dst, const std::byte* src, const CopyPlan& plan, Transpose32Fn t32) noexcept {
  constexpr auto e = static_cast<std::ptrdiff_t>(Elem);
  const std::size_t rank = plan.rank();
  if (rank == 0) {
    std::memcpy(dst, src, Elem);
    return;
  }
  std::array<CopyAxis, kMaxCopyAxes> axes{};
  for (std::size_t k = 0; k < rank; ++k) axes[k] = plan[k];
  const CopyAxis inner = axes[rank - 1];
  if (inner.src == 1 && inner.dst == 1) {  // whole rows
    for_each_position<Elem>(axes.data(), rank - 1, dst, src,
                            [&](std::byte* d, const std::byte* s) { std::memcpy(d, s, inner.size * Elem); });
    return;
  }
  // A transposed innermost axis: when another axis is contiguous in the source, copy that pair
  // in tiles over the remaining axes.
  std::size_t j = rank;
  if (inner.dst == 1)
    for (std::size_t k = 0; k + 1 < rank; ++k)
      if (axes[k].src == 1) j = k;
  if (j != rank) {
    const CopyAxis contiguous = axes[j];
    std::array<CopyAxis, kMaxCopyAxes> rest{};
    std::size_t n = 0;
    for (std::size_t k = 0; k + 1 < rank; ++k)
      if (k != j) rest[n++] = axes[k];
    if (Elem == 4 && t32 != nullptr) {
      for_each_position<Elem>(rest.data(), n, dst, src, [&](std::byte* d, const std::byte* s) {
        t32(s, d, inner.size, contiguous.size, inner.src, contiguous.dst);
      });
      return;
    }
    for_each_position<Elem>(rest.data(), n, dst, src, [&](std::byte* d, const std::byte* s) {
      transpose_tiles<Elem>(d, s, contiguous, inner);
    });
    return;
  }
  for_each_position<Elem>(axes.data(), rank - 1, dst, src, [&](std::byte* d, const std::byte* s) {
    for (std::size_t i = 0; i < inner.size; ++i, s += inner.src * e, d += inner.dst * e) std::memcpy(d, s, Elem);
  });
}

}  // namespace detail

/// Copies the block `plan` describes from `src` to `dst`, elements of `elem` bytes (1, 2, 4 or
/// 8). The plan is normalized first; an empty plan (an axis of size 0) copies nothing. A
/// transpose of the innermost axis of 4-byte elements runs `t32` when given (the SIMD
/// transpose), the scalar tiles otherwise.
inline void strided_copy(std::byte* dst, const std::byte* src, CopyPlan plan, std::size_t elem,
                         Transpose32Fn t32 = nullptr) noexcept {
  if (plan.empty()) return;
  plan.normalize();
  switch (elem) {
    case 1: return detail::strided_copy_sized<1>(dst, src, plan, t32);
    case 2: return detail::strided_copy_sized<2>(dst, src, plan, t32);
    case 4: return detail::strided_copy_sized<4>(dst, src, plan, t32);
    default: return detail::strided_copy_sized<8>(dst, src, plan, t32);
  }
}

/// Row-major element strides of `d` (stride[rank - 1] = 1).
inline std::array<std::ptrdiff_t, kMaxRank> row_major_strides(const Dims& d) noexcept {
  std::array<std::ptrdiff_t, kMaxRank> s{};
  std::ptrdiff_t n = 1;
  for (std::size_t k = d.rank(); k-- > 0;) {
    s[k] = n;
    n *= static_cast<std::ptrdiff_t>(d[k]);
  }
  return s;
}

/// Writes `count` copies of the `elem`-byte value at `value` to `dst` (memset when all its
/// bytes are equal, else by doubling memcpy).
inline void fill_elements(std::byte* dst, std::size_t count, const std::byte* value, std::size_t elem) noexcept {
  if (count == 0) return;
  bool uniform = true;
  for (std::size_t i = 1; i < elem; ++i) uniform = uniform && value[i] == value[0];
  if (uniform) {
    std::memset(dst, static_cast<int>(value[0]), count * elem);
    return;
  }
  std::memcpy(dst, value, elem);
  const std::size_t total = count * elem;
  for (std::size_t done = elem; done < total;) {
    const std::size_t n = done < total - done ? done : total - done;
    std::memcpy(dst + done, dst, n);
    done += n;
  }
}

/// A 4-D image tensor seen as (batch, height, width, channels) whatever its layout: sizes and
/// element strides of each of the four logical axes. NCHW tensors (layout flag true) store
/// [batch, channels, height, width].
struct Image {
  std::size_t n = 0, h = 0, w = 0, c = 0;
  std::ptrdiff_t sn = 0, sh = 0, sw = 0, sc = 0;

  static Image of(std::size_t n, std::size_t h, std::size_t w, std::size_t c, bool nchw) noexcept {
    const auto H = static_cast<std::ptrdiff_t>(h), W = static_cast<std::ptrdiff_t>(w),
               C = static_cast<std::ptrdiff_t>(c);
    if (nchw) return {n, h, w, c, C * H * W, W, 1, H * W};
    return {n, h, w, c, H * W * C, W * C, C, 1};
  }
  /// The image of a 4-D tensor of shape `d` in the given layout.
  static Image of(const Dims& d, bool nchw) noexcept {
    return nchw ? of(d[0], d[2], d[3], d[1], true) : of(d[0], d[1], d[2], d[3], false);
  }
  /// The stored shape of this image in its layout.
  Dims dims(bool nchw) const noexcept {
    const auto u = [](std::size_t v) { return static_cast<std::uint32_t>(v); };
    return nchw ? Dims{u(n), u(c), u(h), u(w)} : Dims{u(n), u(h), u(w), u(c)};
  }
};

}  // namespace nnhal::kernels
