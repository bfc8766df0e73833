#pragma once
/// \file
/// Driver-managed buffers (HAL13.md c.5): DeviceBuffer is an IBuffer (device memory with a
/// state machine: uninitialized until a successful copy_from or execution writes it), and
/// BufferRegistry is one device's token table, where IDevice::allocate creates them.
///
/// Thread safety: every DeviceBuffer guards its state and dimensions with its own mutex and
/// BufferRegistry its table with another; neither is held while an execution runs. The bytes
/// themselves follow the HAL's rule for request memory: the client must not copy into a buffer
/// while an execution uses it, nor use one buffer as an output of two executions at once.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include "nnhal/device/mutex.hpp"
#include <span>
#include <utility>
#include <vector>

#include "nnhal/core/limits.hpp"
#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/device/buffer_desc.hpp"
#include "nnhal/exec/buffer.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

class DeviceBuffer;
class BufferRegistry;
class BoundBuffers;

namespace detail {
/// The token -> buffer map of one device, shared by the registry and its buffers so that a
/// buffer outliving its registry can still release its token.
struct TokenTable {
  mutable detail::DeviceMutex mutex;
  std::map<std::uint32_t, std::weak_ptr<DeviceBuffer>> live;
  std::uint32_t next = 1;
};
}  // namespace detail

/// A driver-managed buffer (IBuffer): owns 64-byte aligned memory of the size its roles and
/// description fix. Created by BufferRegistry::allocate; shared by the client's handle and the
/// executions using it. Thread-safe.
class DeviceBuffer {
  struct Key {
    explicit Key() = default;
  };

 public:
  /// Used by BufferRegistry only (the Key is private).
  DeviceBuffer(Key, detail::BufferLayout layout, AlignedBuffer storage) noexcept
      : layout_(std::move(layout)), storage_(std::move(storage)), current_(layout_.dimensions) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  /// Releases the token (it may then name a new buffer).
  ~DeviceBuffer() {
    if (table_ == nullptr) return;
    detail::LockGuard lock(table_->mutex);
    table_->live.erase(token_);
  }

  /// IBuffer::copyTo: copies the whole buffer into `dst`, whose size must equal size()
  /// (INVALID_ARGUMENT); an uninitialized buffer or a null `dst` is GENERAL_FAILURE.
  Status copy_to(Memory dst) const {
    if (dst.size != size())
      return NNHAL_INVALID("copyTo: destination has %zu bytes, the buffer %zu", dst.size, size());
    if (dst.data == nullptr) return NNHAL_FAILURE("copyTo: destination memory is not mapped");
    detail::LockGuard lock(mutex_);
    if (!initialized_)
      return NNHAL_FAILURE("copyTo: buffer %" PRIu32 " is not initialized", token_);
    std::memmove(dst.data, storage_.data(), size());
    return {};
  }

  /// IBuffer::copyFrom: fills the buffer from `src` (size must equal size()) and gives it
  /// `dimensions` (empty = keep the allocated dimensions; otherwise fully specified and
  /// agreeing with them; empty for scalars). Success initializes the buffer; any failure leaves
  /// it uninitialized.
  Status copy_from(Memory src, std::span<const std::uint32_t> dimensions) {
    detail::LockGuard lock(mutex_);
    Status s = check_copy_from(src, dimensions);
    if (!s) {
      initialized_ = false;
      return s;
    }
    std::memmove(storage_.data(), src.data, size());
    if (!dimensions.empty()) current_.assign(dimensions);
    else current_ = layout_.dimensions;
    initialized_ = true;
    return {};
  }

  /// Operand type of the buffer's roles.
  OperandType type() const noexcept { return layout_.type; }
  /// Quantization scale of the buffer's roles.
  float scale() const noexcept { return layout_.scale; }
  /// Quantization zero point of the buffer's roles.
  std::int32_t zero_point() const noexcept { return layout_.zero_point; }
  /// Bytes of the buffer.
  std::size_t size() const noexcept { return layout_.size; }
  /// The token naming this buffer in requests (> 0).
  std::uint32_t token() const noexcept { return token_; }
  /// True once written by copy_from or an execution, until a failed one.
  bool initialized() const {
    detail::LockGuard lock(mutex_);
    return initialized_;
  }
  /// Current dimensions: the ones last written (initially the allocated ones).
  std::vector<std::uint32_t> dimensions() const {
    detail::LockGuard lock(mutex_);
    return {current_.begin(), current_.end()};
  }
  /// Dimensions fixed at allocation (desc and roles combined); never change.
  std::span<const std::uint32_t> initial_dimensions() const noexcept { return layout_.dimensions.span(); }
  /// True when allocate declared input (`output` false) or output `io_index` of the prepared
  /// model with id `model` (PreparedModel::id()) as a role of this buffer.
  bool has_role(const void* model, bool output, std::uint32_t io_index) const noexcept {
    const detail::BufferRoleKey key{model, io_index, output};
    const auto it = std::lower_bound(layout_.roles.begin(), layout_.roles.end(), key);
    return it != layout_.roles.end() && *it == key;
  }

 private:
  friend class BufferRegistry;
  friend class BoundBuffers;

  Status check_copy_from(Memory src, std::span<const std::uint32_t> dims) const {
    if (src.size != size())
      return NNHAL_INVALID("copyFrom: source has %zu bytes, the buffer %zu", src.size, size());
    if (src.data == nullptr) return NNHAL_FAILURE("copyFrom: source memory is not mapped");
    if (!is_tensor(type())) {
      if (!dims.empty()) return NNHAL_INVALID("copyFrom: a scalar buffer takes no dimensions");
      return {};
    }
    const Dims& initial = layout_.dimensions;
    if (dims.empty()) {
      if (initial.empty() || !initial.all_known())
        return NNHAL_INVALID("copyFrom: the buffer's dimensions are not fully specified, so copyFrom must give them");
      return {};
    }
    for (std::size_t i = 0; i < dims.size(); ++i)
      if (dims[i] == 0) return NNHAL_INVALID("copyFrom: dimension %zu is 0 (dimensions must be fully specified)", i);
    Dims combined;
    if (!detail::combine_dims(initial.span(), dims, combined))
      return NNHAL_INVALID("copyFrom: dimensions (rank %zu) do not agree with the buffer's (rank %zu)",
                           dims.size(), initial.size());
    return {};
  }

  /// The storage the executor reads and writes.
  Memory memory() const noexcept { return {storage_.data(), layout_.size}; }

  /// Checks use as an input with request dimensions `dims`: GENERAL_FAILURE when
  /// uninitialized, INVALID_ARGUMENT when `dims` contradict the current dimensions.
  Status check_input(std::span<const std::uint32_t> dims) const {
    detail::LockGuard lock(mutex_);
    if (!initialized_)
      return NNHAL_FAILURE(
          "driver-managed buffer %" PRIu32 " is used as an input before it is initialized", token_);
    Dims combined;
    if (!detail::combine_dims(current_.span(), dims, combined) || !(combined == current_))
      return NNHAL_INVALID(
          "request dimensions do not match the current dimensions of driver-managed buffer "
          "%" PRIu32,
          token_);
    return {};
  }

  /// After a successful execution wrote the buffer with shape `dims`.
  void set_written(std::span<const std::uint32_t> dims) {
    detail::LockGuard lock(mutex_);
    current_.assign(dims);
    initialized_ = true;
  }
  void set_uninitialized() {
    detail::LockGuard lock(mutex_);
    initialized_ = false;
  }

  const detail::BufferLayout layout_;
  AlignedBuffer storage_;
  std::shared_ptr<detail::TokenTable> table_;  ///< set, with token_, when registered
  std::uint32_t token_ = 0;
  mutable detail::DeviceMutex mutex_;
  bool initialized_ = false;  ///< guarded by mutex_
  Dims current_;              ///< guarded by mutex_
};

/// The driver-managed buffers of one device: IDevice::allocate, and token lookup for
/// executions. Tokens are > 0 and unique among live buffers; the registry does not keep buffers
/// alive, and a token is released when the last reference to its buffer goes. Thread-safe.
class BufferRegistry {
 public:
  BufferRegistry() : table_(std::make_shared<detail::TokenTable>()) {}

  /// IDevice::allocate: validates `desc` and the roles (HAL13.md c.5 validateMemoryDesc) and
  /// creates an uninitialized buffer with a fresh token. INVALID_ARGUMENT for a bad description
  /// or role; GENERAL_FAILURE for what nnhal does not support (size unknown at allocation time,
  /// OEM types, more than 4 GiB, more than `max_bytes` = Limits::max_buffer_bytes, checked
  /// before allocating) or an allocation failure. Checking that the prepared models belong to
  /// this device is the caller's part.
  Expected<std::pair<std::shared_ptr<DeviceBuffer>, std::uint32_t>> allocate(
      const BufferDesc& desc, std::span<const PreparedModel* const> prepared_models,
      std::span<const BufferRole> input_roles, std::span<const BufferRole> output_roles,
      std::uint64_t max_bytes = Limits{}.max_buffer_bytes) {
    auto layout = detail::validate_memory_desc(desc, prepared_models, input_roles, output_roles);
    if (!layout) return std::move(layout.error());
    if (layout->size > max_bytes)
      return NNHAL_FAILURE("allocate: the buffer needs %zu bytes, above Limits::max_buffer_bytes (%llu)", layout->size,
                           static_cast<unsigned long long>(max_bytes));
    AlignedBuffer storage;
    if (!storage.reserve(layout->size))
      return NNHAL_FAILURE("allocate: cannot allocate %zu bytes", layout->size);
    // Nothing the device returns may show earlier heap contents, even through a bug elsewhere.
    std::memset(storage.data(), 0, layout->size);
    auto buffer = std::make_shared<DeviceBuffer>(DeviceBuffer::Key{}, std::move(*layout), std::move(storage));
    detail::LockGuard lock(table_->mutex);
    if (table_->live.size() >= std::size_t{UINT32_MAX} - 1)
      return NNHAL_FAILURE("allocate: every token is in use");
    std::uint32_t token = table_->next;
    while (token == 0 || table_->live.count(token) != 0) ++token;  // wraps past UINT32_MAX to 0
    table_->next = token + 1;
    table_->live.emplace(token, buffer);
    buffer->table_ = table_;
    buffer->token_ = token;
    return std::pair{std::move(buffer), token};
  }

  /// The live buffer `token` names, or null.
  std::shared_ptr<DeviceBuffer> find(std::uint32_t token) const {
    detail::LockGuard lock(table_->mutex);
    const auto it = table_->live.find(token);
    return it == table_->live.end() ? nullptr : it->second.lock();
  }

  /// Number of live tokens.
  std::size_t size() const {
    detail::LockGuard lock(table_->mutex);
    return table_->live.size();
  }

 private:
  std::shared_ptr<detail::TokenTable> table_;
};

}  // namespace nnhal
