#pragma once
/// \file
/// Memory domains (HAL13.md c.5): driver-managed buffers (DeviceBuffer, BufferRegistry, in
/// buffer_registry.hpp) and BoundBuffers, their use by one execution. A device runs a request
/// that names buffers by token like this:
///
///     BoundBuffers bound;                               // kept with the execution, reused
///     NNHAL_TRY(bound.bind(request, prepared, registry));
///     ExecuteOptions<> options;
///     options.token_memory = bound.token_memory();
///     Status s = execution.run(request, options);
///     s = bound.finish(s, execution.output_shapes());  // the status to report
///
/// No lock is held between bind and finish; the buffers bound stay alive until finish (or
/// clear) even if the client releases them meanwhile.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/device/buffer_desc.hpp"
#include "nnhal/device/buffer_registry.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

/// The driver-managed buffers one execution uses: checks a request's token pools against the
/// prepared model and the buffers' roles and state, provides ExecuteOptions::token_memory, and
/// afterwards updates the output buffers' state. Reusable: once its vectors have grown to a
/// request's size, later binds allocate nothing. Not thread-safe (one per execution context).
class BoundBuffers {
 public:
  BoundBuffers() = default;
  /// Reserves room for requests of up to `pools` pools and `arguments` arguments.
  explicit BoundBuffers(std::size_t pools, std::size_t arguments = 0) {
    buffers_.reserve(pools);
    memory_.reserve(pools);
    uses_.reserve(arguments);
  }

  /// Resolves the request's tokens in `registry` and checks their use (c.5 "Use in a request"):
  /// unknown token, an argument that is not among the buffer's roles for `model`, one buffer as
  /// two outputs or as an input and an output, or request dimensions that contradict the
  /// buffer's current (input) or allocated (output) dimensions are INVALID_ARGUMENT; an
  /// uninitialized buffer used as an input is GENERAL_FAILURE (reported only when nothing
  /// else is wrong with the use of buffers). On failure nothing stays bound.
  Status bind(const Request& request, const PreparedModel& model, const BufferRegistry& registry) {
    clear();
    Status s = bind_checked(request, model, registry);
    if (!s) clear();
    return s;
  }

  /// Memory of the bound buffers, indexed by request pool (for ExecuteOptions::token_memory);
  /// pools that are not tokens have empty entries.
  std::span<const Memory> token_memory() const noexcept { return memory_; }

  /// Applies an execution's outcome to the output buffers, then releases the bound buffers.
  /// Success: every output buffer takes its produced shape from `shapes` and becomes
  /// initialized (a shape other than the allocated dimensions is GENERAL_FAILURE, since the
  /// buffer's size is fixed by them). Failure: every output buffer becomes uninitialized, as
  /// the HAL text requires (the reference sample driver does not do this), and an
  /// OUTPUT_INSUFFICIENT_SIZE that concerns a driver-managed output becomes GENERAL_FAILURE
  /// (the buffer's dimensions were wrong). Returns the status to report.
  Status finish(const Status& result, std::span<const OutputShape> shapes) {
    Status status = result;
    if (status) {
      for (const Use& u : uses_) {
        if (!u.output) continue;
        const std::span<const std::uint32_t> produced =
            u.index < shapes.size() ? std::span<const std::uint32_t>(shapes[u.index].dimensions)
                                    : u.buffer->initial_dimensions();
        const auto initial = u.buffer->initial_dimensions();
        if (!std::equal(produced.begin(), produced.end(), initial.begin(), initial.end())) {
          status = NNHAL_FAILURE("output %" PRIu32
                                 ": the produced shape (rank %zu) differs from the dimensions of "
                                 "driver-managed buffer %" PRIu32,
                                 u.index, produced.size(), u.buffer->token());
          break;
        }
      }
      if (status)
        for (const Use& u : uses_)
          if (u.output) u.buffer->set_written(u.index < shapes.size() ? std::span<const std::uint32_t>(shapes[u.index].dimensions)
                                                                      : u.buffer->initial_dimensions());
    } else if (status.error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE) {
      for (const Use& u : uses_)
        if (u.output && (u.index >= shapes.size() || !shapes[u.index].isSufficient)) {
          status = NNHAL_FAILURE("output %" PRIu32 ": driver-managed buffer %" PRIu32
                                 " is too small for the produced shape",
                                 u.index, u.buffer->token());
          break;
        }
    }
    if (!status)
      for (const Use& u : uses_)
        if (u.output) u.buffer->set_uninitialized();
    clear();
    return status;
  }

  /// Releases the bound buffers (keeps the capacity).
  void clear() noexcept {
    buffers_.clear();
    memory_.clear();
    uses_.clear();
  }

 private:
  struct Use {
    DeviceBuffer* buffer;
    std::uint32_t index;  ///< input or output index in the request
    bool output;
  };

  Status bind_checked(const Request& request, const PreparedModel& model, const BufferRegistry& registry) {
    const std::size_t pools = request.pools.size();
    bool any_token = false;
    for (const RequestMemoryPool& pool : request.pools) any_token = any_token || pool.token != 0;
    if (!any_token) return {};
    buffers_.resize(pools);
    memory_.resize(pools);
    for (std::size_t p = 0; p < pools; ++p) {
      const std::uint32_t token = request.pools[p].token;
      if (token == 0) continue;
      buffers_[p] = registry.find(token);
      if (buffers_[p] == nullptr)
        return NNHAL_INVALID("pool %zu: no driver-managed buffer has token %" PRIu32, p, token);
      memory_[p] = buffers_[p]->memory();
    }
    const Subgraph& main = model.model().main;
    if (request.inputs.size() != main.inputIndexes.size() || request.outputs.size() != main.outputIndexes.size())
      return NNHAL_INVALID("request has %zu inputs and %zu outputs, the model %zu and %zu", request.inputs.size(),
                           request.outputs.size(), main.inputIndexes.size(), main.outputIndexes.size());
    Status uninitialized;  // reported last: an INVALID_ARGUMENT found later wins
    for (int pass = 0; pass < 2; ++pass) {
      const bool output = pass == 1;
      const auto& args = output ? request.outputs : request.inputs;
      const char* kind = output ? "output" : "input";
      for (std::size_t i = 0; i < args.size(); ++i) {
        const RequestArgument& arg = args[i];
        if (arg.hasNoValue) continue;
        const std::uint32_t p = arg.location.poolIndex;
        if (p >= pools)
          return NNHAL_INVALID("%s %zu: poolIndex %" PRIu32 " of %zu pools", kind, i, p, pools);
        DeviceBuffer* buffer = buffers_[p].get();
        if (buffer == nullptr) continue;
        const auto index = static_cast<std::uint32_t>(i);
        if (!buffer->has_role(model.id(), output, index))
          return NNHAL_INVALID("%s %zu: driver-managed buffer %" PRIu32
                               " was not allocated for %s %zu of this prepared model",
                               kind, i, buffer->token(), kind, i);
        if (output) {
          Dims combined;
          const auto initial = buffer->initial_dimensions();
          if (!detail::combine_dims(initial, arg.dimensions, combined) ||
              !std::equal(initial.begin(), initial.end(), combined.begin(), combined.end()))
            return NNHAL_INVALID("output %zu: request dimensions do not match the dimensions of driver-managed "
                                 "buffer %" PRIu32, i, buffer->token());
        } else if (Status s = buffer->check_input(arg.dimensions); !s) {
          if (s.error().status() != ErrorStatus::GENERAL_FAILURE) return std::move(s.error().prefix("input %zu", i));
          if (uninitialized) uninitialized = std::move(s.error().prefix("input %zu", i));
        }
        uses_.push_back({buffer, index, output});
      }
    }
    // Aliasing: group the uses by buffer (a token may appear in several pools) and look for a
    // buffer written twice, or read and written.
    std::sort(uses_.begin(), uses_.end(), [](const Use& a, const Use& b) {
      if (a.buffer != b.buffer) return std::less<const DeviceBuffer*>{}(a.buffer, b.buffer);
      if (a.output != b.output) return b.output;
      return a.index < b.index;
    });
    for (std::size_t k = 1; k < uses_.size(); ++k) {
      const Use& a = uses_[k - 1];
      const Use& b = uses_[k];
      if (a.buffer != b.buffer || !b.output) continue;
      if (a.output)
        return NNHAL_INVALID("outputs %" PRIu32 " and %" PRIu32
                             " both use driver-managed buffer %" PRIu32,
                             a.index, b.index, b.buffer->token());
      return NNHAL_INVALID("driver-managed buffer %" PRIu32 " is both input %" PRIu32
                           " and output %" PRIu32,
                           b.buffer->token(), a.index, b.index);
    }
    return uninitialized;
  }

  std::vector<std::shared_ptr<DeviceBuffer>> buffers_;  ///< per request pool; null if no token
  std::vector<Memory> memory_;                          ///< per request pool
  std::vector<Use> uses_;                               ///< arguments in driver-managed buffers
};

}  // namespace nnhal
