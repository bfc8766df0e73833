#pragma once
/// \file
/// Memory the caller gives: nnhal::Arena, a fixed buffer that building, validating and preparing
/// a model take their memory from instead of the heap; nnhal::Vector, a std::vector whose
/// allocator names its memory; nnhal::Memories, the handle they take it through; and
/// nnhal::Scratch, a function's temporary array. Running out is an error value
/// (RESOURCE_EXHAUSTED_PERSISTENT), never a crash: every place that grows a container asks the
/// arena first whether the bytes are there.
///
///     alignas(16) static std::byte memory[16 * 1024];
///     nnhal::Arena arena(memory);
///     nnhal::ModelBuilder b(arena);             // the model's vectors live in `memory`
///     ...
///     auto model = std::move(b).build();        // RESOURCE_EXHAUSTED_PERSISTENT if it did not fit
///     nnhal::PrepareOptions options;
///     options.arena = &arena;                   // scratch and plan in `memory` too
///     auto prepared = nnhal::PreparedModel::prepare<Set>(std::move(*model), options);
///
/// How many bytes to give is measured, not guessed: Arena::peak() after a run on the host with
/// a generous buffer is what the same build, validation and preparation need on a target of the
/// same pointer size (docs/embedded.md).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/core/result.hpp"

/// What an Arena does when something allocates from it without asking fits() first: a bug in
/// nnhal (tests/core/arena.cpp runs every preparation at every arena size to find one). The
/// default ends the program; it cannot return, as an allocator has no way to fail without
/// exceptions.
#ifndef NNHAL_ARENA_OVERFLOW
#define NNHAL_ARENA_OVERFLOW() ::std::abort()
#endif

namespace nnhal {

/// Where the memory of nnhal's containers comes from: the heap (heap_resource()) or an Arena.
/// nnhal's own small interface rather than std::pmr::memory_resource, whose out-of-line parts
/// live in libstdc++'s library with static objects, RTTI and exit-time destructors that a
/// firmware image does not want (they cost a -fno-rtti Cortex-M image about 10 KB of text).
class MemoryResource {
 public:
  void* allocate(std::size_t bytes, std::size_t align) { return do_allocate(bytes, align); }
  void deallocate(void* p, std::size_t bytes, std::size_t align) noexcept { do_deallocate(p, bytes, align); }

 protected:
  constexpr MemoryResource() noexcept = default;
  MemoryResource(const MemoryResource&) = default;
  MemoryResource& operator=(const MemoryResource&) = default;
  ~MemoryResource() = default;  // not virtual: nothing is deleted through this type
  virtual void* do_allocate(std::size_t bytes, std::size_t align) = 0;
  virtual void do_deallocate(void* p, std::size_t bytes, std::size_t align) noexcept = 0;
};

/// operator new and delete: what containers made without a resource use. Running out ends the
/// program as std::allocator's does (std::bad_alloc, or abort without exceptions).
class HeapResource final : public MemoryResource {
 public:
  constexpr HeapResource() noexcept = default;

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__) return ::operator new(bytes, std::align_val_t{align});
    return ::operator new(bytes);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) noexcept override {
    // Unsized: clang before 19 declares the sized forms only with -fsized-deallocation.
    (void)bytes;
    if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__) ::operator delete(p, std::align_val_t{align});
    else ::operator delete(p);
  }
};

namespace detail {
// Constant-initialized and trivially destructible: no guard, no exit-time destructor.
inline constinit HeapResource heap_resource_instance;
}  // namespace detail

/// The heap as a MemoryResource.
inline MemoryResource* heap_resource() noexcept { return &detail::heap_resource_instance; }

/// An allocator taking its memory from a MemoryResource (the heap by default), as
/// std::pmr::polymorphic_allocator does: containers keep their resource for life (copy,
/// move and swap assignment do not carry it over; a copy-constructed container is on the heap).
template <class T>
class Allocator {
 public:
  using value_type = T;
  using propagate_on_container_copy_assignment = std::false_type;
  using propagate_on_container_move_assignment = std::false_type;
  using propagate_on_container_swap = std::false_type;
  using is_always_equal = std::false_type;

  Allocator() noexcept : resource_(heap_resource()) {}
  Allocator(MemoryResource* resource) noexcept : resource_(resource) {}  // NOLINT: implicit, as std::pmr's
  template <class U>
  Allocator(const Allocator<U>& other) noexcept : resource_(other.resource()) {}  // NOLINT

  T* allocate(std::size_t n) { return static_cast<T*>(resource_->allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { resource_->deallocate(p, n * sizeof(T), alignof(T)); }
  Allocator select_on_container_copy_construction() const noexcept { return Allocator(); }
  MemoryResource* resource() const noexcept { return resource_; }

  template <class U>
  friend bool operator==(const Allocator& a, const Allocator<U>& b) noexcept {
    return a.resource() == b.resource();
  }

 private:
  MemoryResource* resource_;
};

/// A fixed buffer of the caller's, handed out front to back (a monotonic resource with a bound).
/// Every block starts at a multiple of kGranule bytes and takes a multiple of it, so that
/// freeing the newest block gives its bytes back (blocks freed in the reverse order of their
/// allocation all come back, as a function's scratch does); other frees give nothing back until
/// release(). Not thread-safe.
class Arena final : public MemoryResource {
 public:
  /// The unit blocks are aligned to and sized in: alignof(std::max_align_t).
  static constexpr std::size_t kGranule = alignof(std::max_align_t);

  explicit Arena(std::span<std::byte> buffer) noexcept
      : begin_(buffer.data()), end_(buffer.data() + buffer.size()), next_(buffer.data()) {}
  Arena(void* data, std::size_t size) noexcept : Arena(std::span<std::byte>(static_cast<std::byte*>(data), size)) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /// Whether an allocation of `bytes` at `align` would succeed now.
  bool fits(std::size_t bytes, std::size_t align = kGranule) const noexcept {
    const std::uintptr_t at = align_up(reinterpret_cast<std::uintptr_t>(next_), align < kGranule ? kGranule : align);
    const auto end = reinterpret_cast<std::uintptr_t>(end_);
    return at <= end && round_up(bytes) <= end - at;
  }
  /// Bytes of the buffer.
  std::size_t capacity() const noexcept { return static_cast<std::size_t>(end_ - begin_); }
  /// Bytes handed out now (alignment padding included).
  std::size_t used() const noexcept { return static_cast<std::size_t>(next_ - begin_); }
  /// Most bytes ever handed out at once: what a buffer for the same work needs.
  std::size_t peak() const noexcept { return peak_; }
  /// Gives every byte back. Nothing allocated from the arena may be used afterwards.
  void release() noexcept { next_ = begin_; }

 private:
  static std::uintptr_t align_up(std::uintptr_t p, std::size_t align) noexcept {
    return (p + (align - 1)) & ~static_cast<std::uintptr_t>(align - 1);
  }
  /// `bytes` rounded up to kGranule (saturating: a size that large never fits).
  static std::size_t round_up(std::size_t bytes) noexcept {
    return bytes > SIZE_MAX - kGranule ? SIZE_MAX : (bytes + kGranule - 1) & ~(kGranule - 1);
  }
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (!fits(bytes, align)) NNHAL_ARENA_OVERFLOW();
    const std::uintptr_t at = align_up(reinterpret_cast<std::uintptr_t>(next_), align < kGranule ? kGranule : align);
    std::byte* p = begin_ + (at - reinterpret_cast<std::uintptr_t>(begin_));
    next_ = p + round_up(bytes);
    if (used() > peak_) peak_ = used();
    return p;
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t) noexcept override {
    if (static_cast<std::byte*>(p) + round_up(bytes) == next_) next_ = static_cast<std::byte*>(p);
  }

  std::byte* begin_;
  std::byte* end_;
  std::byte* next_;
  std::size_t peak_ = 0;
};

/// The vector of nnhal's containers that may live in an Arena (the model structures, the plan).
template <class T>
using Vector = std::vector<T, Allocator<T>>;

/// Where building, validation and preparation take memory: an Arena of the caller's, or (the
/// default) the heap. Its members grow containers after checking that the arena has the bytes
/// (with the heap they only grow them), and return false when it has not: the container is
/// then as it was, and exhausted() is the error to report (RESOURCE_EXHAUSTED_PERSISTENT).
/// (A bool rather than a Status, which costs code at every call: firmware images use this.)
///
///     if (!mem.assign(v, n, 0)) return mem.exhausted();
class Memories {
 public:
  Memories() noexcept = default;
  Memories(Arena* arena) noexcept : arena_(arena) {}  // NOLINT: nullptr = the heap
  Memories(Arena& arena) noexcept : arena_(&arena) {}  // NOLINT

  Arena* arena() const noexcept { return arena_; }
  /// The resource new containers use.
  MemoryResource* resource() const noexcept {
    return arena_ != nullptr ? static_cast<MemoryResource*>(arena_) : heap_resource();
  }
  /// An empty vector in this memory.
  template <class T>
  Vector<T> vector() const noexcept {
    return Vector<T>(resource());
  }

  /// Whether `bytes` at `align` can be had (always, from the heap); remembers them if not.
  [[nodiscard]] bool fits(std::size_t bytes, std::size_t align) const noexcept {
    if (arena_ == nullptr || arena_->fits(bytes, align)) return true;
    wanted_ = bytes;
    return false;
  }
  /// The error for the bytes the last failed call of this object wanted.
  Error exhausted() const noexcept { return exhausted(wanted_); }
  /// The error for `bytes` that were not there.
  Error exhausted(std::size_t bytes) const noexcept {
    return Error::format(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                         "out of memory: the arena has %zu of %zu bytes left, %zu more needed",
                         arena_ != nullptr ? arena_->capacity() - arena_->used() : std::size_t{0},
                         arena_ != nullptr ? arena_->capacity() : std::size_t{0}, bytes);
  }

  /// Room for `n` elements in `v`, a vector of this memory (its capacity exactly `n` if it grew).
  template <class T>
  [[nodiscard]] bool reserve(Vector<T>& v, std::size_t n) const noexcept {
    NNHAL_ASSERT(v.get_allocator().resource() == resource());
    if (n <= v.capacity()) return true;
    if (n > v.max_size()) {
      wanted_ = SIZE_MAX;
      return false;
    }
    if (!fits(n * sizeof(T), alignof(T))) return false;
    v.reserve(n);
    return true;
  }
  /// Room for `n` elements in `v`, growing its capacity geometrically (so that growing one
  /// element at a time costs linear time and memory); exactly `n` when the arena has no more.
  template <class T>
  [[nodiscard]] bool grow(Vector<T>& v, std::size_t n) const noexcept {
    if (n <= v.capacity()) return true;
    const std::size_t doubled = v.capacity() < 2 ? 4 : 2 * v.capacity();
    if (doubled > n && doubled <= v.max_size() && (arena_ == nullptr || arena_->fits(doubled * sizeof(T), alignof(T))))
      return reserve(v, doubled);
    return reserve(v, n);
  }
  /// One more element at the end, the capacity growing geometrically.
  template <class T, class U>
  [[nodiscard]] bool push_back(Vector<T>& v, U&& value) const noexcept {
    if (!grow(v, v.size() + 1)) return false;
    v.push_back(static_cast<U&&>(value));
    return true;
  }
  /// `v` = `n` copies of `value`.
  template <class T>
  [[nodiscard]] bool assign(Vector<T>& v, std::size_t n, const T& value) const noexcept {
    if (!reserve(v, n)) return false;
    v.assign(n, value);
    return true;
  }
  /// `v` = the elements of `from`.
  template <class T>
  [[nodiscard]] bool assign(Vector<T>& v, std::span<const T> from) const noexcept {
    if (!reserve(v, from.size())) return false;
    v.assign(from.begin(), from.end());
    return true;
  }
  /// `v` grown or shrunk to `n` elements (new ones value-initialized).
  template <class T>
  [[nodiscard]] bool resize(Vector<T>& v, std::size_t n) const noexcept {
    if (!reserve(v, n)) return false;
    v.resize(n);
    return true;
  }
  /// `v` grown to `n` elements (new ones value-initialized), its capacity growing geometrically.
  template <class T>
  [[nodiscard]] bool grow_to(Vector<T>& v, std::size_t n) const noexcept {
    if (!grow(v, n)) return false;
    v.resize(n);
    return true;
  }

 private:
  Arena* arena_ = nullptr;
  mutable std::size_t wanted_ = 0;  ///< bytes of the last request that failed
};

/// A function's scratch: `size()` zeroed elements of a trivially copyable T taken from a
/// Memories, given back when it goes out of scope (to an Arena: reusable at once when scratch is
/// freed in the reverse order of its allocation, as locals are). No std::vector: a plain array
/// costs less code than a vector's growth paths, which scratch of a known size never takes.
template <class T>
class Scratch {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  Scratch() noexcept = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (data_ != nullptr) resource_->deallocate(data_, size_ * sizeof(T), alignof(T));
  }

  /// `n` zeroed elements from `mem` (replacing none: call once); false when they are not there
  /// (mem.exhausted() says so).
  [[nodiscard]] bool allocate(const Memories& mem, std::size_t n) noexcept {
    NNHAL_ASSERT(data_ == nullptr);
    if (n == 0) return true;
    if (n > SIZE_MAX / sizeof(T) || !mem.fits(n * sizeof(T), alignof(T))) return false;
    resource_ = mem.resource();
    data_ = static_cast<T*>(resource_->allocate(n * sizeof(T), alignof(T)));
    std::memset(static_cast<void*>(data_), 0, n * sizeof(T));
    size_ = n;
    return true;
  }

  std::size_t size() const noexcept { return size_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  operator std::span<const T>() const noexcept { return {data_, size_}; }  // NOLINT

 private:
  MemoryResource* resource_ = nullptr;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace nnhal
