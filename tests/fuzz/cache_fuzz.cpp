// libFuzzer target: the compilation-cache reader (read_model_cache) and the device's
// prepareModelFromCache path (Device::prepare_from_cache) on hostile cache files.
//
// Input: a mode byte, then
//   mode 0  two raw files: a 16-bit split point, then the model cache and the data cache bytes
//           (reaches the header and digest checks of open_blob);
//   mode 1  a real cache pair written by the device for one of the sample models, with up to 16
//           byte edits (offset, operation, value) applied to either file (digest checks);
//   mode 2  the same edits applied to the real payloads, which are then sealed again with a
//           correct header and digest, so that the edits reach the decoders;
//   mode 3  two raw payloads (split point, structure payload, data payload), sealed.
// Oracles besides the sanitizers:
//   * a rejected cache gives GENERAL_FAILURE from read_model_cache with a message, and an
//     error from prepare_from_cache; read_model_cache and prepare_from_cache agree when the
//     kernel set has every operation of the decoded model;
//   * a cache that loads executes exactly like the decoded model prepared from scratch
//     (status, output shapes, output bytes), and nothing is written outside the output buffers.
// Seeds: NNHAL_FUZZ_SEED_DIR=DIR ./nnhal_fuzz_cache_fuzz writes one input per mode and sample
// model (the real payloads in modes 2 and 3) into DIR and exits.
// NNHAL_FUZZ_REPLAY_MAIN builds a plain executable that runs the files named on its command line.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/if.hpp"
#include "nnhal/kernels/mul.hpp"
#include "nnhal/kernels/resolve.hpp"

namespace {

using namespace nnhal;
using fuzz::ByteSource;
using fuzz::GuardedBytes;
namespace fmt = nnhal::detail::cache;

constexpr auto kF32 = OperandType::TENSOR_FLOAT32;
using CacheKernels = KernelSet<Use<OperationType::ADD, kF32>, Use<OperationType::MUL, kF32>, Use<OperationType::IF>>;
using FuzzDevice = Device<SteadyClock, CacheKernels>;

CacheToken sample_token() {
  CacheToken t{};
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<std::uint8_t>(i * 13 + 5);
  return t;
}

// ---------------------------------------------------------------------------------------------
// Sample models and their real cache files
// ---------------------------------------------------------------------------------------------

/// y = x + c, [2, 3], constant inline.
Model add_constant() {
  ModelBuilder b;
  const auto x = b.input<kF32>({{2, 3}});
  const float c[6] = {1.0f, -2.0f, 0.5f, 4.0f, 0.0f, -0.25f};
  const auto k = b.constant<kF32>(c, {{2, 3}});
  b.output(b.operation<OperationType::ADD, kF32>({{2, 3}}, x, k, b.scalar<OperandType::INT32>(0)));
  return std::move(b).model();
}

/// Weights in a memory pool: y = (x * w) + x, with a RELU activation on the sum.
std::byte g_pool[64];
Model mul_pool() {
  float w[4] = {2.0f, -1.0f, 0.5f, 3.0f};
  std::memcpy(g_pool + 16, w, sizeof w);
  ModelBuilder b;
  const auto x = b.input<kF32>({{4}});
  const auto p = b.pool(Memory{g_pool, sizeof g_pool});
  const auto wr = b.constant_reference<kF32>(p, 16, sizeof w, {{4}});
  const auto none = b.scalar<OperandType::INT32>(0);
  const auto m = b.operation<OperationType::MUL, kF32>({{4}}, x, wr, none);
  b.output(b.operation<OperationType::ADD, kF32>({{4}}, m, x, b.scalar<OperandType::INT32>(1)));
  return std::move(b).model();
}

/// IF(c) then x + x else x * x: two referenced subgraphs; the output of unknown size [0].
Model if_model() {
  constexpr auto B8 = OperandType::TENSOR_BOOL8;
  ModelBuilder b;
  auto then_b = b.add_subgraph<struct Then, kF32>({{3}});
  const auto tx = then_b.template input<0>();
  const auto then_g = then_b.returns(
      then_b.template operation<OperationType::ADD, kF32>({{3}}, tx, tx, then_b.template scalar<OperandType::INT32>(0)));
  auto else_b = b.add_subgraph<struct Else, kF32>({{3}});
  const auto ex = else_b.template input<0>();
  const auto else_g = else_b.returns(
      else_b.template operation<OperationType::MUL, kF32>({{3}}, ex, ex, else_b.template scalar<OperandType::INT32>(0)));
  const auto c = b.input<B8>({{1}});
  const auto x = b.input<kF32>({{3}});
  auto [y] = b.if_(c, then_g, else_g, x);
  b.output(y);
  return std::move(b).model();
}

struct Sample {
  Model model;
  CacheBlobs blobs;
  std::vector<std::byte> structure;  ///< the model cache's payload
  std::vector<std::byte> data;       ///< the data cache's payload
};

FuzzDevice& device() {
  static FuzzDevice d([] {
    DeviceOptions<SteadyClock> o;
    o.threads = 1;
    o.worker_threads = 1;
    return o;
  }());
  return d;
}

std::vector<Sample>& samples() {
  static std::vector<Sample> all = [] {
    std::vector<Sample> out;
    for (Model m : {add_constant(), mul_pool(), if_model()}) {
      Sample s;
      s.model = std::move(m);
      // The device writes the files, as a driver's prepareModel would.
      MemoryCacheFile model_file, data_file;
      CacheFile* mf[1] = {&model_file};
      CacheFile* df[1] = {&data_file};
      PrepareArgs<SteadyClock> args;
      args.model_cache = mf;
      args.data_cache = df;
      args.token = sample_token();
      auto prepared = device().prepare(s.model, args);
      NNHAL_FUZZ_CHECK(prepared);
      s.blobs.model_cache = model_file.bytes();
      s.blobs.data_cache = data_file.bytes();
      auto mb = fmt::open_blob(s.blobs.model_cache, fmt::Kind::Model, cache_fingerprint(), sample_token());
      auto db = fmt::open_blob(s.blobs.data_cache, fmt::Kind::Data, cache_fingerprint(), sample_token());
      NNHAL_FUZZ_CHECK(mb && db);
      s.structure.assign(mb->payload.begin(), mb->payload.end());
      s.data.assign(db->payload.begin(), db->payload.end());
      out.push_back(std::move(s));
    }
    return out;
  }();
  return all;
}

/// Seals two payloads as a matching cache pair for `token`.
CacheBlobs seal(std::span<const std::byte> structure, std::span<const std::byte> data) {
  CacheBlobs out;
  out.data_cache = fmt::seal_blob(fmt::Kind::Data, cache_fingerprint(), sample_token(), data, Sha256Digest{});
  Sha256Digest digest{};
  std::memcpy(digest.data(), out.data_cache.data() + out.data_cache.size() - fmt::kDigestBytes, fmt::kDigestBytes);
  out.model_cache = fmt::seal_blob(fmt::Kind::Model, cache_fingerprint(), sample_token(), structure, digest);
  return out;
}

void split(ByteSource& r, std::vector<std::byte>& a, std::vector<std::byte>& b) {
  const std::uint16_t at = r.u16();
  std::vector<std::byte> all = r.rest();
  const std::size_t cut = std::min<std::size_t>(at, all.size());
  a.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(cut));
  b.assign(all.begin() + static_cast<std::ptrdiff_t>(cut), all.end());
}

/// Up to 16 edits, each on either buffer: set, xor, insert or erase a byte, or truncate.
void edit(ByteSource& r, std::vector<std::byte>& first, std::vector<std::byte>& second) {
  const std::uint32_t n = 1 + r.below(16);
  for (std::uint32_t k = 0; k < n && r.remaining() != 0; ++k) {
    std::vector<std::byte>& v = r.one_in(2) ? first : second;
    const std::uint32_t what = r.below(6);
    const std::size_t at = v.empty() ? 0 : r.u16() % (v.size() + 1);
    const auto value = static_cast<std::byte>(r.u8());
    const auto pos = v.begin() + static_cast<std::ptrdiff_t>(at);
    switch (what) {
      case 0: if (at < v.size()) v[at] = value; break;
      case 1: if (at < v.size()) v[at] ^= value; break;
      case 2: v.insert(pos, value); break;
      case 3: if (at < v.size()) v.erase(pos); break;
      case 4: v.resize(at); break;
      default: {
        // A 32-bit field (a count, an index, a dimension) set to a boundary value.
        const std::uint32_t x = r.interesting_u32();
        for (std::size_t i = 0; i < 4 && at + i < v.size(); ++i) v[at + i] = static_cast<std::byte>(x >> (8 * i));
        break;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running a model
// ---------------------------------------------------------------------------------------------

std::uint64_t byte_size(const Operand& op, std::span<const std::uint32_t> dims) {
  std::uint64_t n = element_size(op.type);
  if (!is_tensor(op.type)) return n;
  if (dims.empty()) return 0;
  for (std::uint32_t d : dims) {
    if (d == 0 || n > (std::uint64_t{1} << 20)) return 0;
    n *= d;
  }
  return n;
}

struct Outcome {
  bool ran = false;
  Status status;
  std::vector<OutputShape> shapes;
  std::vector<std::vector<std::byte>> outputs;
};

/// Runs `prepared` with inputs filled from `seed` (one pool per argument, guard bytes around
/// each); outputs of unknown size get 256 bytes. Skipped (ran false) for inputs of unknown or
/// large size.
Outcome run(DevicePreparedModel<SteadyClock>& prepared, const Model& model, std::uint8_t seed) {
  Outcome out;
  const Subgraph& main = model.main;
  std::vector<GuardedBytes> pools;
  Request request;
  for (int pass = 0; pass < 2; ++pass) {
    const auto& indexes = pass == 0 ? main.inputIndexes : main.outputIndexes;
    for (std::uint32_t idx : indexes) {
      const Operand& op = main.operands[idx];
      std::uint64_t size = byte_size(op, op.dimensions);
      if (size == 0 || size > 65536) {
        if (pass == 0) return out;
        size = 256;
      }
      pools.emplace_back(static_cast<std::size_t>(size));
      if (pass == 0) {
        std::byte* p = pools.back().data();
        for (std::size_t i = 0; i < size; ++i) p[i] = static_cast<std::byte>((i * 37 + seed) & 0x3F);  // finite floats
      }
      RequestArgument a;
      a.location = {static_cast<std::uint32_t>(pools.size() - 1), 0, static_cast<std::uint32_t>(size)};
      (pass == 0 ? request.inputs : request.outputs).push_back(std::move(a));
    }
  }
  for (GuardedBytes& g : pools) request.pools.push_back(RequestMemoryPool{g.memory(), 0});
  ExecutionArgs<SteadyClock> args;
  args.loop_timeout = std::chrono::milliseconds(1);
  ExecutionResult result = prepared.execute(request, args);
  for (const GuardedBytes& g : pools) NNHAL_FUZZ_CHECK(g.guards_intact());
  out.ran = true;
  out.status = result.status;
  out.shapes = std::move(result.output_shapes);
  for (std::size_t i = main.inputIndexes.size(); i < pools.size(); ++i)
    out.outputs.emplace_back(pools[i].data(), pools[i].data() + pools[i].size());
  return out;
}

bool same(const Outcome& a, const Outcome& b) {
  if (a.ran != b.ran || static_cast<bool>(a.status) != static_cast<bool>(b.status)) return false;
  if (!a.status && a.status.error().status() != b.status.error().status()) return false;
  if (a.shapes.size() != b.shapes.size()) return false;
  for (std::size_t i = 0; i < a.shapes.size(); ++i)
    if (a.shapes[i].dimensions != b.shapes[i].dimensions || a.shapes[i].isSufficient != b.shapes[i].isSufficient)
      return false;
  return !a.status || a.outputs == b.outputs;
}

void check_cache(const std::vector<std::byte>& model_cache, const std::vector<std::byte>& data_cache,
                 std::uint8_t seed) {
  ValidationOptions well_formed;
  well_formed.allow_runtime_only = true;
  auto cached = read_model_cache(model_cache, data_cache, sample_token(), well_formed);
  if (!cached) {
    NNHAL_FUZZ_CHECK(cached.error().status() == ErrorStatus::GENERAL_FAILURE);
    NNHAL_FUZZ_CHECK(!cached.error().message().empty());
  }

  MemoryCacheFile model_file, data_file;
  model_file.bytes() = model_cache;
  data_file.bytes() = data_cache;
  CacheFile* mf[1] = {&model_file};
  CacheFile* df[1] = {&data_file};
  auto from_cache = device().prepare_from_cache(std::nullopt, mf, df, sample_token());
  if (!cached) {
    NNHAL_FUZZ_CHECK(!from_cache);
    NNHAL_FUZZ_CHECK(!from_cache.error().message().empty());
    return;
  }
  auto from_scratch = device().prepare(cached->model);
  // The same checks run on both paths: they accept and refuse the same models.
  NNHAL_FUZZ_CHECK(static_cast<bool>(from_cache) == static_cast<bool>(from_scratch));
  if (!from_cache) return;
  const Outcome a = run(**from_cache, cached->model, seed);
  const Outcome b = run(**from_scratch, cached->model, seed);
  NNHAL_FUZZ_CHECK(same(a, b));
}

void write_seeds() {
  fuzz::SeedWriter w;
  if (!w.enabled()) return;
  const auto bytes = [](std::initializer_list<std::uint8_t> head, std::span<const std::byte> a = {},
                        std::span<const std::byte> b = {}) {
    std::vector<std::uint8_t> v(head);
    for (std::byte x : a) v.push_back(static_cast<std::uint8_t>(x));
    for (std::byte x : b) v.push_back(static_cast<std::uint8_t>(x));
    return v;
  };
  for (std::size_t k = 0; k < samples().size(); ++k) {
    const Sample& s = samples()[k];
    const auto i = static_cast<std::uint8_t>(k);
    const std::size_t ms = s.blobs.model_cache.size(), ss = s.structure.size();
    const std::string tag = std::to_string(k);
    w.write("raw_" + tag, bytes({0, static_cast<std::uint8_t>(ms >> 8), static_cast<std::uint8_t>(ms)},
                                s.blobs.model_cache, s.blobs.data_cache));
    w.write("file_edit_" + tag, bytes({1, i, 0, 0, 0, 0, 40, 7}));
    w.write("payload_edit_" + tag, bytes({2, i, 0, 1, 0, 0, 3, 1}));
    w.write("payload_" + tag, bytes({3, static_cast<std::uint8_t>(ss >> 8), static_cast<std::uint8_t>(ss)},
                                    s.structure, s.data));
  }
  w.finish();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)samples();
  write_seeds();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteSource r(data, size);
  const std::uint32_t mode = r.below(4);
  const std::uint8_t seed = static_cast<std::uint8_t>(size);
  std::vector<std::byte> a, b;
  if (mode == 0) {
    split(r, a, b);
    check_cache(a, b, seed);
  } else if (mode == 3) {
    split(r, a, b);
    const CacheBlobs blobs = seal(a, b);
    check_cache(blobs.model_cache, blobs.data_cache, seed);
  } else {
    const Sample& s = samples()[r.below(static_cast<std::uint32_t>(samples().size()))];
    if (mode == 1) {
      a = s.blobs.model_cache;
      b = s.blobs.data_cache;
      edit(r, a, b);
      check_cache(a, b, seed);
    } else {
      a = s.structure;
      b = s.data;
      edit(r, a, b);
      const CacheBlobs blobs = seal(a, b);
      check_cache(blobs.model_cache, blobs.data_cache, seed);
    }
  }
  return 0;
}

#ifdef NNHAL_FUZZ_REPLAY_MAIN
#include "fuzz/replay_main.hpp"
#endif
