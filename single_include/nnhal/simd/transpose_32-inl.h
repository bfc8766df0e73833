// Per-target body of nnhal's 32-bit 2-D transpose: compiled once per Highway target by
// nnhal/simd/transpose_32.hpp (through nnhal/simd/foreach_target-inl.h), which declares
// simd::Transpose32 first. Not a header to include on its own; it has no include guard on
// purpose.
//
// The block is walked in tiles of 64 x 64 elements (16 KiB of source lines stay in L1 while the
// tile's destination lines are written, so reads and writes both use whole cache lines), and a
// tile in blocks of 4 x 4: four 128-bit row loads, two rounds of interleaves (32-bit, then
// 64-bit lanes) and four 128-bit column stores, instead of one load and one store per element.
// 128-bit vectors exist on every target but SCALAR and suit any stride; the edges of a tile that
// do not fill a 4 x 4 block are copied element by element. On x86 targets with 256-bit vectors
// the tile goes in blocks of 8 x 8 first (half as many loads and stores per element, and each
// store half a cache line: about 10% more bandwidth on the NHWC -> NCHW benchmark); the 4 x 4
// blocks then do only the edges.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnhal::HWY_NAMESPACE {
namespace transpose_detail {

/// One element copied by value (the buffers may hold floats: no uint32_t lvalue access).
HWY_INLINE void CopyOne(const std::uint32_t* s, std::uint32_t* d) { std::memcpy(d, s, sizeof *d); }

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
/// The full 8 x 8 blocks of a tile, with 256-bit rows: eight row loads, three rounds of
/// shuffles (32-bit and 64-bit interleaves within 128-bit halves, then the halves) and eight
/// column stores, each half a cache line. Returns the number of columns done (a multiple of 8,
/// 0 when the tile has fewer than 8 rows); the rows below the last full block are left to the
/// caller.
HWY_INLINE std::size_t Tile8(const std::uint32_t* src, std::uint32_t* dst, std::size_t rows, std::size_t cols,
                             std::ptrdiff_t ss, std::ptrdiff_t ds) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::FixedTag<std::uint32_t, 8> d;
  const hn::Repartition<std::uint64_t, decltype(d)> d64;
  if (rows < 8) return 0;
  std::size_t j = 0;
  for (; j + 8 <= cols; j += 8) {
    for (std::size_t i = 0; i + 8 <= rows; i += 8) {
      const std::uint32_t* s = src + static_cast<std::ptrdiff_t>(i) * ss + static_cast<std::ptrdiff_t>(j);
      const auto r0 = hn::LoadU(d, s), r1 = hn::LoadU(d, s + ss);
      const auto r2 = hn::LoadU(d, s + 2 * ss), r3 = hn::LoadU(d, s + 3 * ss);
      const auto r4 = hn::LoadU(d, s + 4 * ss), r5 = hn::LoadU(d, s + 5 * ss);
      const auto r6 = hn::LoadU(d, s + 6 * ss), r7 = hn::LoadU(d, s + 7 * ss);
      // Per 128-bit half h (columns 4h..4h+3): after the two interleaves, u0..u3 hold columns
      // 4h+0..4h+3 of rows 0..3 and u4..u7 the same of rows 4..7.
      const auto t0 = hn::BitCast(d64, hn::InterleaveLower(d, r0, r1));
      const auto t1 = hn::BitCast(d64, hn::InterleaveUpper(d, r0, r1));
      const auto t2 = hn::BitCast(d64, hn::InterleaveLower(d, r2, r3));
      const auto t3 = hn::BitCast(d64, hn::InterleaveUpper(d, r2, r3));
      const auto t4 = hn::BitCast(d64, hn::InterleaveLower(d, r4, r5));
      const auto t5 = hn::BitCast(d64, hn::InterleaveUpper(d, r4, r5));
      const auto t6 = hn::BitCast(d64, hn::InterleaveLower(d, r6, r7));
      const auto t7 = hn::BitCast(d64, hn::InterleaveUpper(d, r6, r7));
      const auto u0 = hn::BitCast(d, hn::InterleaveLower(d64, t0, t2));
      const auto u1 = hn::BitCast(d, hn::InterleaveUpper(d64, t0, t2));
      const auto u2 = hn::BitCast(d, hn::InterleaveLower(d64, t1, t3));
      const auto u3 = hn::BitCast(d, hn::InterleaveUpper(d64, t1, t3));
      const auto u4 = hn::BitCast(d, hn::InterleaveLower(d64, t4, t6));
      const auto u5 = hn::BitCast(d, hn::InterleaveUpper(d64, t4, t6));
      const auto u6 = hn::BitCast(d, hn::InterleaveLower(d64, t5, t7));
      const auto u7 = hn::BitCast(d, hn::InterleaveUpper(d64, t5, t7));
      std::uint32_t* o = dst + static_cast<std::ptrdiff_t>(j) * ds + static_cast<std::ptrdiff_t>(i);
      hn::StoreU(hn::ConcatLowerLower(d, u4, u0), d, o);
      hn::StoreU(hn::ConcatLowerLower(d, u5, u1), d, o + ds);
      hn::StoreU(hn::ConcatLowerLower(d, u6, u2), d, o + 2 * ds);
      hn::StoreU(hn::ConcatLowerLower(d, u7, u3), d, o + 3 * ds);
      hn::StoreU(hn::ConcatUpperUpper(d, u4, u0), d, o + 4 * ds);
      hn::StoreU(hn::ConcatUpperUpper(d, u5, u1), d, o + 5 * ds);
      hn::StoreU(hn::ConcatUpperUpper(d, u6, u2), d, o + 6 * ds);
      hn::StoreU(hn::ConcatUpperUpper(d, u7, u3), d, o + 7 * ds);
    }
  }
  return j;
}
#endif

/// The transpose of one tile of `rows` x `cols` elements.
HWY_INLINE void Tile(const std::uint32_t* src, std::uint32_t* dst, std::size_t rows, std::size_t cols,
                     std::ptrdiff_t ss, std::ptrdiff_t ds) {
  std::size_t j = 0;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
  j = Tile8(src, dst, rows, cols, ss, ds);
  if (j != 0 && rows % 8 != 0) {
    // The rows below the last full block of 8, in the columns Tile8 covered.
    const std::size_t done = rows / 8 * 8;
    Tile(src + static_cast<std::ptrdiff_t>(done) * ss, dst + static_cast<std::ptrdiff_t>(done), rows - done, j, ss, ds);
  }
#endif
#if HWY_TARGET != HWY_SCALAR
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::FixedTag<std::uint32_t, 4> d;
  const hn::Repartition<std::uint64_t, decltype(d)> d64;
  for (; j + 4 <= cols; j += 4) {
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
      const std::uint32_t* s = src + static_cast<std::ptrdiff_t>(i) * ss + static_cast<std::ptrdiff_t>(j);
      const auto r0 = hn::LoadU(d, s);
      const auto r1 = hn::LoadU(d, s + ss);
      const auto r2 = hn::LoadU(d, s + 2 * ss);
      const auto r3 = hn::LoadU(d, s + 3 * ss);
      // t0 = r0[0] r1[0] r0[1] r1[1], t2 = r0[2] r1[2] r0[3] r1[3]; t1, t3 the same of r2, r3.
      const auto t0 = hn::BitCast(d64, hn::InterleaveLower(d, r0, r1));
      const auto t1 = hn::BitCast(d64, hn::InterleaveLower(d, r2, r3));
      const auto t2 = hn::BitCast(d64, hn::InterleaveUpper(d, r0, r1));
      const auto t3 = hn::BitCast(d64, hn::InterleaveUpper(d, r2, r3));
      std::uint32_t* o = dst + static_cast<std::ptrdiff_t>(j) * ds + static_cast<std::ptrdiff_t>(i);
      hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, t0, t1)), d, o);  // column j
      hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, t0, t1)), d, o + ds);
      hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, t2, t3)), d, o + 2 * ds);
      hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, t2, t3)), d, o + 3 * ds);
    }
    for (; i < rows; ++i)
      for (std::size_t jj = j; jj < j + 4; ++jj)
        CopyOne(src + static_cast<std::ptrdiff_t>(i) * ss + static_cast<std::ptrdiff_t>(jj),
                dst + static_cast<std::ptrdiff_t>(jj) * ds + static_cast<std::ptrdiff_t>(i));
  }
#endif
  for (; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i)
      CopyOne(src + static_cast<std::ptrdiff_t>(i) * ss + static_cast<std::ptrdiff_t>(j),
              dst + static_cast<std::ptrdiff_t>(j) * ds + static_cast<std::ptrdiff_t>(i));
}

}  // namespace transpose_detail

inline void Transpose32Block(const void* src_bytes, void* dst_bytes, std::size_t rows, std::size_t cols,
                             std::ptrdiff_t ss, std::ptrdiff_t ds) {
  constexpr std::size_t kTile = 64;
  const auto* src = static_cast<const std::uint32_t*>(src_bytes);
  auto* dst = static_cast<std::uint32_t*>(dst_bytes);
  for (std::size_t j0 = 0; j0 < cols; j0 += kTile) {
    const std::size_t jn = cols - j0 < kTile ? cols - j0 : kTile;
    for (std::size_t i0 = 0; i0 < rows; i0 += kTile) {
      const std::size_t in = rows - i0 < kTile ? rows - i0 : kTile;
      transpose_detail::Tile(src + static_cast<std::ptrdiff_t>(i0) * ss + static_cast<std::ptrdiff_t>(j0),
                             dst + static_cast<std::ptrdiff_t>(j0) * ds + static_cast<std::ptrdiff_t>(i0), in, jn,
                             ss, ds);
    }
  }
}

/// This target's table of the family.
inline constexpr simd::Transpose32 kTranspose32{&Transpose32Block};

}  // namespace nnhal::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
