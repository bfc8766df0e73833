#pragma once
/// \file
/// Compilation cache of a prepared model (HAL13.md c.1.2, c.1.3). nnhal's "compiled" form is
/// the validated Model itself: the model cache holds its structure (every subgraph, operand,
/// operation and index list), the data cache its constants (operandValues and the bytes of
/// every memory pool). Both are bound to the cache token and to this build's format fingerprint
/// and carry a SHA-256 digest; the model cache also records the data cache's digest, so the
/// pair cannot be mixed with files of another model. The reader trusts none of it: every count
/// is checked against the bytes that remain before anything is allocated, enums and ranks are
/// range-checked, and the decoded model goes through validate_model. Byte layout:
/// cache_format.hpp.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/device/cache_format.hpp"
#include "nnhal/exec/buffer.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/validate/model.hpp"

namespace nnhal {

/// Cache files nnhal needs (getNumberOfCacheFilesNeeded).
inline constexpr std::uint32_t kModelCacheFiles = 1;
inline constexpr std::uint32_t kDataCacheFiles = 1;

/// Bytes to write: the security-sensitive model cache and the data cache.
struct CacheBlobs {
  std::vector<std::byte> model_cache;
  std::vector<std::byte> data_cache;
};

/// A model read back from cache. `model.pools` point into `pools`, which it owns (moving a
/// CachedModel keeps them valid; the pools must outlive anything prepared from `model`).
struct CachedModel {
  Model model;
  std::vector<AlignedBuffer> pools;
};

namespace detail::cache {

// Smallest encodings, used to bound a count by the bytes that remain before allocating.
inline constexpr std::size_t kMinSubgraphBytes = 4 * 4;     // four counts
inline constexpr std::size_t kMinOperandBytes = 4 * 9 + 1;  // 9 words + extra-params tag
inline constexpr std::size_t kMinOperationBytes = 3 * 4;    // type + two counts
inline constexpr std::size_t kMinPoolBytes = 8;             // size
inline constexpr std::size_t kMinExtensionEntryBytes = 8;   // prefix + name length

/// Writes `v.size()` as a u32 count (false if it does not fit).
template <class V>
bool put_count(ByteWriter& w, const V& v) {
  if (v.size() > std::numeric_limits<std::uint32_t>::max()) return false;
  w.u32(static_cast<std::uint32_t>(v.size()));
  return true;
}

inline bool put_u32_list(ByteWriter& w, std::span<const std::uint32_t> v) {
  if (!put_count(w, v)) return false;
  for (std::uint32_t x : v) w.u32(x);
  return true;
}

inline Status put_subgraph(ByteWriter& w, const Subgraph& sg) {
  if (!put_count(w, sg.operands)) return NNHAL_FAILURE("too many operands to cache");
  for (std::size_t i = 0; i < sg.operands.size(); ++i) {
    const Operand& op = sg.operands[i];
    if (op.dimensions.size() > NNHAL_MAX_RANK)
      return NNHAL_FAILURE("operand %zu has rank %zu; the cache holds at most %d", i,
                           op.dimensions.size(), NNHAL_MAX_RANK);
    w.i32(static_cast<std::int32_t>(op.type));
    (void)put_u32_list(w, op.dimensions);
    w.u32(op.numberOfConsumers);
    w.f32(op.scale);
    w.i32(op.zeroPoint);
    w.i32(static_cast<std::int32_t>(op.lifetime));
    w.u32(op.location.poolIndex);
    w.u32(op.location.offset);
    w.u32(op.location.length);
    w.u8(op.channelQuant.has_value() ? 1 : 0);
    if (op.channelQuant.has_value()) {
      w.u32(op.channelQuant->channelDim);
      if (!put_count(w, op.channelQuant->scales))
        return NNHAL_FAILURE("operand %zu: too many scales", i);
      for (float s : op.channelQuant->scales) w.f32(s);
    }
  }
  if (!put_count(w, sg.operations)) return NNHAL_FAILURE("too many operations to cache");
  for (const Operation& op : sg.operations) {
    w.i32(static_cast<std::int32_t>(op.type));
    if (!put_u32_list(w, op.inputs) || !put_u32_list(w, op.outputs))
      return NNHAL_FAILURE("operation has too many operands to cache");
  }
  if (!put_u32_list(w, sg.inputIndexes) || !put_u32_list(w, sg.outputIndexes))
    return NNHAL_FAILURE("too many subgraph inputs or outputs to cache");
  return {};
}

/// Error for a read that ran past the end of a payload.
inline Error truncated(const ByteReader& r, const char* what) {
  return NNHAL_FAILURE("cache payload ends at byte %zu while reading %s", r.position(), what);
}

/// Reads a count of items encoded in at least `min_bytes` each, refusing counts the remaining
/// bytes cannot hold (so a forged count never turns into a huge allocation).
inline Status get_count(ByteReader& r, std::size_t min_bytes, const char* what, std::uint32_t& n) {
  if (!r.u32(n)) return truncated(r, what);
  if (n > r.remaining() / min_bytes)
    return NNHAL_FAILURE("cache payload claims %" PRIu32 " %s but only %zu bytes remain", n, what,
                         r.remaining());
  return {};
}

inline Status get_u32_list(ByteReader& r, const char* what, Vector<std::uint32_t>& out) {
  std::uint32_t n = 0;
  NNHAL_TRY(get_count(r, 4, what, n));
  out.resize(n);
  for (std::uint32_t& x : out) (void)r.u32(x);  // get_count checked that 4 * n bytes remain
  return {};
}

constexpr bool known_operand_type(std::int32_t t) noexcept {
  return (t >= 0 && t < kOperandTypeCount) || t == static_cast<std::int32_t>(OperandType::OEM) ||
         t == static_cast<std::int32_t>(OperandType::TENSOR_OEM_BYTE) || is_extension_code(t);
}
constexpr bool known_operation_type(std::int32_t t) noexcept {
  return (t >= 0 && t < kOperationTypeCount) ||
         t == static_cast<std::int32_t>(OperationType::OEM_OPERATION) || is_extension_code(t);
}

inline Status get_operand(ByteReader& r, Operand& op) {
  std::int32_t type = 0, lifetime = 0;
  if (!r.i32(type)) return truncated(r, "operand type");
  if (!known_operand_type(type)) return NNHAL_FAILURE("unknown operand type %" PRId32, type);
  op.type = static_cast<OperandType>(type);
  std::uint32_t rank = 0;
  if (!r.u32(rank)) return truncated(r, "rank");
  if (rank > NNHAL_MAX_RANK)
    return NNHAL_FAILURE("rank %" PRIu32 " exceeds %d", rank, NNHAL_MAX_RANK);
  op.dimensions.resize(rank);
  for (std::uint32_t& d : op.dimensions)
    if (!r.u32(d)) return truncated(r, "dimensions");
  std::uint8_t extra = 0;
  if (!r.u32(op.numberOfConsumers) || !r.f32(op.scale) || !r.i32(op.zeroPoint) ||
      !r.i32(lifetime) || !r.u32(op.location.poolIndex) || !r.u32(op.location.offset) ||
      !r.u32(op.location.length) || !r.u8(extra))
    return truncated(r, "operand");
  if (lifetime < 0 || lifetime > static_cast<std::int32_t>(OperandLifeTime::SUBGRAPH))
    return NNHAL_FAILURE("unknown operand lifetime %" PRId32, lifetime);
  op.lifetime = static_cast<OperandLifeTime>(lifetime);
  if (extra > 1) return NNHAL_FAILURE("unknown extraParams kind %u", extra);
  if (extra == 1) {
    SymmPerChannelQuantParams q;
    if (!r.u32(q.channelDim)) return truncated(r, "channelDim");
    std::uint32_t n = 0;
    NNHAL_TRY(get_count(r, 4, "channel scales", n));
    q.scales.resize(n);
    for (float& s : q.scales) (void)r.f32(s);
    op.channelQuant = std::move(q);
  }
  return {};
}

inline Status get_subgraph(ByteReader& r, Subgraph& sg) {
  std::uint32_t n = 0;
  NNHAL_TRY(get_count(r, kMinOperandBytes, "operands", n));
  sg.operands.resize(n);
  for (std::uint32_t i = 0; i < n; ++i)
    if (auto s = get_operand(r, sg.operands[i]); !s)
      return std::move(s.error().prefix("operand %" PRIu32, i));
  NNHAL_TRY(get_count(r, kMinOperationBytes, "operations", n));
  sg.operations.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    Operation& op = sg.operations[i];
    std::int32_t type = 0;
    if (!r.i32(type)) return truncated(r, "operation type");
    if (!known_operation_type(type))
      return NNHAL_FAILURE("operation %" PRIu32 " has unknown type %" PRId32, i, type);
    op.type = static_cast<OperationType>(type);
    NNHAL_TRY(get_u32_list(r, "operation inputs", op.inputs));
    NNHAL_TRY(get_u32_list(r, "operation outputs", op.outputs));
  }
  NNHAL_TRY(get_u32_list(r, "inputIndexes", sg.inputIndexes));
  NNHAL_TRY(get_u32_list(r, "outputIndexes", sg.outputIndexes));
  return {};
}

/// Model cache payload: relax flag, main, referenced subgraphs, extensionNameToPrefix.
inline Status decode_structure(std::span<const std::byte> payload, Model& m) {
  ByteReader r(payload);
  std::uint8_t relax = 0;
  if (!r.u8(relax)) return truncated(r, "relaxComputationFloat32toFloat16");
  if (relax > 1) return NNHAL_FAILURE("relaxComputationFloat32toFloat16 is %u, not 0 or 1", relax);
  m.relaxComputationFloat32toFloat16 = relax == 1;
  if (auto s = get_subgraph(r, m.main); !s) return std::move(s.error().prefix("main"));
  std::uint32_t n = 0;
  NNHAL_TRY(get_count(r, kMinSubgraphBytes, "referenced subgraphs", n));
  m.referenced.resize(n);
  for (std::uint32_t g = 0; g < n; ++g)
    if (auto s = get_subgraph(r, m.referenced[g]); !s)
      return std::move(s.error().prefix("referenced[%" PRIu32 "]", g));
  NNHAL_TRY(get_count(r, kMinExtensionEntryBytes, "extensionNameToPrefix entries", n));
  m.extensionNameToPrefix.resize(n);
  for (ExtensionNameAndPrefix& e : m.extensionNameToPrefix) {
    std::uint32_t length = 0, prefix = 0;
    std::span<const std::byte> name;
    if (!r.u32(prefix) || !r.u32(length)) return truncated(r, "extensionNameToPrefix entry");
    if (prefix > UINT16_MAX)
      return NNHAL_FAILURE("extension prefix %" PRIu32 " does not fit 16 bits", prefix);
    if (length > r.remaining() || !r.bytes(length, name))
      return NNHAL_FAILURE("an extension name claims %" PRIu32 " bytes but only %zu remain", length,
                           r.remaining());
    e.prefix = static_cast<std::uint16_t>(prefix);
    e.name.assign(reinterpret_cast<const char*>(name.data()), name.size());
  }
  if (r.remaining() != 0)
    return NNHAL_FAILURE("%zu unexpected bytes after the model structure", r.remaining());
  return {};
}

/// Data cache payload: operandValues, then each pool's size and bytes.
inline Status decode_data(std::span<const std::byte> payload, CachedModel& out) {
  ByteReader r(payload);
  std::uint64_t n = 0;
  std::span<const std::byte> b;
  if (!r.u64(n)) return truncated(r, "operandValues length");
  if (n > r.remaining() || !r.bytes(static_cast<std::size_t>(n), b))
    return NNHAL_FAILURE("operandValues claims %llu bytes but only %zu remain",
                         static_cast<unsigned long long>(n), r.remaining());
  out.model.operandValues.resize(b.size());
  if (!b.empty()) std::memcpy(out.model.operandValues.data(), b.data(), b.size());
  std::uint32_t pools = 0;
  NNHAL_TRY(get_count(r, kMinPoolBytes, "memory pools", pools));
  out.pools.resize(pools);
  out.model.pools.resize(pools);
  for (std::uint32_t p = 0; p < pools; ++p) {
    if (!r.u64(n)) return truncated(r, "pool size");
    if (n > r.remaining() || !r.bytes(static_cast<std::size_t>(n), b))
      return NNHAL_FAILURE("memory pool %" PRIu32 " claims %llu bytes but only %zu remain", p,
                           static_cast<unsigned long long>(n), r.remaining());
    // One byte at least, so even an empty pool has an address (HAL memory is never null).
    if (!out.pools[p].reserve(b.empty() ? 1 : b.size()))
      return NNHAL_FAILURE("cannot allocate %zu bytes for memory pool %" PRIu32, b.size(), p);
    if (!b.empty()) std::memcpy(out.pools[p].data(), b.data(), b.size());
    out.model.pools[p] = Memory{out.pools[p].data(), b.size()};
  }
  if (r.remaining() != 0)
    return NNHAL_FAILURE("%zu unexpected bytes after the memory pools", r.remaining());
  return {};
}


/// write_model_cache with the fingerprint `fingerprint` (cache_fingerprint(rows, extensions) of
/// the program: the Device passes its kernel set's).
inline Expected<CacheBlobs> write_model_cache(const Model& model, const CacheToken& token,
                                              std::uint64_t fingerprint);
}  // namespace detail::cache

/// Serializes a model that passed validate_model (all subgraphs, operands incl. extraParams /
/// channel quantization, operations, input/output indexes, operandValues, the bytes of every
/// memory pool, relaxComputationFloat32toFloat16) bound to `token`. Fails with GENERAL_FAILURE
/// only for a model the format cannot hold (a rank above NNHAL_MAX_RANK, counts beyond 32 bits,
/// a pool without data); the device layer then just does not cache. `extensions`: those of the
/// program (its kernel set's), which a cache is bound to as it is to the operation table.
inline Expected<CacheBlobs> write_model_cache(const Model& model, const CacheToken& token,
                                              ExtensionList extensions = {}) {
  return detail::cache::write_model_cache(model, token, cache_fingerprint(extensions));
}

inline Expected<CacheBlobs> detail::cache::write_model_cache(const Model& model, const CacheToken& token,
                                                             std::uint64_t fingerprint) {
  using namespace detail::cache;
  std::vector<std::byte> data;
  ByteWriter d(data);
  d.u64(model.operandValues.size());
  d.bytes(model.operandValues.data(), model.operandValues.size());
  if (!put_count(d, model.pools)) return NNHAL_FAILURE("too many memory pools to cache");
  for (std::size_t p = 0; p < model.pools.size(); ++p) {
    const Memory& pool = model.pools[p];
    if (pool.data == nullptr && pool.size != 0)
      return NNHAL_FAILURE("memory pool %zu has no data", p);
    d.u64(pool.size);
    d.bytes(pool.data, pool.size);
  }
  std::vector<std::byte> structure;
  ByteWriter s(structure);
  s.u8(model.relaxComputationFloat32toFloat16 ? 1 : 0);
  if (auto st = put_subgraph(s, model.main); !st)
    return std::move(st.error().prefix("cannot cache main"));
  if (!put_count(s, model.referenced))
    return NNHAL_FAILURE("too many referenced subgraphs to cache");
  for (std::size_t g = 0; g < model.referenced.size(); ++g)
    if (auto st = put_subgraph(s, model.referenced[g]); !st)
      return std::move(st.error().prefix("cannot cache referenced[%zu]", g));
  if (!put_count(s, model.extensionNameToPrefix)) return NNHAL_FAILURE("too many extensions to cache");
  for (const ExtensionNameAndPrefix& e : model.extensionNameToPrefix) {
    if (e.name.size() > std::numeric_limits<std::uint32_t>::max())
      return NNHAL_FAILURE("extension name too long to cache");
    s.u32(e.prefix);
    s.u32(static_cast<std::uint32_t>(e.name.size()));
    s.bytes(e.name.data(), e.name.size());
  }
  CacheBlobs out;
  out.data_cache = seal_blob(Kind::Data, fingerprint, token, data, Sha256Digest{});
  Sha256Digest data_digest{};
  std::memcpy(data_digest.data(), out.data_cache.data() + out.data_cache.size() - kDigestBytes,
              kDigestBytes);
  out.model_cache = seal_blob(Kind::Model, fingerprint, token, structure, data_digest);
  return out;
}

/// Reads a cache pair back. Never trusts the bytes: corruption, truncation, extra bytes, a wrong
/// token, another format version or nnhal build, or a data cache of another model give
/// GENERAL_FAILURE with a message saying what is wrong. The decoded model is run through
/// validate_model with `options` (a failure there is reported as GENERAL_FAILURE too: the cache
/// is unusable); `options.extensions` are the program's, which the cache must have been written
/// with.
namespace detail::cache {
/// read_model_cache for a program that validates with the rows `rows` (its kernel set's) and
/// whose fingerprint is `fingerprint` (cache_fingerprint(rows, options.extensions)): the
/// decoded model is validated against `rows`.
inline Expected<CachedModel> read_model_cache(std::span<const std::byte> model_cache,
                                              std::span<const std::byte> data_cache, const CacheToken& token,
                                              const ValidationOptions& options, const OperationRows& rows,
                                              std::uint64_t fingerprint);

/// The same, logged (NNHAL_VLOG category cache).
inline Expected<CachedModel> read_model_cache_logged(std::span<const std::byte> model_cache,
                                                     std::span<const std::byte> data_cache, const CacheToken& token,
                                                     const ValidationOptions& options, const OperationRows& rows,
                                                     std::uint64_t fingerprint) {
  auto out = read_model_cache(model_cache, data_cache, token, options, rows, fingerprint);
  if (out) NNHAL_VLOG(cache, "cache read: %zu model byte(s), %zu data byte(s)", model_cache.size(), data_cache.size());
  else NNHAL_VLOG(cache, "cache rejected: %s", out.error().c_str());
  return out;
}
}  // namespace detail::cache

inline Expected<CachedModel> read_model_cache(std::span<const std::byte> model_cache,
                                              std::span<const std::byte> data_cache,
                                              const CacheToken& token,
                                              const ValidationOptions& options = {}) {
  return detail::cache::read_model_cache_logged(model_cache, data_cache, token, options, all_operation_rows(),
                                                cache_fingerprint(options.extensions));
}

inline Expected<CachedModel> detail::cache::read_model_cache(std::span<const std::byte> model_cache,
                                                             std::span<const std::byte> data_cache,
                                                             const CacheToken& token,
                                                             const ValidationOptions& options,
                                                             const OperationRows& rows, std::uint64_t fingerprint) {
  // The security-sensitive file first, then its data, then that they belong together.
  auto model_blob = open_blob(model_cache, Kind::Model, fingerprint, token);
  if (!model_blob) return std::move(model_blob.error());
  auto data_blob = open_blob(data_cache, Kind::Data, fingerprint, token);
  if (!data_blob) return std::move(data_blob.error());
  if (model_blob->data_digest != data_blob->digest)
    return NNHAL_FAILURE("data cache belongs to a different model cache (digest mismatch)");
  CachedModel out;
  if (auto s = decode_data(data_blob->payload, out); !s)
    return std::move(s.error().prefix("data cache"));
  if (auto s = decode_structure(model_blob->payload, out.model); !s)
    return std::move(s.error().prefix("model cache"));
  if (auto v = validate_model_rows(out.model, options, rows); !v)
    return Error::format(ErrorStatus::GENERAL_FAILURE, "cached model is invalid: %s",
                         v.error().c_str());
  return out;
}

}  // namespace nnhal
