#pragma once
/// \file
/// A small SHA-256 (FIPS 180-4) for the compilation cache: it detects corrupted or mixed-up
/// cache files. It is a checksum here, not a secret-keyed MAC: whoever can write a cache file
/// can also recompute its digest, so the cache reader still validates everything it decodes.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace nnhal {

/// A SHA-256 digest (32 bytes, big-endian words as FIPS 180-4 prints them).
using Sha256Digest = std::array<std::uint8_t, 32>;

/// Incremental SHA-256: update() any number of times, then finish() once.
class Sha256 {
 public:
  Sha256() noexcept = default;

  /// Hashes `data` after everything given so far.
  Sha256& update(std::span<const std::byte> data) noexcept {
    const std::byte* p = data.data();
    std::size_t n = data.size();
    if (n == 0) return *this;  // (an empty span may have a null pointer: no memcpy from it)
    total_ += n;
    if (used_ != 0) {  // complete a partly filled block first
      const std::size_t take = n < kBlock - used_ ? n : kBlock - used_;
      std::memcpy(block_.data() + used_, p, take);
      used_ += take;
      p += take;
      n -= take;
      if (used_ < kBlock) return *this;
      compress(block_.data());
      used_ = 0;
    }
    for (; n >= kBlock; n -= kBlock, p += kBlock)
      compress(reinterpret_cast<const std::uint8_t*>(p));
    if (n != 0) std::memcpy(block_.data(), p, n);
    used_ = n;
    return *this;
  }

  /// Pads the message (a 1 bit, zeros, the 64-bit big-endian bit length) and returns the digest.
  Sha256Digest finish() noexcept {
    const std::uint64_t bits = total_ * 8;
    block_[used_++] = 0x80;
    if (used_ > kBlock - 8) {  // no room left for the length in this block
      std::memset(block_.data() + used_, 0, kBlock - used_);
      compress(block_.data());
      used_ = 0;
    }
    std::memset(block_.data() + used_, 0, kBlock - 8 - used_);
    for (int i = 0; i < 8; ++i) block_[kBlock - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
    compress(block_.data());
    Sha256Digest out{};
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t b = 0; b < 4; ++b)
        out[4 * i + b] = static_cast<std::uint8_t>(h_[i] >> (24 - 8 * b));
    return out;
  }

 private:
  static constexpr std::size_t kBlock = 64;

  static constexpr std::uint32_t rotr(std::uint32_t x, int n) noexcept {
    return (x >> n) | (x << (32 - n));
  }

  void compress(const std::uint8_t* in) noexcept {
    // Round constants: the first 32 bits of the fractional parts of the cube roots of the
    // first 64 primes (FIPS 180-4 section 4.2.2).
    static constexpr std::uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    std::uint32_t w[64];
    for (std::size_t t = 0; t < 16; ++t)
      w[t] = std::uint32_t{in[4 * t]} << 24 | std::uint32_t{in[4 * t + 1]} << 16 |
             std::uint32_t{in[4 * t + 2]} << 8 | std::uint32_t{in[4 * t + 3]};
    for (std::size_t t = 16; t < 64; ++t) {
      const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6],
                  h = h_[7];
    for (std::size_t t = 0; t < 64; ++t) {
      const std::uint32_t t1 =
          h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
      const std::uint32_t t2 =
          (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
    h_[5] += f;
    h_[6] += g;
    h_[7] += h;
  }

  // Initial hash value: fractional parts of the square roots of the first 8 primes.
  std::uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<std::uint8_t, kBlock> block_{};
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

/// SHA-256 of `data` in one call.
inline Sha256Digest sha256(std::span<const std::byte> data) noexcept {
  return Sha256().update(data).finish();
}

}  // namespace nnhal
