// nnhal_random_graphs: generates valid models with nested IF/WHILE from the operation table and
// checks that nnhal runs each one consistently.
//
//   nnhal_random_graphs [--seed S] [--count N] [--family NAME] [--verbose] [--dump DIR] [--save DIR]
//
// Model i of seed S is generated from the seed S * 1000003 + i, from the operations of family
// i mod 5 (families.hpp; --family restricts to one). Each model is checked:
//   1. the plain reference kernels (PrepareOptions::reference_kernels) run it;
//   2. the fastest kernels (the default set) give the same shapes and values within the
//      corpus tolerances (shared/cts/SCHEMA.md "How outputs are compared");
//   3. run again on the same execution, they allocate nothing and give the same bits;
//   4. the four execution modes of the device (synchronous, asynchronous, fenced, burst) give
//      the same bits (fenced: when every output can be specified in the request; otherwise
//      executeFenced must refuse the request with INVALID_ARGUMENT);
//   5. with main's outputs declared of unknown dimensions, the same bits and shapes;
//   6. a kernel set of the model's family alone gives the same bits (not checked, and said at
//      start, in a build without the family sets: NNHAL_RANDOM_GRAPHS_FAMILY_SETS=0).
// A failing model is printed as `FAIL <name>: <reason>`, followed by the model as one line of
// JSON in the corpus format (its expected outputs are the reference kernels' results), which
// `nnhal_cts FILE` replays once saved in a file of the form {"spec":...,"models":[...]}; with
// --dump DIR that file is written as DIR/<name>.json; --save DIR writes every model so (ctest
// random_graphs_replay runs nnhal_cts over such a folder). The last line is `N passed, N failed`;
// before it, the number of IF and WHILE nodes, the nesting depths generated and how many models
// the fastest and the reference kernels did not give bit-identical results for.
// Exit status: 0 when every model passed, 1 otherwise, 2 for usage errors.

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cts/compare.hpp"
#include "cts/execute.hpp"
#include "cts/model_builder.hpp"
#include "cts/names.hpp"
#include "families.hpp"
#include "generator.hpp"
#include "nnhal/device/device.hpp"
#include "nnhal/nnhal.hpp"
#include "support/counting_allocator.hpp"

namespace nnhal::random_graphs {
namespace {

/// Loops in generated models run at most 3 iterations; a bug that loops forever ends here.
constexpr std::chrono::milliseconds kLoopTimeout{1000};

/// What one run produced: shapes and bytes of main's outputs, or why it failed.
struct RunOutputs {
  std::optional<std::string> error;
  std::vector<std::vector<std::uint32_t>> shapes;
  std::vector<std::vector<std::byte>> values;
};

std::size_t byte_count(OperandType type, const std::vector<std::uint32_t>& shape) {
  return element_size(type) * (is_tensor(type) ? cts::element_count(shape) : 1);
}

/// The outputs of `request` after a successful run whose reported shapes are `shapes`.
RunOutputs collect(const cts::TestModel& test, const cts::BuiltRequest& request,
                   std::vector<std::vector<std::uint32_t>> shapes) {
  RunOutputs r;
  r.shapes = std::move(shapes);
  for (std::size_t k = 0; k < test.main.outputIndexes.size(); ++k) {
    const OperandType type = test.main.operands[test.main.outputIndexes[k]].operand.type;
    const std::size_t bytes = std::min(byte_count(type, r.shapes[k]), request.output_slots[k].length);
    const std::byte* at = request.outputs.data() + request.output_slots[k].offset;
    r.values.emplace_back(at, at + bytes);
  }
  return r;
}

std::vector<std::vector<std::uint32_t>> shapes_of(std::span<const OutputShape> shapes) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const OutputShape& s : shapes) out.push_back(s.dimensions);
  return out;
}

PrepareOptions prepare_options(bool reference) {
  PrepareOptions o;
  o.validation.allow_runtime_only = true;
  o.reference_kernels = reference;
  return o;
}

/// Prepares `built` with `prepare` and runs it once through PreparedModel / Execution; with
/// `allocations`, runs it a second time on the same execution and counts that run's
/// allocations, and the second run's outputs are returned.
template <class Prepare>
RunOutputs run_direct(const cts::TestModel& test, const cts::BuiltModel& built, Prepare&& prepare,
                      std::size_t* allocations = nullptr, RunOutputs* first = nullptr) {
  auto prepared = prepare(built.model);
  if (!prepared) return {cts::describe("prepare", prepared.error()), {}, {}};
  auto execution = prepared->create_execution();
  if (!execution) return {cts::describe("create execution", execution.error()), {}, {}};
  cts::BuiltRequest request = cts::build_request(test);
  ExecuteOptions<SteadyClock> options;
  options.loop_timeout = kLoopTimeout;
  if (Status s = execution->run(request.request, options); !s) return {cts::describe("execute", s.error()), {}, {}};
  RunOutputs out = collect(test, request, shapes_of(execution->output_shapes()));
  if (allocations == nullptr) return out;
  if (first != nullptr) *first = out;
  std::memset(request.outputs.data(), static_cast<int>(cts::kOutputSentinel), request.outputs.size());
  Status again;
  *allocations = nnhal::test::allocations_during([&] { again = execution->run(request.request, options); });
  if (!again) return {cts::describe("second execute", again.error()), {}, {}};
  return collect(test, request, shapes_of(execution->output_shapes()));
}

/// The device every mode runs on: runtime-only features allowed (generated WHILE loops carry
/// operands of unknown size).
Device<>& device() {
  static Device<> d([] {
    DeviceOptions<> o;
    o.name = "nnhal-random-graphs";
    o.allow_runtime_only = true;
    return o;
  }());
  return d;
}

/// Runs `built` on the device in `mode`. Fenced runs specify every output's dimensions in the
/// request (from `shapes`); when one cannot be specified (zero-sized), the device must refuse.
RunOutputs run_mode(const cts::TestModel& test, const cts::BuiltModel& built, cts::ExecutionMode mode,
                    const std::vector<std::vector<std::uint32_t>>& shapes, bool& fenced_refused) {
  auto prepared = device().prepare(built.model);
  if (!prepared) return {cts::describe("device prepare", prepared.error()), {}, {}};
  cts::BuiltRequest request = cts::build_request(test);
  cts::RunnerOptions options;
  options.mode = mode;
  options.loop_timeout_ms = static_cast<std::uint64_t>(kLoopTimeout.count());
  bool specifiable = true;
  if (mode == cts::ExecutionMode::Fenced) {
    for (std::size_t k = 0; k < request.request.outputs.size(); ++k) {
      const OperandType type = test.main.operands[test.main.outputIndexes[k]].operand.type;
      if (!is_tensor(type)) continue;
      request.request.outputs[k].dimensions = shapes[k];
      for (std::uint32_t d : shapes[k]) specifiable = specifiable && d != 0;
      specifiable = specifiable && !shapes[k].empty();
    }
  }
  cts::ExecutionResult r = cts::execute(**prepared, request.request, options);
  if (!specifiable) {
    fenced_refused = true;
    if (r.status == ErrorStatus::INVALID_ARGUMENT) return {};
    return {"executeFenced accepted outputs that cannot be fully specified", {}, {}};
  }
  if (r.failure) return {r.failure, {}, {}};
  return collect(test, request, mode == cts::ExecutionMode::Fenced ? shapes : shapes_of(r.shapes));
}

/// Compares two runs: shapes exactly; values bit for bit, or with `tolerances` within the
/// corpus tolerances of each output type (exact for types the corpus does not compare).
std::optional<std::string> compare(const cts::TestModel& test, const RunOutputs& got, const RunOutputs& want,
                                   bool tolerances) {
  if (got.error) return *got.error;
  std::string problems;
  auto add = [&](std::size_t k, const std::string& what) {
    if (!problems.empty()) problems += "; ";
    problems += "output " + std::to_string(k) + ": " + what;
  };
  const bool relaxed = cts::uses_relaxed_float32_tolerance(test);
  for (std::size_t k = 0; k < want.shapes.size(); ++k) {
    if (got.shapes.size() <= k || got.shapes[k] != want.shapes[k]) {
      add(k, "shape " + (got.shapes.size() > k ? cts::dims_string(got.shapes[k]) : std::string("missing")) +
                 ", expected " + cts::dims_string(want.shapes[k]));
      continue;
    }
    if (got.values[k].size() != want.values[k].size()) {
      add(k, std::to_string(got.values[k].size()) + " bytes, expected " + std::to_string(want.values[k].size()));
      continue;
    }
    const OperandType type = test.main.operands[test.main.outputIndexes[k]].operand.type;
    const auto tol = cts::output_tolerance(type, relaxed, false);
    if (tolerances && tol) {
      // The corpus rule, except that NaN matches NaN (the corpus has no NaN to expect; random
      // inputs reach SQRT, LOG or POW of negative numbers).
      const std::size_t count = got.values[k].size() / std::max<std::size_t>(element_size(type), 1);
      std::size_t bad = 0, first = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const double a = cts::read_element(type, got.values[k].data(), i);
        const double e = cts::read_element(type, want.values[k].data(), i);
        if ((std::isnan(a) && std::isnan(e)) || cts::element_matches(a, e, *tol)) continue;
        if (bad++ == 0) first = i;
      }
      if (bad != 0) {
        char text[160];
        std::snprintf(text, sizeof text, "%zu of %zu elements differ, first [%zu]: %.9g, reference %.9g", bad, count,
                      first, cts::read_element(type, got.values[k].data(), first),
                      cts::read_element(type, want.values[k].data(), first));
        add(k, text);
      }
    } else if (got.values[k] != want.values[k]) {
      add(k, "the bytes differ");
    }
  }
  if (problems.empty()) return std::nullopt;
  return problems;
}

// ---- the corpus format ------------------------------------------------------------------------

nlohmann::ordered_json values_json(OperandType type, const std::vector<std::byte>& data) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  const std::size_t size = type == OperandType::SUBGRAPH ? sizeof(std::uint32_t) : element_size(type);
  if (size == 0) return values;
  for (std::size_t i = 0; i < data.size() / size; ++i) {
    const double v = cts::read_element(type, data.data(), i);
    switch (type) {
      case OperandType::BOOL:
      case OperandType::TENSOR_BOOL8:
        values.push_back(v != 0.0);
        break;
      case OperandType::FLOAT32:
      case OperandType::TENSOR_FLOAT32:
      case OperandType::FLOAT16:
      case OperandType::TENSOR_FLOAT16:
        if (std::isnan(v)) values.push_back("nan");
        else if (std::isinf(v)) values.push_back(v > 0 ? "inf" : "-inf");
        else values.push_back(v);
        break;
      default:
        values.push_back(static_cast<std::int64_t>(v));
    }
  }
  return values;
}

const char* data_type_name(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::TENSOR_FLOAT32: return "float";
    case OperandType::FLOAT16:
    case OperandType::TENSOR_FLOAT16: return "_Float16";
    case OperandType::INT32:
    case OperandType::TENSOR_INT32: return "int32_t";
    case OperandType::UINT32:
    case OperandType::SUBGRAPH: return "uint32_t";
    case OperandType::TENSOR_QUANT16_SYMM: return "int16_t";
    case OperandType::TENSOR_QUANT16_ASYMM: return "uint16_t";
    case OperandType::TENSOR_QUANT8_ASYMM: return "uint8_t";
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8: return "bool8";
    default: return "int8_t";
  }
}

nlohmann::ordered_json subgraph_json(const cts::TestSubgraph& sg) {
  nlohmann::ordered_json j;
  j["name"] = "";
  j["operands"] = nlohmann::ordered_json::array();
  for (const cts::TestOperand& t : sg.operands) {
    const Operand& op = t.operand;
    nlohmann::ordered_json o;
    o["name"] = "";
    o["type"] = std::string(to_string(op.type));
    o["dimensions"] = op.dimensions;
    o["numberOfConsumers"] = op.numberOfConsumers;
    o["scale"] = static_cast<double>(op.scale);
    o["zeroPoint"] = op.zeroPoint;
    o["lifetime"] = std::string(to_string(op.lifetime));
    o["channelQuant"] = nullptr;
    o["isIgnored"] = t.ignored;
    o["data"] = {{"type", data_type_name(op.type)}, {"values", values_json(op.type, t.data)}};
    j["operands"].push_back(std::move(o));
  }
  j["operations"] = nlohmann::ordered_json::array();
  for (const Operation& op : sg.operations)
    j["operations"].push_back({{"type", std::string(to_string(op.type))}, {"inputs", op.inputs}, {"outputs", op.outputs}});
  j["inputIndexes"] = sg.inputIndexes;
  j["outputIndexes"] = sg.outputIndexes;
  return j;
}

/// One model in the corpus format (SCHEMA.md), on one line.
std::string model_json(const cts::TestModel& test) {
  nlohmann::ordered_json j;
  j["name"] = test.name;
  j["main"] = subgraph_json(test.main);
  j["referenced"] = nlohmann::ordered_json::array();
  for (const cts::TestSubgraph& sg : test.referenced) j["referenced"].push_back(subgraph_json(sg));
  j["isRelaxed"] = test.relaxed;
  j["expectFailure"] = false;
  j["expectedMultinomialDistributionTolerance"] = 0.0;
  j["minSupportedVersion"] = "UNKNOWN";
  return j.dump();
}

/// Writes `test` as DIR/<name>.json, a corpus file of one model.
void write_file(const std::string& dir, const cts::TestModel& test) {
  std::filesystem::create_directories(dir);
  std::ofstream out(std::filesystem::path(dir) / (test.name + ".json"));
  out << "{\"spec\": \"" << test.name << "\", \"version\": \"V1_3\", \"models\": [\n" << model_json(test) << "\n]}\n";
}

// ---- checking one model -----------------------------------------------------------------------

/// Checks one generated model (steps 1-6 above); fills its expected outputs with the reference
/// results. Returns what failed, or nullopt.
std::optional<std::string> check(cts::TestModel& test, const Family& family, bool& fenced_refused,
                                 bool& reference_bits_differ) {
  const cts::BuiltModel built = cts::build_model(test, cts::OutputDims::Listed);
  const RunOutputs reference =
      run_direct(test, built, [](const Model& m) { return PreparedModel::prepare(m, prepare_options(true)); });
  if (reference.error) return "reference kernels: " + *reference.error;
  for (std::size_t k = 0; k < test.main.outputIndexes.size(); ++k) test.main.operands[test.main.outputIndexes[k]].data = reference.values[k];

  std::size_t allocations = 0;
  RunOutputs fast_first;
  const RunOutputs fast = run_direct(
      test, built, [](const Model& m) { return PreparedModel::prepare(m, prepare_options(false)); }, &allocations,
      &fast_first);
  if (auto p = compare(test, fast_first, reference, true)) return "fastest vs reference kernels: " + *p;
  reference_bits_differ = compare(test, fast_first, reference, false).has_value();
  if (auto p = compare(test, fast, fast_first, false)) return "second run on the same execution: " + *p;
  if (allocations != 0) return "the second run allocated " + std::to_string(allocations) + " times";

  static constexpr std::pair<cts::ExecutionMode, const char*> kModes[] = {
      {cts::ExecutionMode::Sync, "sync"},
      {cts::ExecutionMode::Async, "async"},
      {cts::ExecutionMode::Fenced, "fenced"},
      {cts::ExecutionMode::Burst, "burst"}};
  for (const auto& [mode, name] : kModes) {
    bool refused = false;
    const RunOutputs r = run_mode(test, built, mode, fast.shapes, refused);
    if (refused) {
      if (r.error) return std::string(name) + " mode: " + *r.error;
      fenced_refused = true;
      continue;
    }
    if (auto p = compare(test, r, fast, false)) return std::string(name) + " mode: " + *p;
  }

  const cts::BuiltModel dynamic = cts::build_model(test, cts::OutputDims::Unknown);
  const RunOutputs unknown =
      run_direct(test, dynamic, [](const Model& m) { return PreparedModel::prepare(m, prepare_options(false)); });
  if (auto p = compare(test, unknown, fast, false)) return "outputs declared of unknown dimensions: " + *p;

  if (family.prepare == nullptr) return std::nullopt;  // built without the family sets: said at start
  const RunOutputs restricted =
      run_direct(test, built, [&](const Model& m) { return family.prepare(m, prepare_options(false)); });
  if (auto p = compare(test, restricted, fast, false)) return std::string("kernel set of ") + std::string(family.name) + ": " + *p;
  return std::nullopt;
}

/// Trial runs of the generator: the reference kernels on a candidate.
TrialResult trial(const cts::TestModel& test) {
  const cts::BuiltModel built = cts::build_model(test, cts::OutputDims::Listed);
  auto prepared = PreparedModel::prepare(built.model, prepare_options(true));
  static const bool explain = std::getenv("NNHAL_RANDOM_GRAPHS_EXPLAIN") != nullptr;
  if (!prepared && explain) std::fprintf(stderr, "candidate refused: %s\n", cts::describe("prepare", prepared.error()).c_str());
  if (!prepared) return {false, cts::describe("prepare", prepared.error()), {}, {}};
  auto execution = prepared->create_execution();
  if (!execution) return {false, cts::describe("create execution", execution.error()), {}, {}};
  // Outputs have unknown shapes: give each a generous buffer.
  cts::TestModel sized = test;
  for (std::uint32_t o : sized.main.outputIndexes) {
    Operand& op = sized.main.operands[o].operand;
    if (is_tensor(op.type)) op.dimensions = {4096 / static_cast<std::uint32_t>(std::max<std::size_t>(element_size(op.type), 1))};
  }
  cts::BuiltRequest request = cts::build_request(sized);
  ExecuteOptions<SteadyClock> options;
  options.loop_timeout = kLoopTimeout;
  if (Status s = execution->run(request.request, options); !s) return {false, cts::describe("execute", s.error()), {}, {}};
  TrialResult r{true, {}, shapes_of(execution->output_shapes()), {}};
  for (std::size_t k = 0; k < r.shapes.size(); ++k) {
    const OperandType type = test.main.operands[test.main.outputIndexes[k]].operand.type;
    const std::size_t count = is_tensor(type) ? cts::element_count(r.shapes[k]) : 1;
    const std::byte* at = request.outputs.data() + request.output_slots[k].offset;
    bool nan = false;
    for (std::size_t i = 0; i < count && element_size(type) * (i + 1) <= request.output_slots[k].length; ++i)
      nan = nan || std::isnan(cts::read_element(type, at, i));
    r.nan.push_back(nan);
  }
  return r;
}

int usage() {
  std::fprintf(stderr,
               "usage: nnhal_random_graphs [--seed S] [--count N] [--family NAME] [--verbose] [--dump DIR] "
               "[--save DIR]\n");
  return 2;
}

bool parse_u64(std::string_view s, std::uint64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && p == s.data() + s.size();
}

int run(int argc, char** argv) {
  std::uint64_t seed = 1, count = 100;
  std::optional<std::string> only_family, dump, save;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--seed" && has_value) {
      if (!parse_u64(argv[++i], seed)) return usage();
    } else if (a == "--count" && has_value) {
      if (!parse_u64(argv[++i], count)) return usage();
    } else if (a == "--family" && has_value) {
      only_family = argv[++i];
    } else if (a == "--dump" && has_value) {
      dump = argv[++i];
    } else if (a == "--save" && has_value) {
      save = argv[++i];
    } else if (a == "--verbose") {
      verbose = true;
    } else {
      return usage();
    }
  }
  std::vector<const Family*> chosen;
  for (const Family& f : families())
    if (!only_family || f.name == *only_family) chosen.push_back(&f);
  if (chosen.empty()) {
    std::fprintf(stderr, "nnhal_random_graphs: no family named %s\n", only_family->c_str());
    return 2;
  }

  if (chosen.front()->prepare == nullptr)
    std::printf("kernel-set check off: built without the family kernel sets (NNHAL_RANDOM_GRAPHS_FAMILY_SETS=0)\n");

  std::size_t passed = 0, failed = 0, fenced_refused = 0, reference_differs = 0;
  std::size_t if_nodes = 0, while_nodes = 0, operations = 0, shared = 0, growing = 0;
  std::map<std::size_t, std::size_t> depths;
  std::map<std::string, std::size_t> op_counts;
  for (std::uint64_t i = 0; i < count; ++i) {
    const Family& family = *chosen[i % chosen.size()];
    std::vector<OperationType> ops(family.operations.begin(), family.operations.end());
    ops.insert(ops.end(), std::begin(kHelpers), std::end(kHelpers));
    Generator generator(seed * 1000003u + i, ops, &trial);
    GraphStats stats;
    const std::string name = "random_s" + std::to_string(seed) + "_" + std::to_string(i) + "_" + std::string(family.name);
    cts::TestModel test = generator.generate(name, stats);
    if_nodes += stats.if_nodes;
    while_nodes += stats.while_nodes;
    operations += stats.operations;
    shared += stats.shared_branches;
    growing += stats.growing ? 1 : 0;
    ++depths[stats.depth];
    auto count_ops = [&](const cts::TestSubgraph& sg) {
      for (const Operation& op : sg.operations) ++op_counts[std::string(to_string(op.type))];
    };
    count_ops(test.main);
    for (const auto& sg : test.referenced) count_ops(sg);

    bool refused = false, bits_differ = false;
    const auto problem = check(test, family, refused, bits_differ);
    fenced_refused += refused ? 1 : 0;
    reference_differs += bits_differ ? 1 : 0;
    if (save) write_file(*save, test);
    if (!problem) {
      ++passed;
      if (verbose)
        std::printf("PASS %s: %zu operations, %zu IF, %zu WHILE, depth %zu\n", name.c_str(), stats.operations,
                    stats.if_nodes, stats.while_nodes, stats.depth);
      continue;
    }
    ++failed;
    const std::string json = model_json(test);
    std::printf("FAIL %s: %s\n%s\n", name.c_str(), problem->c_str(), json.c_str());
    if (dump) write_file(*dump, test);
    std::fflush(stdout);
  }
  if (verbose) {
    std::printf("operations used:");
    for (const auto& [op, n] : op_counts) std::printf(" %s=%zu", op.c_str(), n);
    std::printf("\n");
  }
  std::printf("%zu operations, %zu IF, %zu WHILE (%zu IF with one subgraph for both branches, %zu models with a "
              "growing loop tensor); fenced refused unspecifiable outputs in %zu models\n",
              operations, if_nodes, while_nodes, shared, growing, fenced_refused);
  std::printf("fastest and reference kernels: not bit-identical (within tolerance) in %zu models\n", reference_differs);
  std::printf("nesting depth:");
  for (const auto& [d, n] : depths) std::printf(" %zu: %zu models;", d, n);
  std::printf("\n%zu passed, %zu failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace nnhal::random_graphs

int main(int argc, char** argv) { return nnhal::random_graphs::run(argc, argv); }
