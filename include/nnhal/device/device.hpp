#pragma once
/// \file
/// Device: the IDevice of HAL13.md c.1 as portable C++. A driver maps its HIDL or AIDL service
/// onto it: capabilities (calibrated constants), identity, the supported-operations query and
/// prepare, both narrowed by the driver's SupportPolicy, prepare from cache, and
/// driver-managed buffers. Methods are synchronous and return errors as values; a HIDL
/// service calls its IPreparedModelCallback with the result of prepare().
///
/// A Device outlives nothing it made: prepared models and buffers keep the state they need,
/// and asynchronous work still queued when the Device goes is finished first (its workers are
/// joined). Memory pools of a model (CONSTANT_REFERENCE) must outlive what is prepared from it.

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/device/burst.hpp"
#include "nnhal/device/cache.hpp"
#include "nnhal/device/cache_file.hpp"
#include "nnhal/device/capabilities.hpp"
#include "nnhal/device/device_context.hpp"
#include "nnhal/device/device_prepared_model.hpp"
#include "nnhal/device/housekeeping.hpp"
#include "nnhal/device/memory_domain.hpp"
#include "nnhal/device/policy.hpp"
#include "nnhal/device/result_callback.hpp"
#include "nnhal/util/log.hpp"
#include "nnhal/validate/support.hpp"
#include "nnhal/version.hpp"

namespace nnhal {

/// Options of a Device.
template <Clock C = SteadyClock>
struct DeviceOptions {
  std::string name = "nnhal-cpu";
  SupportPolicy policy;
  /// Threads for asynchronous and fenced work (NNHAL_ASYNC); 0 = one per hardware thread.
  std::size_t worker_threads = 0;
  C clock{};
  /// Accept runtime-only features: WHILE operands of unknown size (HAL13.md d.4 rule 4). A HAL
  /// 1.3 driver must refuse them (INVALID_ARGUMENT from supported_operations, prepare and
  /// prepare_from_cache, c.1.1 and e.3), which is the default. Set it for a framework-side
  /// interpreter that runs such loops itself, as the NNAPI runtime's CPU fallback does.
  bool allow_runtime_only = false;
  /// Resource limits (nnhal/core/limits.hpp, docs/security.md): applied to every model,
  /// request, driver-managed buffer and cache this device handles.
  Limits limits{};
  /// When set, receives the spans of every preparation and execution of this device and its
  /// prepared models (nnhal/util/trace.hpp), from worker threads too: it must be safe to call
  /// concurrently and outlive the device. Not owned.
  TraceSink* trace = nullptr;
  /// Threads each execution's kernels may use, the executing thread included: above 1 the
  /// device owns a nnhal::ThreadPool of that size (NNHAL_ASYNC builds); 0 = one per hardware
  /// thread. Outputs are the same for any count. Ignored when `parallel` is set.
  std::size_t threads = 1;
  /// The driver's own pool for kernel pieces (nnhal/interface/parallel.hpp); not owned, must
  /// outlive the device and every model it prepares.
  Parallel* parallel = nullptr;
  /// Prepare every model with the plain reference kernels (PrepareOptions::reference_kernels):
  /// slower; for checking the fast kernels against them (tests, tools/random_graphs).
  bool reference_kernels = false;
};

/// Arguments of prepare (prepareModel_1_3).
template <Clock C = SteadyClock>
struct PrepareArgs {
  ExecutionPreference preference = ExecutionPreference::FAST_SINGLE_ANSWER;
  Priority priority = Priority::MEDIUM;
  /// Passed at entry: MISSED_DEADLINE_PERSISTENT; passed when preparation ends:
  /// MISSED_DEADLINE_TRANSIENT.
  std::optional<typename C::time_point> deadline;
  /// Cache files to write (kModelCacheFiles / kDataCacheFiles of them) and the token naming
  /// the model. Both empty: no caching. Wrong counts or failing files never fail preparation.
  std::span<CacheFile* const> model_cache;
  std::span<CacheFile* const> data_cache;
  CacheToken token{};
  /// Release the prepared model's execution memory after this long without executions.
  std::optional<std::chrono::nanoseconds> idle_release;
};

/// What allocate() returns: the buffer and its token (> 0) for request pools.
struct AllocatedBuffer {
  std::shared_ptr<DeviceBuffer> buffer;
  std::uint32_t token = 0;
};

/// The driver-facing device. `Set` is the kernel set it runs (nnhal/interface/kernel_set.hpp;
/// default: every kernel): operations outside it are reported unsupported and refused at prepare.
template <Clock C = SteadyClock, class Set = AllKernels>
class Device {
 public:
  using PreparedModelPtr = std::shared_ptr<DevicePreparedModel<C>>;

  explicit Device(DeviceOptions<C> options = {})
      : name_(std::move(options.name)), policy_(std::move(options.policy)),
        allow_runtime_only_(options.allow_runtime_only), reference_kernels_(options.reference_kernels),
        limits_(options.limits),
        context_(std::make_shared<detail::DeviceContext<C>>(std::move(options.clock))) {
    context_->trace = options.trace;
    context_->parallel = options.parallel;
#if NNHAL_ASYNC
    if (context_->parallel == nullptr) {
      std::size_t kernel_threads = options.threads;
      if (kernel_threads == 0) kernel_threads = std::thread::hardware_concurrency();
      if (kernel_threads > 1) {
        context_->kernel_pool = std::make_unique<ThreadPool>(kernel_threads);
        context_->parallel = context_->kernel_pool.get();
      }
    }
    std::size_t threads = options.worker_threads;
    if (threads == 0) threads = std::thread::hardware_concurrency();
    pool_ = std::make_unique<WorkerPool>(threads == 0 ? 1 : threads);
    context_->pool = pool_.get();
#endif
  }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device() {
#if NNHAL_ASYNC
    housekeeping_.reset();
    {
      std::lock_guard lock(context_->pool_mutex);
      context_->pool = nullptr;
    }
    pool_.reset();  // finishes every queued task, then joins
#endif
  }

  DeviceStatus status() const noexcept { return DeviceStatus::AVAILABLE; }
  std::string_view name() const noexcept { return name_; }
  /// getVersionString: the library version (stable for a given build).
  std::string_view version_string() const noexcept { return "nnhal " NNHAL_VERSION_STRING; }
  DeviceType type() const noexcept { return DeviceType::CPU; }
  HalVersion feature_level() const noexcept { return HalVersion::V1_3; }
  /// getSupportedExtensions: the extensions the kernel set registers (UseExtension entries),
  /// each with its operand types. Empty for the default set.
  std::vector<Extension> supported_extensions() const {
    std::vector<Extension> out;
    for (const ExtensionInfo* e : kernel_table<Set>().extensions)
      out.push_back({std::string(e->name), {e->operand_types.begin(), e->operand_types.end()}});
    return out;
  }
  /// getCapabilities_1_3: the calibrated constants (the same on every call and every run).
  Capabilities capabilities() const { return cpu_capabilities(); }
  /// getNumberOfCacheFilesNeeded: {model cache files, data cache files}.
  std::pair<std::uint32_t, std::uint32_t> cache_files_needed() const noexcept {
    return {kModelCacheFiles, kDataCacheFiles};
  }
  const SupportPolicy& policy() const noexcept { return policy_; }
  /// The resource limits this device applies (DeviceOptions::limits).
  const Limits& limits() const noexcept { return limits_; }

  /// getSupportedOperations_1_3: INVALID_ARGUMENT for an invalid model (a WHILE with operands
  /// of unknown size included, unless DeviceOptions::allow_runtime_only), else one flag per
  /// main operation (IF/WHILE only when everything they reference is supported).
  /// The model is validated against the kernel set's rows (KernelTable::rows). With a set that
  /// says SetRowsOnly, an operation outside the set, whose row this program does not link, is
  /// checked only for what needs no row (operand indexes, order, consumer counts) and flagged
  /// unsupported, so the runtime can give it to another device (which validates it with its
  /// own table); prepare() refuses the same model with GENERAL_FAILURE, as
  /// PreparedModel::prepare does.
  Expected<std::vector<bool>> supported_operations(const Model& model) const {
    return nnhal::supported_operations(model, kernel_table<Set>(), validation(), filter(model));
  }
  /// Whether this device accepts runtime-only features (DeviceOptions::allow_runtime_only).
  bool allows_runtime_only() const noexcept { return allow_runtime_only_; }

  /// prepareModel_1_3 (see PrepareArgs). Validates first (HAL13.md c.1.2 step 2, then step 4):
  /// INVALID_ARGUMENT for an invalid model or argument, or a model with an operation this
  /// device does not support, whatever the deadline; then MISSED_DEADLINE_PERSISTENT when the
  /// deadline had passed when the call began, MISSED_DEADLINE_TRANSIENT when it passes while
  /// preparing. With a kernel set that says SetRowsOnly, an operation outside the set is
  /// GENERAL_FAILURE ("not in this program's kernel set"; see supported_operations()).
  Expected<PreparedModelPtr> prepare(const Model& model, const PrepareArgs<C>& args = {}) {
    const auto entry = context_->clock.now();
    if (static_cast<std::uint32_t>(args.preference) > 2)
      return NNHAL_INVALID("prepare: invalid execution preference %d", static_cast<int>(args.preference));
    if (static_cast<std::uint32_t>(args.priority) > 2)
      return NNHAL_INVALID("prepare: invalid priority %d", static_cast<int>(args.priority));
    NNHAL_TRY(validate_for_prepare(model));
    if (args.deadline && detail::passed(entry, *args.deadline))
      return Error(ErrorStatus::MISSED_DEADLINE_PERSISTENT, "prepare: the deadline had passed");
    auto prepared = prepare_model(model, {}, args.deadline);
    if (!prepared) return std::move(prepared.error());
    write_cache(model, args);
    return make_prepared(std::move(*prepared), args.preference, args.priority, args.idle_release);
  }

  /// prepareModelFromCache_1_3: reads the files prepare() wrote for `token`. Wrong file counts:
  /// INVALID_ARGUMENT; unreadable, corrupted, truncated or mismatched caches: GENERAL_FAILURE
  /// (a cache is never trusted: it is checked, decoded with bounds checks and validated again).
  /// The deadline is looked at after all of that, as in prepare().
  Expected<PreparedModelPtr> prepare_from_cache(std::optional<typename C::time_point> deadline,
                                                std::span<CacheFile* const> model_cache,
                                                std::span<CacheFile* const> data_cache, const CacheToken& token) {
    const auto entry = context_->clock.now();
    if (model_cache.size() != kModelCacheFiles || data_cache.size() != kDataCacheFiles)
      return NNHAL_INVALID("prepareFromCache: %zu model and %zu data cache files given, %" PRIu32
                           " and %" PRIu32 " needed",
                           model_cache.size(), data_cache.size(), kModelCacheFiles, kDataCacheFiles);
    std::vector<std::byte> model_bytes, data_bytes;
    if (model_cache[0] == nullptr || data_cache[0] == nullptr)
      return NNHAL_FAILURE("prepareFromCache: a cache file cannot be read");
    for (int k = 0; k < 2; ++k) {
      bool too_large = false;
      CacheFile& file = k == 0 ? *model_cache[0] : *data_cache[0];
      if (!file.read_at_most(k == 0 ? model_bytes : data_bytes, limits_.max_cache_file_bytes, too_large)) {
        if (too_large)
          return NNHAL_FAILURE("prepareFromCache: the %s cache file is above Limits::max_cache_file_bytes (%llu)",
                               k == 0 ? "model" : "data", static_cast<unsigned long long>(limits_.max_cache_file_bytes));
        return NNHAL_FAILURE("prepareFromCache: a cache file cannot be read");
      }
    }
    // The cache's own check admits runtime-only features, so that a well-formed cache of a model
    // this device refuses gets the same INVALID_ARGUMENT as prepare() (from the check below).
    ValidationOptions well_formed = validation();
    well_formed.allow_runtime_only = true;
    auto cached = detail::cache::read_model_cache_logged(model_bytes, data_bytes, token, well_formed, rows(),
                                                         fingerprint());
    if (!cached) return Error(ErrorStatus::GENERAL_FAILURE, cached.error().message()).prefix("prepareFromCache");
    auto owner = std::make_shared<CachedModel>(std::move(*cached));
    if (auto v = validate_for_prepare(owner->model); !v) return std::move(v.error().prefix("prepareFromCache"));
    if (deadline && detail::passed(entry, *deadline))
      return Error(ErrorStatus::MISSED_DEADLINE_PERSISTENT, "prepareFromCache: the deadline had passed");
    auto prepared = prepare_model(owner->model, owner, deadline);
    if (!prepared) return std::move(prepared.error().prefix("prepareFromCache"));
    return make_prepared(std::move(*prepared), ExecutionPreference::FAST_SINGLE_ANSWER, Priority::MEDIUM, {});
  }

  /// allocate (c.5): a driver-managed buffer for the given roles of `models`.
  Expected<AllocatedBuffer> allocate(const BufferDesc& desc, std::span<const PreparedModelPtr> models,
                                        std::span<const BufferRole> input_roles,
                                        std::span<const BufferRole> output_roles) {
    std::vector<const PreparedModel*> plans;
    plans.reserve(models.size());
    for (std::size_t i = 0; i < models.size(); ++i) {
      if (models[i] == nullptr) return NNHAL_INVALID("allocate: prepared model %zu is null", i);
      if (!models[i]->made_by(context_.get()))
        return NNHAL_INVALID("allocate: prepared model %zu comes from another device", i);
      plans.push_back(&models[i]->prepared());
    }
    auto made = context_->buffers.allocate(desc, plans, input_roles, output_roles, limits_.max_buffer_bytes);
    if (!made) return std::move(made.error());
    return AllocatedBuffer{std::move(made->first), made->second};
  }

  /// Driver-managed buffers currently alive.
  const BufferRegistry& buffers() const noexcept { return context_->buffers; }
  /// The clock the device reads (deadlines, timing).
  const C& clock() const noexcept { return context_->clock; }

 private:
  std::function<bool(const Subgraph&, const Operation&)> filter(const Model& model) const {
    return [this, &model](const Subgraph& sg, const Operation& op) { return policy_.allows(model, sg, op); };
  }

  ValidationOptions validation() const noexcept {
    ValidationOptions v;
    v.allow_runtime_only = allow_runtime_only_;
    v.limits = limits_;
    v.extensions = kernel_table<Set>().extensions;
    return v;
  }

  /// The rows this device validates with: its kernel set's (every row, or the set's own with
  /// SetRowsOnly). Nothing in the device reads any other, so a program whose set says
  /// SetRowsOnly links no other operation's row.
  static const OperationRows& rows() noexcept { return *kernel_table<Set>().rows; }

  /// The cache fingerprint of this device's rows and extensions (cache_fingerprint(rows,
  /// extensions)): the default set's is cache_fingerprint(), a SetRowsOnly set's differs, so a
  /// device never reads a cache written by a program validating with other rows. Computed once.
  static std::uint64_t fingerprint() noexcept {
    static const std::uint64_t value = cache_fingerprint(rows(), kernel_table<Set>().extensions);
    return value;
  }

  /// The model checks of prepare (HAL13.md c.1.2 step 2): valid for this device's mode, and
  /// every operation supported. INVALID_ARGUMENT otherwise (GENERAL_FAILURE for an operation
  /// outside a SetRowsOnly set, as in PreparedModel::prepare).
  Status validate_for_prepare(const Model& model) const {
    if (auto v = detail::validate_model_rows(model, validation(), rows()); !v)
      return std::move(v.error().prefix("prepare"));
    Error why;
    if (!all_operations_supported(model, kernel_table<Set>(), filter(model), why)) return std::move(why.prefix("prepare"));
    return {};
  }

  /// Prepares a model validate_for_prepare() accepted.
  Expected<PreparedModel> prepare_model(const Model& model, std::shared_ptr<const void> owner,
                                        const std::optional<typename C::time_point>& deadline) {
    const KernelTable& kernels = kernel_table<Set>();
    PrepareOptions options;
    options.owner = std::move(owner);
    options.validation = validation();
    options.trace = context_->trace;
    options.parallel = context_->parallel;
    options.reference_kernels = reference_kernels_;
    auto prepared = PreparedModel::prepare(model, kernels, options);
    if (!prepared) return std::move(prepared.error().prefix("prepare"));
    if (policy_.memory_limit != 0 && prepared->execution_bytes() > policy_.memory_limit)
      return Error::format(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                           "prepare: the model needs %llu bytes of execution memory, the device allows %llu",
                           static_cast<unsigned long long>(prepared->execution_bytes()),
                           static_cast<unsigned long long>(policy_.memory_limit));
    if (deadline && detail::passed(context_->clock.now(), *deadline))
      return Error(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "prepare: the deadline passed while preparing");
    return prepared;
  }

  /// Writes the cache when asked to; failures do not fail preparation (HAL13.md c.1.2).
  void write_cache(const Model& model, const PrepareArgs<C>& args) {
    if (args.model_cache.size() != kModelCacheFiles || args.data_cache.size() != kDataCacheFiles) return;
    if (args.model_cache[0] == nullptr || args.data_cache[0] == nullptr) return;
    auto blobs = detail::cache::write_model_cache(model, args.token, fingerprint());
    if (!blobs) {
      NNHAL_VLOG(cache, "cache not written: %s", blobs.error().c_str());
      return;
    }
    // The data cache first: a model cache is only useful with its data beside it. `written` is
    // only logged, and NNHAL_VLOG_ENABLED=0 leaves the log statement out.
    [[maybe_unused]] const bool written =
        args.data_cache[0]->write(blobs->data_cache) && args.model_cache[0]->write(blobs->model_cache);
    NNHAL_VLOG(cache, "cache %s: %zu model byte(s), %zu data byte(s)", written ? "written" : "write failed",
               blobs->model_cache.size(), blobs->data_cache.size());
  }

  PreparedModelPtr make_prepared(PreparedModel prepared, ExecutionPreference preference, Priority priority,
                                 std::optional<std::chrono::nanoseconds> idle_release) {
    NNHAL_VLOG(device, "%s: prepared model ready (preference %d, priority %d)", name_.c_str(),
               static_cast<int>(preference), static_cast<int>(priority));
    PreparedModelSettings settings{preference, priority, idle_release};
    auto made = std::make_shared<DevicePreparedModel<C>>(std::move(prepared), settings, context_);
#if NNHAL_ASYNC
    if (idle_release) {
      std::lock_guard lock(housekeeping_mutex_);
      if (!housekeeping_) housekeeping_ = std::make_unique<detail::Housekeeping<C>>(context_);
      housekeeping_->watch(made, *idle_release);
    }
#endif
    return made;
  }

  std::string name_;
  SupportPolicy policy_;
  bool allow_runtime_only_ = false;
  bool reference_kernels_ = false;  ///< DeviceOptions::reference_kernels
  Limits limits_;
  std::shared_ptr<detail::DeviceContext<C>> context_;
#if NNHAL_ASYNC
  std::unique_ptr<WorkerPool> pool_;
  std::mutex housekeeping_mutex_;
  std::unique_ptr<detail::Housekeeping<C>> housekeeping_;
#endif
};

}  // namespace nnhal
