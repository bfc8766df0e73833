#pragma once
/// \file
/// PreparedModel: a validated model turned into an immutable plan shared by its executions.

#include <memory>

#include "nnhal/exec/execution.hpp"
#include "nnhal/exec/prepare.hpp"
#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/support.hpp"

namespace nnhal {

/// Options of PreparedModel::prepare.
struct PrepareOptions {
  ValidationOptions validation;
  /// Kept alive as long as the prepared model: e.g. the storage a model read from a cache has
  /// its memory pools in.
  std::shared_ptr<const void> owner;
  /// When set, receives a span for the preparation (nnhal/util/trace.hpp). Not owned.
  TraceSink* trace = nullptr;
  /// When set, kernels run pieces of their work on it (nnhal/interface/parallel.hpp; e.g. a
  /// nnhal::ThreadPool, or the driver's own pool). Outputs are the same for any concurrency.
  /// Not owned: it must outlive the prepared model. nullptr: every kernel runs on the thread
  /// that executes.
  Parallel* parallel = nullptr;
  /// Run every node on its plain reference kernel (KernelPrepare::reference): scalar loops in
  /// the reference's order, no SIMD table, no packed weights. Slower; it exists to check the
  /// fast kernels against (tools/random_graphs, the kernels' own tests).
  bool reference_kernels = false;
  /// Memory of the caller's (nnhal/core/arena.hpp) that validation's scratch, the prepared
  /// plan and its packed data, and the prepared copy of a model passed by const reference come
  /// from, instead of the heap (nullptr). RESOURCE_EXHAUSTED_PERSISTENT when it is too small.
  /// It must outlive the prepared model and its copies. A model passed by rvalue is taken over
  /// where it lives (built in the same arena, nothing of it is copied).
  Arena* arena = nullptr;
};

class PreparedModel;

namespace detail {
/// Gives back a PreparedCore made in an arena.
struct ArenaCoreDelete {
  Arena* arena;
  void operator()(PreparedCore* core) const noexcept {
    core->~PreparedCore();
    arena->deallocate(core, sizeof(PreparedCore), alignof(PreparedCore));
  }
};

/// Bytes a shared_ptr's control block with ArenaCoreDelete and an Allocator takes at most (40
/// with libstdc++ on 64-bit targets, 20 on 32-bit ones): checked for before the core is made,
/// so that the control block cannot run the arena out.
inline constexpr std::size_t kControlBlockBytes = 96;

/// The shared core of a prepared model holding `model` (taken over, or copied into `mem`).
/// Not make_shared: its control block answers get_deleter through type_info comparisons, which
/// link libstdc++'s RTTI support (and strcmp) into -fno-rtti programs such as firmware.
template <class M>
Expected<std::shared_ptr<PreparedCore>> make_core(M&& model, const Memories& mem) {
  Arena* arena = mem.arena();
  if (arena == nullptr) {
    if constexpr (std::is_lvalue_reference_v<M>)
      return std::shared_ptr<PreparedCore>(new PreparedCore(Model(model), mem.resource()));
    else
      return std::shared_ptr<PreparedCore>(new PreparedCore(std::move(model), mem.resource()));
  }
  if constexpr (std::is_lvalue_reference_v<M>) {
    // The prepared copy goes into the arena first, then the core.
    auto copy = copy_model(model, mem);
    if (!copy) return std::move(copy.error());
    return make_core(std::move(*copy), mem);
  } else {
    constexpr std::size_t kCoreBytes = sizeof(PreparedCore) + alignof(PreparedCore) + kControlBlockBytes;
    if (!mem.fits(kCoreBytes, alignof(PreparedCore))) return mem.exhausted(kCoreBytes);
    auto* core = new (arena->allocate(sizeof(PreparedCore), alignof(PreparedCore)))
        PreparedCore(std::move(model), mem.resource());
    return std::shared_ptr<PreparedCore>(core, ArenaCoreDelete{arena}, Allocator<std::byte>(arena));
  }
}
}  // namespace detail

/// The compiled entry points of kernel set `Set`: preparation and the supported-operations
/// query. They are members of a class template so that a program of several files can compile
/// them, with the set's kernels, in one file only (NNHAL_EXTERN_KERNEL_SET /
/// NNHAL_INSTANTIATE_KERNEL_SET); the other files then compile none of validation, preparation or
/// kernels.
template <class Set>
struct Runtime {
  static Expected<PreparedModel> prepare(const Model& model, const PrepareOptions& options);
  static Expected<PreparedModel> prepare(Model&& model, const PrepareOptions& options);
  static Expected<std::vector<bool>> supported_operations(const Model& model, const ValidationOptions& options,
                                                          detail::SupportQuery::Filter allowed);
};

/// A model validated and prepared for execution. Cheap to copy (shares the plan).
class PreparedModel {
 public:
  /// Validates `model` and prepares every subgraph: execution order, shapes, kernels, control
  /// flow, memory plan. The model's memory pools must outlive the prepared model; everything
  /// else is copied.
  /// The kernels come from kernel set `Set` (nnhal/interface/kernel_set.hpp; the default is
  /// every kernel, <nnhal/kernels/all.hpp>): an operation outside the set fails to prepare.
  template <class Set = AllKernels>
  static Expected<PreparedModel> prepare(const Model& model, const PrepareOptions& options = {}) {
    return Runtime<Set>::prepare(model, options);
  }

  /// The same, taking the model over instead of copying it (the prepared model() is it): no
  /// second copy of its operands and constants in memory, and a program that only prepares
  /// models this way has no code to copy one.
  template <class Set = AllKernels>
  static Expected<PreparedModel> prepare(Model&& model, const PrepareOptions& options = {}) {
    return Runtime<Set>::prepare(std::move(model), options);
  }

  /// The same with the kernel table of a set resolved elsewhere.
  static Expected<PreparedModel> prepare(const Model& model, const KernelTable& kernels,
                                         const PrepareOptions& options = {}) {
    return prepare_traced(model, kernels, options);
  }
  static Expected<PreparedModel> prepare(Model&& model, const KernelTable& kernels,
                                         const PrepareOptions& options = {}) {
    return prepare_traced(std::move(model), kernels, options);
  }

  /// The model's minimum HAL version.
  HalVersion version() const noexcept { return core_->version; }

 private:
  /// M: const Model& (copied into the prepared model) or Model (moved into it).
  template <class M>
  static Expected<PreparedModel> prepare_traced(M&& model, const KernelTable& kernels, const PrepareOptions& options) {
    if (!kTraceEnabled || options.trace == nullptr) [[likely]]
      return prepare_untraced(std::forward<M>(model), kernels, options);
    Span span;
    span.kind = SpanKind::Prepare;
    span.name = "prepare";
    span.begin_ns = options.trace->now_ns();
    auto prepared = prepare_untraced(std::forward<M>(model), kernels, options);
    span.end_ns = options.trace->now_ns();
    span.status = prepared ? ErrorStatus::NONE : prepared.error().status();
    options.trace->span(span);
    return prepared;
  }

  template <class M>
  static Expected<PreparedModel> prepare_untraced(M&& model, const KernelTable& kernels,
                                                  const PrepareOptions& options) {
    const Memories mem(options.arena);
    ValidationOptions validation = options.validation;
    if (validation.extensions.empty()) validation.extensions = kernels.extensions;
    if (validation.arena == nullptr) validation.arena = options.arena;
    auto version = detail::validate_model_rows(model, validation, *kernels.rows);
    if (!version) return std::move(version.error());
    NNHAL_TRY(check_control_flow_depth(model, validation.limits, Memories(validation.arena)));
    // The model is taken over (or copied) now that it is valid; it is only read through
    // core->model below.
    auto made = detail::make_core(std::forward<M>(model), mem);
    if (!made) return std::move(made.error());
    std::shared_ptr<detail::PreparedCore> core = std::move(*made);
    core->owner = options.owner;
    core->version = *version;
    const Model& m = core->model;
    if (!mem.reserve(core->graphs, 1 + m.referenced.size())) return mem.exhausted();
    for (std::size_t g = 0; g <= m.referenced.size(); ++g) core->graphs.emplace_back(mem.resource());
    core->parallel = options.parallel;
    core->extensions = validation.extensions;
    core->limits = validation.limits;
    core->rows = kernels.rows;
    PrepareCounters counters;
    counters.concurrency = options.parallel != nullptr ? piece_slots(options.parallel->concurrency()) : 1;
    counters.reference = options.reference_kernels;
    counters.max_tensor_bytes = validation.limits.max_tensor_bytes;
    for (std::size_t g = 0; g < core->graphs.size(); ++g) {
      const Subgraph& sg = g == 0 ? m.main : m.referenced[g - 1];
      SubgraphPlan& plan = core->graphs[g];
      if (auto s = prepare_subgraph(m, sg, g == 0, plan, counters, kernels, mem); !s) {
        if (g == 0) s.error().prefix("main");
        else s.error().prefix("referenced[%zu]", g - 1);
        NNHAL_VLOG(prepare, "prepare failed: %s", s.error().c_str());
        return std::move(s.error());
      }
      NNHAL_VLOG(prepare, "subgraph %zu: %zu node(s), %llu arena byte(s)", g, plan.nodes.size(),
                 static_cast<unsigned long long>(plan.arena_bytes));
      plan.arena_base = core->arena_bytes;
      core->arena_bytes += plan.arena_bytes;
    }
    core->while_nodes = counters.while_nodes;
    core->execution_bytes = detail::fixed_execution_bytes(*core);
    NNHAL_VLOG(prepare, "prepared: HAL %s, %zu subgraph(s), %llu arena byte(s), %zu WHILE loop(s)",
               to_string(core->version).data(), core->graphs.size(),
               static_cast<unsigned long long>(core->arena_bytes), static_cast<std::size_t>(counters.while_nodes));
    return PreparedModel(std::move(core));
  }

 public:
  /// The prepared copy of the model.
  const Model& model() const noexcept { return core_->model; }
  /// The extensions it was validated and prepared with (its kernel set's, unless the options
  /// named others).
  ExtensionList extensions() const noexcept { return core_->extensions; }
  /// The rows it was validated with (its kernel set's, KernelTable::rows): what a request to it
  /// is checked against (detail::validate_request_rows).
  const OperationRows& rows() const noexcept { return *core_->rows; }
  /// Bytes of the arena every execution reserves for temporaries of known size.
  std::uint64_t arena_bytes() const noexcept { return core_->arena_bytes; }
  /// Bytes every execution context allocates when it is created: the arena, plus the outputs
  /// of referenced (IF / WHILE) subgraphs whose size preparation knows and the WHILE loops'
  /// double buffers of known size. What a driver compares with its memory budget (Device's
  /// SupportPolicy::memory_limit does); memory grown while running is bounded apart, by
  /// Limits::max_dynamic_bytes.
  std::uint64_t execution_bytes() const noexcept { return core_->execution_bytes; }

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

/// Validates `model` and reports, for each operation of its main subgraph, whether kernel set
/// `Set` (default: every kernel) runs it (see nnhal/validate/support.hpp).
template <class Set = AllKernels>
Expected<std::vector<bool>> supported_operations(const Model& model, const ValidationOptions& options = {},
                                                 detail::SupportQuery::Filter allowed = {}) {
  return Runtime<Set>::supported_operations(model, options, std::move(allowed));
}

/// Validates `model` as validate_model does, with the extensions kernel set `Set` registers
/// (UseExtension entries) valid in it, against the set's rows: every row, or with SetRowsOnly
/// the set's own, so that a program whose set says SetRowsOnly compiles no other operation's
/// validation; an operation outside such a set is then refused as preparation refuses it
/// (GENERAL_FAILURE, "not in this program's kernel set").
template <class Set>
Expected<HalVersion> validate_model(const Model& model, ValidationOptions options = {}) {
  const KernelTable& table = kernel_table<Set>();
  if (options.extensions.empty()) options.extensions = table.extensions;
  return detail::validate_model_rows(model, options, *table.rows);
}

template <class Set>
Expected<PreparedModel> Runtime<Set>::prepare(const Model& model, const PrepareOptions& options) {
  return PreparedModel::prepare(model, kernel_table<Set>(), options);
}

template <class Set>
Expected<PreparedModel> Runtime<Set>::prepare(Model&& model, const PrepareOptions& options) {
  return PreparedModel::prepare(std::move(model), kernel_table<Set>(), options);
}

template <class Set>
Expected<std::vector<bool>> Runtime<Set>::supported_operations(const Model& model, const ValidationOptions& options,
                                                               detail::SupportQuery::Filter allowed) {
  return nnhal::supported_operations(model, kernel_table<Set>(), options, std::move(allowed));
}

}  // namespace nnhal

/// In every file but one of a program that uses kernel set `Set` (after including
/// <nnhal/nnhal.hpp>): the set's kernels, validation and preparation are compiled in another file.
#define NNHAL_EXTERN_KERNEL_SET(...)                          \
  extern template struct nnhal::KernelResolver<__VA_ARGS__>; \
  extern template struct nnhal::Runtime<__VA_ARGS__>
/// In the one file that compiles them (after including the set's kernels, or
/// <nnhal/kernels/all.hpp>, and <nnhal/nnhal.hpp>).
#define NNHAL_INSTANTIATE_KERNEL_SET(...)              \
  template struct nnhal::KernelResolver<__VA_ARGS__>; \
  template struct nnhal::Runtime<__VA_ARGS__>

/// The same for the executor of clock `C` (nnhal::SteadyClock by default).
#define NNHAL_EXTERN_EXECUTION(...) extern template class nnhal::Execution<__VA_ARGS__>
#define NNHAL_INSTANTIATE_EXECUTION(...) template class nnhal::Execution<__VA_ARGS__>
