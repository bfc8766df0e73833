#pragma once
/// \file
/// PreparedModel: a validated model turned into an immutable plan shared by its executions.

#include <memory>

#include "nnhal/exec/execution.hpp"
#include "nnhal/exec/prepare.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/validate/model.hpp"

namespace nnhal {

/// Options of PreparedModel::prepare.
struct PrepareOptions {
  ValidationOptions validation;
  /// Kept alive as long as the prepared model: e.g. the storage a model read from a cache has
  /// its memory pools in.
  std::shared_ptr<const void> owner;
};

/// A model validated and prepared for execution. Cheap to copy (shares the plan).
class PreparedModel {
 public:
  /// Validates `model` and prepares every subgraph: execution order, shapes, kernels, control
  /// flow, memory plan. The model's memory pools must outlive the prepared model; everything
  /// else is copied.
  static Expected<PreparedModel> prepare(const Model& model, const PrepareOptions& options = {}) {
    auto version = validate_model(model, options.validation);
    if (!version) return std::move(version.error());
    if (const std::size_t depth = control_flow_depth(model); depth > NNHAL_MAX_CONTROL_FLOW_DEPTH)
      return NNHAL_FAILURE("control flow is nested %zu deep; the executor supports %d", depth,
                           NNHAL_MAX_CONTROL_FLOW_DEPTH);
    auto core = std::make_shared<detail::PreparedCore>();
    core->owner = options.owner;
    core->model = model;
    core->version = *version;
    const Model& m = core->model;
    core->graphs.resize(1 + m.referenced.size());
    PrepareCounters counters;
    for (std::size_t g = 0; g < core->graphs.size(); ++g) {
      const Subgraph& sg = g == 0 ? m.main : m.referenced[g - 1];
      SubgraphPlan& plan = core->graphs[g];
      if (auto s = prepare_subgraph(m, sg, g == 0, plan, counters); !s) {
        if (g == 0) return std::move(s.error().prefix("main"));
        return std::move(s.error().prefix("referenced[%zu]", g - 1));
      }
      plan.arena_base = core->arena_bytes;
      core->arena_bytes += plan.arena_bytes;
    }
    core->while_nodes = counters.while_nodes;
    return PreparedModel(std::move(core));
  }

  /// The model's minimum HAL version.
  HalVersion version() const noexcept { return core_->version; }
  /// The prepared copy of the model.
  const Model& model() const noexcept { return core_->model; }
  /// Bytes of the arena every execution reserves for temporaries of known size.
  std::uint64_t arena_bytes() const noexcept { return core_->arena_bytes; }

  /// Identity of the prepared plan: copies of one PreparedModel share it (a driver-managed
  /// buffer's roles name prepared models by it).
  const void* id() const noexcept { return core_.get(); }

  /// Creates an execution context reading `clock` (allocates its memory now).
  template <Clock C = SteadyClock>
  Expected<Execution<C>> create_execution(C clock = C{}) const {
    return Execution<C>::create(core_, std::move(clock));
  }

 private:
  explicit PreparedModel(std::shared_ptr<const detail::PreparedCore> core) : core_(std::move(core)) {}
  std::shared_ptr<const detail::PreparedCore> core_;
};

}  // namespace nnhal
