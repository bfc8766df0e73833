// mobilenet: builds MobileNet v1 or v2 (network.hpp, the peers' MOBILENET.md definition and
// weights), validates and prepares it through an nnhal::Device that compiles only the networks'
// kernels, runs it N times and prints one line:
//
//   net= type= threads= fingerprint= top1= p= prepare_ms= latency_us= arena_bytes= allocs_per_run=
//
//   mobilenet [--net v1|v2] [--type f32|qu8|qs8] [--threads N] [--runs N] [--out FILE] [--profile]
//
// latency_us is the median of the runs of DevicePreparedModel::execute (execution only: the
// 8-bit input is quantized before), into one ExecutionResult reused by every run as a driver
// would; p the top-1 probability; arena_bytes the activation memory the prepared model plans for
// an execution; allocs_per_run the heap allocations made during the timed executions divided by
// the runs (this program replaces the global operator new to count them). --threads N gives the
// device a pool of N threads for the kernels (DeviceOptions::threads; the outputs are the same
// for any N). --out writes the 1001 probabilities as raw little-endian float32. --profile prints
// the time per operation type and per layer over the timed runs.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "network_kernels.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/util/chrome_trace.hpp"

// ------------------------------------------------------------------- counting operator new

namespace {
std::atomic<bool> g_count{false};
std::atomic<std::size_t> g_allocs{0};

void* allocate(std::size_t n, std::size_t align) noexcept {
  if (g_count.load(std::memory_order_relaxed)) g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (align <= alignof(std::max_align_t)) return std::malloc(n == 0 ? 1 : n);
  return std::aligned_alloc(align, ((n == 0 ? 1 : n) + align - 1) / align * align);
}
void* allocate_or_throw(std::size_t n, std::size_t align) {
  if (void* p = allocate(n, align)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new[](std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

using mobilenet::Precision;

struct Options {
  std::string net = "v1";
  Precision type = Precision::f32;
  int threads = 1;  ///< DeviceOptions::threads: the kernels' threads, this one included
  int runs = 5;
  std::string out;
  bool profile = false;
};

int usage(const char* why) {
  std::fprintf(stderr,
               "mobilenet: %s\nusage: mobilenet [--net v1|v2] [--type f32|qu8|qs8] [--threads N] [--runs N]"
               " [--out FILE] [--profile]\n",
               why);
  return 2;
}

bool parse_count(const char* s, int& out) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < 1 || v > 1000000) return false;
  out = static_cast<int>(v);
  return true;
}

/// Node spans of the timed runs: per operation type (OperationProfile) and per node position.
class LayerProfile final : public nnhal::TraceSink {
 public:
  explicit LayerProfile(std::size_t nodes) : per_node_(nodes) {}
  std::int64_t now_ns() noexcept override { return by_type_.now_ns(); }
  void span(const nnhal::Span& s) noexcept override {
    if (!on_ || s.kind != nnhal::SpanKind::Node) return;
    by_type_.span(s);
    if (s.subgraph == 0 && s.node < per_node_.size()) per_node_[s.node] += s.end_ns - s.begin_ns;
  }
  void enable(bool on) noexcept { on_ = on; }
  const nnhal::OperationProfile& by_type() const noexcept { return by_type_; }
  const std::vector<std::int64_t>& per_node() const noexcept { return per_node_; }

 private:
  bool on_ = false;
  nnhal::OperationProfile by_type_;
  std::vector<std::int64_t> per_node_;
};

/// 64-byte-aligned bytes for a request pool.
struct Block {
  explicit Block(std::size_t n) : size(n), data(static_cast<std::byte*>(::operator new[](n, std::align_val_t{64}))) {}
  ~Block() { ::operator delete[](data, std::align_val_t{64}); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
  std::size_t size;
  std::byte* data;
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--net" && has_value) {
      o.net = argv[++i];
      if (o.net != "v1" && o.net != "v2") return usage("--net is v1 or v2");
    } else if (a == "--type" && has_value) {
      const std::string_view t = argv[++i];
      if (t == "f32") o.type = Precision::f32;
      else if (t == "qu8") o.type = Precision::qu8;
      else if (t == "qs8") o.type = Precision::qs8;
      else return usage("--type is f32, qu8 or qs8");
    } else if (a == "--threads" && has_value) {
      if (!parse_count(argv[++i], o.threads)) return usage("--threads needs a positive count");
    } else if (a == "--runs" && has_value) {
      if (!parse_count(argv[++i], o.runs)) return usage("--runs needs a positive count");
    } else if (a == "--out" && has_value) {
      o.out = argv[++i];
    } else if (a == "--profile") {
      o.profile = true;
    } else {
      return usage("unknown or incomplete argument");
    }
  }
  if (o.net == "v2" && o.type != Precision::f32) return usage("the 8-bit networks are MobileNet v1 only");

  const mobilenet::NetworkDef def = o.net == "v1" ? mobilenet::mobilenet_v1() : mobilenet::mobilenet_v2();
  const std::uint64_t fingerprint = mobilenet::fingerprint(def);
  const mobilenet::Network net = mobilenet::build_network(def, o.type);

  LayerProfile profile(net.operation_names.size());
  nnhal::DeviceOptions<nnhal::SteadyClock> device_options;
  device_options.worker_threads = 1;
  device_options.threads = static_cast<std::size_t>(o.threads);
  if (o.profile) device_options.trace = &profile;
  nnhal::Device<nnhal::SteadyClock, mobilenet::MobileNetKernels> device(std::move(device_options));

  using Clock = std::chrono::steady_clock;
  const auto prepare_begin = Clock::now();
  const auto supported = device.supported_operations(net.model);
  if (!supported) {
    std::fprintf(stderr, "mobilenet: invalid model: %s\n", supported.error().c_str());
    return 1;
  }
  for (std::size_t i = 0; i < supported->size(); ++i)
    if (!(*supported)[i]) {
      std::fprintf(stderr, "mobilenet: operation %zu (%s) is not supported\n", i, net.operation_names[i].c_str());
      return 1;
    }
  auto prepared = device.prepare(net.model);
  const double prepare_ms = std::chrono::duration<double, std::milli>(Clock::now() - prepare_begin).count();
  if (!prepared) {
    std::fprintf(stderr, "mobilenet: prepare failed: %s\n", prepared.error().c_str());
    return 1;
  }

  // Input (quantized for the 8-bit networks, outside the timed part) and output pools.
  Block input(net.input_bytes()), output(net.output_bytes());
  {
    const std::vector<float> x = mobilenet::generate_input(def);
    if (o.type == Precision::f32)
      std::memcpy(input.data, x.data(), x.size() * sizeof(float));
    else
      mobilenet::quantize_input(x.data(), x.size(), o.type, reinterpret_cast<std::uint8_t*>(input.data));
  }
  nnhal::Request request;
  request.pools.push_back({{input.data, input.size}, 0});
  request.pools.push_back({{output.data, output.size}, 0});
  request.inputs.push_back({false, {0, 0, static_cast<std::uint32_t>(input.size)}, {}});
  request.outputs.push_back({false, {1, 0, static_cast<std::uint32_t>(output.size)}, {}});

  // One untimed run (first-use costs), then the timed ones, all into one result.
  nnhal::ExecutionResult result;
  (*prepared)->execute(request, {}, result);
  if (!result.status) {
    std::fprintf(stderr, "mobilenet: execution failed: %s\n", result.status.error().c_str());
    return 1;
  }
  std::vector<double> latency_us(static_cast<std::size_t>(o.runs));
  profile.enable(o.profile);
  g_allocs = 0;
  g_count = true;
  for (double& t : latency_us) {
    const auto begin = Clock::now();
    (*prepared)->execute(request, {}, result);
    t = std::chrono::duration<double, std::micro>(Clock::now() - begin).count();
    if (!result.status) {
      g_count = false;
      std::fprintf(stderr, "mobilenet: execution failed: %s\n", result.status.error().c_str());
      return 1;
    }
  }
  g_count = false;
  profile.enable(false);
  const std::size_t allocs = g_allocs.load();
  std::sort(latency_us.begin(), latency_us.end());
  const std::size_t n = latency_us.size();
  const double median = n % 2 == 1 ? latency_us[n / 2] : 0.5 * (latency_us[n / 2 - 1] + latency_us[n / 2]);

  float probabilities[mobilenet::kClasses];
  std::memcpy(probabilities, output.data, sizeof probabilities);
  const std::size_t top1 = static_cast<std::size_t>(
      std::max_element(probabilities, probabilities + mobilenet::kClasses) - probabilities);

  std::printf("net=%s type=%s threads=%d fingerprint=0x%016" PRIx64
              " top1=%zu p=%.9g prepare_ms=%.3f latency_us=%.1f arena_bytes=%" PRIu64 " allocs_per_run=%g\n",
              o.net.c_str(), mobilenet::precision_name(o.type), o.threads, fingerprint, top1,
              static_cast<double>(probabilities[top1]), prepare_ms, median, (*prepared)->prepared().arena_bytes(),
              static_cast<double>(allocs) / o.runs);

  if (!o.out.empty()) {
    std::FILE* f = std::fopen(o.out.c_str(), "wb");
    const bool ok = f != nullptr && std::fwrite(probabilities, sizeof(float), mobilenet::kClasses, f) == mobilenet::kClasses;
    if (f != nullptr && std::fclose(f) != 0) return usage("cannot write --out");
    if (!ok) return usage("cannot write --out");
  }

  if (o.profile) {
    std::printf("\nprofile over %d run(s), per operation type:\n", o.runs);
    profile.by_type().write([](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); });
    std::int64_t all = 0;
    for (const std::int64_t t : profile.per_node()) all += t;
    std::printf("\nper layer (mean us per run, share):\n");
    for (std::size_t i = 0; i < profile.per_node().size(); ++i) {
      const double us = static_cast<double>(profile.per_node()[i]) / 1e3 / o.runs;
      std::printf("%3zu %-20s %10.1f %6.1f%%\n", i, net.operation_names[i].c_str(), us,
                  all > 0 ? 100.0 * static_cast<double>(profile.per_node()[i]) / static_cast<double>(all) : 0.0);
    }
  }
  return 0;
}
