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
#include "cts/model_builder.hpp"
#include "cts/names.hpp"
// The default kernel set is compiled once, in the nnhal_default_kernels library this program
// links (NNHAL_EXTERN_DEFAULT_KERNELS): only the light headers here.
#include "nnhal/device/device.hpp"
#include "nnhal/nnhal.hpp"

namespace nnhal::cts {
namespace {

std::string describe(std::string_view stage, const Error& e) {
  std::string s(stage);
  s += ": ";
  s += to_string(e.status());
  s += ": ";
  s += e.message();
  return s;
}

/// What one execution produced: its status and, on success, the reported output shapes.
struct ExecutionResult {
  std::optional<std::string> failure;  ///< "stage: STATUS: message" when something failed
  std::optional<ErrorStatus> status;   ///< the failing status
  std::vector<OutputShape> shapes;
};

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

ExecutionResult failed(std::string_view stage, const Error& e) { return {describe(stage, e), e.status(), {}}; }

/// Checks the HAL's timing rules on a successful run measured with MeasureTiming::YES.
std::optional<std::string> timing_problem(const Timing& t) {
  if (t.timeInDriver == UINT64_MAX || t.timeOnDevice == UINT64_MAX) return "timing asked for but not reported";
  if (t.timeOnDevice > t.timeInDriver) return "time on device exceeds time in driver";
  return std::nullopt;
}

ExecutionResult finish(std::string_view stage, nnhal::ExecutionResult r) {
  if (!r.status) return failed(stage, r.status.error());
  if (auto p = timing_problem(r.timing)) return {std::string(stage) + ": " + *p, ErrorStatus::GENERAL_FAILURE, {}};
  return {std::nullopt, std::nullopt, std::move(r.output_shapes)};
}

/// The one place an execution is launched; every run of the runner goes through it, in the
/// mode the command line chose. Timing is always asked for and checked.
ExecutionResult execute(DevicePreparedModel<>& prepared, const Request& request, const RunnerOptions& options) {
  ExecutionArgs<> args;
  args.measure = MeasureTiming::YES;
  if (options.loop_timeout_ms) args.loop_timeout = std::chrono::milliseconds(*options.loop_timeout_ms);
  switch (options.mode) {
    case ExecutionMode::Sync:
      return finish("execute", prepared.execute(request, args));
    case ExecutionMode::Burst: {
      auto burst = prepared.configure_burst();
      if (!burst) return failed("configure burst", burst.error());
      return finish("burst", (*burst)->execute(request, args));
    }
    case ExecutionMode::Async: {
      auto callback = std::make_shared<ResultCallback>();
      Status launched = prepared.execute_async(request, args, callback);
      nnhal::ExecutionResult r = callback->wait();  // notified on every launch, failed or not
      if (!launched) return failed("launch", launched.error());
      return finish("async", std::move(r));
    }
    case ExecutionMode::Fenced: {
      // A pending fence signalled after the call, so the execution takes the path that waits.
      SyncFence gate = SyncFence::create();
      const SyncFence waits[] = {gate};
      auto launched = prepared.execute_fenced(request, waits, args);
      gate.signal();
      if (!launched) return failed("executeFenced", launched.error());
      const FenceState state = launched->fence.wait();
      const FencedExecutionInfo info = launched->execution_info();
      if (state != FenceState::Signaled || info.status != ErrorStatus::NONE) {
        const ErrorStatus st = info.status == ErrorStatus::NONE ? ErrorStatus::GENERAL_FAILURE : info.status;
        return {std::string("fenced: ") + std::string(to_string(st)) + ": the fence went to error", st, {}};
      }
      if (auto p = timing_problem(info.timing_launched)) return {"fenced: launched " + *p, ErrorStatus::GENERAL_FAILURE, {}};
      if (auto p = timing_problem(info.timing_fenced)) return {"fenced: fenced " + *p, ErrorStatus::GENERAL_FAILURE, {}};
      return {};  // executeFenced reports no output shapes
    }
  }
  return {"run: unknown execution mode", ErrorStatus::GENERAL_FAILURE, {}};
}

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
    request.outputs[k].dimensions = listed;
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
