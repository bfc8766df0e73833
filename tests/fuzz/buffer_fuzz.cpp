// libFuzzer target: driver-managed buffers (IDevice::allocate, IBuffer::copyTo / copyFrom, and
// buffers used as request inputs and outputs; memory_domain.hpp, buffer_registry.hpp).
//
// Input: a sequence of up to 24 steps on one device with four prepared models (ADD with fully
// specified, partially specified and scalar operands, and a quantized one):
//   allocate  descriptor dimensions (rank 0-5, boundary values), 1-3 prepared models, 0-3 input
//             and output roles with arbitrary model and io indexes and frequencies;
//   copy_to   into host memory of any size (or unmapped), guard bytes around it;
//   copy_from from host memory of any size with any dimensions;
//   release   drops a buffer (its token stays in use by later requests: a stale token);
//   execute   a request whose pools mix host memory and tokens (live, stale, random), with
//             arbitrary request dimensions.
// Oracles besides the sanitizers:
//   * errors are INVALID_ARGUMENT or GENERAL_FAILURE (executions: also OUTPUT_INSUFFICIENT_SIZE)
//     with a message; allocate gives tokens > 0, unique among live buffers, and buffers of at
//     most kMaxBufferBytes (the device's Limits::max_buffer_bytes);
//   * no byte outside a caller's memory is written (guard bytes), copy_from's source and every
//     request input are left unchanged;
//   * copy_to after a successful copy_from returns exactly those bytes; a failed copy_from
//     leaves the buffer uninitialized (copy_to fails);
//   * an execution reading buffers gives the same status and outputs as the same request with
//     the buffers' bytes in host memory.
// Seeds: NNHAL_FUZZ_SEED_DIR=DIR ./nnhal_fuzz_buffer_fuzz writes a few step sequences whose
// steps succeed (found by a short deterministic search) and exits.
// NNHAL_FUZZ_REPLAY_MAIN builds a plain executable that runs the files named on its command line.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/resolve.hpp"

namespace {

using namespace nnhal;
using fuzz::ByteSource;
using fuzz::GuardedBytes;

constexpr auto kF32 = OperandType::TENSOR_FLOAT32;
constexpr auto kQ8 = OperandType::TENSOR_QUANT8_ASYMM;
using BufferKernels = KernelSet<Use<OperationType::ADD, kF32, kQ8>>;
using FuzzDevice = Device<SteadyClock, BufferKernels>;
using PreparedPtr = FuzzDevice::PreparedModelPtr;

/// y = x + c with x declared `in`, y declared `out` ([1] constant c).
Model add_constant(std::vector<std::uint32_t> in, std::vector<std::uint32_t> out) {
  ModelBuilder b;
  const auto x = b.input<kF32>({std::move(in)});
  const float c[1] = {1.5f};
  const auto k = b.constant<kF32>(c, {{1}});
  b.output(b.operation<OperationType::ADD, kF32>({std::move(out)}, x, k, b.scalar<OperandType::INT32>(0)));
  return std::move(b).model();
}

/// Inputs a, b [4] and an INT32 scalar activation; output a + b.
Model scalar_input() {
  ModelBuilder b;
  const auto x = b.input<kF32>({{4}});
  const auto y = b.input<kF32>({{4}});
  const auto act = b.input<OperandType::INT32>();
  b.output(b.operation<OperationType::ADD, kF32>({{4}}, x, y, act));
  return std::move(b).model();
}

/// y = x + x on TENSOR_QUANT8_ASYMM [2, 2].
Model quant() {
  ModelBuilder b;
  const auto x = b.input<kQ8>({{2, 2}, 0.5f, 128});
  b.output(b.operation<OperationType::ADD, kQ8>({{2, 2}, 0.5f, 128}, x, x, b.scalar<OperandType::INT32>(0)));
  return std::move(b).model();
}

/// Limits::max_buffer_bytes of the fuzzed device.
constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{16} << 20;

struct World {
  FuzzDevice device;
  std::vector<Model> models;
  std::vector<PreparedPtr> prepared;

  World() : device([] {
      DeviceOptions<SteadyClock> o;
      o.threads = 1;
      o.worker_threads = 1;
      // Buffers of up to 4 GiB are legitimate requests; this device grants at most
      // kMaxBufferBytes (Limits::max_buffer_bytes), so runs stay within the fuzzer's memory
      // limit while every size is tried.
      o.limits.max_buffer_bytes = kMaxBufferBytes;
      return o;
    }()) {
    models.push_back(add_constant({4}, {4}));
    models.push_back(add_constant({0, 3}, {0, 0}));
    models.push_back(scalar_input());
    models.push_back(quant());
    for (const Model& m : models) {
      auto p = device.prepare(m);
      NNHAL_FUZZ_CHECK(p);
      prepared.push_back(std::move(*p));
    }
  }
};

World& world() {
  static World w;
  return w;
}

struct Live {
  std::shared_ptr<DeviceBuffer> buffer;
  std::uint32_t token = 0;
  /// The bytes last written by copy_from, while they are known to be the buffer's contents.
  std::optional<std::vector<std::byte>> known;
};

/// Successful steps, for choosing seeds.
struct Stats {
  int allocated = 0, copied_from = 0, copied_to = 0, executed_with_buffer = 0;
};
Stats g_stats;

void check_error(const Error& e, bool execution) {
  const ErrorStatus s = e.status();
  NNHAL_FUZZ_CHECK(s == ErrorStatus::INVALID_ARGUMENT || s == ErrorStatus::GENERAL_FAILURE ||
                   (execution && s == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE));
  NNHAL_FUZZ_CHECK(!e.message().empty());
}

std::vector<std::uint32_t> dims_from(ByteSource& r) {
  std::vector<std::uint32_t> d(r.below(6));
  for (auto& x : d) x = r.one_in(4) ? r.interesting_u32() : r.below(6);
  return d;
}

std::size_t size_near(ByteSource& r, std::size_t size) {
  switch (r.below(4)) {
    case 0: return r.below(80);
    case 1: return size + r.below(3) - 1;  // off by one either way (size - 1 wraps for 0: capped below)
    default: return size;
  }
}

void step_allocate(ByteSource& r, std::vector<Live>& live) {
  World& w = world();
  BufferDesc desc;
  desc.dimensions = dims_from(r);
  std::vector<PreparedPtr> models;
  const std::uint32_t n_models = 1 + r.below(3);
  for (std::uint32_t i = 0; i < n_models; ++i) models.push_back(w.prepared[r.below(static_cast<std::uint32_t>(w.prepared.size()))]);
  std::vector<BufferRole> roles[2];
  for (auto& list : roles) {
    const std::uint32_t n = r.below(4);
    for (std::uint32_t i = 0; i < n; ++i) {
      BufferRole role;
      role.modelIndex = r.one_in(8) ? r.interesting_u32() : r.below(n_models);
      role.ioIndex = r.one_in(8) ? r.interesting_u32() : r.below(3);
      static constexpr float kFrequencies[] = {1.0f, 0.5f, 0.0f, -1.0f, 2.0f, 1e-30f};
      role.frequency = kFrequencies[r.below(6)];
      list.push_back(role);
    }
  }
  auto made = w.device.allocate(desc, models, roles[0], roles[1]);
  if (!made) {
    check_error(made.error(), false);
    return;
  }
  NNHAL_FUZZ_CHECK(made->token != 0 && made->buffer != nullptr && made->buffer->token() == made->token);
  for (const Live& l : live) NNHAL_FUZZ_CHECK(l.token != made->token || l.buffer == nullptr);
  NNHAL_FUZZ_CHECK(!made->buffer->initialized());
  NNHAL_FUZZ_CHECK(made->buffer->size() <= kMaxBufferBytes);
  ++g_stats.allocated;
  live.push_back({std::move(made->buffer), made->token, std::nullopt});
}

void step_copy_to(ByteSource& r, Live& l) {
  const std::size_t size = std::min<std::size_t>(size_near(r, l.buffer->size()), 1 << 16);
  GuardedBytes dst(size, std::byte{0x5A});
  Memory m = dst.memory();
  if (r.one_in(16)) m.data = nullptr;
  Status s = l.buffer->copy_to(m);
  NNHAL_FUZZ_CHECK(dst.guards_intact());
  if (!s) {
    check_error(s.error(), false);
    for (std::size_t i = 0; i < size; ++i) NNHAL_FUZZ_CHECK(dst.data()[i] == std::byte{0x5A});
    return;
  }
  NNHAL_FUZZ_CHECK(size == l.buffer->size() && l.buffer->initialized());
  ++g_stats.copied_to;
  if (l.known) NNHAL_FUZZ_CHECK(size == 0 || std::memcmp(dst.data(), l.known->data(), size) == 0);
}

void step_copy_from(ByteSource& r, Live& l) {
  const std::size_t size = std::min<std::size_t>(size_near(r, l.buffer->size()), 1 << 16);
  GuardedBytes src(size);
  for (std::size_t i = 0; i < size; ++i) src.data()[i] = static_cast<std::byte>(r.u8());
  const std::vector<std::byte> before(src.data(), src.data() + size);
  Memory m = src.memory();
  if (r.one_in(16)) m.data = nullptr;
  std::vector<std::uint32_t> dims;
  if (!r.one_in(3)) {
    dims = l.buffer->initial_dimensions().empty()
               ? std::vector<std::uint32_t>{}
               : std::vector<std::uint32_t>(l.buffer->initial_dimensions().begin(), l.buffer->initial_dimensions().end());
    for (auto& d : dims)
      if (d == 0 || r.one_in(8)) d = r.one_in(4) ? r.interesting_u32() : r.below(5);
    if (r.one_in(8)) dims = dims_from(r);
  }
  Status s = l.buffer->copy_from(m, dims);
  NNHAL_FUZZ_CHECK(src.guards_intact());
  NNHAL_FUZZ_CHECK(size == 0 || std::memcmp(src.data(), before.data(), size) == 0);
  if (!s) {
    check_error(s.error(), false);
    NNHAL_FUZZ_CHECK(!l.buffer->initialized());
    l.known.reset();
    return;
  }
  NNHAL_FUZZ_CHECK(l.buffer->initialized() && size == l.buffer->size());
  const std::vector<std::uint32_t> now = l.buffer->dimensions();
  if (!dims.empty()) NNHAL_FUZZ_CHECK(now == dims);
  l.known = before;
  ++g_stats.copied_from;
}

/// One request argument's pool: host memory, or a token.
struct PoolPlan {
  std::uint32_t token = 0;
  const Live* live = nullptr;
  std::size_t size = 0;
};

std::uint64_t operand_bytes(const Operand& op) {
  std::uint64_t n = element_size(op.type);
  for (std::uint32_t d : op.dimensions) n *= d == 0 ? 3 : d;  // unknown dimensions taken as 3
  return n;
}

void step_execute(ByteSource& r, std::vector<Live>& live, const std::vector<std::uint32_t>& stale) {
  World& w = world();
  const std::uint32_t which = r.below(static_cast<std::uint32_t>(w.models.size()));
  const Model& model = w.models[which];
  const Subgraph& main = model.main;
  Request request;
  std::vector<PoolPlan> plans;
  for (int pass = 0; pass < 2; ++pass) {
    const auto& indexes = pass == 0 ? main.inputIndexes : main.outputIndexes;
    for (std::uint32_t idx : indexes) {
      const Operand& op = main.operands[idx];
      PoolPlan plan;
      plan.size = static_cast<std::size_t>(operand_bytes(op));
      RequestArgument a;
      const std::uint32_t kind = r.below(8);
      if (kind < 3 && !live.empty()) {
        const Live& l = live[r.below(static_cast<std::uint32_t>(live.size()))];
        plan.token = l.token;
        plan.live = &l;
      } else if (kind == 3 && !stale.empty()) {
        plan.token = stale[r.below(static_cast<std::uint32_t>(stale.size()))];
      } else if (kind == 4) {
        plan.token = r.interesting_u32();
      } else {
        plan.size = size_near(r, plan.size);
      }
      if (is_tensor(op.type) && (r.one_in(2) || op.dimensions.empty())) {
        a.dimensions.assign(op.dimensions.begin(), op.dimensions.end());
        for (auto& d : a.dimensions)
          if (d == 0 || r.one_in(8)) d = r.one_in(8) ? r.interesting_u32() : 1 + r.below(4);
      }
      if (r.one_in(16)) a.hasNoValue = true;
      const std::uint32_t pool = r.one_in(8) && !plans.empty() ? r.below(static_cast<std::uint32_t>(plans.size()) + 1)
                                                               : static_cast<std::uint32_t>(plans.size());
      a.location = {pool, 0, plan.token != 0 ? 0u : static_cast<std::uint32_t>(plan.size)};
      if (r.one_in(16)) a.location.length = r.interesting_u32();
      if (pool == plans.size()) plans.push_back(plan);
      (pass == 0 ? request.inputs : request.outputs).push_back(std::move(a));
    }
  }
  // Host memory: each pool twice (the run with tokens and the run with the buffers' bytes).
  std::vector<GuardedBytes> host[2];
  for (int run = 0; run < 2; ++run)
    for (const PoolPlan& p : plans) {
      const bool replaced = run == 1 && p.live != nullptr && p.live->known.has_value();
      host[run].emplace_back(replaced ? p.live->known->size() : p.token != 0 ? 0 : std::min<std::size_t>(p.size, 1 << 16));
      GuardedBytes& g = host[run].back();
      if (replaced) {
        if (g.size() != 0) std::memcpy(g.data(), p.live->known->data(), g.size());
      } else {
        for (std::size_t i = 0; i < g.size(); ++i) g.data()[i] = static_cast<std::byte>((i * 29 + 7) & 0x3F);
      }
    }
  for (std::size_t i = 0; i < plans.size(); ++i) request.pools.push_back({host[0][i].memory(), plans[i].token});
  // Which pools hold only inputs (they must not change).
  std::vector<bool> written(plans.size(), false);
  for (const RequestArgument& a : request.outputs)
    if (a.location.poolIndex < written.size()) written[a.location.poolIndex] = true;
  std::vector<std::vector<std::byte>> before;
  for (const GuardedBytes& g : host[0]) before.emplace_back(g.data(), g.data() + g.size());

  ExecutionArgs<SteadyClock> args;
  args.loop_timeout = std::chrono::milliseconds(1);
  const ExecutionResult result = w.prepared[which]->execute(request, args);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    NNHAL_FUZZ_CHECK(host[0][i].guards_intact());
    if (!written[i]) NNHAL_FUZZ_CHECK(before[i].empty() || std::memcmp(before[i].data(), host[0][i].data(), before[i].size()) == 0);
  }
  if (!result.status) check_error(result.status.error(), true);
  // Token outputs: a success initializes them (their contents are then unknown here). A failure
  // either rejected the request before binding (the buffer keeps its state and bytes: a later
  // copy_to checks them) or leaves them uninitialized.
  for (const RequestArgument& a : request.outputs) {
    if (a.hasNoValue || a.location.poolIndex >= plans.size() || plans[a.location.poolIndex].live == nullptr) continue;
    for (Live& l : live)
      if (&l == plans[a.location.poolIndex].live) {
        if (result.status) NNHAL_FUZZ_CHECK(l.buffer->initialized());
        if (result.status || !l.buffer->initialized()) l.known.reset();
      }
  }

  // Differential check: inputs only from buffers with known bytes, outputs only in host memory;
  // the same request with those bytes in host memory gives the same status and outputs.
  if (!result.status) return;
  for (const PoolPlan& p : plans)
    if (p.live != nullptr) {
      ++g_stats.executed_with_buffer;
      break;
    }
  bool comparable = true;
  for (const RequestArgument& a : request.outputs)
    if (!a.hasNoValue && plans[a.location.poolIndex].token != 0) comparable = false;
  for (const PoolPlan& p : plans)
    if (p.token != 0 && (p.live == nullptr || !p.live->known || p.live->buffer->size() != p.live->known->size()))
      comparable = false;
  if (!comparable) return;
  Request host_request = request;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    host_request.pools[i] = {host[1][i].memory(), 0};
    if (plans[i].token == 0) continue;
    for (auto& a : host_request.inputs)
      if (a.location.poolIndex == i) {
        a.location.length = static_cast<std::uint32_t>(host[1][i].size());
        if (a.dimensions.empty()) a.dimensions = plans[i].live->buffer->dimensions();
      }
  }
  const ExecutionResult again = w.prepared[which]->execute(host_request, args);
  NNHAL_FUZZ_CHECK(static_cast<bool>(again.status));
  NNHAL_FUZZ_CHECK(again.output_shapes.size() == result.output_shapes.size());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    NNHAL_FUZZ_CHECK(host[1][i].guards_intact());
    if (plans[i].token == 0 && written[i])
      NNHAL_FUZZ_CHECK(host[0][i].size() == 0 ||
                       std::memcmp(host[0][i].data(), host[1][i].data(), host[0][i].size()) == 0);
  }
}

void run_steps(ByteSource& r) {
  std::vector<Live> live;
  std::vector<std::uint32_t> stale;
  for (int k = 0; k < 24 && r.remaining() != 0; ++k) {
    const std::uint32_t what = r.below(8);
    if (what < 2 || live.empty()) {
      if (live.size() < 6) step_allocate(r, live);
      continue;
    }
    const std::uint32_t at = r.below(static_cast<std::uint32_t>(live.size()));
    Live& l = live[at];
    switch (what) {
      case 2: step_copy_to(r, l); break;
      case 3: case 4: step_copy_from(r, l); break;
      case 5: {
        stale.push_back(l.token);
        live.erase(live.begin() + at);
        break;
      }
      default: step_execute(r, live, stale); break;
    }
  }
}

/// Writes seeds: byte strings biased to small values, kept when their steps succeed (a search
/// rather than an encoder, so the seeds follow any change of the decoding above).
void write_seeds() {
  fuzz::SeedWriter w;
  if (!w.enabled()) return;
  std::uint64_t state = 0x9E3779B97F4A7C15u;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int written_seeds = 0;
  std::set<int> kinds;
  // Written out: allocate [4] for input 0 and output 0 of model 0, copy_from 1.0f x 4 with the
  // allocated dimensions, execute model 0 reading the buffer into host memory, copy_to.
  std::vector<std::uint8_t> chain = {0, 1, 1, 4, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 3, 2};
  for (int i = 0; i < 4; ++i) chain.insert(chain.end(), {0, 0, 0x80, 0x3F});
  chain.insert(chain.end(), {1, 1, 1, 1, 6, 0, 0, 1, 1, 1, 1, 7, 2, 1, 1, 1, 1, 2, 2, 1});
  {
    g_stats = {};
    ByteSource r(chain.data(), chain.size());
    run_steps(r);
    if (g_stats.executed_with_buffer == 0 || g_stats.copied_to == 0)
      std::fprintf(stderr, "buffer_fuzz: the written-out seed no longer reaches an execution (decoder changed?)\n");
    w.write("alloc_copy_execute", chain);
  }
  for (int attempt = 0; attempt < 20000 && written_seeds < 8; ++attempt) {
    std::vector<std::uint8_t> bytes(64 + next() % 192);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(next() % 8 != 0 ? next() % 4 : next() % 256);
    g_stats = {};
    ByteSource r(bytes.data(), bytes.size());
    run_steps(r);
    // Kinds: which steps succeeded (allocate, copy_from, copy_to, execution with a buffer).
    const int kind = (g_stats.allocated > 0) | (g_stats.copied_from > 0) << 1 | (g_stats.copied_to > 0) << 2 |
                     (g_stats.executed_with_buffer > 0) << 3;
    if (g_stats.allocated == 0 || !kinds.insert(kind).second) continue;
    w.write("steps_" + std::to_string(kind), bytes);
    ++written_seeds;
  }
  w.finish();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)world();
  write_seeds();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteSource r(data, size);
  run_steps(r);
  return 0;
}

#ifdef NNHAL_FUZZ_REPLAY_MAIN
#include "fuzz/replay_main.hpp"
#endif
