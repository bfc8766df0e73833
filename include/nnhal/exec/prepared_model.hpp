#pragma once
/// \file
/// PreparedModel: a validated model turned into an immutable plan, and Execution: the mutable
/// state of one execution of it (operand records, arena, dynamic buffers, output shapes).
/// Executions of one prepared model are independent; each allocates its memory once, when it
/// is created, so running it allocates nothing for operands of known size.

#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "nnhal/exec/buffer.hpp"
#include "nnhal/exec/plan.hpp"
#include "nnhal/exec/prepare.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"

namespace nnhal {

/// Options of PreparedModel::prepare.
struct PrepareOptions {
  ValidationOptions validation;
};

/// Outputs per node whose declared shape an execution re-checks on the stack after inference
/// (further outputs are checked against the model's declaration alone).
inline constexpr std::size_t kMaxInferredOutputs = 8;

namespace detail {
/// What every execution of a prepared model shares, read-only.
struct PreparedCore {
  Model model;  ///< nnhal's own copy; constants point into it (pools stay the caller's)
  HalVersion version = HalVersion::V1_0;
  SubgraphPlan main;
};
}  // namespace detail

class Execution;

/// A model validated and prepared for execution. Cheap to copy (shares the plan).
class PreparedModel {
 public:
  /// Validates `model` and prepares it: execution order, shapes, kernels, memory plan. The
  /// model's memory pools must outlive the prepared model; everything else is copied.
  static Expected<PreparedModel> prepare(const Model& model, const PrepareOptions& options = {}) {
    auto version = validate_model(model, options.validation);
    if (!version) return std::move(version.error());
    auto core = std::make_shared<detail::PreparedCore>();
    core->model = model;
    core->version = *version;
    if (auto s = prepare_subgraph(core->model, core->model.main, true, core->main); !s)
      return std::move(s.error().prefix("main"));
    return PreparedModel(std::move(core));
  }

  /// The model's minimum HAL version.
  HalVersion version() const noexcept { return core_->version; }
  /// The prepared copy of the model.
  const Model& model() const noexcept { return core_->model; }
  /// Bytes of the arena every execution reserves for temporaries of known size.
  std::uint64_t arena_bytes() const noexcept { return core_->main.arena_bytes; }

  /// Creates an execution context (allocates its memory now).
  Expected<Execution> create_execution() const;

 private:
  explicit PreparedModel(std::shared_ptr<const detail::PreparedCore> core) : core_(std::move(core)) {}
  std::shared_ptr<const detail::PreparedCore> core_;
  friend class Execution;
};

/// The state of executions of one prepared model. Reusable: run it again with another request.
/// Not thread-safe; use one Execution per thread.
class Execution {
 public:
  /// Runs `request` (validated first). On OUTPUT_INSUFFICIENT_SIZE the error's status says so
  /// and output_shapes() tells the sizes needed.
  Status run(const Request& request, const RequestValidationOptions& options = {});

  /// One entry per model output after run(): its dimensions and whether its buffer sufficed.
  /// Empty after any failure other than OUTPUT_INSUFFICIENT_SIZE.
  std::span<const OutputShape> output_shapes() const noexcept { return {shapes_.data(), shapes_size_}; }

 private:
  friend class PreparedModel;
  explicit Execution(std::shared_ptr<const detail::PreparedCore> core) : core_(std::move(core)) {}
  Status init();
  Status bind(const Request& request);
  Status run_nodes();
  Status run_compute(const ComputeNode& node);
  Status finish_output_shapes(ErrorStatus status);
  Status allocate_output(std::uint32_t operand, bool& insufficient);

  std::shared_ptr<const detail::PreparedCore> core_;
  std::vector<RtOperand> table_;
  AlignedBuffer arena_;
  std::vector<AlignedBuffer> dynamic_;
  std::vector<OutputShape> shapes_;
  std::size_t shapes_size_ = 0;
};

inline Expected<Execution> PreparedModel::create_execution() const {
  Execution e(core_);
  if (auto s = e.init(); !s) return std::move(s.error());
  return e;
}

inline Status Execution::init() {
  const SubgraphPlan& plan = core_->main;
  table_ = plan.operands;
  if (!arena_.reserve(static_cast<std::size_t>(plan.arena_bytes)))
    return Error::format(ErrorStatus::GENERAL_FAILURE, "cannot allocate a %llu-byte arena",
                         static_cast<unsigned long long>(plan.arena_bytes));
  dynamic_.resize(plan.dynamic_count);
  shapes_.resize(plan.outputs.size());
  for (OutputShape& s : shapes_) s.dimensions.reserve(kMaxRank);
  return {};
}

inline Status Execution::bind(const Request& request) {
  const SubgraphPlan& plan = core_->main;
  std::copy(plan.operands.begin(), plan.operands.end(), table_.begin());
  for (std::size_t i = 0; i < table_.size(); ++i) {
    const OperandPlan& st = plan.storage[i];
    if (st.storage == Storage::Arena) {
      table_[i].data = arena_.data() + st.arena_offset;
      table_[i].length = static_cast<std::size_t>(table_[i].required_bytes());
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    const bool is_output = pass == 1;
    const auto& args = is_output ? request.outputs : request.inputs;
    const auto& indexes = is_output ? plan.outputs : plan.inputs;
    for (std::size_t k = 0; k < args.size(); ++k) {
      const RequestArgument& arg = args[k];
      RtOperand& rec = table_[indexes[k]];
      if (arg.hasNoValue) {
        rec.lifetime = OperandLifeTime::NO_VALUE;
        rec.data = nullptr;
        rec.length = 0;
        continue;
      }
      const RequestMemoryPool& pool = request.pools[arg.location.poolIndex];
      if (pool.token != 0)
        return NNHAL_FAILURE("%s %zu: driver-managed buffers are not bound by the bare executor",
                             is_output ? "output" : "input", k);
      const bool whole = arg.location.offset == 0 && arg.location.length == 0;
      rec.data = pool.memory.data + arg.location.offset;
      rec.length = whole ? pool.memory.size : arg.location.length;
      if (!arg.dimensions.empty()) {
        Dims d;
        if (!d.assign(arg.dimensions)) return NNHAL_INVALID("request rank exceeds %zu", kMaxRank);
        // Validation guaranteed agreement with every known declared dimension.
        if (is_output && rec.rank_known && rec.dims.rank() == d.rank()) {
          for (std::size_t j = 0; j < d.rank(); ++j)
            if (d[j] == 0) d[j] = rec.dims[j];
            else if (rec.dims[j] != 0 && rec.dims[j] != d[j])
              return NNHAL_FAILURE("output %zu: request dimension %zu is %u, the model computes %u", k, j, d[j], rec.dims[j]);
        }
        rec.dims = d;
        rec.rank_known = true;
      }
    }
  }
  return {};
}

inline Status Execution::allocate_output(std::uint32_t operand, bool& insufficient) {
  const OperandPlan& st = core_->main.storage[operand];
  RtOperand& rec = table_[operand];
  const std::uint64_t need = rec.required_bytes();
  if (need == UINT64_MAX) return NNHAL_FAILURE("operand %u: data size overflows", operand);
  switch (st.storage) {
    case Storage::Dynamic: {
      AlignedBuffer& buf = dynamic_[st.dynamic_slot];
      if (!buf.reserve(static_cast<std::size_t>(need)))
        return NNHAL_FAILURE("operand %u: cannot allocate %llu bytes", operand, static_cast<unsigned long long>(need));
      rec.data = buf.data();
      rec.length = static_cast<std::size_t>(need);
      break;
    }
    case Storage::Output:
    case Storage::Arena:
      if (need > rec.length) insufficient = true;
      break;
    default: break;
  }
  return {};
}

inline Status Execution::run_compute(const ComputeNode& node) {
  const SubgraphPlan& plan = core_->main;
  const auto ins = plan.node_inputs(node);
  const auto outs = plan.node_outputs(node);
  const NodeIO io(table_.data(), ins, outs, node.params);
  const OperationInfo& info = *node.info;
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const RtOperand& in = table_[ins[i]];
    if (!in.has_value()) {
      if (!info.has(kOpAllowsOmitted))
        return NNHAL_INVALID("%s: input %zu is omitted but required", info.name.data(), i);
      continue;
    }
    if (!info.has(kOpAllowsZeroSized) && is_tensor(in.type) && in.dims.element_count() == 0)
      return NNHAL_FAILURE("%s: input %zu is zero-sized", info.name.data(), i);
  }
  if (node.dynamic) {
    // Each output's shape as declared (refined by the request for model outputs) constrains
    // what inference may produce.
    RtOperand declared[kMaxInferredOutputs];
    const std::size_t checked = outs.size() < kMaxInferredOutputs ? outs.size() : kMaxInferredOutputs;
    for (std::size_t j = 0; j < checked; ++j) declared[j] = table_[outs[j]];
    if (auto s = info.impl->infer(io); !s) return std::move(s.error().prefix("%s", info.name.data()));
    bool insufficient = false;
    for (std::size_t j = 0; j < outs.size(); ++j) {
      RtOperand& rec = table_[outs[j]];
      rec.rank_known = true;
      const RtOperand& want = j < checked ? declared[j] : plan.operands[outs[j]];
      if (auto s = merge_declared_shape(want, rec); !s)
        return std::move(s.error().prefix("%s output operand %u", info.name.data(), outs[j]));
      NNHAL_TRY(allocate_output(outs[j], insufficient));
    }
    if (insufficient)
      return Error(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small");
  }
  return node.kernel(io);
}

inline Status Execution::run_nodes() {
  for (const Node& node : core_->main.nodes) {
    // Control-flow nodes join the variant; the visitor below dispatches on it.
    if (auto s = std::visit([this](const auto& n) { return run_compute(n); }, node); !s) return s;
  }
  return {};
}

inline Status Execution::finish_output_shapes(ErrorStatus status) {
  const SubgraphPlan& plan = core_->main;
  if (status != ErrorStatus::NONE && status != ErrorStatus::OUTPUT_INSUFFICIENT_SIZE) {
    shapes_size_ = 0;
    return {};
  }
  shapes_size_ = plan.outputs.size();
  for (std::size_t k = 0; k < plan.outputs.size(); ++k) {
    const RtOperand& rec = table_[plan.outputs[k]];
    OutputShape& s = shapes_[k];
    s.dimensions.assign(rec.dims.begin(), rec.dims.end());
    const std::uint64_t need = rec.required_bytes();
    s.isSufficient = !rec.has_value() || need <= rec.length;
  }
  return {};
}

inline Status Execution::run(const Request& request, const RequestValidationOptions& options) {
  shapes_size_ = 0;
  if (auto s = validate_request(request, core_->model, options); !s) return s;
  if (auto s = bind(request); !s) return s;
  // Outputs whose shape is already known: report an insufficient buffer before running.
  bool insufficient = false;
  for (std::uint32_t out : core_->main.outputs)
    if (table_[out].shape_known() && table_[out].required_bytes() > table_[out].length) insufficient = true;
  Status result = insufficient ? Status(Error(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE, "an output buffer is too small"))
                               : run_nodes();
  (void)finish_output_shapes(result ? ErrorStatus::NONE : result.error().status());
  return result;
}

}  // namespace nnhal
