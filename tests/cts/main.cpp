// nnhal_cts: runs the NNAPI conformance corpus (shared/cts/SCHEMA.md) through nnhal.
//
//   nnhal_cts [--mode sync|async|fenced|burst] [--threads N] [--reference-kernels] [--filter SUBSTRING]
//             [--loop-timeout-ms N] [--verbose] [--dump-dot DIR] [--trace FILE] [--profile] [--check-versions] PATH...
//
// Prints `FAIL <file>:<model>: <reason>` for each failing model as it happens (with --verbose
// also `SKIP ...: <reason>` and `PASS ...` lines, for triage), then a table of
// passed / failed / skipped models per operation type, then
// `N passed (S strict, R runtime only), N failed, N skipped`: S models ran on a strict HAL 1.3
// device, R needed the runtime-only option (WHILE operands of unknown size, HAL13.md d.4).
// --trace FILE writes Chrome trace-event JSON of the run (open it in ui.perfetto.dev or
// chrome://tracing): a span per preparation, execution, executed node and WHILE iteration.
// --profile prints, after the summary table, per operation type the number of nodes executed and
// their total time, sorted by time.
// --reference-kernels prepares every model with the plain reference kernels
// (PrepareOptions::reference_kernels): no SIMD tables, packed weights or lookup tables.
// --check-versions also compares, for every valid model whose corpus entry records a HAL version
// (minSupportedVersion V1_0 ... V1_3), nnhal's compliance report (the lowest HAL version the
// model complies with) with that version. An older answer than the corpus' would hand a model to
// a driver that cannot take it: it is printed as `VERSION ...` and counts as a failure. A newer
// one is counted apart (printed with --verbose): the corpus records the version whose behaviour a
// model exercises, so a model that spells out an optional input at its default value (an NHWC
// layout flag, axis -1, align_corners false) is recorded with the older version, while
// compliance, as AOSP's compliantWithV1_x and HAL13.md f.2 define it, goes by the operand types
// and input count the model uses.
// Exit status: 0 when no model failed, 1 when some did, 2 for usage errors and for paths or
// files that cannot be read (never a silent pass).

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cts/json_model.hpp"
#include "cts/model_builder.hpp"
#include "cts/names.hpp"
#include "cts/runner.hpp"
#include "nnhal/util/chrome_trace.hpp"
#include "nnhal/util/dot.hpp"
#include "nnhal/validate/compliance.hpp"

namespace fs = std::filesystem;
using namespace nnhal::cts;

namespace {

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct CommandLine {
  std::string filter;
  bool verbose = false;
  std::string dump_dot;  ///< folder for one <model>.dot per model; empty: no dumps
  std::string trace;     ///< Chrome trace-event JSON file; empty: no trace
  bool profile = false;  ///< print the per-operation time table
  bool check_versions = false;  ///< compare compliance with the corpus' minSupportedVersion
  RunnerOptions options;
  std::vector<std::string> paths;
};

void print_usage(std::ostream& out) {
  out << "usage: nnhal_cts [--mode sync|async|fenced|burst] [--threads N] [--reference-kernels]\n"
         "                 [--filter SUBSTRING] [--loop-timeout-ms N] [--verbose] [--dump-dot DIR] [--trace FILE]\n"
         "                 [--profile] [--check-versions] PATH...\n"
         "  --mode MODE        how executions are launched through the device (default sync)\n"
         "  --threads N        threads each execution's kernels may use (DeviceOptions::threads, default 1)\n"
         "  --reference-kernels  prepare with the plain reference kernels (PrepareOptions::reference_kernels)\n"
         "  PATH               a corpus JSON file or a folder (searched recursively for *.json)\n"
         "  --filter SUBSTRING run only the models whose name contains SUBSTRING\n"
         "  --loop-timeout-ms N  WHILE loop time limit in milliseconds\n"
         "  --verbose          also print a line for every skipped and passed model\n"
         "  --dump-dot DIR     also write each model as Graphviz DOT to DIR/<model>.dot\n"
         "  --trace FILE       write a Chrome trace-event JSON of the run to FILE (Perfetto, chrome://tracing)\n"
         "  --profile          print per operation type: nodes executed and their total time\n"
         "  --check-versions   compare each model's lowest compliant HAL version with the corpus' minSupportedVersion\n";
}

/// Parses the command line; returns false (after printing why) on a usage error.
bool parse_command_line(int argc, char** argv, CommandLine& cl) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&](std::string_view option) -> const char* {
      if (i + 1 >= argc) {
        std::cerr << "nnhal_cts: " << option << " needs a value\n";
        return nullptr;
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      print_usage(std::cout);
      std::exit(0);
    } else if (arg == "--verbose") {
      cl.verbose = true;
    } else if (arg == "--dump-dot") {
      const char* v = value(arg);
      if (v == nullptr) return false;
      cl.dump_dot = v;
    } else if (arg == "--trace") {
      const char* v = value(arg);
      if (v == nullptr) return false;
      cl.trace = v;
    } else if (arg == "--profile") {
      cl.profile = true;
    } else if (arg == "--reference-kernels") {
      cl.options.reference_kernels = true;
    } else if (arg == "--check-versions") {
      cl.check_versions = true;
    } else if (arg == "--filter") {
      const char* v = value(arg);
      if (v == nullptr) return false;
      cl.filter = v;
    } else if (arg == "--mode") {
      const char* v = value(arg);
      if (v == nullptr) return false;
      const std::string_view mode = v;
      if (mode == "sync") cl.options.mode = ExecutionMode::Sync;
      else if (mode == "async") cl.options.mode = ExecutionMode::Async;
      else if (mode == "fenced") cl.options.mode = ExecutionMode::Fenced;
      else if (mode == "burst") cl.options.mode = ExecutionMode::Burst;
      else {
        std::cerr << "nnhal_cts: --mode is sync, async, fenced or burst, got '" << mode << "'\n";
        return false;
      }
    } else if (arg == "--threads") {
      const char* v = value(arg);
      if (v == nullptr) return false;
      const std::string_view text = v;
      std::size_t n = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec != std::errc{} || end != text.data() + text.size() || n == 0 || n > 64) {
        std::cerr << "nnhal_cts: --threads needs a count from 1 to 64, got '" << text << "'\n";
        return false;
      }
      cl.options.threads = n;
    } else if (arg == "--loop-timeout-ms") {
      const char* v = value(arg);
      if (v == nullptr) return false;
      const std::string_view text = v;
      std::uint64_t ms = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
      if (ec != std::errc{} || end != text.data() + text.size()) {
        std::cerr << "nnhal_cts: --loop-timeout-ms needs a non-negative integer, got '" << text << "'\n";
        return false;
      }
      cl.options.loop_timeout_ms = ms;
    } else if (arg.size() > 1 && arg[0] == '-') {
      std::cerr << "nnhal_cts: unknown option " << arg << "\n";
      return false;
    } else {
      cl.paths.emplace_back(arg);
    }
  }
  if (cl.paths.empty()) {
    std::cerr << "nnhal_cts: no PATH given\n";
    return false;
  }
  return true;
}

/// The JSON files of each path, in argument order, each folder's files sorted so the output
/// does not depend on directory order. Returns false (after printing why) if a path does not
/// exist or a folder holds no JSON file.
bool collect_files(const std::vector<std::string>& paths, std::vector<fs::path>& files) {
  for (const std::string& p : paths) {
    std::error_code ec;
    const fs::path path(p);
    if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
      continue;
    }
    if (!fs::is_directory(path, ec)) {
      std::cerr << "nnhal_cts: " << p << ": no such file or folder\n";
      return false;
    }
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json" && it->is_regular_file(ec)) found.push_back(it->path());
    if (ec) {
      std::cerr << "nnhal_cts: " << p << ": " << ec.message() << "\n";
      return false;
    }
    if (found.empty()) {
      std::cerr << "nnhal_cts: " << p << ": no .json files in this folder\n";
      return false;
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return true;
}

/// Model counts per outcome, indexed by Outcome.
using Counts = std::array<std::size_t, 3>;
static_assert(static_cast<int>(Outcome::Passed) == 0 && static_cast<int>(Outcome::Failed) == 1 &&
              static_cast<int>(Outcome::Skipped) == 2);

/// Distinct operation codes of a model, over all its subgraphs.
std::set<std::int32_t> operation_codes(const TestModel& m) {
  std::set<std::int32_t> codes;
  for (const auto& op : m.main.operations) codes.insert(static_cast<std::int32_t>(op.type));
  for (const auto& sg : m.referenced)
    for (const auto& op : sg.operations) codes.insert(static_cast<std::int32_t>(op.type));
  return codes;
}

/// Writes `m` as DOT to `folder`/<model name>.dot; false (after printing why) if it cannot.
bool dump_dot(const TestModel& m, const fs::path& folder) {
  const BuiltModel built = build_model(m);
  std::string name = m.name;
  for (char& c : name)
    if (c == '/' || c == '\\' || c == ':') c = '_';
  const fs::path file = folder / (name + ".dot");
  std::ofstream out(file, std::ios::binary);
  nnhal::write_dot(built.model, [&out](std::string_view s) { out.write(s.data(), static_cast<std::streamsize>(s.size())); });
  if (!out) {
    std::cerr << "nnhal_cts: cannot write " << file.string() << "\n";
    return false;
  }
  return true;
}

/// How nnhal's compliance report compares with the corpus' minSupportedVersion (see the file
/// comment); NotApplicable for invalid models and those without a HAL 1.x version recorded.
struct VersionCheck {
  enum Outcome { NotApplicable, Agree, Newer, Older } outcome = NotApplicable;
  std::string detail;
};

VersionCheck check_version(const TestModel& m) {
  if (m.expectFailure || m.minSupportedVersion.rfind("V1_", 0) != 0) return {};
  const BuiltModel built = build_model(m);
  auto report = nnhal::check_compliance(built.model);
  if (!report) return {};  // invalid for nnhal: the run reports it
  const std::string mine = "V1_" + std::string(1, nnhal::to_string(report->minimum).back());
  if (mine == m.minSupportedVersion) return {VersionCheck::Agree, {}};
  std::string why = "corpus " + m.minSupportedVersion + ", nnhal " + mine;
  if (!report->reasons.empty()) why += " (" + report->reasons.front().message + ")";
  return {mine > m.minSupportedVersion ? VersionCheck::Newer : VersionCheck::Older, why};
}

void print_table(const std::map<std::int32_t, Counts>& per_operation) {
  if (per_operation.empty()) return;
  std::printf("\n%-30s %8s %8s %8s\n", "operation", "passed", "failed", "skipped");
  for (const auto& [code, c] : per_operation)
    std::printf("%-30s %8zu %8zu %8zu\n",
                std::string(operation_name(static_cast<nnhal::OperationType>(code))).c_str(), c[0], c[1], c[2]);
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine cl;
  if (!parse_command_line(argc, argv, cl)) {
    print_usage(std::cerr);
    return kExitUsage;
  }
  std::vector<fs::path> files;
  if (!collect_files(cl.paths, files)) return kExitUsage;

  if (!cl.dump_dot.empty()) {
    std::error_code ec;
    fs::create_directories(cl.dump_dot, ec);
    if (ec) {
      std::cerr << "nnhal_cts: cannot create " << cl.dump_dot << ": " << ec.message() << "\n";
      return kExitUsage;
    }
  }

  // Tracing: the trace file, the profile, or both through a tee.
  std::FILE* trace_file = nullptr;
  if (!cl.trace.empty()) {
    trace_file = std::fopen(cl.trace.c_str(), "wb");
    if (trace_file == nullptr) {
      std::cerr << "nnhal_cts: cannot write " << cl.trace << "\n";
      return kExitUsage;
    }
  }
  auto write_trace = [trace_file](std::string_view s) { std::fwrite(s.data(), 1, s.size(), trace_file); };
  std::optional<nnhal::ChromeTrace> chrome;
  if (trace_file != nullptr) chrome.emplace(write_trace);
  nnhal::OperationProfile profile;
  std::optional<nnhal::TraceTee> tee;
  if (chrome && cl.profile) tee.emplace(*chrome, profile);
  if (tee) cl.options.trace = &*tee;
  else if (chrome) cl.options.trace = &*chrome;
  else if (cl.profile) cl.options.trace = &profile;

  Counts total{};
  std::size_t dumped = 0;
  std::size_t versions_agree = 0, versions_newer = 0, versions_older = 0;
  Counts runtime_only{};  // of total: models that needed the runtime-only device
  std::map<std::int32_t, Counts> per_operation;
  bool file_errors = false;
  for (const fs::path& file : files) {
    std::vector<TestModel> models;
    try {
      models = load_corpus_file(file, cl.filter);
    } catch (const CorpusError& e) {
      std::cout << std::flush;
      std::cerr << "ERROR " << file.string() << ": " << e.what() << std::endl;
      file_errors = true;
      continue;
    }
    for (const TestModel& m : models) {
      if (!cl.dump_dot.empty()) {
        if (!dump_dot(m, cl.dump_dot)) file_errors = true;
        else ++dumped;
      }
      if (cl.check_versions) {
        const VersionCheck v = check_version(m);
        versions_agree += v.outcome == VersionCheck::Agree ? 1 : 0;
        versions_newer += v.outcome == VersionCheck::Newer ? 1 : 0;
        versions_older += v.outcome == VersionCheck::Older ? 1 : 0;
        if (v.outcome == VersionCheck::Older || (cl.verbose && v.outcome == VersionCheck::Newer))
          std::cout << "VERSION " << file.string() << ":" << m.name << ": " << v.detail << std::endl;
      }
      const ModelResult r = run_model(m, cl.options);
      const auto slot = static_cast<std::size_t>(r.outcome);
      ++total[slot];
      if (r.runtime_only) ++runtime_only[slot];
      for (std::int32_t code : operation_codes(m)) ++per_operation[code][slot];
      if (r.outcome == Outcome::Failed)
        std::cout << "FAIL " << file.string() << ":" << m.name << (r.runtime_only ? " (runtime only)" : "") << ": "
                  << r.reason << std::endl;
      else if (cl.verbose)
        std::cout << (r.outcome == Outcome::Passed ? "PASS " : "SKIP ") << file.string() << ":" << m.name
                  << (r.runtime_only ? " (runtime only)" : "") << (r.reason.empty() ? "" : ": ") << r.reason << "\n";
    }
  }

  std::cout << std::flush;
  print_table(per_operation);
  if (total[0] + total[1] + total[2] == 0)
    std::fprintf(stderr, "nnhal_cts: no model matched%s%s\n", cl.filter.empty() ? "" : " --filter ",
                 cl.filter.c_str());
  if (cl.options.mode == ExecutionMode::Fenced)
    std::printf("fenced mode: %zu runs with outputs that cannot be fully specified were refused with "
                "INVALID_ARGUMENT, as executeFenced must\n", fenced_unspecified_runs());
  if (!cl.dump_dot.empty()) std::printf("%zu models written as DOT to %s\n", dumped, cl.dump_dot.c_str());
  if (cl.check_versions)
    std::printf("versions: %zu models agree with the corpus' minSupportedVersion, %zu need a newer version "
                "(--verbose lists them), %zu an older one\n",
                versions_agree, versions_newer, versions_older);
  // Passes split into those of the strict HAL 1.3 device and those that needed runtime-only
  // features (WHILE operands of unknown size, HAL13.md d.4 rule 4).
  if (cl.profile) {
    std::printf("\nprofile (IF and WHILE times include the nodes they run):\n");
    profile.write([](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); });
  }
  if (chrome) {
    chrome->finish();
    const bool written = std::fflush(trace_file) == 0 && std::ferror(trace_file) == 0;
    std::fclose(trace_file);
    if (!written) {
      std::cerr << "nnhal_cts: cannot write " << cl.trace << "\n";
      file_errors = true;
    } else {
      std::printf("%llu trace events written to %s\n", static_cast<unsigned long long>(chrome->events()),
                  cl.trace.c_str());
    }
  }
  std::printf("%zu passed (%zu strict, %zu runtime only), %zu failed, %zu skipped\n", total[0],
              total[0] - runtime_only[0], runtime_only[0], total[1], total[2]);
  std::fflush(stdout);
  if (file_errors) return kExitUsage;
  return total[1] == 0 && versions_older == 0 ? 0 : kExitFailed;
}
