#pragma once
/// \file
/// Execution: the mutable state of executions of one prepared model (operand records of every
/// subgraph, one arena, dynamic buffers, WHILE double buffers, output shapes) and the one
/// generic executor that visits prepared nodes. All memory for operands of known size is
/// allocated when the Execution is created; running allocates only for operands whose size is
/// unknown until then, and reuses those buffers when they are large enough.

#include <chrono>
#include <cstring>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "nnhal/exec/buffer.hpp"
#include "nnhal/exec/clock.hpp"
#include "nnhal/exec/options.hpp"
#include "nnhal/exec/plan.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/validate/request_rows.hpp"

namespace nnhal {

namespace detail {
/// What every execution of a prepared model shares, read-only.
struct PreparedCore {
  /// Takes `m` over (its lists stay where they are); the plan's lists will live in `memory`.
  PreparedCore(Model&& m, MemoryResource* memory) noexcept : model(std::move(m)), graphs(memory) {}

  std::shared_ptr<const void> owner;  ///< whatever the model's pools need kept alive
  Model model;  ///< nnhal's own copy; constants point into it (pools stay the caller's)
  HalVersion version = HalVersion::V1_0;
  Vector<SubgraphPlan> graphs;  ///< 0 = main, 1 + i = referenced[i]
  std::uint64_t arena_bytes = 0;     ///< all subgraphs' arenas, back to back
  /// What an execution context allocates when it is created: the arena, the outputs of
  /// referenced subgraphs whose size is known and the WHILE loops' double buffers of known size.
  std::uint64_t execution_bytes = 0;
  std::uint32_t while_nodes = 0;
  /// Where kernels run pieces of their work (PrepareOptions::parallel); nullptr: the caller.
  Parallel* parallel = nullptr;
  /// The extensions of the kernel set it was prepared with (their operand types' sizes).
  ExtensionList extensions{};
  /// The limits it was validated and prepared with (ValidationOptions::limits).
  Limits limits{};
  /// The rows it was validated with (its kernel set's: KernelTable::rows); requests are
  /// checked against the same. Set by preparation (not defaulted to every row, which would
  /// link them all into a program whose kernel set says SetRowsOnly).
  const OperationRows* rows = nullptr;
};

/// PreparedCore::execution_bytes of `core` (its graphs planned, arena_bytes summed): what
/// Execution::create reserves, counted the same way. Saturates at UINT64_MAX.
inline std::uint64_t fixed_execution_bytes(const PreparedCore& core) noexcept {
  std::uint64_t total = core.arena_bytes;
  auto add = [&total](std::uint64_t bytes, std::uint64_t times) {
    const std::uint64_t b = bytes == UINT64_MAX || (times != 0 && bytes > UINT64_MAX / times) ? UINT64_MAX : bytes * times;
    total = b > UINT64_MAX - total ? UINT64_MAX : total + b;
  };
  for (std::size_t g = 0; g < core.graphs.size(); ++g) {
    const SubgraphPlan& p = core.graphs[g];
    if (g != 0)
      for (std::uint32_t out : p.outputs)
        if (p.operands[out].shape_known()) add(p.operands[out].required_bytes(), 1);
    for (const Node& node : p.nodes) {
      const auto* w = std::get_if<WhileNode>(&node);
      if (w == nullptr) continue;
      const SubgraphPlan& body = core.graphs[w->body];
      for (std::size_t i = 0; i < w->carried; ++i) {
        const RtOperand& rec = body.operands[body.outputs[i]];
        if (rec.shape_known()) add(rec.required_bytes(), 2);
      }
    }
  }
  return total;
}

/// True when `now` is later than `deadline` (signed difference, so counters may wrap).
template <class T>
bool passed(const T& now, const T& deadline) {
  return std::chrono::nanoseconds(now - deadline) > std::chrono::nanoseconds{0};
}

/// Points subgraph input `to` (declared as `declared`) at the outer value `from`, after checking
/// that the value has the shape the subgraph was planned for.
inline Status bind_input(const RtOperand& declared, RtOperand& to, const RtOperand& from,
                         std::uint64_t max_bytes) noexcept {
  // Validation admits no omitted IF/WHILE operand; executing subgraphs relies on it.
  if (!from.has_value()) return NNHAL_FAILURE("a subgraph input is bound to an omitted operand");
  NNHAL_TRY(check_bound_shape(declared, from, max_bytes));
  to.dims = from.dims;
  to.rank_known = from.rank_known;
  to.data = from.data;
  to.length = from.length;
  to.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  return {};
}

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;
}  // namespace detail

/// Runs requests on a prepared model. Reusable; not thread-safe (use one per thread). Created
/// by PreparedModel::create_execution.
template <Clock C = SteadyClock>
class Execution {
 public:
  /// Validates `request`, then checks the deadline (MISSED_DEADLINE_PERSISTENT when it has
  /// passed), then runs it. On OUTPUT_INSUFFICIENT_SIZE the error says so and output_shapes()
  /// tells the sizes needed.
  Status run(const Request& request, const ExecuteOptions<C>& options = {});

  /// One entry per model output after run(): its dimensions and whether its buffer sufficed.
  /// Empty after any failure other than OUTPUT_INSUFFICIENT_SIZE.
  std::span<const OutputShape> output_shapes() const noexcept { return {shapes_.data(), shapes_size_}; }

  /// The clock this execution reads.
  C& clock() noexcept { return clock_; }

  /// Bytes this context has allocated while running, beyond its plan (buffers of operands
  /// whose size was only known at execution; kept for reuse): what Limits::max_dynamic_bytes
  /// bounds.
  std::uint64_t dynamic_bytes() const noexcept { return dynamic_bytes_; }

  /// Creates the state for `core`; allocates every buffer of known size.
  static Expected<Execution> create(std::shared_ptr<const detail::PreparedCore> core, C clock);

 private:
  struct GraphState {
    std::vector<RtOperand> table;
    std::vector<AlignedBuffer> dynamic;        ///< per Storage::Dynamic slot
    std::vector<AlignedBuffer> own_outputs;    ///< default home of outputs without a caller buffer
    std::vector<AlignedBuffer*> output_slot;   ///< where such an output is allocated now
  };
  struct WhileState {
    std::vector<AlignedBuffer> buffers;  ///< two per carried operand: [2 * i + parity]
    std::vector<RtOperand> current;      ///< the carried values of the current iteration
    std::uint8_t condition = 0;          ///< the condition subgraph's output
    /// Every carried body output has a shape known at prepare time: from the third iteration
    /// on, the values bound are the previous iteration's shapes again, so only the data
    /// pointers change (the first two iterations bind and check in full).
    bool static_shapes = false;
    /// For static_shapes: per carried operand, the records the loop rebinds and its two
    /// buffers, resolved once so an iteration only stores pointers.
    struct Rebind {
      RtOperand* cond_in;
      RtOperand* body_in;
      RtOperand* body_out;
      std::byte* buffer[2];
    };
    std::vector<Rebind> rebind;
    /// For static_shapes loops whose condition and body are straight lists of compute nodes
    /// (no IF/WHILE, no shape inference, no input checks): each node's kernel with its operand
    /// view, built once, so that iterations from the third on call the kernels directly.
    struct Step {
      KernelFn kernel;
      NodeIO io;
    };
    std::vector<Step> cond_steps, body_steps;
    bool direct = false;
  };

  Execution(std::shared_ptr<const detail::PreparedCore> core, C clock)
      : core_(std::move(core)), clock_(std::move(clock)) {}

  Status run_request(const Request& request, const ExecuteOptions<C>& options);
  Status bind_main(const Request& request, std::span<const Memory> token_memory);
  Status run_nodes(std::uint32_t g);
  Status run_compute(std::uint32_t g, const ComputeNode& node);
  Status run_if(std::uint32_t g, const IfNode& node);
  Status run_while(std::uint32_t g, const WhileNode& node);
  Status allocate_output(std::uint32_t g, std::uint32_t operand, bool& insufficient);
  Status bind_inputs(std::uint32_t g, const RtOperand* outer, std::span<const std::uint32_t> outer_ids,
                     std::size_t first, std::size_t count);
  Status bind_outputs(std::uint32_t g, std::uint32_t outer_graph, std::span<const std::uint32_t> outer_ids);
  Status adopt_result(std::uint32_t g, std::uint32_t operand, const RtOperand& result);
  Status check_deadline();
  int loop_time_up(const typename C::time_point& start, std::chrono::nanoseconds exact_from);
  static Error loop_time_error(int which);
  bool direct_steps(std::uint32_t g, std::vector<typename WhileState::Step>& steps);
  Status run_direct(WhileState& ws, std::uint64_t iteration, const typename C::time_point& start,
                    std::chrono::nanoseconds exact_from);
  void finish_output_shapes(const Status& result);

  const SubgraphPlan& plan(std::uint32_t g) const noexcept { return core_->graphs[g]; }

  std::shared_ptr<const detail::PreparedCore> core_;
  C clock_;
  std::vector<GraphState> graphs_;
  std::vector<WhileState> whiles_;
  AlignedBuffer arena_;
  std::vector<RtOperand> main_declared_;  ///< main outputs as declared, refined by the request
  detail::RequestScratch request_scratch_;  ///< request validation's memory, kept between runs
  std::vector<OutputShape> shapes_;
  std::size_t shapes_size_ = 0;
  std::chrono::nanoseconds loop_timeout_ = kLoopTimeoutDefault;
  std::optional<typename C::time_point> deadline_;
  std::uint32_t loop_depth_ = 0;
  /// Bytes of buffers grown while running (Limits::max_dynamic_bytes).
  std::uint64_t dynamic_bytes_ = 0;
  TraceSink* trace_ = nullptr;  ///< ExecuteOptions::trace of the current run
  /// Whether the current run hands out spans (never with NNHAL_TRACE_ENABLED=0).
  bool tracing() const noexcept { return kTraceEnabled && trace_ != nullptr; }
};

template <Clock C>
Expected<Execution<C>> Execution<C>::create(std::shared_ptr<const detail::PreparedCore> core, C clock) {
  Execution e(std::move(core), std::move(clock));
  const auto& graphs = e.core_->graphs;
  if (!e.arena_.reserve(static_cast<std::size_t>(e.core_->arena_bytes)))
    return NNHAL_FAILURE("cannot allocate a %llu-byte arena", static_cast<unsigned long long>(e.core_->arena_bytes));
  e.graphs_.resize(graphs.size());
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const SubgraphPlan& p = graphs[g];
    GraphState& s = e.graphs_[g];
    s.table.assign(p.operands.begin(), p.operands.end());
    for (std::size_t i = 0; i < s.table.size(); ++i) {
      if (p.storage[i].storage != Storage::Arena) continue;
      s.table[i].data = e.arena_.data() + p.arena_base + p.storage[i].arena_offset;
      s.table[i].length = static_cast<std::size_t>(p.operands[i].required_bytes());
    }
    s.dynamic.resize(p.dynamic_count);
    s.own_outputs.resize(p.outputs.size());
    s.output_slot.resize(p.outputs.size());
    for (std::size_t k = 0; k < p.outputs.size(); ++k) s.output_slot[k] = &s.own_outputs[k];
    // Referenced subgraph outputs of known size get their default buffer now.
    if (g != 0)
      for (std::size_t k = 0; k < p.outputs.size(); ++k) {
        const RtOperand& rec = p.operands[p.outputs[k]];
        if (rec.shape_known() && !s.own_outputs[k].reserve(static_cast<std::size_t>(rec.required_bytes())))
          return NNHAL_FAILURE("cannot allocate an output buffer of subgraph %zu", g);
      }
    // WHILE double buffers of known size.
    for (const Node& node : p.nodes) {
      const auto* w = std::get_if<WhileNode>(&node);
      if (w == nullptr) continue;
      if (e.whiles_.size() <= w->state) e.whiles_.resize(w->state + 1);
      WhileState& ws = e.whiles_[w->state];
      ws.buffers.resize(2 * std::size_t{w->carried});
      ws.current.resize(w->carried);
      const SubgraphPlan& body = graphs[w->body];
      ws.static_shapes = true;
      for (std::size_t i = 0; i < w->carried; ++i) {
        const RtOperand& rec = body.operands[body.outputs[i]];
        ws.static_shapes = ws.static_shapes && rec.shape_known();
        if (!rec.shape_known()) continue;
        for (int parity = 0; parity < 2; ++parity)
          if (!ws.buffers[2 * i + static_cast<std::size_t>(parity)].reserve(static_cast<std::size_t>(rec.required_bytes())))
            return NNHAL_FAILURE("cannot allocate WHILE loop buffers");
      }
    }
  }
  // Every table exists now: resolve the static loops' rebinding records.
  for (std::size_t g = 0; g < graphs.size(); ++g)
    for (const Node& node : graphs[g].nodes) {
      const auto* w = std::get_if<WhileNode>(&node);
      if (w == nullptr || !e.whiles_[w->state].static_shapes) continue;
      WhileState& ws = e.whiles_[w->state];
      const SubgraphPlan& cond = graphs[w->condition];
      const SubgraphPlan& body = graphs[w->body];
      for (std::size_t i = 0; i < w->carried; ++i)
        ws.rebind.push_back({&e.graphs_[w->condition].table[cond.inputs[i]], &e.graphs_[w->body].table[body.inputs[i]],
                             &e.graphs_[w->body].table[body.outputs[i]],
                             {ws.buffers[2 * i].data(), ws.buffers[2 * i + 1].data()}});
      ws.direct = e.direct_steps(w->condition, ws.cond_steps) && e.direct_steps(w->body, ws.body_steps);
      if (!ws.direct) {
        ws.cond_steps.clear();
        ws.body_steps.clear();
      }
    }
  const SubgraphPlan& main = graphs[0];
  e.main_declared_.resize(main.outputs.size());
  e.request_scratch_.regions.reserve(main.inputs.size() + main.outputs.size() + e.core_->model.pools.size());
  e.request_scratch_.operand_readers.reserve(e.core_->model.main.operands.size());
  e.shapes_.resize(main.outputs.size());
  for (OutputShape& s : e.shapes_) s.dimensions.reserve(kMaxRank);
  return e;
}

template <Clock C>
Status Execution<C>::bind_main(const Request& request, std::span<const Memory> token_memory) {
  const SubgraphPlan& p = plan(0);
  GraphState& s = graphs_[0];
  for (int pass = 0; pass < 2; ++pass) {
    const bool is_output = pass == 1;
    const auto& args = is_output ? request.outputs : request.inputs;
    const auto& indexes = is_output ? p.outputs : p.inputs;
    for (std::size_t k = 0; k < args.size(); ++k) {
      const RequestArgument& arg = args[k];
      RtOperand& rec = s.table[indexes[k]];
      rec = p.operands[indexes[k]];
      if (arg.hasNoValue) {
        rec.lifetime = OperandLifeTime::NO_VALUE;
        if (is_output) main_declared_[k] = rec;
        continue;
      }
      const std::uint32_t p = arg.location.poolIndex;
      const RequestMemoryPool& pool = request.pools[p];
      if (pool.token != 0 && (p >= token_memory.size() || token_memory[p].data == nullptr))
        return NNHAL_FAILURE("%s %zu: driver-managed buffer %" PRIu32 " is not bound",
                             is_output ? "output" : "input", k, pool.token);
      const Memory& memory = pool.token != 0 ? token_memory[p] : pool.memory;
      const bool whole = arg.location.offset == 0 && arg.location.length == 0;
      rec.data = memory.data + arg.location.offset;
      rec.length = whole ? memory.size : arg.location.length;
      if (!arg.dimensions.empty()) {
        Dims d;
        if (!d.assign(arg.dimensions)) return NNHAL_INVALID("request rank exceeds %zu", kMaxRank);
        // Validation guaranteed agreement with every known declared dimension; statically
        // inferred output dimensions fill the request's unknown ones.
        // A shape the model fixes (declared or inferred at prepare time) keeps its rank.
        if (rec.rank_known && rec.dims.rank() != d.rank())
          return NNHAL_FAILURE("%s %zu: request gives rank %zu, the model computes rank %zu",
                               is_output ? "output" : "input", k, d.rank(), rec.dims.rank());
        // A 0 the model computed at prepare (shape_fixed) is a real zero-sized dimension: the
        // request may not replace it (the node's kernel is not run again with other shapes).
        if (rec.rank_known)
          for (std::size_t j = 0; j < d.rank(); ++j) {
            if (d[j] == 0) d[j] = rec.dims[j];
            else if ((rec.dims[j] != 0 || rec.shape_fixed) && rec.dims[j] != d[j])
              return NNHAL_FAILURE("output %zu: request dimension %zu is %" PRIu32
                                   ", the model computes %" PRIu32,
                                   k, j, d[j], rec.dims[j]);
          }
        rec.dims = d;
        rec.rank_known = true;
      }
      if (is_output) main_declared_[k] = rec;
    }
  }
  return {};
}

template <Clock C>
Status Execution<C>::allocate_output(std::uint32_t g, std::uint32_t operand, bool& insufficient) {
  const OperandPlan& st = plan(g).storage[operand];
  GraphState& s = graphs_[g];
  RtOperand& rec = s.table[operand];
  const std::uint64_t need = rec.required_bytes();
  if (need == UINT64_MAX || need > SIZE_MAX / 2)
    return NNHAL_FAILURE("operand %" PRIu32 ": data size overflows", operand);
  AlignedBuffer* buffer = nullptr;
  if (st.storage == Storage::Dynamic) buffer = &s.dynamic[st.dynamic_slot];
  if (st.storage == Storage::Output && rec.data == nullptr) buffer = s.output_slot[st.io_index];
  if (buffer != nullptr) {
    if (need > buffer->capacity()) {
      // Limits::max_dynamic_bytes: checked before the buffer grows, counting only the growth
      // (buffers are kept and reused across runs, so the count is what this context holds
      // beyond its plan).
      const std::uint64_t grown = dynamic_bytes_ + (need - buffer->capacity());
      if (grown > core_->limits.max_dynamic_bytes)
        return Error::format(
            ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
            "operand %" PRIu32
            ": growing its buffer to %llu bytes would bring the execution's dynamic "
            "memory to %llu bytes, above Limits::max_dynamic_bytes (%llu)",
            operand, static_cast<unsigned long long>(need), static_cast<unsigned long long>(grown),
            static_cast<unsigned long long>(core_->limits.max_dynamic_bytes));
      dynamic_bytes_ = grown;
    }
    if (!buffer->reserve(static_cast<std::size_t>(need)))
      return NNHAL_FAILURE("operand %" PRIu32 ": cannot allocate %llu bytes", operand,
                           static_cast<unsigned long long>(need));
    rec.data = buffer->data();
    rec.length = static_cast<std::size_t>(need);
  } else if (need > rec.length) {
    insufficient = true;
  }
  return {};
}

template <Clock C>
Status Execution<C>::check_deadline() {
  if (deadline_ && detail::passed(clock_.now(), *deadline_))
    return Error(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "the execution deadline passed");
  return {};
}

/// The time check of one WHILE iteration: 0 while the loop may go on, 1 when its timeout has
/// passed, 2 when the execution's deadline has. `exact_from` is the time since `start` from
/// which a reading must be exact: min(loop timeout, deadline - start), less kCoarseClockLag for
/// a CoarseClock. Below it one coarse_now() (or, for other clocks, one now()) is all an
/// iteration pays.
template <Clock C>
inline int Execution<C>::loop_time_up(const typename C::time_point& start, std::chrono::nanoseconds exact_from) {
  if constexpr (CoarseClock<C>) {
    if (std::chrono::nanoseconds(clock_.coarse_now() - start) < exact_from) [[likely]]
      return 0;
  }
  const auto now = clock_.now();
  if constexpr (!CoarseClock<C>) {
    if (std::chrono::nanoseconds(now - start) < exact_from) [[likely]]
      return 0;
  }
  if (std::chrono::nanoseconds(now - start) > loop_timeout_) return 1;
  if (deadline_ && detail::passed(now, *deadline_)) return 2;
  return 0;
}

template <Clock C>
Error Execution<C>::loop_time_error(int which) {
  NNHAL_VLOG(control, "WHILE: %s", which == 1 ? "loop timeout exceeded" : "execution deadline passed");
  if (which == 1) return Error(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "a WHILE loop exceeded its timeout");
  return Error(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "the execution deadline passed");
}

/// Fills `steps` with the kernels and operand views of subgraph g when it is a straight list of
/// compute nodes that need no shape inference and no input checks (see WhileState::direct).
template <Clock C>
bool Execution<C>::direct_steps(std::uint32_t g, std::vector<typename WhileState::Step>& steps) {
  const SubgraphPlan& p = plan(g);
  GraphState& s = graphs_[g];
  for (const Node& node : p.nodes) {
    const auto* n = std::get_if<ComputeNode>(&node);
    if (n == nullptr || n->dynamic || n->check_inputs) return false;
    std::byte* workspace = n->workspace_bytes != 0 ? arena_.data() + p.arena_base + n->workspace_offset : nullptr;
    steps.push_back({n->kernel, NodeIO(s.table.data(), p.node_inputs(*n), p.node_outputs(*n), n->params, workspace,
                                       n->packed.data(), core_->parallel)});
  }
  return true;
}

/// Iterations `iteration`, `iteration` + 1, ... of a WHILE loop whose carried operands only
/// change their data pointers (WhileState::direct): until the condition is false (the final
/// values are then in ws.current) or an error.
template <Clock C>
Status Execution<C>::run_direct(WhileState& ws, std::uint64_t iteration, const typename C::time_point& start,
                                std::chrono::nanoseconds exact_from) {
  for (;; ++iteration) {
    const std::size_t previous = (iteration - 1) & 1u;
    for (const auto& r : ws.rebind) r.cond_in->data = r.buffer[previous];
    for (const auto& step : ws.cond_steps)
      if (auto st = step.kernel(step.io); !st) return st;
    if (ws.condition == 0) {
      for (std::size_t i = 0; i < ws.rebind.size(); ++i) ws.current[i].data = ws.rebind[i].buffer[previous];
      return {};
    }
    if (const int up = loop_time_up(start, exact_from)) [[unlikely]]
      return loop_time_error(up);
    const std::size_t parity = iteration & 1u;
    for (const auto& r : ws.rebind) {
      r.body_in->data = r.buffer[previous];
      r.body_out->data = r.buffer[parity];
    }
    for (const auto& step : ws.body_steps)
      if (auto st = step.kernel(step.io); !st) return st;
  }
}

template <Clock C>
Status Execution<C>::run_nodes(std::uint32_t g) {
  const auto visit = detail::Overloaded{
      [&](const ComputeNode& n) { return run_compute(g, n); },
      [&](const IfNode& n) { return run_if(g, n); },
      [&](const WhileNode& n) { return run_while(g, n); },
  };
  const Vector<Node>& nodes = plan(g).nodes;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const Node& node = nodes[k];
    // Inside loops the deadline is checked once per iteration instead.
    if (deadline_ && loop_depth_ == 0) NNHAL_TRY(check_deadline());
    if (tracing()) [[unlikely]] {
      Span span;
      span.kind = SpanKind::Node;
      span.operation = std::visit(detail::Overloaded{
                                      [](const ComputeNode& n) { return n.info->type; },
                                      [](const IfNode&) { return OperationType::IF; },
                                      [](const WhileNode&) { return OperationType::WHILE; },
                                  },
                                  node);
      // The row's name: an extension operation's own (its row's type is OEM_OPERATION).
      const auto* compute = std::get_if<ComputeNode>(&node);
      span.name = compute != nullptr ? compute->info->name : to_string(span.operation);
      span.subgraph = g;
      span.node = static_cast<std::uint32_t>(k);
      span.begin_ns = trace_->now_ns();
      Status s = std::visit(visit, node);
      span.end_ns = trace_->now_ns();
      span.status = s ? ErrorStatus::NONE : s.error().status();
      trace_->span(span);
      if (!s) return s;
      continue;
    }
    if (auto s = std::visit(visit, node); !s) return s;
  }
  return {};
}

template <Clock C>
Status Execution<C>::run_compute(std::uint32_t g, const ComputeNode& node) {
  const SubgraphPlan& p = plan(g);
  GraphState& s = graphs_[g];
  const auto ins = p.node_inputs(node);
  const auto outs = p.node_outputs(node);
  std::byte* workspace =
      node.workspace_bytes != 0 ? arena_.data() + p.arena_base + node.workspace_offset : nullptr;
  const NodeIO io(s.table.data(), ins, outs, node.params, workspace, node.packed.data(), core_->parallel);
  const OperationInfo& info = *node.info;
  for (std::size_t i = 0; node.check_inputs && i < ins.size(); ++i) {
    const RtOperand& in = s.table[ins[i]];
    if (!in.has_value()) {
      if (!input_omittable(info, i))
        return NNHAL_INVALID("%s: input %zu is omitted but required", info.name.data(), i);
      continue;
    }
    if (!info.has(kOpAllowsZeroSized) && in.tensor() && in.rank_known && in.dims.element_count() == 0)
      return NNHAL_FAILURE("%s: input %zu is zero-sized", info.name.data(), i);
  }
  if (node.dynamic) {
    if (auto r = node.op->infer(io); !r) return std::move(r.error().prefix("%s", info.name.data()));
    bool insufficient = false;
    for (std::uint32_t out : outs) {
      RtOperand& rec = s.table[out];
      rec.rank_known = true;
      const OperandPlan& st = p.storage[out];
      const RtOperand& declared = (g == 0 && st.storage == Storage::Output) ? main_declared_[st.io_index] : p.operands[out];
      if (auto r = merge_declared_shape(declared, rec, core_->limits.max_tensor_bytes); !r)
        return std::move(r.error().prefix("%s output operand %" PRIu32, info.name.data(), out));
      NNHAL_TRY(allocate_output(g, out, insufficient));
    }
    if (insufficient) return Error(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small");
  }
  return node.kernel(io);
}

/// Binds inputs [first, first + count) of subgraph g to the outer records (aliasing, no copy).
template <Clock C>
Status Execution<C>::bind_inputs(std::uint32_t g, const RtOperand* outer, std::span<const std::uint32_t> outer_ids,
                                 std::size_t first, std::size_t count) {
  const SubgraphPlan& p = plan(g);
  GraphState& s = graphs_[g];
  for (std::size_t i = first; i < first + count; ++i) {
    const RtOperand& from = outer[outer_ids[i]];
    NNHAL_TRY(
        detail::bind_input(p.operands[p.inputs[i]], s.table[p.inputs[i]], from, core_->limits.max_tensor_bytes));
  }
  return {};
}

/// Binds the outputs of subgraph g: to the outer operand's buffer when that is a fixed buffer
/// of known size (written in place, no copy), else to the subgraph's own output slot.
template <Clock C>
Status Execution<C>::bind_outputs(std::uint32_t g, std::uint32_t outer_graph, std::span<const std::uint32_t> outer_ids) {
  const SubgraphPlan& p = plan(g);
  GraphState& s = graphs_[g];
  const SubgraphPlan& op = plan(outer_graph);
  const RtOperand* outer = graphs_[outer_graph].table.data();
  for (std::size_t i = 0; i < p.outputs.size(); ++i) {
    RtOperand& to = s.table[p.outputs[i]];
    const RtOperand& declared = p.operands[p.outputs[i]];
    to.dims = declared.dims;
    to.rank_known = declared.rank_known;
    to.data = nullptr;
    to.length = 0;
    if (i < outer_ids.size()) {
      const RtOperand& from = outer[outer_ids[i]];
      const Storage kind = op.storage[outer_ids[i]].storage;
      const bool fixed = from.data != nullptr && from.shape_known() &&
                         (kind == Storage::Arena || kind == Storage::Output);
      if (fixed) {
        to.data = from.data;
        to.length = from.length;
      }
    }
    if (to.shape_known()) {
      bool insufficient = false;
      NNHAL_TRY(allocate_output(g, p.outputs[i], insufficient));
      if (insufficient) return Error(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small");
    }
  }
  return {};
}

/// Makes outer operand `operand` of graph g hold `result` (a subgraph's output): in place when
/// it already points there, else by allocating the outer operand and copying the bytes.
template <Clock C>
Status Execution<C>::adopt_result(std::uint32_t g, std::uint32_t operand, const RtOperand& result) {
  RtOperand& to = graphs_[g].table[operand];
  const OperandPlan& st = plan(g).storage[operand];
  const RtOperand& declared = (g == 0 && st.storage == Storage::Output) ? main_declared_[st.io_index] : plan(g).operands[operand];
  const bool in_place = to.data != nullptr && to.data == result.data;
  to.dims = result.dims;
  to.rank_known = true;
  if (auto r = merge_declared_shape(declared, to, core_->limits.max_tensor_bytes); !r)
    return std::move(r.error().prefix("operand %" PRIu32, operand));
  if (in_place) return {};
  bool insufficient = false;
  NNHAL_TRY(allocate_output(g, operand, insufficient));
  if (insufficient) return Error(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small");
  const std::uint64_t bytes = to.required_bytes();
  if (bytes != 0) std::memcpy(to.data, result.data, static_cast<std::size_t>(bytes));
  return {};
}

template <Clock C>
Status Execution<C>::run_if(std::uint32_t g, const IfNode& node) {
  const SubgraphPlan& p = plan(g);
  const RtOperand& cond = graphs_[g].table[node.condition];
  if (!cond.has_value() || cond.data == nullptr || cond.required_bytes() < 1)
    return NNHAL_FAILURE("IF condition has no value");
  const bool taken = std::to_integer<std::uint8_t>(cond.data[0]) != 0;
  const std::uint32_t branch = node.branch[taken ? 0 : 1];
  NNHAL_VLOG(control, "IF in subgraph %" PRIu32 ": %s branch, subgraph %" PRIu32, g,
             taken ? "then" : "else", branch);
  const auto ins = p.node_inputs(node);
  const auto outs = p.node_outputs(node);
  NNHAL_TRY(bind_inputs(branch, graphs_[g].table.data(), ins, 0, ins.size()));
  NNHAL_TRY(bind_outputs(branch, g, outs));
  NNHAL_TRY(run_nodes(branch));
  const SubgraphPlan& bp = plan(branch);
  for (std::size_t i = 0; i < outs.size(); ++i)
    NNHAL_TRY(adopt_result(g, outs[i], graphs_[branch].table[bp.outputs[i]]));
  return {};
}

template <Clock C>
Status Execution<C>::run_while(std::uint32_t g, const WhileNode& node) {
  const SubgraphPlan& p = plan(g);
  const SubgraphPlan& cp = plan(node.condition);
  const SubgraphPlan& bp = plan(node.body);
  GraphState& cs = graphs_[node.condition];
  GraphState& bs = graphs_[node.body];
  WhileState& ws = whiles_[node.state];
  const auto ins = p.node_inputs(node);
  const auto outs = p.node_outputs(node);
  const RtOperand* outer = graphs_[g].table.data();
  const std::size_t carried = node.carried;

  // Iteration 0 reads the WHILE inputs in place; later iterations read the previous body
  // outputs. Inputs past the carried ones are read-only and stay bound to the outer operands.
  for (std::size_t i = 0; i < carried; ++i) ws.current[i] = outer[ins[i]];
  auto bind_loop_inputs = [&](std::uint32_t graph) -> Status {
    GraphState& s = graphs_[graph];
    const SubgraphPlan& sp = plan(graph);
    for (std::size_t i = 0; i < carried; ++i)
      NNHAL_TRY(detail::bind_input(sp.operands[sp.inputs[i]], s.table[sp.inputs[i]], ws.current[i],
                                   core_->limits.max_tensor_bytes));
    return {};
  };
  NNHAL_TRY(bind_inputs(node.condition, outer, ins, carried, ins.size() - carried));
  NNHAL_TRY(bind_inputs(node.body, outer, ins, carried, ins.size() - carried));
  RtOperand& cond_out = cs.table[cp.outputs[0]];

  ++loop_depth_;
  struct DepthGuard {
    std::uint32_t& depth;
    ~DepthGuard() { --depth; }
  } guard{loop_depth_};
  // The time limits are checked once per iteration, after the condition: with a CoarseClock
  // by a coarse reading while the limit is more than kCoarseClockLag away, by now() after that
  // (see options.hpp for the bound this gives).
  const auto start = clock_.now();
  std::chrono::nanoseconds limit = loop_timeout_;
  if (deadline_) {
    const std::chrono::nanoseconds left(*deadline_ - start);
    if (left < limit) limit = left;
  }
  const std::chrono::nanoseconds exact_from = CoarseClock<C> ? limit - kCoarseClockLag : limit;
  // Tracing: a span per iteration that finishes, emitted when the next one starts or the loop
  // ends (a failing iteration ends the WHILE node's span with its error instead).
  Span iteration_span;
  if (tracing()) [[unlikely]] {
    iteration_span.kind = SpanKind::Iteration;
    iteration_span.name = "WHILE iteration";
    iteration_span.operation = OperationType::WHILE;
    iteration_span.subgraph = g;
    for (std::size_t k = 0; k < p.nodes.size(); ++k)
      if (const auto* w = std::get_if<WhileNode>(&p.nodes[k]); w == &node) iteration_span.node = static_cast<std::uint32_t>(k);
  }
  auto end_iteration = [&](std::uint64_t iteration) {
    const std::int64_t now = trace_->now_ns();
    if (iteration > 0) {
      iteration_span.iteration = iteration - 1;
      iteration_span.end_ns = now;
      trace_->span(iteration_span);
    }
    iteration_span.begin_ns = now;
  };
  for (std::uint64_t iteration = 0;; ++iteration) {
    if (tracing()) [[unlikely]]
      end_iteration(iteration);
    // With tracing on, every iteration takes the general path (the direct one has no spans).
    if (ws.direct && iteration >= 2 && !tracing()) {
      NNHAL_TRY(run_direct(ws, iteration, start, exact_from));
      NNHAL_VLOG(control,
                 "WHILE in subgraph %" PRIu32 ": finished (direct kernel calls from iteration 2)",
                 g);
      break;
    }
    // Body iteration j writes buffers [j & 1], so iteration `iteration` reads [previous].
    const bool rebind_data_only = ws.static_shapes && iteration >= 2;
    const std::size_t previous = (iteration - 1) & 1u;
    if (rebind_data_only) {
      for (const auto& r : ws.rebind) r.cond_in->data = r.buffer[previous];
    } else {
      NNHAL_TRY(bind_loop_inputs(node.condition));
    }
    if (!rebind_data_only) {  // otherwise still set from the previous iteration
      cond_out.dims = cp.operands[cp.outputs[0]].dims;
      cond_out.rank_known = true;
      cond_out.data = reinterpret_cast<std::byte*>(&ws.condition);
      cond_out.length = 1;
    }
    NNHAL_TRY(run_nodes(node.condition));
    if (ws.condition == 0) {
      if (rebind_data_only)
        for (std::size_t i = 0; i < carried; ++i) ws.current[i].data = ws.rebind[i].buffer[previous];
      if (tracing()) [[unlikely]]
        end_iteration(iteration + 1);
      NNHAL_VLOG(control, "WHILE in subgraph %" PRIu32 ": %llu iteration(s)", g,
                 static_cast<unsigned long long>(iteration));
      break;
    }

    if (const int up = loop_time_up(start, exact_from)) [[unlikely]]
      return loop_time_error(up);

    const std::size_t parity = iteration & 1u;
    if (rebind_data_only) {
      for (const auto& r : ws.rebind) {
        r.body_in->data = r.buffer[previous];
        r.body_out->data = r.buffer[parity];
      }
      NNHAL_TRY(run_nodes(node.body));
      continue;
    }
    NNHAL_TRY(bind_loop_inputs(node.body));
    for (std::size_t i = 0; i < carried; ++i) {
      RtOperand& to = bs.table[bp.outputs[i]];
      const RtOperand& declared = bp.operands[bp.outputs[i]];
      AlignedBuffer& buffer = ws.buffers[2 * i + parity];
      to.dims = declared.dims;
      to.rank_known = declared.rank_known;
      bs.output_slot[i] = &buffer;
      to.data = nullptr;
      to.length = 0;
      if (declared.shape_known()) {
        to.data = buffer.data();
        to.length = static_cast<std::size_t>(declared.required_bytes());
      }
    }
    const Status body = run_nodes(node.body);
    for (std::size_t i = 0; i < carried; ++i) bs.output_slot[i] = &bs.own_outputs[i];
    if (!body) return body;
    for (std::size_t i = 0; i < carried; ++i) ws.current[i] = bs.table[bp.outputs[i]];
  }
  for (std::size_t i = 0; i < outs.size(); ++i) NNHAL_TRY(adopt_result(g, outs[i], ws.current[i]));
  return {};
}

template <Clock C>
void Execution<C>::finish_output_shapes(const Status& result) {
  const SubgraphPlan& p = plan(0);
  if (!result && result.error().status() != ErrorStatus::OUTPUT_INSUFFICIENT_SIZE) {
    shapes_size_ = 0;
    return;
  }
  shapes_size_ = p.outputs.size();
  for (std::size_t k = 0; k < p.outputs.size(); ++k) {
    const RtOperand& rec = graphs_[0].table[p.outputs[k]];
    OutputShape& s = shapes_[k];
    s.dimensions.assign(rec.dims.begin(), rec.dims.end());
    s.isSufficient = !rec.has_value() || rec.required_bytes() <= rec.length;
  }
}

template <Clock C>
Status Execution<C>::run(const Request& request, const ExecuteOptions<C>& options) {
  trace_ = kTraceEnabled ? options.trace : nullptr;
  if (!tracing()) [[likely]]
    return run_request(request, options);
  Span span;
  span.kind = SpanKind::Execution;
  span.name = "execution";
  span.begin_ns = trace_->now_ns();
  Status s = run_request(request, options);
  span.end_ns = trace_->now_ns();
  span.status = s ? ErrorStatus::NONE : s.error().status();
  trace_->span(span);
  trace_ = nullptr;
  return s;
}

template <Clock C>
Status Execution<C>::run_request(const Request& request, const ExecuteOptions<C>& options) {
  shapes_size_ = 0;
  loop_timeout_ = effective_loop_timeout(options.loop_timeout);
  deadline_ = options.deadline;
  loop_depth_ = 0;
  // The request is validated before the deadline is looked at (HAL13.md c.1.2, c.3): an invalid
  // request is INVALID_ARGUMENT whatever the deadline.
  // The prepared model's extensions and limits rule, whatever the caller's options say.
  RequestValidationOptions request_options = options.request;
  if (!core_->extensions.empty()) [[unlikely]] request_options.extensions = core_->extensions;
  request_options.max_request_pools = core_->limits.max_request_pools;
  request_options.max_tensor_bytes = core_->limits.max_tensor_bytes;
  if (auto s = detail::validate_request_rows(request, core_->model, request_options, *core_->rows, &request_scratch_); !s)
    return s;
  if (deadline_ && detail::passed(clock_.now(), *deadline_))
    return Error(ErrorStatus::MISSED_DEADLINE_PERSISTENT, "the deadline passed before the execution started");
  if (auto s = bind_main(request, options.token_memory); !s) return s;
  // Outputs whose shape is already known: report an insufficient buffer before running.
  bool insufficient = false;
  for (std::uint32_t out : plan(0).outputs) {
    const RtOperand& rec = graphs_[0].table[out];
    if (rec.has_value() && rec.shape_known() && rec.required_bytes() > rec.length) insufficient = true;
  }
  Status result = insufficient ? Status(Error(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small"))
                               : run_nodes(0);
  finish_output_shapes(result);
  if (result) NNHAL_VLOG(execute, "run: %zu output(s) written", shapes_size_);
  else NNHAL_VLOG(execute, "run failed: %s: %s", to_string(result.error().status()).data(), result.error().c_str());
  return result;
}

}  // namespace nnhal
