#pragma once
/// \file
/// Running one conformance model through nnhal: validation and the supported-operations query,
/// preparation, execution, and the output checks; plus the dynamic-output-shape re-run.

#include <cstdint>
#include <optional>
#include <string>

#include "cts/test_model.hpp"
#include "nnhal/util/trace.hpp"

namespace nnhal::cts {

/// How an execution is launched through the device interface (`--mode`): executeSynchronously,
/// execute with a callback, executeFenced behind a fence signalled after the call, or a burst.
/// execute() in runner.cpp is the single function every run goes through.
enum class ExecutionMode { Sync, Async, Fenced, Burst };

/// Runs in fenced mode whose request outputs cannot be fully specified (zero-sized or unknown
/// dimensions): executeFenced must refuse them with INVALID_ARGUMENT (HAL13.md c.3), which the
/// runner checks instead of the values. Counted so the runner can say how many there were.
std::size_t fenced_unspecified_runs();

/// Everything the command line configures about running a model.
struct RunnerOptions {
  /// `--loop-timeout-ms`: the per-WHILE time limit (HAL13.md d.6) handed to the executor
  /// (ExecuteOptions::loop_timeout, which clamps it to 15 s); nullopt = the executor's default
  /// (2 s). The runner never enforces a timeout itself: the while_infinite_loop models test the
  /// executor's own limit.
  std::optional<std::uint64_t> loop_timeout_ms;
  ExecutionMode mode = ExecutionMode::Sync;
  /// `--trace` / `--profile`: receives the spans of every preparation and execution (the
  /// devices are made with it at the first run, so it must be set before and outlive them).
  TraceSink* trace = nullptr;
  /// `--threads`: the devices' kernel threads (DeviceOptions::threads); outputs must not change.
  std::size_t threads = 1;
  /// `--reference-kernels`: the devices prepare with the plain reference kernels
  /// (DeviceOptions::reference_kernels); outputs must still pass.
  bool reference_kernels = false;
};

enum class Outcome { Passed, Failed, Skipped };

struct ModelResult {
  Outcome outcome = Outcome::Passed;
  std::string reason;  ///< why it failed or was skipped
  /// The model needed runtime-only features (WHILE operands of unknown size, HAL13.md d.4
  /// rule 4): a strict HAL 1.3 device refuses it, so it ran on a device with
  /// DeviceOptions::allow_runtime_only.
  bool runtime_only = false;
};

/// Runs one model (SCHEMA.md): expectFailure models pass iff validation, preparation or
/// execution fails; a model with an operation nnhal does not support is skipped; any other
/// model must run and produce the listed outputs and shapes, in the ordinary run and, when
/// eligible, in the run with unknown output dimensions. A model the strict device refuses
/// but a runtime-only device accepts runs on the latter (ModelResult::runtime_only).
ModelResult run_model(const TestModel& test, const RunnerOptions& options);

/// True when the dynamic-output-shape run applies: not expectFailure, and no IF, WHILE or RANK
/// operation in any subgraph (SCHEMA.md "Dynamic-output-shape testing").
inline bool has_dynamic_output_run(const TestModel& test) {
  if (test.expectFailure) return false;
  auto has_excluded = [](const TestSubgraph& sg) {
    for (const Operation& op : sg.operations)
      if (op.type == OperationType::IF || op.type == OperationType::WHILE || op.type == OperationType::RANK)
        return true;
    return false;
  };
  if (has_excluded(test.main)) return false;
  for (const TestSubgraph& sg : test.referenced)
    if (has_excluded(sg)) return false;
  return true;
}

}  // namespace nnhal::cts
