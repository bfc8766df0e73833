#pragma once
/// \file
/// The rules of request validation, reading the operation rows it is given: what an execution
/// checks its requests with (the rows of its kernel set). nnhal/validate/request.hpp adds
/// validate_request, which reads every row; this header does not include the operation table,
/// so the executor does not compile every operation's row.
///
/// Validation of an untrusted Request against a (validated) Model (HAL13.md b.8, e.4): argument
/// counts, omitted arguments, pool indexes and bounds, dimensions, input buffer sizes and
/// output aliasing. Everything it accepts can be bound without reading or writing out of bounds.
///
/// The rule for regions and lengths, in one place (docs/kernels.md repeats it):
///
/// * Overlaps (b.8). An output must not share a byte with any other argument, input or output,
///   nor with a CONSTANT_REFERENCE region of the model (an operand's [offset, offset + length)
///   in a model pool, in any subgraph). Nothing else is an overlap: inputs may share bytes with
///   each other and with constant regions (both are only read), and an output may lie in a
///   model pool outside every constant region. Two arguments in different request pools that
///   map the same memory overlap when their bytes do. The message names both things, e.g.
///   "output 0 overlaps input 1" or "output 0 overlaps constant operand 1 of main (model pool 0)".
///   Arguments in driver-managed buffers (token pools) have no address here; the device layer
///   checks their use (c.5).
/// * Lengths (e.4 rules 3 and 6). Every present argument must lie inside its pool (rule 3; an
///   offset and length both 0 bind the whole pool). An input whose region is shorter than its
///   data (known from the model and request dimensions) is INVALID_ARGUMENT: the executor
///   never reads past a region. A longer input region is accepted (the HIDL validator, which
///   does not apply the canonical exact-length rule 6). Outputs have no length check here:
///   a longer region is accepted, and a shorter one is OUTPUT_INSUFFICIENT_SIZE at execution,
///   with the shapes needed (the HIDL behaviour rule 6 describes).

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "nnhal/core/limits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/operation_info.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/validate/operand.hpp"

namespace nnhal {

/// Options of request validation.
struct RequestValidationOptions {
  /// Outputs of unknown rank or dimensions are allowed (execute / executeSynchronously /
  /// burst); executeFenced sets false.
  bool allow_unspecified_outputs = true;
  /// The registered extensions (the sizes of their operand types); a prepared model's
  /// execution fills it with its kernel set's.
  ExtensionList extensions{};
  /// Limits::max_request_pools and Limits::max_tensor_bytes; a prepared model's execution
  /// fills them with the limits it was prepared with.
  std::uint32_t max_request_pools = Limits{}.max_request_pools;
  std::uint64_t max_tensor_bytes = Limits{}.max_tensor_bytes;
};

namespace detail {

/// A memory region an argument covers, for the aliasing check.
struct RequestRegion {
  const std::byte* begin;
  std::uint64_t end;  ///< size in bytes from `begin`
  bool output;
  std::size_t index;  ///< the input's or output's position in the request
};

inline bool addresses_overlap(const std::byte* a, std::uint64_t a_size, const std::byte* b, std::uint64_t b_size) {
  const std::less<const std::byte*> before;
  return before(a, b + b_size) && before(b, a + a_size);
}

/// Checks that output `index` ([begin, +size)) overlaps no CONSTANT_REFERENCE region of
/// `model`. The constants are only looked at when the output lies in a model pool at all.
inline Status check_output_against_constants(const Model& model, std::size_t index, const std::byte* begin,
                                             std::uint64_t size) {
  for (std::size_t p = 0; p < model.pools.size(); ++p) {
    const Memory& pool = model.pools[p];
    if (pool.data == nullptr || pool.size == 0 || !addresses_overlap(begin, size, pool.data, pool.size)) continue;
    for (std::size_t g = 0; g <= model.referenced.size(); ++g) {
      const Subgraph& sg = g == 0 ? model.main : model.referenced[g - 1];
      for (std::size_t k = 0; k < sg.operands.size(); ++k) {
        const Operand& c = sg.operands[k];
        if (c.lifetime != OperandLifeTime::CONSTANT_REFERENCE || c.location.poolIndex != p || c.location.length == 0)
          continue;
        if (!addresses_overlap(begin, size, pool.data + c.location.offset, c.location.length)) continue;
        if (g == 0)
          return NNHAL_INVALID("output %zu overlaps constant operand %zu of main (model pool %zu)", index, k, p);
        return NNHAL_INVALID("output %zu overlaps constant operand %zu of referenced[%zu] (model pool %zu)", index,
                             k, g - 1, p);
      }
    }
  }
  return {};
}

/// Bytes an argument may address: its location within a memory pool (token pools are sized by
/// their buffer and must use offset = length = 0).
struct ArgumentRegion {
  const std::byte* begin = nullptr;
  std::uint64_t size = 0;
};

inline Expected<ArgumentRegion> argument_region(const Request& request, const RequestArgument& arg) {
  const DataLocation& loc = arg.location;
  if (loc.poolIndex >= request.pools.size())
    return NNHAL_INVALID("poolIndex %" PRIu32 " of %zu pools", loc.poolIndex, request.pools.size());
  const RequestMemoryPool& pool = request.pools[loc.poolIndex];
  if (pool.token != 0) {
    if (loc.offset != 0 || loc.length != 0)
      return NNHAL_INVALID("an argument in a driver-managed buffer must have offset 0 and length 0");
    return ArgumentRegion{};
  }
  if (pool.memory.data == nullptr)
    return NNHAL_INVALID("pool %" PRIu32 " has no memory", loc.poolIndex);
  if (std::uint64_t{loc.offset} + loc.length > pool.memory.size)
    return NNHAL_INVALID("location [%" PRIu32 ", +%" PRIu32 ") exceeds pool %" PRIu32
                         " of %zu bytes",
                         loc.offset, loc.length, loc.poolIndex, pool.memory.size);
  // A zero offset and length binds the whole pool (reference CPU executor behaviour).
  const std::uint64_t size = (loc.offset == 0 && loc.length == 0) ? pool.memory.size : loc.length;
  return ArgumentRegion{pool.memory.data + loc.offset, size};
}

/// Combines model and request dimensions (HAL13.md e.4.4-5). `allow_unknown` tolerates unknown
/// rank or 0 entries in the result.
inline Status check_argument_dims(const Operand& operand, const RequestArgument& arg, bool allow_unknown,
                                  const Extension::OperandTypeInformation* extension = nullptr) {
  const auto& md = operand.dimensions;
  const auto& rd = arg.dimensions;
  if (!(extension != nullptr ? extension->isTensor : is_tensor(operand.type))) {
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
      return NNHAL_INVALID("request dimension %zu is %" PRIu32 ", model operand has %" PRIu32, i,
                           rd[i], md[i]);
    if (rd[i] == 0 && !allow_unknown) return NNHAL_INVALID("request dimension %zu is 0", i);
  }
  return {};
}

/// Byte size of the combined (model, request) shape when fully known, else 0.
inline std::uint64_t combined_size(const Operand& operand, const RequestArgument& arg,
                                   const Extension::OperandTypeInformation* extension = nullptr) {
  const std::uint32_t element = extension != nullptr ? extension->byteSize : element_size(operand.type);
  if (!(extension != nullptr ? extension->isTensor : is_tensor(operand.type))) return element;
  const std::span<const std::uint32_t> d =
      arg.dimensions.empty() ? std::span<const std::uint32_t>(operand.dimensions) : std::span<const std::uint32_t>(arg.dimensions);
  if (d.empty()) return 0;
  std::uint64_t n = element;
  for (std::uint32_t v : d) {
    if (v == 0) return 0;
    if (n > UINT32_MAX) return UINT64_MAX;  // model validation bounded sizes; request may not
    n *= v;
  }
  return n;
}

/// What validating a request may keep between calls (an execution keeps one, so that validating
/// its requests allocates nothing after the first): the regions of the aliasing check, and the
/// omittability of main's operands (computed only for a request that omits an input).
struct RequestScratch {
  std::vector<RequestRegion> regions;
  std::vector<std::uint8_t> operand_readers;  ///< per operand of main: kNotRead / kMayOmit / kNeedsValue
  static constexpr std::uint8_t kNotRead = 0, kMayOmit = 1, kNeedsValue = 2;
};

/// For every operand of `main`: is it read, and does every place that reads it accept an omitted
/// value (input_omittable). An omitted input must be read, and omittable everywhere. One pass over
/// the operations for the whole request (it was one per omitted input, quadratic in a request
/// that omits many inputs), made only when the request omits an input.
inline void classify_operand_readers(const Subgraph& main, const OperationRows& rows, std::vector<std::uint8_t>& out) {
  out.assign(main.operands.size(), RequestScratch::kNotRead);
  for (const Operation& op : main.operations) {
    const OperationInfo* info = rows.find(op.type);
    for (std::size_t j = 0; j < op.inputs.size(); ++j) {
      const std::uint32_t index = op.inputs[j];
      if (index >= out.size()) continue;  // not in a valid model
      if (info == nullptr || !input_omittable(*info, j))
        out[index] = RequestScratch::kNeedsValue;
      else if (out[index] == RequestScratch::kNotRead)
        out[index] = RequestScratch::kMayOmit;
    }
  }
}

}  // namespace detail

namespace detail {
/// validate_request reading the rows `rows` (an execution passes its kernel set's).
inline Status validate_request_rows(const Request& request, const Model& model, const RequestValidationOptions& options,
                                    const OperationRows& rows, RequestScratch* scratch = nullptr) {
  const Subgraph& main = model.main;
  if (request.inputs.size() != main.inputIndexes.size())
    return NNHAL_INVALID("request has %zu inputs, the model has %zu", request.inputs.size(),
                         main.inputIndexes.size());
  if (request.outputs.size() != main.outputIndexes.size())
    return NNHAL_INVALID("request has %zu outputs, the model has %zu", request.outputs.size(),
                         main.outputIndexes.size());
  if (request.pools.size() > options.max_request_pools)
    return NNHAL_INVALID("request has %zu memory pools, above Limits::max_request_pools (%" PRIu32
                         ")",
                         request.pools.size(), options.max_request_pools);
  for (std::size_t p = 0; p < request.pools.size(); ++p) {
    const RequestMemoryPool& pool = request.pools[p];
    if (pool.token == 0 && pool.memory.data == nullptr && pool.memory.size != 0)
      return NNHAL_INVALID("pool %zu has a size but no memory", p);
  }

  using Region = detail::RequestRegion;
  RequestScratch local;
  RequestScratch& kept = scratch != nullptr ? *scratch : local;
  std::vector<Region>& regions = kept.regions;
  bool readers_known = false;
  regions.clear();
  regions.reserve(request.inputs.size() + request.outputs.size());

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
        if (!readers_known) {
          classify_operand_readers(main, rows, kept.operand_readers);
          readers_known = true;
        }
        if (kept.operand_readers[indexes[i]] != RequestScratch::kMayOmit)
          return NNHAL_INVALID("input %zu: omitted, but an operation reading it requires a value", i);
        continue;
      }
      auto region = detail::argument_region(request, arg);
      if (!region) return std::move(region.error().prefix("%s %zu", what, i));
      if (region->begin != nullptr && !is_aligned_for(operand.type, region->begin))
        return NNHAL_INVALID("%s %zu: buffer at offset %" PRIu32 " is not aligned to its %" PRIu32
                             "-byte elements",
                             what, i, arg.location.offset, element_size(operand.type));
      const Extension::OperandTypeInformation* extension =
          find_extension_operand_type(model, options.extensions, operand.type);
      if (auto s = detail::check_argument_dims(operand, arg, is_output && options.allow_unspecified_outputs, extension);
          !s)
        return std::move(s.error().prefix("%s %zu", what, i));
      const std::uint64_t need = detail::combined_size(operand, arg, extension);
      if (!is_output && region->begin != nullptr) {
        if (need > region->size)
          return NNHAL_INVALID("input %zu: buffer of %llu bytes is smaller than the %llu bytes of its data", i,
                               static_cast<unsigned long long>(region->size), static_cast<unsigned long long>(need));
      }
      if (need > options.max_tensor_bytes)
        return NNHAL_INVALID("%s %zu: the shape holds %llu bytes, above Limits::max_tensor_bytes (%llu)", what, i,
                             static_cast<unsigned long long>(need),
                             static_cast<unsigned long long>(options.max_tensor_bytes));
      if (region->begin != nullptr && region->size != 0)
        regions.push_back({region->begin, region->size, is_output, i});
    }
  }

  // An output must not overlap another argument (sort and sweep: a region that starts before the
  // furthest end seen so far overlaps the region that reached that end)...
  std::sort(regions.begin(), regions.end(),
            [](const Region& a, const Region& b) { return std::less<const std::byte*>{}(a.begin, b.begin); });
  auto before = [](const std::byte* a, const std::byte* b) { return std::less<const std::byte*>{}(a, b); };
  const Region* furthest = nullptr;         // the region of any kind reaching furthest so far
  const Region* furthest_output = nullptr;  // the output reaching furthest so far
  auto end_of = [](const Region* r) { return r->begin + r->end; };
  for (const Region& r : regions) {
    const Region* other = r.output ? furthest : furthest_output;
    if (other != nullptr && before(r.begin, end_of(other)))  // one of the two is an output
      return NNHAL_INVALID("%s %zu overlaps %s %zu", r.output ? "output" : "input", r.index,
                           other->output ? "output" : "input", other->index);
    if (furthest == nullptr || before(end_of(furthest), end_of(&r))) furthest = &r;
    if (r.output && (furthest_output == nullptr || before(end_of(furthest_output), end_of(&r)))) furthest_output = &r;
  }
  // ... nor a constant of the model (b.8); outputs elsewhere in a model pool are fine.
  if (!model.pools.empty())
    for (const Region& r : regions)
      if (r.output) NNHAL_TRY(detail::check_output_against_constants(model, r.index, r.begin, r.end));
  return {};
}
}  // namespace detail

}  // namespace nnhal
