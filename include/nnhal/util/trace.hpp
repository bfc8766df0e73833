#pragma once
/// \file
/// Trace spans, in the spirit of Android's NNTRACE: preparation, each execution, each node an
/// execution runs (operations, IF and WHILE, in every subgraph) and each WHILE iteration, handed
/// to a caller's TraceSink.
///
///     ChromeTrace trace(sink);            // nnhal/util/chrome_trace.hpp: trace-event JSON
///     ExecuteOptions<> options;
///     options.trace = &trace;             // or PrepareOptions::trace, DeviceOptions::trace
///
/// Cost: with no sink (the default) the executor pays one predictable branch per node and one
/// per WHILE iteration (none with NNHAL_TRACE_ENABLED=0, which compiles tracing out); a WHILE loop whose iterations call kernels directly keeps doing so. With a
/// sink, every span reads the sink's clock twice, and WHILE loops take the general path so that
/// each iteration and node is seen.
///
/// The sink is the caller's and must outlive the calls it is given to. The device layer calls
/// it from its worker threads too (asynchronous and fenced executions), so a sink given to a
/// Device must be safe to call concurrently. A sink must not throw (spans come from noexcept
/// paths) and should not block for long: its time is part of what it measures.

#include <cstdint>
#include <string_view>

#include "nnhal/core/enums.hpp"

/// 1 (the default): preparation and execution hand spans to the TraceSink their options name.
/// 0 (a firmware setting, like NNHAL_VLOG_ENABLED=0): the tracing code is compiled out of the
/// executor and of preparation; PrepareOptions::trace, ExecuteOptions::trace and
/// DeviceOptions::trace still exist, so code setting them compiles, but no span is produced.
#ifndef NNHAL_TRACE_ENABLED
#define NNHAL_TRACE_ENABLED 1
#endif

namespace nnhal {

/// NNHAL_TRACE_ENABLED as a constant: the tracing branches test it, so they fold away when 0.
inline constexpr bool kTraceEnabled = NNHAL_TRACE_ENABLED != 0;

/// What a span covers.
enum class SpanKind : std::uint8_t {
  Prepare,    ///< PreparedModel::prepare: validation and every subgraph's plan
  Execution,  ///< Execution::run: request validation, binding, every node
  Node,       ///< one node of a subgraph: an operation's kernel, an IF or a WHILE (with its callees)
  Iteration,  ///< one WHILE iteration: its condition and (except the last) its body
};

constexpr std::string_view to_string(SpanKind k) noexcept {
  switch (k) {
    case SpanKind::Prepare: return "prepare";
    case SpanKind::Execution: return "execution";
    case SpanKind::Node: return "node";
    case SpanKind::Iteration: return "iteration";
  }
  return "?";
}

/// One finished span. Times are the sink's own (TraceSink::now_ns), begin <= end.
struct Span {
  SpanKind kind = SpanKind::Node;
  /// Node: the operation's name ("CONV_2D", "IF", "WHILE"); Iteration: "WHILE iteration";
  /// Prepare / Execution: "prepare" / "execution".
  std::string_view name;
  /// Node and Iteration: the operation (WHILE for an iteration; OEM_OPERATION, the type of an
  /// extension row, for an extension operation, whose `name` is its row's).
  OperationType operation = OperationType::ADD;
  /// Node and Iteration: the subgraph the node belongs to (0 = main, 1 + i = referenced[i]).
  std::uint32_t subgraph = 0;
  /// Node: its position in the subgraph's execution order; Iteration: the WHILE node's.
  std::uint32_t node = 0;
  /// Iteration: 0, 1, ... within the loop's run.
  std::uint64_t iteration = 0;
  std::int64_t begin_ns = 0;
  std::int64_t end_ns = 0;
  /// NONE when the span's work succeeded, else the error it ended with.
  ErrorStatus status = ErrorStatus::NONE;
};

/// Receives spans. Implementations: ChromeTrace and OperationProfile
/// (nnhal/util/chrome_trace.hpp), or a driver's own (its system tracer, a ring buffer ...).
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  /// The time spans are measured in, in nanoseconds on any fixed origin (read twice per span).
  virtual std::int64_t now_ns() noexcept = 0;
  /// Called when a span ends (so a node's span comes before its enclosing node's).
  virtual void span(const Span& s) noexcept = 0;
};

}  // namespace nnhal
