#pragma once
/// \file
/// Validation of an untrusted Request against a (validated) Model (HAL13.md e.4): argument
/// counts, omitted arguments, pool indexes and bounds, dimensions, input buffer sizes and
/// output aliasing. Everything it accepts can be bound without reading or writing out of bounds.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "nnhal/core/result.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/validate/operand.hpp"

namespace nnhal {

/// Options of request validation.
struct RequestValidationOptions {
  /// Outputs of unknown rank or dimensions are allowed (execute / executeSynchronously /
  /// burst); executeFenced sets false.
  bool allow_unspecified_outputs = true;
};

namespace detail {

/// A memory region an argument (or model pool) covers, for the aliasing check.
struct RequestRegion {
  const std::byte* begin;
  std::uint64_t end;  ///< size in bytes from `begin`
  bool output;
  std::size_t index;
};

/// Bytes an argument may address: its location within a memory pool (token pools are sized by
/// their buffer and must use offset = length = 0).
struct ArgumentRegion {
  const std::byte* begin = nullptr;
  std::uint64_t size = 0;
};

inline Expected<ArgumentRegion> argument_region(const Request& request, const RequestArgument& arg) {
  const DataLocation& loc = arg.location;
  if (loc.poolIndex >= request.pools.size())
    return NNHAL_INVALID("poolIndex %u of %zu pools", loc.poolIndex, request.pools.size());
  const RequestMemoryPool& pool = request.pools[loc.poolIndex];
  if (pool.token != 0) {
    if (loc.offset != 0 || loc.length != 0)
      return NNHAL_INVALID("an argument in a driver-managed buffer must have offset 0 and length 0");
    return ArgumentRegion{};
  }
  if (pool.memory.data == nullptr) return NNHAL_INVALID("pool %u has no memory", loc.poolIndex);
  if (std::uint64_t{loc.offset} + loc.length > pool.memory.size)
    return NNHAL_INVALID("location [%u, +%u) exceeds pool %u of %zu bytes", loc.offset, loc.length,
                         loc.poolIndex, pool.memory.size);
  // A zero offset and length binds the whole pool (reference CPU executor behaviour).
  const std::uint64_t size = (loc.offset == 0 && loc.length == 0) ? pool.memory.size : loc.length;
  return ArgumentRegion{pool.memory.data + loc.offset, size};
}

/// Combines model and request dimensions (HAL13.md e.4.4-5). `allow_unknown` tolerates unknown
/// rank or 0 entries in the result.
inline Status check_argument_dims(const Operand& operand, const RequestArgument& arg,
                                  bool allow_unknown) {
  const auto& md = operand.dimensions;
  const auto& rd = arg.dimensions;
  if (!is_tensor(operand.type)) {
    if (!rd.empty()) return NNHAL_INVALID("scalar argument must not have dimensions");
    return {};
  }
  if (rd.empty()) {
    if (allow_unknown) return {};
    if (md.empty()) return NNHAL_INVALID("tensor of unknown rank needs dimensions in the request");
    for (std::uint32_t d : md)
      if (d == 0) return NNHAL_INVALID("tensor with unknown dimensions needs dimensions in the request");
    return {};
  }
  if (!md.empty() && md.size() != rd.size())
    return NNHAL_INVALID("request gives rank %zu, model operand has rank %zu", rd.size(), md.size());
  for (std::size_t i = 0; i < rd.size(); ++i) {
    if (!md.empty() && md[i] != 0 && md[i] != rd[i])
      return NNHAL_INVALID("request dimension %zu is %u, model operand has %u", i, rd[i], md[i]);
    if (rd[i] == 0 && !allow_unknown) return NNHAL_INVALID("request dimension %zu is 0", i);
  }
  return {};
}

/// Byte size of the combined (model, request) shape when fully known, else 0.
inline std::uint64_t combined_size(const Operand& operand, const RequestArgument& arg) {
  if (!is_tensor(operand.type)) return element_size(operand.type);
  const auto& d = arg.dimensions.empty() ? operand.dimensions : arg.dimensions;
  if (d.empty()) return 0;
  std::uint64_t n = element_size(operand.type);
  for (std::uint32_t v : d) {
    if (v == 0) return 0;
    if (n > UINT32_MAX) return UINT64_MAX;  // model validation bounded sizes; request may not
    n *= v;
  }
  return n;
}

/// For each operand of main: whether every place that reads it accepts an omitted value
/// (input_omittable). One pass over the operations, done only for requests omitting inputs.
inline std::vector<std::uint8_t> omittable_operands(const Subgraph& main) {
  enum : std::uint8_t { kUnread = 0, kOmittable = 1, kRequired = 2 };
  std::vector<std::uint8_t> state(main.operands.size(), kUnread);
  for (const Operation& op : main.operations) {
    const OperationInfo* info = find_operation(op.type);
    for (std::size_t j = 0; j < op.inputs.size(); ++j) {
      std::uint8_t& st = state[op.inputs[j]];
      const bool ok = info != nullptr && input_omittable(*info, j);
      st = (st == kRequired || !ok) ? kRequired : kOmittable;
    }
  }
  return state;
}

}  // namespace detail

/// Validates `request` against `model` (which must already have passed validate_model).
/// `scratch`, when given, is reused for the aliasing check, so a caller that keeps it (an
/// execution) validates without allocating.
inline Status validate_request(const Request& request, const Model& model,
                               const RequestValidationOptions& options = {},
                               std::vector<detail::RequestRegion>* scratch = nullptr) {
  const Subgraph& main = model.main;
  if (request.inputs.size() != main.inputIndexes.size())
    return NNHAL_INVALID("request has %zu inputs, the model has %zu", request.inputs.size(),
                         main.inputIndexes.size());
  if (request.outputs.size() != main.outputIndexes.size())
    return NNHAL_INVALID("request has %zu outputs, the model has %zu", request.outputs.size(),
                         main.outputIndexes.size());
  for (std::size_t p = 0; p < request.pools.size(); ++p) {
    const RequestMemoryPool& pool = request.pools[p];
    if (pool.token == 0 && pool.memory.data == nullptr && pool.memory.size != 0)
      return NNHAL_INVALID("pool %zu has a size but no memory", p);
  }

  using Region = detail::RequestRegion;
  std::vector<Region> local;
  std::vector<Region>& regions = scratch != nullptr ? *scratch : local;
  regions.clear();
  regions.reserve(request.inputs.size() + request.outputs.size() + model.pools.size());

  std::vector<std::uint8_t> omittable;  // computed on the first omitted input
  for (int pass = 0; pass < 2; ++pass) {
    const bool is_output = pass == 1;
    const auto& args = is_output ? request.outputs : request.inputs;
    const auto& indexes = is_output ? main.outputIndexes : main.inputIndexes;
    const char* what = is_output ? "output" : "input";
    for (std::size_t i = 0; i < args.size(); ++i) {
      const RequestArgument& arg = args[i];
      const Operand& operand = main.operands[indexes[i]];
      if (arg.hasNoValue) {
        if (arg.location.poolIndex != 0 || arg.location.offset != 0 || arg.location.length != 0 ||
            !arg.dimensions.empty())
          return NNHAL_INVALID("%s %zu: an omitted argument must have an empty location and no dimensions", what, i);
        if (is_output) return NNHAL_INVALID("output %zu: outputs cannot be omitted", i);
        if (omittable.empty()) omittable = detail::omittable_operands(main);
        if (omittable[indexes[i]] != 1)
          return NNHAL_INVALID("input %zu: omitted, but an operation reading it requires a value", i);
        continue;
      }
      auto region = detail::argument_region(request, arg);
      if (!region) return std::move(region.error().prefix("%s %zu", what, i));
      if (region->begin != nullptr && !is_aligned_for(operand.type, region->begin))
        return NNHAL_INVALID("%s %zu: buffer at offset %u is not aligned to its %u-byte elements", what, i,
                             arg.location.offset, element_size(operand.type));
      if (auto s = detail::check_argument_dims(operand, arg, is_output && options.allow_unspecified_outputs); !s)
        return std::move(s.error().prefix("%s %zu", what, i));
      if (!is_output && region->begin != nullptr) {
        const std::uint64_t need = detail::combined_size(operand, arg);
        if (need > region->size)
          return NNHAL_INVALID("input %zu: buffer of %llu bytes is smaller than the %llu bytes of its data", i,
                               static_cast<unsigned long long>(region->size), static_cast<unsigned long long>(need));
      }
      if (region->begin != nullptr && region->size != 0)
        regions.push_back({region->begin, region->size, is_output, i});
    }
  }

  // Model constants live in the model's pools: no output may point into them either.
  for (std::size_t p = 0; p < model.pools.size(); ++p)
    if (model.pools[p].data != nullptr && model.pools[p].size != 0)
      regions.push_back({model.pools[p].data, model.pools[p].size, false, p});

  // An output must not overlap another output, an input or a model pool: sort and sweep.
  std::sort(regions.begin(), regions.end(),
            [](const Region& a, const Region& b) { return std::less<const std::byte*>{}(a.begin, b.begin); });
  const std::byte* any_end = nullptr;
  const std::byte* output_end = nullptr;
  auto before = [](const std::byte* a, const std::byte* b) { return std::less<const std::byte*>{}(a, b); };
  for (const Region& r : regions) {
    const std::byte* end = r.begin + r.end;
    if (r.output && any_end != nullptr && before(r.begin, any_end))
      return NNHAL_INVALID("output %zu overlaps another argument or a model memory pool", r.index);
    if (!r.output && output_end != nullptr && before(r.begin, output_end))
      return NNHAL_INVALID("input %zu overlaps an output", r.index);
    if (any_end == nullptr || before(any_end, end)) any_end = end;
    if (r.output && (output_end == nullptr || before(output_end, end))) output_end = end;
  }
  return {};
}

}  // namespace nnhal
