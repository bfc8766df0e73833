#pragma once
// Shared by the libFuzzer targets in tests/fuzz: a byte reader, the check macro, seed writing
// (NNHAL_FUZZ_SEED_DIR) and host buffers with guard bytes around them.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "nnhal/model/model.hpp"

namespace nnhal::fuzz {

#define NNHAL_FUZZ_CHECK(cond)                                                            \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "fuzz: check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (false)

/// Draws numbers from the fuzzer's bytes; yields zeros once they run out.
class ByteSource {
 public:
  ByteSource(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  std::uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() << 8 | u8()); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(u16()) << 16 | u16(); }
  /// A value in [0, bound) (bound > 0).
  std::uint32_t below(std::uint32_t bound) {
    if (bound <= 1) return 0;
    return (bound <= 256 ? u8() : u16()) % bound;
  }
  bool one_in(std::uint32_t n) { return below(n) == 0; }
  /// Small values most of the time, boundary values sometimes.
  std::uint32_t interesting_u32() {
    static constexpr std::uint32_t kValues[] = {0, 1, 2, 3, 4, 5, 8, 16, 255, 256, 65535, 65536,
                                                0x3FFFFFFF, 0x40000000, 0x7FFFFFFF, 0x80000000,
                                                0xFFFFFFFE, 0xFFFFFFFF};
    if (one_in(4)) return u32();
    return kValues[below(sizeof kValues / sizeof kValues[0])];
  }
  /// The bytes not read yet (consumes them).
  std::vector<std::byte> rest() {
    std::vector<std::byte> out(n_);
    if (n_ != 0) std::memcpy(out.data(), p_, n_);
    p_ += n_;
    n_ = 0;
    return out;
  }
  std::size_t remaining() const noexcept { return n_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

/// Writes seed files when NNHAL_FUZZ_SEED_DIR names a directory: call from
/// LLVMFuzzerInitialize; `write(name, bytes)` for each seed, then `finish()` exits the program.
class SeedWriter {
 public:
  SeedWriter() {
    if (const char* d = std::getenv("NNHAL_FUZZ_SEED_DIR")) dir_ = d;
  }
  bool enabled() const noexcept { return !dir_.empty(); }
  void write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const std::string path = dir_ + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
      std::fprintf(stderr, "cannot write seed %s\n", path.c_str());
      std::exit(1);
    }
    std::fclose(f);
    ++count_;
  }
  [[noreturn]] void finish() {
    std::fprintf(stderr, "wrote %d seed(s) to %s\n", count_, dir_.c_str());
    std::exit(0);
  }

 private:
  std::string dir_;
  int count_ = 0;
};

inline constexpr std::size_t kGuard = 32;
inline constexpr std::byte kGuardByte{0xA5};

/// Host memory of `size` bytes with guard bytes on both sides.
class GuardedBytes {
 public:
  explicit GuardedBytes(std::size_t size, std::byte fill = std::byte{0})
      : bytes_(size + 2 * kGuard, kGuardByte), size_(size) {
    std::memset(bytes_.data() + kGuard, static_cast<int>(fill), size);
  }
  std::byte* data() noexcept { return bytes_.data() + kGuard; }
  const std::byte* data() const noexcept { return bytes_.data() + kGuard; }
  std::size_t size() const noexcept { return size_; }
  Memory memory() noexcept { return {data(), size_}; }
  bool guards_intact() const noexcept {
    for (std::size_t i = 0; i < kGuard; ++i)
      if (bytes_[i] != kGuardByte || bytes_[kGuard + size_ + i] != kGuardByte) return false;
    return true;
  }

 private:
  std::vector<std::byte> bytes_;
  std::size_t size_;
};

}  // namespace nnhal::fuzz
