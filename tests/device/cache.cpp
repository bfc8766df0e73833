// The compilation cache: models written and read back equal the original field by field and
// run like it; any change to either file (every byte, every length, token, version, build
// fingerprint, the pairing of the two files) is rejected with GENERAL_FAILURE; forged counts
// fail before anything is allocated for them; random forged payloads never crash the reader.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../control/control_flow_models.hpp"
#include "../support/counting_allocator.hpp"
#include "../support/run_model.hpp"
#include "../validate/model_fixtures.hpp"
#include "nnhal/device/cache.hpp"

namespace nnhal::test::cache {

namespace fx = nnhal::test::malformed;
namespace fmt = nnhal::detail::cache;

// ---------------------------------------------------------------------------------------------
// Sample models
// ---------------------------------------------------------------------------------------------

/// A model (with the memory of its pools), and the inputs of the runs that compare it with its
/// cached copy (no runs: only the round trip is checked).
struct Sample {
  std::string name;
  fx::ModelFixture fixture;
  std::vector<std::vector<Arg>> runs;
  std::size_t output_bytes = 0;
};

CacheToken token_of(std::uint8_t seed) {
  CacheToken t{};
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = static_cast<std::uint8_t>(seed * 31 + i * 7 + 1);
  return t;
}

fx::ModelFixture from_model(Model m) {
  fx::ModelFixture f;
  f.model = std::move(m);
  return f;
}

/// add_model plus an unused per-channel quantized constant (the executor runs the model).
fx::ModelFixture add_with_channel_quant() {
  fx::ModelFixture f = fx::add_model();
  const std::uint32_t at = static_cast<std::uint32_t>(f.model.operandValues.size());
  f.model.operandValues.insert(f.model.operandValues.end(), {1, 2, 3, 4, 5, 6});
  Operand q = fx::copy_constant(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {3, 2}, at, 6);
  q.channelQuant = SymmPerChannelQuantParams{{0.5f, 0.25f, 0.125f}, 0};
  f.model.main.operands.push_back(q);
  return f;
}

/// CONV_2D with a per-channel filter in a memory pool.
fx::ModelFixture per_channel_conv() {
  fx::ModelFixture f;
  Model& m = f.model;
  const std::uint32_t pool = f.add_pool(64, std::byte{3});
  Operand input = fx::make_operand(OperandType::TENSOR_QUANT8_ASYMM, {1, 4, 4, 2}, fx::kInput);
  input.scale = 0.5f;
  input.zeroPoint = 128;
  Operand filter = fx::make_operand(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, {2, 2, 2, 2},
                                    OperandLifeTime::CONSTANT_REFERENCE);
  filter.location = {pool, 16, 16};
  filter.channelQuant = SymmPerChannelQuantParams{{0.5f, 0.25f}, 0};
  const std::int32_t bias_values[2] = {7, -7};
  const std::uint32_t bias_at = static_cast<std::uint32_t>(m.operandValues.size());
  m.operandValues.resize(bias_at + sizeof bias_values);
  std::memcpy(m.operandValues.data() + bias_at, bias_values, sizeof bias_values);
  Operand bias = fx::copy_constant(OperandType::TENSOR_INT32, {2}, bias_at, sizeof bias_values);
  nnhal::Vector<Operand> operands = {input, filter, bias};
  for (std::int32_t v : {1, 1, 1, 0})  // padding SAME, stride 1 x 1, no activation
    operands.push_back(fx::copy_constant(OperandType::INT32, {}, fx::append_value(m, v), 4));
  Operand output = fx::make_operand(OperandType::TENSOR_QUANT8_ASYMM, {1, 4, 4, 2}, fx::kOutput);
  output.scale = 1.0f;
  output.zeroPoint = 100;
  operands.push_back(output);
  m.main.operands = operands;
  m.main.operations = {Operation{OperationType::CONV_2D, {0, 1, 2, 3, 4, 5, 6}, {7}}};
  m.main.inputIndexes = {0};
  m.main.outputIndexes = {7};
  fx::fix_consumers(m);
  return f;
}

std::vector<Arg> f32_args(std::initializer_list<std::vector<float>> values) {
  std::vector<Arg> out;
  for (const auto& v : values) out.push_back(arg_of(v));
  return out;
}

std::vector<Sample> samples() {
  std::vector<Sample> s;
  s.push_back({"ADD", fx::add_model(), {f32_args({{1, 2}, {10, 20}})}, 8});
  s.push_back(
      {"CONSTANT_REFERENCE pool", fx::constant_reference_model(), {f32_args({{1, -2}})}, 8});
  s.push_back({"per-channel constant", add_with_channel_quant(), {f32_args({{3, 4}, {5, 6}})}, 8});
  s.push_back({"per-channel CONV_2D",
               per_channel_conv(),
               {{arg_of(std::vector<std::uint8_t>(32, 130))}, {arg_of(std::vector<std::uint8_t>(32, 7))}},
               32});
  {
    fx::ModelFixture relaxed = fx::add_chain_model();
    relaxed.model.relaxComputationFloat32toFloat16 = true;
    s.push_back({"relaxed ADD chain", std::move(relaxed), {f32_args({{0.5f, 8}})}, 8});
  }
  const auto bool_arg = [](std::uint8_t b) { return arg_of(std::vector<std::uint8_t>{b}); };
  s.push_back({"IF fixture",
               fx::if_model(),
               {{bool_arg(1), arg_of(std::vector<float>{3, 4})},
                {bool_arg(0), arg_of(std::vector<float>{3, 4})}},
               8});
  s.push_back(
      {"WHILE fixture", fx::while_model(), {f32_args({{0}, {5}}), f32_args({{9}, {5}})}, 4});
  s.push_back({"nested IF chain",
               fx::if_chain_model(3),
               {{bool_arg(1), arg_of(std::vector<float>{1, 2})}},
               8});
  const auto i32 = [](std::int32_t v) { return arg_of(std::vector<std::int32_t>{v}); };
  s.push_back({"WHILE counter",
               from_model(cf::while_counter_model()),
               {{i32(0), i32(7)}, {i32(3), i32(2)}},
               4});
  s.push_back({"IF builder",
               from_model(cf::if_model()),
               {{bool_arg(1), i32(5)}, {bool_arg(0), i32(5)}},
               4});
  return s;
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

std::uint32_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

void check_same_subgraph(const Subgraph& a, const Subgraph& b) {
  REQUIRE(a.operands.size() == b.operands.size());
  for (std::size_t i = 0; i < a.operands.size(); ++i) {
    CAPTURE(i);
    const Operand& x = a.operands[i];
    const Operand& y = b.operands[i];
    CHECK(x.type == y.type);
    CHECK(x.dimensions == y.dimensions);
    CHECK(x.numberOfConsumers == y.numberOfConsumers);
    CHECK(bits_of(x.scale) == bits_of(y.scale));
    CHECK(x.zeroPoint == y.zeroPoint);
    CHECK(x.lifetime == y.lifetime);
    CHECK(x.location.poolIndex == y.location.poolIndex);
    CHECK(x.location.offset == y.location.offset);
    CHECK(x.location.length == y.location.length);
    REQUIRE(x.channelQuant.has_value() == y.channelQuant.has_value());
    if (x.channelQuant) {
      CHECK(x.channelQuant->channelDim == y.channelQuant->channelDim);
      REQUIRE(x.channelQuant->scales.size() == y.channelQuant->scales.size());
      for (std::size_t k = 0; k < x.channelQuant->scales.size(); ++k)
        CHECK(bits_of(x.channelQuant->scales[k]) == bits_of(y.channelQuant->scales[k]));
    }
  }
  REQUIRE(a.operations.size() == b.operations.size());
  for (std::size_t i = 0; i < a.operations.size(); ++i) {
    CAPTURE(i);
    CHECK(a.operations[i].type == b.operations[i].type);
    CHECK(a.operations[i].inputs == b.operations[i].inputs);
    CHECK(a.operations[i].outputs == b.operations[i].outputs);
  }
  CHECK(a.inputIndexes == b.inputIndexes);
  CHECK(a.outputIndexes == b.outputIndexes);
}

void check_same_model(const Model& a, const Model& b) {
  {
    INFO("main");
    check_same_subgraph(a.main, b.main);
  }
  REQUIRE(a.referenced.size() == b.referenced.size());
  for (std::size_t g = 0; g < a.referenced.size(); ++g) {
    INFO("referenced[" << g << "]");
    check_same_subgraph(a.referenced[g], b.referenced[g]);
  }
  CHECK(a.operandValues == b.operandValues);
  CHECK(a.relaxComputationFloat32toFloat16 == b.relaxComputationFloat32toFloat16);
  REQUIRE(a.extensionNameToPrefix.size() == b.extensionNameToPrefix.size());
  for (std::size_t e = 0; e < a.extensionNameToPrefix.size(); ++e) {
    CHECK(a.extensionNameToPrefix[e].name == b.extensionNameToPrefix[e].name);
    CHECK(a.extensionNameToPrefix[e].prefix == b.extensionNameToPrefix[e].prefix);
  }
  REQUIRE(a.pools.size() == b.pools.size());
  for (std::size_t p = 0; p < a.pools.size(); ++p) {
    CAPTURE(p);
    REQUIRE(a.pools[p].size == b.pools[p].size);
    CHECK(std::memcmp(a.pools[p].data, b.pools[p].data, a.pools[p].size) == 0);
  }
}

/// `result` failed with GENERAL_FAILURE and (if given) its message contains `fragment`.
void check_rejected(const Expected<CachedModel>& result, std::string_view fragment = {}) {
  REQUIRE_MESSAGE(!result.has_value(), "a damaged cache was accepted");
  const std::string message(result.error().message());
  INFO("message: " << message);
  CHECK(result.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(message.find(fragment) != std::string::npos);
}

std::vector<std::byte> payload_of(const std::vector<std::byte>& blob, fmt::Kind kind) {
  return {blob.begin() + static_cast<std::ptrdiff_t>(fmt::header_bytes(kind)),
          blob.end() - static_cast<std::ptrdiff_t>(fmt::kDigestBytes)};
}

Sha256Digest digest_of(const std::vector<std::byte>& blob) {
  Sha256Digest d{};
  std::memcpy(d.data(), blob.data() + blob.size() - fmt::kDigestBytes, fmt::kDigestBytes);
  return d;
}

/// A consistent pair around hand-made payloads (valid headers and digests).
CacheBlobs forge(const std::vector<std::byte>& structure, const std::vector<std::byte>& data,
                 const CacheToken& token, std::uint64_t fingerprint = cache_fingerprint()) {
  CacheBlobs b;
  b.data_cache = fmt::seal_blob(fmt::Kind::Data, fingerprint, token, data, Sha256Digest{});
  b.model_cache =
      fmt::seal_blob(fmt::Kind::Model, fingerprint, token, structure, digest_of(b.data_cache));
  return b;
}

/// Recomputes the trailing digest after an edit of the header or payload.
void reseal(std::vector<std::byte>& blob) {
  const std::size_t body = blob.size() - fmt::kDigestBytes;
  const Sha256Digest d = sha256(std::span<const std::byte>(blob).first(body));
  std::memcpy(blob.data() + body, d.data(), d.size());
}

Expected<CachedModel> read(const CacheBlobs& b, const CacheToken& token) {
  return read_model_cache(b.model_cache, b.data_cache, token);
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

TEST_CASE("cache: the extension map is kept, in order") {
  const CacheToken token = token_of(2);
  fx::ModelFixture f = fx::if_model();
  f.model.extensionNameToPrefix = {{"com.example.a", 3}, {"org.b_c.d", 0x7FFF}};
  auto blobs = write_model_cache(f.model, token);
  REQUIRE(blobs.has_value());
  auto cached = read(*blobs, token);
  REQUIRE_MESSAGE(cached.has_value(), std::string(cached ? "" : cached.error().c_str()));
  check_same_model(f.model, cached->model);
  CHECK(cache_fingerprint(ExtensionList{}) == cache_fingerprint());
}

TEST_CASE("cache: models read back equal the original field by field and run like it") {
  const CacheToken token = token_of(1);
  for (Sample& s : samples()) {
    INFO("model: " << s.name);
    REQUIRE(validate_model(s.fixture.model).has_value());
    auto blobs = write_model_cache(s.fixture.model, token);
    REQUIRE(blobs.has_value());
    auto cached = read(*blobs, token);
    REQUIRE_MESSAGE(cached.has_value(), std::string(cached ? "" : cached.error().c_str()));
    check_same_model(s.fixture.model, cached->model);
    for (const Memory& pool : cached->model.pools)
      CHECK(reinterpret_cast<std::uintptr_t>(pool.data) % AlignedBuffer::kAlignment == 0);
    // Writing the copy gives the same bytes: nothing was lost or reordered.
    auto again = write_model_cache(cached->model, token);
    REQUIRE(again.has_value());
    CHECK(again->model_cache == blobs->model_cache);
    CHECK(again->data_cache == blobs->data_cache);

    for (std::size_t k = 0; k < s.runs.size(); ++k) {
      CAPTURE(k);
      const RunResult want = run_model(s.fixture.model, s.runs[k], {output_of(s.output_bytes)});
      const RunResult got = run_model(cached->model, s.runs[k], {output_of(s.output_bytes)});
      REQUIRE_MESSAGE(want.status.has_value(),
                      std::string(want.status ? "" : want.status.error().c_str()));
      REQUIRE_MESSAGE(got.status.has_value(),
                      std::string(got.status ? "" : got.status.error().c_str()));
      CHECK(got.outputs == want.outputs);
      REQUIRE(got.shapes.size() == want.shapes.size());
      for (std::size_t o = 0; o < got.shapes.size(); ++o)
        CHECK(got.shapes[o].dimensions == want.shapes[o].dimensions);
      CHECK(got.guards_intact);
    }
  }
}

TEST_CASE("cache: a cached model owns its constants; the files and the original can go away") {
  const CacheToken token = token_of(2);
  std::optional<CachedModel> cached;
  RunResult want;
  const std::vector<Arg> inputs = f32_args({{1.5f, 2.5f}});
  {
    fx::ModelFixture f = fx::constant_reference_model();
    want = run_model(f.model, inputs, {output_of(8)});
    REQUIRE(want.status.has_value());
    auto blobs = write_model_cache(f.model, token);
    REQUIRE(blobs.has_value());
    auto r = read(*blobs, token);
    REQUIRE(r.has_value());
    cached.emplace(std::move(*r));
    for (auto& b : blobs->data_cache) b = std::byte{0xEE};
    std::memset(f.storage[0].get(), 0x7F, f.model.pools[0].size);
  }
  // Prepared and executed through the public interface, after everything else is gone.
  auto prepared = PreparedModel::prepare(cached->model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  float data[4] = {1.5f, 2.5f, 0.0f, 0.0f};
  Request request;
  request.pools.push_back({{reinterpret_cast<std::byte*>(data), sizeof data}, 0});
  request.inputs = {{false, {0, 0, 8}, {}}};
  request.outputs = {{false, {0, 8, 8}, {}}};
  REQUIRE(execution->run(request).has_value());
  CHECK(std::memcmp(data + 2, want.outputs[0].data(), 8) == 0);
}

TEST_CASE(
    "cache: writing is deterministic, independent of pool addresses, and bound to the token") {
  fx::ModelFixture a = fx::constant_reference_model();
  fx::ModelFixture b = fx::constant_reference_model();  // same content, other addresses
  REQUIRE(a.model.pools[0].data != b.model.pools[0].data);
  auto wa = write_model_cache(a.model, token_of(3));
  auto wb = write_model_cache(b.model, token_of(3));
  auto wc = write_model_cache(a.model, token_of(4));
  REQUIRE(wa.has_value());
  REQUIRE(wb.has_value());
  REQUIRE(wc.has_value());
  CHECK(wa->model_cache == wb->model_cache);
  CHECK(wa->data_cache == wb->data_cache);
  CHECK(wa->model_cache != wc->model_cache);
  // The header carries what cache_format.hpp documents.
  const auto& m = wa->model_cache;
  CHECK(std::memcmp(m.data(), fmt::kModelMagic, fmt::kMagicBytes) == 0);
  CHECK(std::memcmp(wa->data_cache.data(), fmt::kDataMagic, fmt::kMagicBytes) == 0);
  CHECK(static_cast<std::uint8_t>(m[fmt::kVersionOffset]) == kCacheFormatVersion);
  const CacheToken t = token_of(3);
  CHECK(std::memcmp(m.data() + fmt::kTokenOffset, t.data(), t.size()) == 0);
  CHECK(std::memcmp(m.data() + fmt::kDataDigestOffset, digest_of(wa->data_cache).data(), 32) == 0);
  CHECK(kModelCacheFiles == 1);
  CHECK(kDataCacheFiles == 1);
}

// ---------------------------------------------------------------------------------------------
// Rejection of damaged files
// ---------------------------------------------------------------------------------------------

TEST_CASE("cache: every single-byte change of either file is rejected") {
  const CacheToken token = token_of(5);
  for (fx::ModelFixture& f : [] {
         std::vector<fx::ModelFixture> v;
         v.push_back(fx::constant_reference_model());
         v.push_back(fx::if_model());
         return v;
       }()) {
    auto blobs = write_model_cache(f.model, token);
    REQUIRE(blobs.has_value());
    REQUIRE(read(*blobs, token).has_value());
    for (std::vector<std::byte>* file : {&blobs->model_cache, &blobs->data_cache}) {
      INFO((file == &blobs->model_cache ? "model cache" : "data cache")
           << " of " << file->size() << " bytes");
      for (std::size_t at = 0; at < file->size(); ++at) {
        for (std::byte mask : {std::byte{0x01}, std::byte{0x80}, std::byte{0xFF}}) {
          CAPTURE(at);
          (*file)[at] ^= mask;
          check_rejected(read(*blobs, token));
          (*file)[at] ^= mask;
        }
      }
    }
    REQUIRE(read(*blobs, token).has_value());  // restored
  }
}

TEST_CASE("cache: every truncation and any appended bytes are rejected") {
  const CacheToken token = token_of(6);
  fx::ModelFixture f = fx::constant_reference_model();
  auto blobs = write_model_cache(f.model, token);
  REQUIRE(blobs.has_value());
  for (std::vector<std::byte>* file : {&blobs->model_cache, &blobs->data_cache}) {
    const std::vector<std::byte> whole = *file;
    for (std::size_t len = 0; len < whole.size(); ++len) {
      CAPTURE(len);
      file->assign(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(len));
      check_rejected(read(*blobs, token),
                     len < fmt::header_bytes(file == &blobs->model_cache ? fmt::Kind::Model
                                                                         : fmt::Kind::Data) +
                                 32
                         ? "shorter than"
                         : "payload");
    }
    for (std::size_t extra : {1u, 3u, 32u, 1000u}) {
      CAPTURE(extra);
      *file = whole;
      file->resize(whole.size() + extra, std::byte{0});
      check_rejected(read(*blobs, token), "payload");
      // Appending a copy of the digest does not help either.
      *file = whole;
      file->insert(file->end(), whole.end() - 32, whole.end());
      check_rejected(read(*blobs, token));
    }
    *file = whole;
  }
  REQUIRE(read(*blobs, token).has_value());
  check_rejected(read_model_cache({}, {}, token), "shorter than");
}

TEST_CASE("cache: a different token is rejected") {
  const CacheToken token = token_of(7);
  fx::ModelFixture f = fx::add_model();
  auto blobs = write_model_cache(f.model, token);
  REQUIRE(blobs.has_value());
  for (std::size_t i = 0; i < token.size(); ++i) {
    CacheToken other = token;
    other[i] ^= 0x10;
    check_rejected(read(*blobs, other), "different cache token");
  }
  check_rejected(read(*blobs, CacheToken{}), "different cache token");
  // A data cache written for another token does not pair with this model cache.
  auto other = write_model_cache(f.model, token_of(8));
  REQUIRE(other.has_value());
  check_rejected(read_model_cache(blobs->model_cache, other->data_cache, token),
                 "different cache token");
}

TEST_CASE("cache: a data cache of another model, or swapped files, are rejected") {
  const CacheToken token = token_of(9);
  fx::ModelFixture a = fx::constant_reference_model();
  fx::ModelFixture b = fx::constant_reference_model();
  b.storage[0][12] = std::byte{0x40};  // other constant bytes, same structure
  fx::ModelFixture c = fx::add_model();
  auto wa = write_model_cache(a.model, token);
  auto wb = write_model_cache(b.model, token);
  auto wc = write_model_cache(c.model, token);
  REQUIRE(wa.has_value());
  REQUIRE(wb.has_value());
  REQUIRE(wc.has_value());
  check_rejected(read_model_cache(wa->model_cache, wb->data_cache, token), "different model cache");
  check_rejected(read_model_cache(wa->model_cache, wc->data_cache, token), "different model cache");
  check_rejected(read_model_cache(wc->model_cache, wa->data_cache, token), "different model cache");
  check_rejected(read_model_cache(wa->data_cache, wa->model_cache, token), "swapped");
  check_rejected(read_model_cache(wa->model_cache, wa->model_cache, token),
                 "data cache holds a model cache");
  CHECK(read_model_cache(wb->model_cache, wb->data_cache, token).has_value());
}

TEST_CASE("cache: another format version or nnhal build is rejected even with a valid digest") {
  const CacheToken token = token_of(10);
  fx::ModelFixture f = fx::if_model();
  auto written = write_model_cache(f.model, token);
  REQUIRE(written.has_value());
  SUBCASE("model cache version") {
    CacheBlobs b = *written;
    b.model_cache[fmt::kVersionOffset] = static_cast<std::byte>(kCacheFormatVersion + 1);
    reseal(b.model_cache);
    check_rejected(read(b, token), "format version " + std::to_string(kCacheFormatVersion + 1));
  }
  SUBCASE("data cache version (with the model cache updated to match its digest)") {
    CacheBlobs b = *written;
    b.data_cache[fmt::kVersionOffset + 3] = std::byte{0x80};
    reseal(b.data_cache);
    std::memcpy(b.model_cache.data() + fmt::kDataDigestOffset, digest_of(b.data_cache).data(), 32);
    reseal(b.model_cache);
    check_rejected(read(b, token), "data cache has format version");
  }
  SUBCASE("another build's fingerprint") {
    const CacheBlobs b =
        forge(payload_of(written->model_cache, fmt::Kind::Model),
              payload_of(written->data_cache, fmt::Kind::Data), token, cache_fingerprint() ^ 1);
    check_rejected(read(b, token), "different nnhal build");
    // The same payloads with this build's fingerprint are fine: only the fingerprint differed.
    CHECK(read(forge(payload_of(written->model_cache, fmt::Kind::Model),
                     payload_of(written->data_cache, fmt::Kind::Data), token),
               token)
              .has_value());
  }
}

// ---------------------------------------------------------------------------------------------
// Forged payloads (valid digests around hostile contents)
// ---------------------------------------------------------------------------------------------

/// Structure payload bytes built field by field.
struct Bytes {
  std::vector<std::byte> v;
  Bytes& u8(std::uint8_t x) {
    fmt::ByteWriter(v).u8(x);
    return *this;
  }
  Bytes& u32(std::uint32_t x) {
    fmt::ByteWriter(v).u32(x);
    return *this;
  }
  Bytes& u64(std::uint64_t x) {
    fmt::ByteWriter(v).u64(x);
    return *this;
  }
  Bytes& zeros(std::size_t n) {
    v.resize(v.size() + n, std::byte{0});
    return *this;
  }
  Bytes& empty_subgraph() { return u32(0).u32(0).u32(0).u32(0); }
  /// A TENSOR_FLOAT32 [2] SUBGRAPH_INPUT operand with fields up to (excluding) extraParams.
  Bytes& operand_head(std::uint32_t type = 3, std::uint32_t rank = 1, std::uint32_t lifetime = 1) {
    u32(type).u32(rank);
    for (std::uint32_t i = 0; i < rank && i < 16; ++i) u32(2);
    return u32(0).u32(0).u32(0).u32(lifetime).u32(0).u32(0).u32(0);
  }
};

/// An empty, valid data payload (no operandValues, no pools).
std::vector<std::byte> no_data() {
  return Bytes().u64(0).u32(0).v;
}

TEST_CASE("cache: forged huge counts fail fast without allocating them") {
  const CacheToken token = token_of(11);
  constexpr std::uint32_t kHuge = 0xFFFFFFFFu;
  struct Forgery {
    const char* what;
    std::vector<std::byte> structure, data;
    const char* fragment;
  };
  const std::vector<Forgery> forgeries = {
      {"operands", Bytes().u8(0).u32(kHuge).v, no_data(), "claims 4294967295 operands"},
      {"operations", Bytes().u8(0).u32(0).u32(kHuge).v, no_data(), "claims 4294967295 operations"},
      {"referenced", Bytes().u8(0).empty_subgraph().u32(kHuge).v, no_data(),
       "referenced subgraphs"},
      {"operation inputs", Bytes().u8(0).u32(0).u32(1).u32(0).u32(kHuge).u32(0).v, no_data(),
       "claims 4294967295 operation inputs"},
      {"inputIndexes", Bytes().u8(0).u32(0).u32(0).u32(kHuge).v, no_data(), "inputIndexes"},
      {"channel scales", Bytes().u8(0).u32(1).operand_head(11, 1, 1).u8(1).u32(0).u32(kHuge).v,
       no_data(), "channel scales"},
      {"operandValues", Bytes().u8(0).v, Bytes().u64(~std::uint64_t{0}).v, "operandValues claims"},
      {"pool count", Bytes().u8(0).v, Bytes().u64(0).u32(kHuge).v,
       "claims 4294967295 memory pools"},
      {"pool size", Bytes().u8(0).v, Bytes().u64(0).u32(1).u64(std::uint64_t{1} << 40).v,
       "memory pool 0 claims"},
  };
  for (const Forgery& f : forgeries) {
    INFO("forged count: " << f.what);
    const CacheBlobs b = forge(f.structure, f.data, token);
    std::optional<Expected<CachedModel>> r;
    const std::size_t allocations = allocations_during([&] { r.emplace(read(b, token)); });
    check_rejected(*r, f.fragment);
    // A count is checked against the bytes left before storage for its items exists, so the
    // reader makes at most a few small allocations (for the items before the forged count).
    CHECK(allocations <= 4);
  }
}

TEST_CASE("cache: forged enums, ranks, flags and trailing bytes are rejected") {
  const CacheToken token = token_of(12);
  struct Forgery {
    const char* what;
    std::vector<std::byte> structure, data;
    const char* fragment;
  };
  const std::vector<Forgery> forgeries = {
      {"relax flag", Bytes().u8(2).v, no_data(), "relaxComputationFloat32toFloat16 is 2"},
      {"operand type", Bytes().u8(0).u32(1).operand_head(16).u8(0).v, no_data(),
       "unknown operand type 16"},
      {"negative operand type", Bytes().u8(0).u32(1).operand_head(0x80000000u).u8(0).v, no_data(),
       "unknown operand type"},
      {"lifetime", Bytes().u8(0).u32(1).operand_head(3, 1, 7).u8(0).v, no_data(),
       "unknown operand lifetime 7"},
      {"rank", Bytes().u8(0).u32(1).operand_head(3, NNHAL_MAX_RANK + 1).u8(0).v, no_data(),
       "exceeds"},
      {"extraParams kind", Bytes().u8(0).u32(1).operand_head().u8(2).v, no_data(),
       "extraParams kind 2"},
      {"operation type", Bytes().u8(0).u32(0).u32(1).u32(102).u32(0).u32(0).v, no_data(),
       "unknown type 102"},
      // Passes the operand-count check (37 bytes follow) but ends inside the 8 dimensions.
      {"truncated operand", Bytes().u8(0).u32(1).u32(3).u32(8).zeros(29).v, no_data(),
       "while reading dimensions"},
      {"trailing structure bytes", Bytes().u8(0).empty_subgraph().u32(0).u32(0).u8(0).v, no_data(),
       "1 unexpected bytes after the model structure"},
      {"missing extension map", Bytes().u8(0).empty_subgraph().u32(0).v, no_data(),
       "while reading extensionNameToPrefix entries"},
      {"extension prefix", Bytes().u8(0).empty_subgraph().u32(0).u32(1).u32(0x10000).u32(0).v, no_data(),
       "extension prefix 65536 does not fit 16 bits"},
      {"extension name length", Bytes().u8(0).empty_subgraph().u32(0).u32(1).u32(1).u32(9).u8(97).v, no_data(),
       "an extension name claims 9 bytes but only 1 remain"},
      {"trailing data bytes", Bytes().u8(0).empty_subgraph().u32(0).u32(0).v,
       Bytes().u64(0).u32(0).u8(9).v, "unexpected bytes after the memory pools"},
      {"empty structure", {}, no_data(), "while reading relax"},
      {"empty data", Bytes().u8(0).v, {}, "operandValues length"},
      // Well-formed but not a valid model: validate_model has the last word.
      {"empty model", Bytes().u8(0).empty_subgraph().u32(0).u32(0).v, no_data(),
       "cached model is invalid"},
  };
  for (const Forgery& f : forgeries) {
    INFO("forgery: " << f.what);
    check_rejected(read(forge(f.structure, f.data, token), token), f.fragment);
  }
}

TEST_CASE("cache: a cache of a model that fails validation is refused") {
  const CacheToken token = token_of(13);
  fx::ModelFixture f = fx::add_model();
  f.model.main.operands[0].numberOfConsumers = 5;
  REQUIRE_FALSE(validate_model(f.model).has_value());
  auto blobs = write_model_cache(f.model, token);  // the writer trusts its caller
  REQUIRE(blobs.has_value());
  check_rejected(read(*blobs, token), "numberOfConsumers");
}

TEST_CASE("cache: the writer refuses what the format cannot hold") {
  fx::ModelFixture f = fx::add_model();
  f.model.main.operands[0].dimensions.assign(NNHAL_MAX_RANK + 1, 1);
  auto a = write_model_cache(f.model, token_of(14));
  REQUIRE_FALSE(a.has_value());
  CHECK(a.error().status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(std::string(a.error().message()).find("rank") != std::string::npos);
  fx::ModelFixture g = fx::add_model();
  g.model.pools.push_back(Memory{nullptr, 16});
  auto b = write_model_cache(g.model, token_of(14));
  REQUIRE_FALSE(b.has_value());
  CHECK(std::string(b.error().message()).find("pool 0 has no data") != std::string::npos);
}

TEST_CASE("cache: random changes to resealed payloads never crash the reader") {
  // The digest only catches accidents; these payloads carry valid digests, so every byte goes
  // through the decoder and validate_model. Anything accepted must also prepare or fail cleanly.
  const CacheToken token = token_of(15);
  std::mt19937 rng(20240611u);
  std::size_t accepted = 0, rejected = 0;
  std::vector<Sample> all = samples();
  for (Sample& s : all) {
    INFO("model: " << s.name);
    auto blobs = write_model_cache(s.fixture.model, token);
    REQUIRE(blobs.has_value());
    const std::vector<std::byte> structure = payload_of(blobs->model_cache, fmt::Kind::Model);
    const std::vector<std::byte> data = payload_of(blobs->data_cache, fmt::Kind::Data);
    for (int iteration = 0; iteration < 300; ++iteration) {
      std::vector<std::byte> st = structure, da = data;
      std::vector<std::byte>& target = (iteration % 4 == 3) ? da : st;
      const int changes = 1 + static_cast<int>(rng() % 4);
      for (int c = 0; c < changes; ++c) {
        const std::size_t at = rng() % target.size();
        switch (rng() % 4) {
          case 0:
            target[at] = static_cast<std::byte>(rng());
            break;
          case 1:
            target[at] ^= std::byte{0x80};
            break;
          case 2:
            target.erase(target.begin() + static_cast<std::ptrdiff_t>(at));
            break;
          default:
            target.insert(target.begin() + static_cast<std::ptrdiff_t>(at),
                          static_cast<std::byte>(rng()));
            break;
        }
        if (target.empty()) target.push_back(std::byte{0});
      }
      auto r = read(forge(st, da, token), token);
      if (r.has_value()) {
        ++accepted;
        CHECK(validate_model(r->model).has_value());
        auto p = PreparedModel::prepare(r->model);
        if (!p) CHECK(p.error().status() != ErrorStatus::NONE);
      } else {
        ++rejected;
        CHECK(r.error().status() == ErrorStatus::GENERAL_FAILURE);
        CHECK_FALSE(r.error().message().empty());
      }
    }
  }
  CHECK(accepted + rejected == all.size() * 300);
  CHECK(rejected > 0);
}

}  // namespace nnhal::test::cache
