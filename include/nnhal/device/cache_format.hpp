#pragma once
/// \file
/// The byte layout shared by nnhal's two compilation cache files (HAL13.md c.1.2, c.1.3), and
/// the primitives that write and check it. Everything is explicit little-endian with
/// fixed-width fields, so a cache does not depend on the host's struct layout or endianness.
///
/// A cache file is `header | payload | SHA-256(header | payload)`. The header:
///
/// | offset | bytes | field                                                            |
/// |--------|-------|------------------------------------------------------------------|
/// | 0      | 8     | magic: "NNHALMDL" (model cache) or "NNHALDAT" (data cache)       |
/// | 8      | 4     | format version (kCacheFormatVersion)                             |
/// | 12     | 8     | fingerprint of the build's encoding and operation table          |
/// | 20     | 32    | the cache token                                                  |
/// | 52     | 8     | payload length in bytes                                          |
/// | 60     | 32    | model cache only: the digest of the data cache that belongs to it|

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/core/enums.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/device/sha256.hpp"
#include "nnhal/interface/extension.hpp"
#include "nnhal/ops/registry.hpp"

namespace nnhal {

/// The 32-byte cache token of prepareModel / prepareModelFromCache.
using CacheToken = std::array<std::uint8_t, 32>;

/// Version of the cache encoding; bump it whenever the byte layout changes.
inline constexpr std::uint32_t kCacheFormatVersion = 2;

namespace detail::cache {

static_assert(std::numeric_limits<float>::is_iec559 && sizeof(float) == 4,
              "the cache stores floats as IEEE-754 binary32 bit patterns");

/// Which of the two files a blob is.
enum class Kind : std::uint8_t { Model, Data };

inline constexpr std::size_t kMagicBytes = 8;
inline constexpr char kModelMagic[kMagicBytes + 1] = "NNHALMDL";
inline constexpr char kDataMagic[kMagicBytes + 1] = "NNHALDAT";

inline constexpr std::size_t kVersionOffset = 8;
inline constexpr std::size_t kFingerprintOffset = 12;
inline constexpr std::size_t kTokenOffset = 20;
inline constexpr std::size_t kPayloadLengthOffset = 52;
inline constexpr std::size_t kDataDigestOffset = 60;
inline constexpr std::size_t kDigestBytes = 32;

/// Header size of a blob of `kind`.
constexpr std::size_t header_bytes(Kind kind) noexcept {
  return kind == Kind::Model ? kDataDigestOffset + kDigestBytes : kDataDigestOffset;
}
constexpr const char* magic_of(Kind kind) noexcept {
  return kind == Kind::Model ? kModelMagic : kDataMagic;
}
constexpr const char* name_of(Kind kind) noexcept {
  return kind == Kind::Model ? "model cache" : "data cache";
}

/// FNV-1a over 64-bit values: cheap enough to run at compile time over the whole table.
struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ull;
  constexpr void add(std::uint64_t v) noexcept {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xFF;
      h *= 0x100000001b3ull;
    }
  }
  constexpr void add(std::string_view s) noexcept {
    add(s.size());
    for (char c : s) add(static_cast<std::uint8_t>(c));
  }
};

/// Adds what a row means to a fingerprint: code, name, version, flags, slots, signatures.
constexpr void add_row(Fnv1a& f, const OperationInfo& info) noexcept {
  f.add(static_cast<std::uint64_t>(info.type));
  f.add(info.name);
  f.add(static_cast<std::uint64_t>(info.since));
  f.add(info.flags);
  for (std::span<const Slot> slots : {info.inputs, info.outputs, info.implicit_inputs}) {
    f.add(slots.size());
    for (const Slot& s : slots)
      f.add(std::uint64_t{s.values} << 16 | static_cast<std::uint64_t>(s.role) << 8 | s.flags);
  }
  f.add(info.signatures.size());
  for (const Signature& sig : info.signatures) {
    f.add(static_cast<std::uint64_t>(sig.version));
    for (const TypeSeq* seq : {&sig.inputs, &sig.outputs}) {
      f.add(static_cast<std::uint64_t>(seq->size) << 8 | static_cast<std::uint8_t>(seq->repeat));
      for (std::size_t i = 0; i < seq->size; ++i) f.add(seq->code(i));
    }
  }
}

/// Fingerprint of what a cache's meaning depends on besides its own bytes: the format version,
/// the limits the reader enforces, and the operation table (codes, names, slots, signatures,
/// flags). A build whose table differs reads a cache as foreign. (Whether a row has a kernel is
/// left out: comparing a pointer with null is not a constant expression under sanitizers.)
/// add_format adds the format version and the limits; the rows follow.
constexpr void add_format(Fnv1a& f) noexcept {
  f.add(kCacheFormatVersion);
  f.add(NNHAL_MAX_RANK);
  f.add(NNHAL_MAX_CONTROL_FLOW_DEPTH);
  f.add(static_cast<std::uint64_t>(kOperandTypeCount));
  f.add(static_cast<std::uint64_t>(kOperationTypeCount));
}
constexpr std::uint64_t compute_fingerprint() noexcept {
  Fnv1a f;
  add_format(f);
  for (const OperationInfo& info : operation_table()) add_row(f, info);
  return f.h;
}

/// compute_fingerprint() over the rows `rows` holds: a program validates with them (its kernel
/// set's, KernelTable::rows), so one whose set says SetRowsOnly links no other row. The same
/// value as compute_fingerprint() for every row (all_operation_rows()); for fewer, each code
/// without a row adds a marker in its place, so that programs validating with other rows read
/// each other's caches as foreign. Evaluated at run time (Device caches it per kernel set).
constexpr std::uint64_t compute_fingerprint(const OperationRows& rows) noexcept {
  Fnv1a f;
  add_format(f);
  for (const OperationInfo* info : rows.rows) {
    if (info != nullptr) add_row(f, *info);
    else f.add(~std::uint64_t{0});  // no row: never the first value a row adds (its code)
  }
  return f.h;
}

/// `base` extended with the registered extensions (names, operand types, operation rows and
/// whether each has kernels), in order: a program with another extension set reads a cache as
/// foreign. `base` itself when there are none.
inline std::uint64_t extend_fingerprint(std::uint64_t base, ExtensionList extensions) noexcept {
  if (extensions.empty()) return base;
  Fnv1a f;
  f.add(base);
  f.add(extensions.size());
  for (const ExtensionInfo* e : extensions) {
    f.add(e->name);
    f.add(e->operand_types.size());
    for (const auto& t : e->operand_types)
      f.add(std::uint64_t{t.type} << 40 | std::uint64_t{t.isTensor} << 32 | t.byteSize);
    f.add(e->operations.size());
    for (const ExtensionOperation& op : e->operations) {
      f.add(std::uint64_t{op.type} << 1 | (op.kernel != nullptr ? 1u : 0u));
      add_row(f, *op.row);
    }
  }
  return f.h;
}

/// Appends little-endian fixed-width fields to a byte vector.
class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::byte>& out) noexcept : out_(out) {}
  void u8(std::uint8_t v) { out_.push_back(std::byte{v}); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::byte>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::byte>(v >> (8 * i)));
  }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f32(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u32(bits);
  }
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    if (n != 0) out_.insert(out_.end(), b, b + n);
  }

 private:
  std::vector<std::byte>& out_;
};

/// Reads little-endian fixed-width fields from untrusted bytes. Every read is bounds-checked;
/// a failed read leaves the reader unchanged and returns false.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> in) noexcept : in_(in) {}
  std::size_t remaining() const noexcept { return in_.size() - at_; }
  std::size_t position() const noexcept { return at_; }

  bool u8(std::uint8_t& v) noexcept {
    if (remaining() < 1) return false;
    v = static_cast<std::uint8_t>(in_[at_++]);
    return true;
  }
  bool u32(std::uint32_t& v) noexcept {
    if (remaining() < 4) return false;
    v = 0;
    for (int i = 0; i < 4; ++i)
      v |= std::uint32_t{static_cast<std::uint8_t>(in_[at_ + i])} << (8 * i);
    at_ += 4;
    return true;
  }
  bool u64(std::uint64_t& v) noexcept {
    if (remaining() < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i)
      v |= std::uint64_t{static_cast<std::uint8_t>(in_[at_ + i])} << (8 * i);
    at_ += 8;
    return true;
  }
  bool i32(std::int32_t& v) noexcept {
    std::uint32_t u;
    if (!u32(u)) return false;
    v = static_cast<std::int32_t>(u);
    return true;
  }
  bool f32(float& v) noexcept {
    std::uint32_t u;
    if (!u32(u)) return false;
    std::memcpy(&v, &u, sizeof v);
    return true;
  }
  /// The next `n` bytes (false if fewer remain).
  bool bytes(std::size_t n, std::span<const std::byte>& out) noexcept {
    if (remaining() < n) return false;
    out = in_.subspan(at_, n);
    at_ += n;
    return true;
  }

 private:
  std::span<const std::byte> in_;
  std::size_t at_ = 0;
};

/// Writes a whole blob: header, payload, digest. `data_digest` is used for the model cache.
inline std::vector<std::byte> seal_blob(Kind kind, std::uint64_t fingerprint,
                                        const CacheToken& token, std::span<const std::byte> payload,
                                        const Sha256Digest& data_digest) {
  std::vector<std::byte> blob;
  blob.reserve(header_bytes(kind) + payload.size() + kDigestBytes);
  ByteWriter w(blob);
  w.bytes(magic_of(kind), kMagicBytes);
  w.u32(kCacheFormatVersion);
  w.u64(fingerprint);
  w.bytes(token.data(), token.size());
  w.u64(payload.size());
  if (kind == Kind::Model) w.bytes(data_digest.data(), data_digest.size());
  w.bytes(payload.data(), payload.size());
  const Sha256Digest digest = sha256(blob);
  w.bytes(digest.data(), digest.size());
  return blob;
}

/// What open_blob() found in a verified blob.
struct Opened {
  std::span<const std::byte> payload;
  Sha256Digest digest{};       ///< the blob's own digest
  Sha256Digest data_digest{};  ///< model cache: the digest of its data cache
};

/// Checks a blob's header and digest; on success returns its payload. Errors are
/// GENERAL_FAILURE naming the file and the first thing found wrong.
inline Expected<Opened> open_blob(std::span<const std::byte> blob, Kind kind,
                                  std::uint64_t fingerprint, const CacheToken& token) {
  const char* name = name_of(kind);
  const std::size_t fixed = header_bytes(kind) + kDigestBytes;
  if (blob.size() < fixed)
    return NNHAL_FAILURE("%s is %zu bytes, shorter than its %zu-byte header and digest", name,
                         blob.size(), fixed);
  ByteReader r(blob);
  std::span<const std::byte> magic, tok;
  std::uint32_t version = 0;
  std::uint64_t found_fingerprint = 0, payload_length = 0;
  // The size check above guarantees every header read succeeds.
  (void)r.bytes(kMagicBytes, magic);
  (void)r.u32(version);
  (void)r.u64(found_fingerprint);
  (void)r.bytes(token.size(), tok);
  (void)r.u64(payload_length);
  if (std::memcmp(magic.data(), magic_of(kind), kMagicBytes) != 0) {
    const Kind other = kind == Kind::Model ? Kind::Data : Kind::Model;
    if (std::memcmp(magic.data(), magic_of(other), kMagicBytes) == 0)
      return NNHAL_FAILURE("%s holds a %s (the files are swapped)", name, name_of(other));
    return NNHAL_FAILURE("%s does not start with the nnhal %s magic", name, name);
  }
  if (version != kCacheFormatVersion)
    return NNHAL_FAILURE("%s has format version %" PRIu32 "; this nnhal reads version %" PRIu32,
                         name, version, kCacheFormatVersion);
  if (found_fingerprint != fingerprint)
    return NNHAL_FAILURE(
        "%s was written by a different nnhal build (fingerprint %016llx, expected %016llx)", name,
        static_cast<unsigned long long>(found_fingerprint),
        static_cast<unsigned long long>(fingerprint));
  if (std::memcmp(tok.data(), token.data(), token.size()) != 0)
    return NNHAL_FAILURE("%s was written for a different cache token", name);
  const std::size_t held = blob.size() - fixed;
  if (payload_length != held)
    return NNHAL_FAILURE("%s declares a %llu-byte payload but holds %zu bytes", name,
                         static_cast<unsigned long long>(payload_length), held);
  Opened out;
  if (kind == Kind::Model) {
    std::span<const std::byte> d;
    (void)r.bytes(kDigestBytes, d);
    std::memcpy(out.data_digest.data(), d.data(), kDigestBytes);
  }
  out.payload = blob.subspan(header_bytes(kind), held);
  out.digest = sha256(blob.first(header_bytes(kind) + held));
  if (std::memcmp(out.digest.data(), blob.data() + header_bytes(kind) + held, kDigestBytes) != 0)
    return NNHAL_FAILURE("%s is corrupted: its SHA-256 digest does not match its contents", name);
  return out;
}

}  // namespace detail::cache

/// Fingerprint of this nnhal build's cache encoding and operation table (see
/// compute_fingerprint). Computed once, on first use: evaluating it as a constant in every file
/// that includes the device layer would cost each of them a walk over the whole table.
inline std::uint64_t cache_fingerprint() noexcept {
  static const std::uint64_t fingerprint = detail::cache::compute_fingerprint();
  return fingerprint;
}

/// The fingerprint of a program that registers `extensions` (cache_fingerprint() without any).
inline std::uint64_t cache_fingerprint(ExtensionList extensions) noexcept {
  return detail::cache::extend_fingerprint(cache_fingerprint(), extensions);
}

/// The fingerprint of a program that validates with the rows `rows` (its kernel set's,
/// KernelTable::rows) and registers `extensions`: cache_fingerprint(extensions) when `rows` is
/// every row, another value for a set that says SetRowsOnly. Computed on each call (a walk
/// over the rows `rows` holds); the Device keeps it.
inline std::uint64_t cache_fingerprint(const OperationRows& rows, ExtensionList extensions) noexcept {
  return detail::cache::extend_fingerprint(detail::cache::compute_fingerprint(rows), extensions);
}

}  // namespace nnhal
