// One model through nnhal: supported-operations query, prepare, execute, check.

#include "cts/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cts/compare.hpp"
#include "cts/execute.hpp"
#include "cts/model_builder.hpp"
#include "cts/names.hpp"
// The default kernel set is compiled once, in the nnhal_default_kernels library this program
// links (NNHAL_EXTERN_DEFAULT_KERNELS): only the light headers here.
#include "nnhal/device/device.hpp"
#include "nnhal/nnhal.hpp"

namespace nnhal::cts {
namespace {

/// The device models run on (worker threads for the asynchronous modes): a strict HAL 1.3
/// device, or, for the models only a runtime-only device accepts (WHILE operands of unknown
/// size, HAL13.md d.4 rule 4), one with DeviceOptions::allow_runtime_only.
/// Both are made at the first run, with that run's RunnerOptions::trace, ::threads and
/// ::reference_kernels.
Device<>& device(const RunnerOptions& options, bool runtime_only = false) {
  static Device<> strict([&] {
    DeviceOptions<> o;
    o.trace = options.trace;
    o.threads = options.threads;
    o.reference_kernels = options.reference_kernels;
    return o;
  }());
  if (!runtime_only) return strict;
  static Device<> runtime([&] {
    DeviceOptions<> o;
    o.name = "nnhal-cpu-runtime-only";
    o.allow_runtime_only = true;
    o.trace = options.trace;
    o.threads = options.threads;
    o.reference_kernels = options.reference_kernels;
    return o;
  }());
  return runtime;
}

std::atomic<std::size_t> g_fenced_unspecified{0};

/// executeFenced needs fully specified outputs: the request gives each output the dimensions
/// the corpus lists when the model leaves them unknown. False when some output still cannot be
/// specified (unknown rank or a zero-sized dimension).
bool specify_outputs(const TestModel& test, const Model& model, Request& request) {
  bool all = true;
  for (std::size_t k = 0; k < request.outputs.size(); ++k) {
    const Operand& declared = model.main.operands[model.main.outputIndexes[k]];
    if (!is_tensor(declared.type)) continue;
    const auto& listed = test.main.operands[test.main.outputIndexes[k]].operand.dimensions;
    bool known = !declared.dimensions.empty();
    for (std::uint32_t d : declared.dimensions) known = known && d != 0;
    if (known) continue;
    request.outputs[k].dimensions.assign(listed.begin(), listed.end());
    for (std::uint32_t d : listed) all = all && d != 0;
    all = all && !listed.empty();
  }
  return all;
}

/// True when every main output is declared with a known rank and no 0 dimension: only then may
/// a successful execution omit the output shapes (HAL13.md c.3).
bool outputs_fully_specified(const Model& model) {
  for (std::uint32_t k : model.main.outputIndexes) {
    const Operand& op = model.main.operands[k];
    if (!is_tensor(op.type)) continue;
    if (op.dimensions.empty()) return false;
    for (std::uint32_t d : op.dimensions)
      if (d == 0) return false;
  }
  return true;
}

void add_problem(std::string& problems, std::size_t output, const std::string& what) {
  if (!problems.empty()) problems += "; ";
  problems += "output " + std::to_string(output) + ": " + what;
}

/// Checks every non-ignored output of a successful run: reported shape and values.
std::optional<std::string> check_outputs(const TestModel& test, const Model& model, const BuiltRequest& request,
                                         const std::vector<OutputShape>& shapes, bool request_specifies_outputs) {
  const TestSubgraph& main = test.main;
  if (shapes.empty() && !outputs_fully_specified(model) && !request_specifies_outputs)
    return "no output shapes reported, but some outputs have unknown dimensions";
  if (!shapes.empty() && shapes.size() != main.outputIndexes.size())
    return std::to_string(shapes.size()) + " output shapes reported for " +
           std::to_string(main.outputIndexes.size()) + " outputs";

  const bool relaxed = uses_relaxed_float32_tolerance(test);
  const bool mobilenet = is_mobilenet(test.name);
  std::string problems;
  for (std::size_t k = 0; k < main.outputIndexes.size(); ++k) {
    const TestOperand& t = main.operands[main.outputIndexes[k]];
    if (t.ignored) continue;  // neither values nor shape (SCHEMA)
    const auto& listed = t.operand.dimensions;
    if (!shapes.empty())
      if (auto p = compare_shape(listed, shapes[k].dimensions)) {
        add_problem(problems, k, *p);
        continue;  // values laid out for another shape say nothing more
      }
    const std::size_t count = is_tensor(t.operand.type) ? element_count(listed) : 1;
    if (t.data.size() != count * element_size(t.operand.type)) {
      add_problem(problems, k, "the corpus lists " + std::to_string(t.data.size()) + " bytes of values for shape " +
                                   dims_string(listed));
      continue;
    }
    const std::byte* actual = request.outputs.data() + request.output_slots[k].offset;
    if (test.multinomialTolerance > 0.0) {
      // Statistical check instead of the element-wise one: input 0 holds the logits.
      if (main.inputIndexes.empty()) {
        add_problem(problems, k, "multinomial check without a logits input");
        continue;
      }
      const TestOperand& logits = main.operands[main.inputIndexes[0]];
      if (auto p = check_multinomial(logits.operand.type, logits.data.data(), logits.operand.dimensions, actual,
                                     listed, test.multinomialTolerance))
        add_problem(problems, k, *p);
      continue;
    }
    const auto tol = output_tolerance(t.operand.type, relaxed, mobilenet);
    if (!tol) {
      add_problem(problems, k, "outputs of type " + std::string(to_string(t.operand.type)) + " cannot be compared");
      continue;
    }
    if (auto p = compare_values(t.operand.type, *tol, actual, t.data.data(), count)) add_problem(problems, k, *p);
  }
  if (problems.empty()) return std::nullopt;
  return problems;
}

/// One complete attempt: prepare `built`, execute a fresh request, and (when `check`) verify
/// the outputs. Returns what went wrong, or nullopt.
struct Attempt {
  bool executed = false;  ///< preparation and execution succeeded
  std::optional<std::string> problem;
};

Attempt attempt(const TestModel& test, const BuiltModel& built, bool check, const RunnerOptions& options,
                bool runtime_only) {
  auto prepared = device(options, runtime_only).prepare(built.model);
  if (!prepared) return {false, describe("prepare", prepared.error())};
  BuiltRequest request = build_request(test);
  const bool fenced = options.mode == ExecutionMode::Fenced;
  if (fenced && !specify_outputs(test, built.model, request.request)) {
    ExecutionResult result = execute(**prepared, request.request, options);
    if (!check) return {!result.failure, result.failure};
    if (result.status == ErrorStatus::INVALID_ARGUMENT) {
      ++g_fenced_unspecified;
      return {true, std::nullopt};
    }
    return {true, "executeFenced accepted outputs that are not fully specified"};
  }
  ExecutionResult result = execute(**prepared, request.request, options);
  if (result.failure) return {false, result.failure};
  if (!check) return {true, std::nullopt};
  // Fenced runs report no shapes; their request specified every output instead.
  return {true, check_outputs(test, built.model, request, result.shapes, fenced)};
}

std::string unsupported_list(const TestSubgraph& main, const std::vector<bool>& supported) {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < supported.size(); ++i) {
    if (supported[i]) continue;
    const std::string_view name = operation_name(main.operations[i].type);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string s = "unsupported operation";
  s += names.size() == 1 ? " " : "s ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i != 0) s += ", ";
    s += names[i];
  }
  return s;
}

}  // namespace

std::size_t fenced_unspecified_runs() { return g_fenced_unspecified.load(); }

/// The first operation code of the model that HAL 1.3 does not define (the AIDL folders use
/// codes 102 and up), if any.
static std::optional<std::int32_t> unknown_operation_code(const TestModel& test) {
  auto scan = [](const TestSubgraph& sg) -> std::optional<std::int32_t> {
    for (const auto& op : sg.operations) {
      const auto code = static_cast<std::int32_t>(op.type);
      if (code < 0 || code >= nnhal::kOperationTypeCount) return code;
    }
    return std::nullopt;
  };
  if (auto c = scan(test.main)) return c;
  for (const TestSubgraph& sg : test.referenced)
    if (auto c = scan(sg)) return c;
  return std::nullopt;
}

ModelResult run_model(const TestModel& test, const RunnerOptions& options) {
  if (!test.conversionError.empty()) return {Outcome::Failed, test.conversionError};
  // Models of interfaces newer than HAL 1.3: an operation code nnhal does not know is skipped
  // (a HAL 1.3 driver rightly rejects it; there is nothing of nnhal's to check).
  if (const auto code = unknown_operation_code(test))
    return {Outcome::Skipped, "operation code " + std::to_string(*code) + " (" +
                                  std::string(operation_name(static_cast<nnhal::OperationType>(*code))) +
                                  ") is not a HAL 1.3 operation"};

  const BuiltModel built = build_model(test, OutputDims::Listed);
  // The strict device first; a model it refuses as invalid that the runtime-only device
  // accepts runs there and is counted as "runtime only".
  bool runtime_only = false;
  auto supported = device(options).supported_operations(built.model);  // validates the model first
  if (!supported) {
    auto lenient = device(options, true).supported_operations(built.model);
    if (lenient) {
      runtime_only = true;
      supported = std::move(lenient);
    }
  }
  if (!supported) {
    if (test.expectFailure) return {Outcome::Passed, {}};
    // A known operation used in a way only a newer interface allows (quantized RSQRT, RESHAPE of
    // TENSOR_INT32 ...): HAL 1.3 validation rejects it, as it must.
    if (test.minSupportedVersion.rfind("AIDL", 0) == 0)
      return {Outcome::Skipped, "needs " + test.minSupportedVersion + ", newer than HAL 1.3 (" +
                                    describe("validation", supported.error()) + ")"};
    return {Outcome::Failed, describe("validation", supported.error())};
  }
  for (bool s : *supported)
    if (!s) return {Outcome::Skipped, unsupported_list(test.main, *supported), runtime_only};

  if (test.expectFailure) {
    const Attempt a = attempt(test, built, false, options, runtime_only);
    if (!a.executed) return {Outcome::Passed, {}, runtime_only};
    return {Outcome::Failed, "expected a failure, but validation, preparation and execution succeeded", runtime_only};
  }

  std::string reason;
  if (const Attempt a = attempt(test, built, true, options, runtime_only); a.problem)
    reason = "listed-shape run: " + *a.problem;
  if (has_dynamic_output_run(test)) {
    const BuiltModel dynamic = build_model(test, OutputDims::Unknown);
    if (const Attempt a = attempt(test, dynamic, true, options, runtime_only); a.problem) {
      if (!reason.empty()) reason += " | ";
      reason += "dynamic-output run: " + *a.problem;
    }
  }
  if (!reason.empty()) return {Outcome::Failed, reason, runtime_only};
  return {Outcome::Passed, {}, runtime_only};
}

}  // namespace nnhal::cts
