/// \file
/// nnhal_calibrate: measures the Capabilities that nnhal's CPU device reports and writes them
/// as constants to include/nnhal/device/calibrated_capabilities.hpp (docs/calibration.md).
///
/// For every operand type a HAL 1.3 operandPerformance lists, it runs representative models
/// whose first input has that type (cases.hpp) through nnhal's executor and the same
/// computation through a scalar C++ reference loop (reference.hpp), timing both back to back,
/// many times, and reports the median ratio nnhal / reference per model and their geometric
/// mean per type. IF and WHILE are measured against the branch and the loop written by hand.
///
///   nnhal_calibrate [--samples N] [--min-sample-us U] [--header FILE]
///
/// Prints a table; with --header also writes the generated header. Build it with optimisation
/// (-O2 -march=native, as the Release build does).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cases.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/simd/target.hpp"

namespace nnhal::calibrate {
namespace {

/// Figure given to entries no runnable representative model exists for: parity with the CPU
/// reference. It claims no advantage, and (unlike an absent entry, FLT_MAX) does not make the
/// runtime treat the type as unusable.
constexpr float kUnmeasured = 1.0f;

/// WHILE is timed at these two iteration counts; the difference gives the cost per iteration
/// without the per-execution cost.
constexpr std::int32_t kShortLoop = 64, kLongLoop = 64 + 1024;

/// Defaults: many short samples, so the two halves of each ratio run close together in time
/// (on a shared machine, the load changes slower than a sample lasts).
struct Options {
  int samples = 601;
  double min_sample_us = 300.0;
  std::string header;
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "nnhal_calibrate: %s\n", what.c_str());
  std::exit(1);
}

// ------------------------------------------------------------------------------------------
// Timing
// ------------------------------------------------------------------------------------------
using Clock = std::chrono::steady_clock;

/// Average time of one call of `f` over `k` calls, in nanoseconds.
template <class F>
double per_call_ns(F& f, std::size_t k) {
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < k; ++i) f();
  const auto t1 = Clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(k);
}

/// Calls per sample so that one sample lasts at least `min_ns` (clock resolution and timer
/// overhead then do not matter).
template <class F>
std::size_t calls_per_sample(F& f, double min_ns) {
  std::size_t k = 1;
  for (;;) {
    const double total = per_call_ns(f, k) * static_cast<double>(k);
    if (total >= min_ns || k >= (std::size_t{1} << 26)) return k;
    const double grow = total <= 0.0 ? 16.0 : std::min(16.0, std::max(2.0, 1.25 * min_ns / total));
    k = static_cast<std::size_t>(static_cast<double>(k) * grow);
  }
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

/// Medians of nnhal's and the reference's time per unit, and of their per-sample ratio with
/// its quartiles.
struct Stats {
  double nnhal_ns = 0, ref_ns = 0, ratio = 0, ratio_q1 = 0, ratio_q3 = 0;
};

/// Collects `samples` pairs (nnhal ns, reference ns) from `sample(s)`; each pair is measured
/// back to back, so load from other processes affects both sides of a ratio alike.
template <class S>
Stats collect(int samples, S&& sample) {
  std::vector<double> tn, tr, ratio;
  for (int s = 0; s < samples; ++s) {
    const auto [n, r] = sample(s);
    tn.push_back(n);
    tr.push_back(r);
    ratio.push_back(n / r);
  }
  return {quantile(tn, 0.5), quantile(tr, 0.5), quantile(ratio, 0.5), quantile(ratio, 0.25),
          quantile(ratio, 0.75)};
}

// ------------------------------------------------------------------------------------------
// Running a case
// ------------------------------------------------------------------------------------------
std::size_t operand_bytes(const Operand& op) {
  std::size_t n = element_size(op.type);
  for (std::uint32_t d : op.dimensions) n *= d;
  return n;
}

/// A buffer at a chosen offset inside a page. Streaming loops over several arrays whose
/// addresses agree modulo 4096 stall on false store-to-load dependencies ("4K aliasing"), and
/// heap addresses change from run to run; placing every buffer at its own fixed offset makes
/// the layout, and so the timings, the same on every run and for both sides.
class Placed {
 public:
  /// `slot` picks the offset inside the page (slot * 576 bytes; 576 = 9 cache lines).
  void place(std::size_t bytes, std::size_t slot) {
    constexpr std::size_t kPage = 4096;
    if (!storage_.reserve(bytes + 2 * kPage)) fail("out of memory");
    const auto base = reinterpret_cast<std::uintptr_t>(storage_.data());
    const std::uintptr_t page = (base + kPage - 1) / kPage * kPage;
    data_ = storage_.data() + (page - base) + (slot * 576) % kPage;
  }
  std::byte* data() const noexcept { return data_; }

 private:
  AlignedBuffer storage_;
  std::byte* data_ = nullptr;
};

/// A prepared case's buffers: the inputs both sides read, nnhal's output (which the reference
/// also writes while timing, so both sides stream through the same memory) and a separate
/// reference output for the agreement check.
struct Bench {
  std::vector<Placed> inputs;
  std::vector<const std::byte*> input_ptrs;
  Placed out, ref_out;
  std::size_t out_bytes = 0;
  OperandType out_type = OperandType::TENSOR_FLOAT32;
  Request request;
};

Bench bind(const Case& c) {
  Bench b;
  const Subgraph& main = c.model.main;
  b.inputs.resize(main.inputIndexes.size());
  for (std::size_t k = 0; k < main.inputIndexes.size(); ++k) {
    const Operand& op = main.operands[main.inputIndexes[k]];
    const std::size_t bytes = operand_bytes(op);
    b.inputs[k].place(bytes, k);
    cases::fill(op.type, b.inputs[k].data(), bytes / element_size(op.type),
                100 + static_cast<std::uint32_t>(k));
    b.input_ptrs.push_back(b.inputs[k].data());
    RequestArgument arg;
    arg.location = {static_cast<std::uint32_t>(k), 0, static_cast<std::uint32_t>(bytes)};
    b.request.inputs.push_back(arg);
    b.request.pools.push_back({Memory{b.inputs[k].data(), bytes}, 0});
  }
  if (main.outputIndexes.size() != 1) fail(c.label + ": the calibrator expects one output");
  const Operand& out = main.operands[main.outputIndexes[0]];
  b.out_bytes = operand_bytes(out);
  b.out_type = out.type;
  b.out.place(b.out_bytes, b.inputs.size());
  b.ref_out.place(b.out_bytes, b.inputs.size() + 1);
  RequestArgument arg;
  arg.location = {static_cast<std::uint32_t>(b.inputs.size()), 0,
                  static_cast<std::uint32_t>(b.out_bytes)};
  b.request.outputs.push_back(arg);
  b.request.pools.push_back({Memory{b.out.data(), b.out_bytes}, 0});
  return b;
}

/// An element as double (FLOAT16 through float).
template <class E>
double as_double(E v) {
  if constexpr (std::is_same_v<E, Half>)
    return static_cast<double>(static_cast<float>(v));
  else
    return static_cast<double>(v);
}

/// Largest difference between elements of `a` (nnhal) and `b` (reference) of type E, absolute or
/// relative to max(1, |b|). NaN counts as infinitely different.
template <class E>
double max_difference_of(const std::byte* a, const std::byte* b, std::size_t n, bool relative) {
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = as_double(reinterpret_cast<const E*>(a)[i]);
    const double y = as_double(reinterpret_cast<const E*>(b)[i]);
    const double d = std::fabs(x - y) / (relative ? std::max(1.0, std::fabs(y)) : 1.0);
    if (!(d <= worst)) worst = std::isnan(d) ? HUGE_VAL : d;
  }
  return worst;
}

/// Largest element difference between nnhal's output and the reference's (see Case::tolerance).
double max_difference(OperandType t, const std::byte* a, const std::byte* b, std::size_t bytes) {
  const std::size_t n = bytes / element_size(t);
  switch (t) {
    case OperandType::TENSOR_FLOAT32:
      return max_difference_of<float>(a, b, n, true);
    case OperandType::TENSOR_FLOAT16:
      return max_difference_of<Half>(a, b, n, true);
    case OperandType::TENSOR_INT32:
      return max_difference_of<std::int32_t>(a, b, n, false);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
      return max_difference_of<std::int8_t>(a, b, n, false);
    case OperandType::TENSOR_QUANT16_SYMM:
      return max_difference_of<std::int16_t>(a, b, n, false);
    case OperandType::TENSOR_QUANT16_ASYMM:
      return max_difference_of<std::uint16_t>(a, b, n, false);
    default:
      return max_difference_of<std::uint8_t>(a, b, n, false);  // QUANT8_ASYMM, BOOL8
  }
}

/// Everything needed to time one case: the prepared model and its execution.
struct Runner {
  explicit Runner(const Case& c) : bench(bind(c)) {
    auto p = PreparedModel::prepare(c.model);
    if (!p) fail(c.label + ": prepare: " + p.error().c_str());
    prepared.emplace(std::move(*p));
    auto e = prepared->create_execution();
    if (!e) fail(c.label + ": create_execution: " + e.error().c_str());
    execution.emplace(std::move(*e));
  }
  using Exec =
      std::remove_cvref_t<decltype(*std::declval<const PreparedModel&>().create_execution())>;
  Bench bench;
  std::optional<PreparedModel> prepared;
  std::optional<Exec> execution;
};

/// Runs both sides once and checks that they agree, so the ratio compares equal work.
void verify(const Case& c, Runner& r) {
  if (auto s = r.execution->run(r.bench.request); !s) fail(c.label + ": run: " + s.error().c_str());
  c.reference(c.args, r.bench.input_ptrs.data(), r.bench.ref_out.data());
  const double d = max_difference(r.bench.out_type, r.bench.out.data(), r.bench.ref_out.data(),
                                  r.bench.out_bytes);
  if (!(d <= c.tolerance))
    fail(c.label + ": nnhal and the reference loop disagree (difference " + std::to_string(d) +
         ")");
}

/// nnhal's side and the reference's side of one case, as callables for the timing loops.
struct Sides {
  Sides(const Case& c, Runner& r) : c_(c), r_(r) {}
  void nnhal() {
    if (!r_.execution->run(r_.bench.request)) failed = true;
  }
  void reference() {
    c_.reference(c_.args, r_.bench.input_ptrs.data(), r_.bench.out.data());
    __asm__ __volatile__("" : : "r"(r_.bench.out.data()) : "memory");
  }
  bool failed = false;

 private:
  const Case& c_;
  Runner& r_;
};

/// Times one ordinary case: each sample is one batch of nnhal runs and one batch of reference
/// calls, back to back, in alternating order.
Stats time_case(const Case& c, Runner& r, const Options& o) {
  Sides sides(c, r);
  auto nnhal = [&] { sides.nnhal(); };
  auto reference = [&] { sides.reference(); };
  const double min_ns = o.min_sample_us * 1000.0;
  const std::size_t kn = calls_per_sample(nnhal, min_ns), kr = calls_per_sample(reference, min_ns);
  const Stats st = collect(o.samples, [&](int s) {
    double n = 0, ref = 0;
    if (s % 2 == 0)
      n = per_call_ns(nnhal, kn), ref = per_call_ns(reference, kr);
    else
      ref = per_call_ns(reference, kr), n = per_call_ns(nnhal, kn);
    return std::pair{n, ref};
  });
  if (sides.failed) fail(c.label + ": an execution failed while timing");
  return st;
}

/// IF: each sample times both branches on both sides (condition true, then false), so a
/// sample's ratio is (then + else) / (then + else by hand), the mean the cost model assumes.
Stats time_if(const Case& c, Runner& r, const Options& o) {
  std::uint8_t* cond = reinterpret_cast<std::uint8_t*>(r.bench.inputs[0].data());
  for (std::uint8_t v : {std::uint8_t{0}, std::uint8_t{1}}) {
    *cond = v;
    verify(c, r);
  }
  Sides sides(c, r);
  auto nnhal = [&] { sides.nnhal(); };
  auto reference = [&] { sides.reference(); };
  const double min_ns = o.min_sample_us * 1000.0;
  const std::size_t kn = calls_per_sample(nnhal, min_ns), kr = calls_per_sample(reference, min_ns);
  const Stats st = collect(o.samples, [&](int s) {
    double n = 0, ref = 0;
    for (std::uint8_t v : {std::uint8_t{1}, std::uint8_t{0}}) {
      *cond = v;
      if (s % 2 == 0)
        n += per_call_ns(nnhal, kn), ref += per_call_ns(reference, kr);
      else
        ref += per_call_ns(reference, kr), n += per_call_ns(nnhal, kn);
    }
    return std::pair{n / 2, ref / 2};
  });
  if (sides.failed) fail(c.label + ": an execution failed while timing");
  return st;
}

/// WHILE: per-iteration times from runs at two loop counts (their difference cancels the cost
/// of each execution outside the loop).
Stats time_while(const Case& c, Runner& r, const Options& o) {
  std::int32_t* limit = reinterpret_cast<std::int32_t*>(r.bench.inputs[1].data());
  *reinterpret_cast<std::int32_t*>(r.bench.inputs[0].data()) = 0;
  for (std::int32_t n : {kShortLoop, kLongLoop}) {
    *limit = n;
    verify(c, r);
    if (*reinterpret_cast<const std::int32_t*>(r.bench.out.data()) != n)
      fail(c.label + ": wrong loop count");
  }
  Sides sides(c, r);
  auto nnhal = [&] { sides.nnhal(); };
  auto reference = [&] { sides.reference(); };
  const double min_ns = o.min_sample_us * 1000.0;
  *limit = kLongLoop;
  const std::size_t kn = calls_per_sample(nnhal, min_ns), kr = calls_per_sample(reference, min_ns);
  const Stats st = collect(o.samples, [&](int s) {
    double n[2] = {}, ref[2] = {};
    for (int which = 0; which < 2; ++which) {
      *limit = which == 0 ? kShortLoop : kLongLoop;
      if (s % 2 == 0)
        n[which] = per_call_ns(nnhal, kn), ref[which] = per_call_ns(reference, kr);
      else
        ref[which] = per_call_ns(reference, kr), n[which] = per_call_ns(nnhal, kn);
    }
    constexpr double iterations = kLongLoop - kShortLoop;
    // A difference can only come out <= 0 under extreme noise; keep it positive so the ratio
    // stays defined (the median discards such samples' influence).
    const double dn = std::max(n[1] - n[0], 1e-3), dr = std::max(ref[1] - ref[0], 1e-3);
    return std::pair{dn / iterations, dr / iterations};
  });
  if (sides.failed) fail(c.label + ": an execution failed while timing");
  return st;
}

// ------------------------------------------------------------------------------------------
// Results
// ------------------------------------------------------------------------------------------
struct Row {
  std::string entry;  ///< which Capabilities figure the row counts for
  std::string model;
  Stats stats;
};

/// One figure of the Capabilities and where it came from.
struct Figure {
  std::string name;  ///< "TENSOR_FLOAT32", "relaxed tensor", "IF", ...
  float value = kUnmeasured;
  std::string source;
};

/// Operand types in operandPerformance order: every OperandType but SUBGRAPH.
std::vector<OperandType> listed_types() {
  std::vector<OperandType> v;
  for (std::int32_t t = 0; t < kOperandTypeCount; ++t)
    if (static_cast<OperandType>(t) != OperandType::SUBGRAPH)
      v.push_back(static_cast<OperandType>(t));
  v.push_back(OperandType::OEM);
  v.push_back(OperandType::TENSOR_OEM_BYTE);
  return v;
}

const char* unmeasured_reason(OperandType t) {
  if (t == OperandType::OEM || t == OperandType::TENSOR_OEM_BYTE)
    return "OEM type, no OEM_OPERATION kernel";
  if (t == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) return "only ever a convolution filter";
  if (!is_tensor(t)) return "scalar type, never the first input of an operation";
  return "no operation nnhal runs takes it first";
}

/// Geometric mean of the ratios of `rows` whose entry is `entry`; the count goes to `n` and
/// the models' operation names (first word of their labels) to `names`.
double geometric_mean(const std::vector<Row>& rows, const std::string& entry, int& n,
                      std::string& names) {
  double log_sum = 0.0;
  n = 0;
  for (const Row& r : rows) {
    if (r.entry != entry) continue;
    log_sum += std::log(r.stats.ratio), ++n;
    std::string op = r.model.substr(0, r.model.find_first_of(" ,"));
    if (r.model.rfind("CAST identity", 0) == 0) op = "identity CAST";
    names += (names.empty() ? "" : ", ") + op;
  }
  return n == 0 ? 0.0 : std::exp(log_sum / n);
}

std::string cpu_name() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned regs[12] = {};
  if (static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) >= 0x80000004u) {
    for (unsigned i = 0; i < 3; ++i)
      __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2],
                  &regs[4 * i + 3]);
    char text[49] = {};
    std::memcpy(text, regs, 48);
    std::string s(text);
    const auto first = s.find_first_not_of(' ');
    const auto last = s.find_last_not_of(' ');
    if (first != std::string::npos) return s.substr(first, last - first + 1);
  }
#endif
  return "unknown CPU";
}

std::string compiler_name() {
#ifdef __OPTIMIZE__
  const std::string build = ", optimised build";
#else
  const std::string build = ", UNOPTIMISED build (figures not representative)";
#endif
#if defined(__clang__)
  return "clang " + std::string(__clang_version__) + build;
#elif defined(__GNUC__)
  return "g++ " + std::string(__VERSION__) + build;
#else
  return "unknown compiler" + build;
#endif
}

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string load_average() {
  double l[3] = {};
  if (getloadavg(l, 3) != 3) return "unknown";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f", l[0], l[1], l[2]);
  return buf;
}

/// A float literal with 6 significant digits ("0.412345f", "12.0f").
std::string float_literal(float v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(v));
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

std::string command_line(const Options& o) {
  std::string header = o.header;
  if (!header.empty() && header[0] == '/') header = "<header file>";  // keep machine paths out
  return "nnhal_calibrate --samples " + std::to_string(o.samples) + " --min-sample-us " +
         std::to_string(static_cast<long>(o.min_sample_us)) +
         (header.empty() ? "" : "\n///       --header " + header);
}

void write_header(const Options& o, const std::string& about, const std::vector<Figure>& types,
                  const Figure& relaxed_scalar, const Figure& relaxed_tensor, const Figure& if_fig,
                  const Figure& while_fig) {
  std::string h = R"(#pragma once
/// \file
/// GENERATED by tools/calibrate; do not edit. Regenerate as docs/calibration.md says.
///
/// Command (run from the repository root; one command, wrapped):
///   )" + command_line(o) +
                  "\n" + about + R"(///
/// Each figure is nnhal's time divided by the time of a scalar C++ reference loop doing the
/// same work (median of back-to-back samples per model, geometric mean over a type's models).
/// powerUsage = execTime: single-threaded CPU work, so energy follows time. Types without a
/// runnable representative model get the conservative )" +
                  float_literal(kUnmeasured) + R"( (parity with the reference).

#include "nnhal/model/model.hpp"

namespace nnhal {

/// The CPU device's performance figures, measured offline by tools/calibrate: constants, so
/// every query and every start reports the same values.
)";
  h += "inline Capabilities calibrated_capabilities() {\n";
  h += "  Capabilities c;\n";
  auto info = [](const Figure& f) {
    return "{" + float_literal(f.value) + ", " + float_literal(f.value) + "}";
  };
  h += "  // " + relaxed_scalar.source + "\n";
  h += "  c.relaxedFloat32toFloat16PerformanceScalar = " + info(relaxed_scalar) + ";\n";
  h += "  // " + relaxed_tensor.source + "\n";
  h += "  c.relaxedFloat32toFloat16PerformanceTensor = " + info(relaxed_tensor) + ";\n";
  h += "  c.operandPerformance = {\n";
  for (const Figure& f : types) {
    h += "      // " + f.source + "\n";
    h += "      {OperandType::" + f.name + ", " + info(f) + "},\n";
  }
  h += "  };\n";
  h += "  // " + if_fig.source + "\n";
  h += "  c.ifPerformance = " + info(if_fig) + ";\n";
  h += "  // " + while_fig.source + "\n";
  h += "  c.whilePerformance = " + info(while_fig) + ";\n";
  h += "  return c;\n}\n\n}  // namespace nnhal\n";
  std::FILE* f = std::fopen(o.header.c_str(), "w");
  if (f == nullptr || std::fwrite(h.data(), 1, h.size(), f) != h.size() || std::fclose(f) != 0)
    fail("cannot write " + o.header);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--samples" && has_value)
      o.samples = std::atoi(argv[++i]);
    else if (a == "--min-sample-us" && has_value)
      o.min_sample_us = std::atof(argv[++i]);
    else if (a == "--header" && has_value)
      o.header = argv[++i];
    else {
      std::printf("usage: nnhal_calibrate [--samples N] [--min-sample-us U] [--header FILE]\n");
      std::exit(a == "--help" ? 0 : 2);
    }
  }
  if (o.samples < 5) fail("--samples must be at least 5");
  if (!(o.min_sample_us >= 10.0)) fail("--min-sample-us must be at least 10");
  return o;
}

void print_row(const Row& r) {
  std::printf("%-28s %-50s %12.1f %12.1f %9.3f  (%.3f .. %.3f)\n", r.entry.c_str(), r.model.c_str(),
              r.stats.nnhal_ns, r.stats.ref_ns, r.stats.ratio, r.stats.ratio_q1, r.stats.ratio_q3);
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
#ifndef __OPTIMIZE__
  std::fprintf(stderr,
               "nnhal_calibrate: warning: built without optimisation; figures will be off\n");
#endif
  std::string about;
  about += "/// Date (UTC): " + today_utc() + "\n";
  about += "/// CPU: " + cpu_name() + "; Highway target: " + simd::target_name() + "\n";
  about += "/// Compiler: " + compiler_name() + "\n";
  about += "/// Load average at start: " + load_average() + "\n";
  std::printf("nnhal calibration\n%s", about.c_str());
  std::printf("/// Samples per model: %d, each at least %.0f us per side\n\n", o.samples,
              o.min_sample_us);
  std::printf("%-28s %-50s %12s %12s %9s  %s\n", "entry", "model", "nnhal ns", "ref ns", "ratio",
              "(quartiles)");

  std::vector<Row> rows;
  for (const Case& c : cases::all()) {
    Runner r(c);
    verify(c, r);
    const std::string entry = c.relaxed ? "relaxed tensor" : std::string(to_string(c.type));
    rows.push_back({entry, c.label, time_case(c, r, o)});
    print_row(rows.back());
  }
  {
    const Case c = cases::if_model();
    Runner r(c);
    rows.push_back({"IF", c.label + " (mean of branches)", time_if(c, r, o)});
    print_row(rows.back());
  }
  {
    const Case c = cases::while_model();
    Runner r(c);
    rows.push_back({"WHILE", c.label + " (per iteration)", time_while(c, r, o)});
    print_row(rows.back());
  }

  auto figure = [&](const std::string& name, const std::string& entry, const char* reason) {
    Figure f{name, kUnmeasured, std::string("not measured, conservative: ") + reason};
    int n = 0;
    std::string names;
    const double g = geometric_mean(rows, entry, n, names);
    if (n > 0) {
      f.value = static_cast<float>(g);
      f.source = n == 1 ? "measured on " + names : "measured: geometric mean over " + names;
    }
    if (!(f.value > 0.0f) || !std::isfinite(f.value))
      fail(name + ": the measured figure is not > 0 and finite");
    return f;
  };
  std::vector<Figure> types;
  for (OperandType t : listed_types())
    types.push_back(
        figure(std::string(to_string(t)), std::string(to_string(t)), unmeasured_reason(t)));
  const Figure relaxed_scalar =
      figure("relaxed scalar", "relaxed scalar", "no operation takes a FLOAT32 scalar first");
  const Figure relaxed_tensor = figure("relaxed tensor", "relaxed tensor", "no relaxed model ran");
  Figure if_fig = figure("IF", "IF", "no IF model ran");
  Figure while_fig = figure("WHILE", "WHILE", "no WHILE model ran");
  if_fig.source =
      "measured: IF, each branch one ADD on TENSOR_FLOAT32 [64], vs. the branch by hand";
  while_fig.source =
      "measured per iteration: WHILE (LESS, ADD on TENSOR_INT32 [1]) vs. the loop by hand";

  std::printf("\n%-32s %12s %12s  %s\n", "Capabilities entry", "execTime", "powerUsage", "source");
  auto print_figure = [](const Figure& f) {
    std::printf("%-32s %12.6g %12.6g  %s\n", f.name.c_str(), static_cast<double>(f.value),
                static_cast<double>(f.value), f.source.c_str());
  };
  print_figure(relaxed_scalar);
  print_figure(relaxed_tensor);
  for (const Figure& f : types) print_figure(f);
  print_figure(if_fig);
  print_figure(while_fig);
  std::printf("load average at end: %s\n", load_average().c_str());

  if (!o.header.empty()) {
    write_header(o, about, types, relaxed_scalar, relaxed_tensor, if_fig, while_fig);
    std::printf("wrote %s\n", o.header.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace nnhal::calibrate

int main(int argc, char** argv) {
  return nnhal::calibrate::run(argc, argv);
}
