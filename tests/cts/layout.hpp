#pragma once
/// \file
/// Where the runner puts bytes: the operandValues alignment rule of HAL13.md a.6, the layout of
/// CONSTANT_REFERENCE data and request arguments inside one memory pool each, and an aligned,
/// owning byte buffer to back those pools.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <vector>

namespace nnhal::cts {

inline constexpr std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// Alignment of a value appended to Model::operandValues (`getAlignmentForLength`, HAL13.md
/// a.6): what the Android runtime does, so constants land where a driver expects them.
inline constexpr std::size_t operand_value_alignment(std::size_t length) {
  return length < 2 ? 1 : length < 4 ? 2 : 4;
}

/// Appends `bytes` to `values` at the operandValues alignment (zero padding before it) and
/// returns the offset it starts at.
inline std::size_t append_operand_value(Vector<std::uint8_t>& values,
                                        std::span<const std::byte> bytes) {
  const std::size_t offset = align_up(values.size(), operand_value_alignment(bytes.size()));
  values.resize(offset + bytes.size(), 0);
  if (!bytes.empty()) std::memcpy(values.data() + offset, bytes.data(), bytes.size());
  return offset;
}

/// One region of a pool.
struct Slot {
  std::size_t offset = 0;
  std::size_t length = 0;
};

/// Places regions of the given sizes one after another, each starting at a multiple of
/// `alignment`, and each at least `min_length` long. Returns the slots and sets `total` to the
/// pool size needed.
///
/// CONSTANT_REFERENCE data uses alignment 4, min_length 0 (what the Android test does). Request
/// arguments use 64 (the canonical kDefaultRequestMemoryAlignment, so vector kernels see aligned
/// data) and min_length 1: a zero-sized output still gets a one-byte buffer, as in the Android
/// test, because a zero length would bind the whole pool (HAL13.md b.8).
inline std::vector<Slot> layout_slots(std::span<const std::size_t> sizes, std::size_t alignment,
                                      std::size_t min_length, std::size_t& total) {
  std::vector<Slot> slots;
  slots.reserve(sizes.size());
  std::size_t at = 0;
  for (std::size_t size : sizes) {
    const std::size_t length = size < min_length ? min_length : size;
    at = align_up(at, alignment);
    slots.push_back({at, length});
    at += length;
  }
  total = at;
  return slots;
}

inline constexpr std::size_t kConstantAlignment = 4;
inline constexpr std::size_t kRequestAlignment = 64;

/// An owning, 64-byte aligned, zero-initialised byte buffer. Never empty (at least one byte),
/// so a pool always has memory even when nothing is placed in it.
class AlignedBytes {
 public:
  static constexpr std::size_t kAlignment = 64;

  AlignedBytes() = default;
  explicit AlignedBytes(std::size_t size)
      : size_(size), data_(allocate(size == 0 ? 1 : size)) {
    std::memset(data_.get(), 0, size == 0 ? 1 : size);
  }

  std::byte* data() noexcept { return data_.get(); }
  const std::byte* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }

 private:
  struct Free {
    void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t{kAlignment}); }
  };
  static std::byte* allocate(std::size_t n) {
    return static_cast<std::byte*>(::operator new[](n, std::align_val_t{kAlignment}));
  }

  std::size_t size_ = 0;
  std::unique_ptr<std::byte[], Free> data_;
};

}  // namespace nnhal::cts
