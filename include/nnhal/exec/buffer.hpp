#pragma once
/// \file
/// AlignedBuffer: an owned, 64-byte aligned byte buffer allocated without exceptions. Growing it
/// is the only way nnhal's executor touches the heap, and only for operands whose size is not
/// known at prepare time.

#include <cstddef>
#include <cstring>
#include <new>
#include <utility>

namespace nnhal {

/// Owned aligned storage; `reserve` keeps the contents' capacity and never shrinks.
class AlignedBuffer {
 public:
  static constexpr std::size_t kAlignment = 64;

  AlignedBuffer() noexcept = default;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }
  ~AlignedBuffer() { release(); }

  /// Ensures at least `bytes` of capacity (contents are not preserved). False on allocation
  /// failure, leaving the buffer empty.
  bool reserve(std::size_t bytes) noexcept {
    if (bytes <= capacity_) return true;
    release();
    void* p = ::operator new(bytes, std::align_val_t{kAlignment}, std::nothrow);
    if (p == nullptr) return false;
    data_ = static_cast<std::byte*>(p);
    capacity_ = bytes;
    return true;
  }
  std::byte* data() const noexcept { return data_; }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  void release() noexcept {
    if (data_ != nullptr) ::operator delete(data_, std::align_val_t{kAlignment});
    data_ = nullptr;
    capacity_ = 0;
  }
  std::byte* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace nnhal
