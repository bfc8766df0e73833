#pragma once
/// \file
/// CacheFile: one compilation cache file as the driver hands it over (a file descriptor, a
/// flash region ...). nnhal reads and writes whole files through it; MemoryCacheFile keeps the
/// bytes in memory (tests, drivers that persist caches themselves).

#include <cstddef>
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
  std::vector<std::byte>& bytes() noexcept { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace nnhal
