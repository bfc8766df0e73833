#pragma once
/// \file
/// CacheFile: one compilation cache file as the driver hands it over (a file descriptor, a
/// flash region ...). nnhal reads and writes whole files through it; MemoryCacheFile keeps the
/// bytes in memory (tests, drivers that persist caches themselves).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nnhal {

class CacheFile {
 public:
  virtual ~CacheFile() = default;
  /// Replaces the file's contents with `bytes` (truncating first). False on failure.
  virtual bool write(std::span<const std::byte> bytes) = 0;
  /// Reads the whole file into `out`. False on failure.
  virtual bool read(std::vector<std::byte>& out) = 0;
  /// Reads the whole file into `out` unless it holds more than `max_bytes`
  /// (Limits::max_cache_file_bytes): then returns false with `too_large` set. The default reads
  /// first and checks after, so it bounds what nnhal keeps but not what read() allocates; a
  /// file that knows its size (fstat on a descriptor, a flash region's header) should override
  /// it to check before reading.
  virtual bool read_at_most(std::vector<std::byte>& out, std::uint64_t max_bytes, bool& too_large) {
    too_large = false;
    if (!read(out)) return false;
    if (out.size() <= max_bytes) return true;
    too_large = true;
    out.clear();
    out.shrink_to_fit();
    return false;
  }
};

/// A cache file held in memory.
class MemoryCacheFile final : public CacheFile {
 public:
  bool write(std::span<const std::byte> bytes) override {
    bytes_.assign(bytes.begin(), bytes.end());
    return true;
  }
  bool read(std::vector<std::byte>& out) override {
    out = bytes_;
    return true;
  }
  /// Checks the size before copying anything.
  bool read_at_most(std::vector<std::byte>& out, std::uint64_t max_bytes, bool& too_large) override {
    too_large = bytes_.size() > max_bytes;
    if (too_large) return false;
    return read(out);
  }
  std::vector<std::byte>& bytes() noexcept { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace nnhal
