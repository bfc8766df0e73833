#pragma once
/// \file
/// LSH_PROJECTION kernels (the row: nnhal/ops/lsh_projection.hpp): each bit is the sign of a
/// weighted sum of 64-bit fingerprints of (seed, input row).
///
/// As the reference (NNAPI LSHProjection.cpp): for hash function i and bit j, seed =
/// float(hash[i][j]); for each row r of the input (dimension 0; a row is the bytes of all the
/// other dimensions, whatever the element type), key = the 4 bytes of the float seed followed by
/// the row's bytes, and value = double(int64(Fingerprint64(key))); the bit is 1 when the sum of
/// weight[r] * value (weight omitted: 1) is > 0. Dense output: every bit, [num_hash * num_bits];
/// sparse: one int per hash function, its bits most significant first, plus i << num_bits
/// (type 3, SPARSE) or not (type 1, SPARSE_DEPRECATED).
///
/// Fingerprint64 is FarmHash's (its "na" 64-bit hash, which the reference calls), written here
/// from the algorithm: keys of 0-16, 17-32 and 33-64 bytes have their own mixes, longer keys
/// run 64-byte blocks through a 56-byte state. The key is read through a view of the two parts,
/// so no buffer is needed.
/// Runtime checks: hash [num_hash, num_bits] with 1 <= num_bits <= 32, input rank >= 1 with
/// rows, weight (when given) [rows], type 1, 2 or 3.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/lsh_projection.hpp"

namespace nnhal::kernels::lsh_projection {

inline constexpr const char* kName = "LSH_PROJECTION";

/// The projection types of input 3.
enum Type : std::int32_t { kSparseDeprecated = 1, kDense = 2, kSparse = 3 };

namespace farm {

inline constexpr std::uint64_t k0 = 0xc3a5c85c97cb3127ULL;
inline constexpr std::uint64_t k1 = 0xb492b66fbe98f273ULL;
inline constexpr std::uint64_t k2 = 0x9ae16a3b2f90404fULL;

/// A key made of two byte ranges, read as one: `head` then `tail`.
struct Key {
  const unsigned char* head;
  std::size_t head_len;
  const unsigned char* tail;
  std::size_t len;  ///< total length

  unsigned char byte(std::size_t p) const noexcept { return p < head_len ? head[p] : tail[p - head_len]; }
  /// Little-endian 64-bit word at byte p.
  std::uint64_t fetch64(std::size_t p) const noexcept {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | byte(p + static_cast<std::size_t>(i));
    return v;
  }
  std::uint32_t fetch32(std::size_t p) const noexcept {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | byte(p + static_cast<std::size_t>(i));
    return v;
  }
};

inline std::uint64_t rotate(std::uint64_t v, int shift) noexcept {
  return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}
inline std::uint64_t shift_mix(std::uint64_t v) noexcept { return v ^ (v >> 47); }
inline std::uint64_t hash16(std::uint64_t u, std::uint64_t v, std::uint64_t mul) noexcept {
  std::uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  std::uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

inline std::uint64_t len0to16(const Key& s) noexcept {
  const std::uint64_t len = s.len;
  if (len >= 8) {
    const std::uint64_t mul = k2 + len * 2;
    const std::uint64_t a = s.fetch64(0) + k2;
    const std::uint64_t b = s.fetch64(s.len - 8);
    const std::uint64_t c = rotate(b, 37) * mul + a;
    const std::uint64_t d = (rotate(a, 25) + b) * mul;
    return hash16(c, d, mul);
  }
  if (len >= 4) {
    const std::uint64_t mul = k2 + len * 2;
    const std::uint64_t a = s.fetch32(0);
    return hash16(len + (a << 3), s.fetch32(s.len - 4), mul);
  }
  if (len > 0) {
    const std::uint32_t a = s.byte(0), b = s.byte(s.len >> 1), c = s.byte(s.len - 1);
    const std::uint32_t y = a + (b << 8);
    const std::uint32_t z = static_cast<std::uint32_t>(len) + (c << 2);
    return shift_mix(y * k2 ^ z * k0) * k2;
  }
  return k2;
}

inline std::uint64_t len17to32(const Key& s) noexcept {
  const std::uint64_t mul = k2 + std::uint64_t{s.len} * 2;
  const std::uint64_t a = s.fetch64(0) * k1;
  const std::uint64_t b = s.fetch64(8);
  const std::uint64_t c = s.fetch64(s.len - 8) * mul;
  const std::uint64_t d = s.fetch64(s.len - 16) * k2;
  return hash16(rotate(a + b, 43) + rotate(c, 30) + d, a + rotate(b + k2, 18) + c, mul);
}

inline std::uint64_t len33to64(const Key& s) noexcept {
  const std::uint64_t mul = k2 + std::uint64_t{s.len} * 2;
  const std::uint64_t a = s.fetch64(0) * k2;
  const std::uint64_t b = s.fetch64(8);
  const std::uint64_t c = s.fetch64(s.len - 8) * mul;
  const std::uint64_t d = s.fetch64(s.len - 16) * k2;
  const std::uint64_t y = rotate(a + b, 43) + rotate(c, 30) + d;
  const std::uint64_t z = hash16(y, a + rotate(b + k2, 18) + c, mul);
  const std::uint64_t e = s.fetch64(16) * mul;
  const std::uint64_t f = s.fetch64(24);
  const std::uint64_t g = (y + s.fetch64(s.len - 32)) * mul;
  const std::uint64_t h = (z + s.fetch64(s.len - 24)) * mul;
  return hash16(rotate(e + f, 43) + rotate(g, 30) + h, e + rotate(f + a, 18) + g, mul);
}

struct Pair {
  std::uint64_t first = 0, second = 0;
};

/// The 32 bytes at p mixed with seeds a and b.
inline Pair weak32(const Key& s, std::size_t p, std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t w = s.fetch64(p), x = s.fetch64(p + 8), y = s.fetch64(p + 16), z = s.fetch64(p + 24);
  a += w;
  b = rotate(b + a + z, 21);
  const std::uint64_t c = a;
  a += x;
  a += y;
  b += rotate(a, 44);
  return {a + z, b + c};
}

/// FarmHash Fingerprint64 of the key.
inline std::uint64_t fingerprint64(const Key& s) noexcept {
  if (s.len <= 16) return len0to16(s);
  if (s.len <= 32) return len17to32(s);
  if (s.len <= 64) return len33to64(s);
  constexpr std::uint64_t seed = 81;
  std::uint64_t x = seed, y = seed * k1 + 113;
  std::uint64_t z = shift_mix(y * k2 + 113) * k2;
  Pair v, w;
  x = x * k2 + s.fetch64(0);
  const std::size_t blocks_end = ((s.len - 1) / 64) * 64;  // then 1 to 64 bytes remain
  const std::size_t last64 = s.len - 64;
  std::size_t p = 0;
  do {
    x = rotate(x + y + v.first + s.fetch64(p + 8), 37) * k1;
    y = rotate(y + v.second + s.fetch64(p + 48), 42) * k1;
    x ^= w.second;
    y += v.first + s.fetch64(p + 40);
    z = rotate(z + w.first, 33) * k1;
    v = weak32(s, p, v.second * k1, x + w.first);
    w = weak32(s, p + 32, z + w.second, y + s.fetch64(p + 16));
    const std::uint64_t t = z;
    z = x;
    x = t;
    p += 64;
  } while (p != blocks_end);
  const std::uint64_t mul = k1 + ((z & 0xff) << 1);
  p = last64;
  w.first += (s.len - 1) & 63;
  v.first += w.first;
  w.first += v.first;
  x = rotate(x + y + v.first + s.fetch64(p + 8), 37) * mul;
  y = rotate(y + v.second + s.fetch64(p + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + s.fetch64(p + 40);
  z = rotate(z + w.first, 33) * mul;
  v = weak32(s, p, v.second * mul, x + w.first);
  w = weak32(s, p + 32, z + w.second, y + s.fetch64(p + 16));
  const std::uint64_t t = z;
  z = x;
  x = t;
  return hash16(hash16(v.first, w.first, mul) + shift_mix(y) * k0 + z, hash16(v.second, w.second, mul) + x, mul);
}

}  // namespace farm

/// The checked geometry of a node.
struct Geometry {
  std::uint32_t num_hash = 0, num_bits = 0, rows = 0;
  std::size_t row_bytes = 0;
  std::int32_t type = 0;
};

inline Expected<Geometry> read_geometry(const NodeIO& io) {
  const RtOperand& hash = io.input(0);
  const RtOperand& in = io.input(1);
  Geometry g;
  g.type = io.scalar<OperandType::INT32>(3);
  if (g.type != kSparseDeprecated && g.type != kDense && g.type != kSparse)
    return NNHAL_INVALID("%s type %" PRId32
                         " is not 1 (sparse, deprecated), 2 (dense) or 3 (sparse)",
                         kName, g.type);
  if (hash.dims.rank() != 2) return NNHAL_INVALID("%s hash must have rank 2", kName);
  g.num_hash = hash.dims[0];
  g.num_bits = hash.dims[1];
  if (g.num_bits < 1 || g.num_bits > 32)
    return NNHAL_INVALID("%s has %" PRIu32 " bits per hash, 1 to 32 supported", kName, g.num_bits);
  if (in.dims.rank() < 1) return NNHAL_INVALID("%s input must have rank >= 1", kName);
  g.rows = in.dims[0];
  if (g.rows == 0) return NNHAL_INVALID("%s input has no rows", kName);
  const std::uint64_t bytes = in.required_bytes();
  if (bytes == UINT64_MAX) return NNHAL_INVALID("%s input size overflows", kName);
  g.row_bytes = static_cast<std::size_t>(bytes / g.rows);
  if (io.has_input(2)) {
    const Dims& w = io.input(2).dims;
    if (w.rank() != 1 || w[0] != g.rows)
      return NNHAL_INVALID("%s weight must have shape [%" PRIu32 "]", kName, g.rows);
  }
  return g;
}

/// Output shape: [num_hash] (sparse) or [num_hash * num_bits] (dense).
inline Status infer(const NodeIO& io) {
  auto g = read_geometry(io);
  if (!g) return std::move(g.error());
  const std::uint64_t n = g->type == kDense ? std::uint64_t{g->num_hash} * g->num_bits : g->num_hash;
  if (n > UINT32_MAX) return NNHAL_INVALID("%s output size overflows", kName);
  return set_output(io, 0, Dims{static_cast<std::uint32_t>(n)});
}

/// One bit: the sign of the weighted fingerprint sum for `seed`.
template <OperandType H>
int sign_bit(const NodeIO& io, const Geometry& g, float seed) noexcept {
  const auto* rows = reinterpret_cast<const unsigned char*>(io.input(1).data);
  const bool weighted = io.has_input(2);
  const element_t<H>* weight = weighted ? io.in_data<H>(2) : nullptr;
  unsigned char seed_bytes[sizeof(float)];
  std::memcpy(seed_bytes, &seed, sizeof seed);
  double score = 0.0;
  for (std::size_t r = 0; r < g.rows; ++r) {
    const farm::Key key{seed_bytes, sizeof seed_bytes, rows + r * g.row_bytes, sizeof seed_bytes + g.row_bytes};
    const auto value = static_cast<double>(static_cast<std::int64_t>(farm::fingerprint64(key)));
    score += weighted ? static_cast<double>(roi::to_float(weight[r], 0, 0)) * value : value;
  }
  return score > 0 ? 1 : 0;
}

/// The kernel for hash (and weight) type H.
template <OperandType H>
Status kernel(const NodeIO& io) {
  auto ge = read_geometry(io);
  if (!ge) return std::move(ge.error());
  const Geometry& g = *ge;
  const std::size_t n = g.type == kDense ? std::size_t{g.num_hash} * g.num_bits : g.num_hash;
  if (io.output(0).dims != Dims{static_cast<std::uint32_t>(n)})
    return NNHAL_FAILURE("%s output shape does not match the inputs", kName);
  const element_t<H>* hash = io.in_data<H>(0);
  std::int32_t* out = io.out_data<OperandType::TENSOR_INT32>(0);
  for (std::size_t i = 0; i < g.num_hash; ++i) {
    std::uint32_t signature = 0;
    for (std::size_t j = 0; j < g.num_bits; ++j) {
      const float seed = roi::to_float(hash[i * g.num_bits + j], 0, 0);
      const int bit = sign_bit<H>(io, g, seed);
      if (g.type == kDense)
        out[i * g.num_bits + j] = bit;
      else
        signature = (signature << 1) | static_cast<std::uint32_t>(bit);
    }
    if (g.type == kSparse)
      out[i] = static_cast<std::int32_t>(signature + static_cast<std::uint32_t>((std::uint64_t{i} << g.num_bits)));
    else if (g.type == kSparseDeprecated)
      out[i] = static_cast<std::int32_t>(signature);
  }
  return {};
}

/// LSH_PROJECTION's kernels, keyed by the hash type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return lsh_projection::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::lsh_projection

namespace nnhal {

template <>
struct Kernels<OperationType::LSH_PROJECTION> : kernels::lsh_projection::Family {};
static_assert(kernels_cover_row<OperationType::LSH_PROJECTION>());

}  // namespace nnhal
