#pragma once
/// \file
/// Burst: a series of executions of one prepared model from one client (HAL13.md c.6). The
/// burst owns one execution context for its whole life, so back-to-back executions reuse the
/// same operand records, arena and loop buffers and allocate nothing after the first. One
/// execution at a time: concurrent calls on one burst are serialised. The canonical IBurst
/// takes the same arguments as a synchronous execution (deadline and loop timeout included)
/// and reports 1.3 statuses; a HIDL 1.2 burst server narrows them as HAL13.md c.6 says.

#include <memory>
#include "nnhal/device/mutex.hpp"

#include "nnhal/device/device_prepared_model.hpp"

namespace nnhal {

template <Clock C = SteadyClock>
class Burst {
 public:
  using Model = DevicePreparedModel<C>;

  /// Runs `request` like DevicePreparedModel::execute, on the burst's own context.
  ExecutionResult execute(const Request& request, const ExecutionArgs<C>& args = {}) {
    detail::LockGuard lock(mutex_);
    const auto start = model_->context_->clock.now();
    return model_->run(*slot_, request, args, args.deadline, start, false, nullptr);
  }

  /// The same into `result`, reusing its memory (output shapes and their dimensions keep their
  /// capacity): with the same ExecutionResult every time, an execution after the first makes no
  /// heap allocation.
  void execute(const Request& request, const ExecutionArgs<C>& args, ExecutionResult& result) {
    detail::LockGuard lock(mutex_);
    const auto start = model_->context_->clock.now();
    model_->run_into(*slot_, request, args, args.deadline, start, false, nullptr, result);
  }

  const Model& prepared_model() const noexcept { return *model_; }

 private:
  friend class DevicePreparedModel<C>;
  Burst(std::shared_ptr<Model> model, std::unique_ptr<typename Model::Slot> slot)
      : model_(std::move(model)), slot_(std::move(slot)) {}

  std::shared_ptr<Model> model_;
  std::unique_ptr<typename Model::Slot> slot_;
  detail::DeviceMutex mutex_;
};

template <Clock C>
Expected<std::unique_ptr<Burst<C>>> DevicePreparedModel<C>::configure_burst() {
  auto slot = create_slot();
  if (!slot) return std::move(slot.error());
  return std::unique_ptr<Burst<C>>(new Burst<C>(this->shared_from_this(), std::move(*slot)));
}

}  // namespace nnhal
