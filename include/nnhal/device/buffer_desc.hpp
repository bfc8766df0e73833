#pragma once
/// \file
/// What IDevice::allocate is asked for (HAL13.md b.12): a BufferDesc and the roles a buffer will
/// play in prepared models, and their validation (c.5, `validateMemoryDesc`): every role must
/// exist, all role operands must agree on type and quantization, and the dimensions of the
/// description and of every role must combine into one shape.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

/// Dimensions requested for a driver-managed buffer (`@1.3::BufferDesc`): may be partial (0 =
/// unknown) or empty (unknown rank); the roles' operands fill in the rest.
struct BufferDesc {
  std::vector<std::uint32_t> dimensions;
};

/// One use of a buffer (`@1.3::BufferRole`): input or output `ioIndex` of the main subgraph of
/// `preparedModels[modelIndex]`; `frequency` in (0, 1] is a hint, nnhal only checks its range.
struct BufferRole {
  std::uint32_t modelIndex = 0;
  std::uint32_t ioIndex = 0;
  float frequency = 1.0f;
};

namespace detail {

/// A role as a buffer remembers it: the prepared model by identity (PreparedModel::id()).
struct BufferRoleKey {
  const void* model = nullptr;
  std::uint32_t io_index = 0;
  bool output = false;

  friend bool operator<(const BufferRoleKey& a, const BufferRoleKey& b) noexcept {
    if (a.model != b.model) return std::less<const void*>{}(a.model, b.model);
    if (a.output != b.output) return b.output;
    return a.io_index < b.io_index;
  }
  friend bool operator==(const BufferRoleKey&, const BufferRoleKey&) = default;
};

/// Combines two shapes that describe the same value: an empty side has unknown rank; a 0 entry
/// is unknown. False when both ranks are known and differ, or two known entries differ.
inline bool combine_dims(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b, Dims& out) noexcept {
  if (a.empty()) return out.assign(b);
  if (b.empty()) return out.assign(a);
  if (a.size() != b.size() || !out.assign(a)) return false;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    if (out[i] != 0 && out[i] != b[i]) return false;
    out[i] = b[i];
  }
  return true;
}

/// Everything allocate fixes about a buffer once the description and roles are validated.
struct BufferLayout {
  OperandType type = OperandType::TENSOR_FLOAT32;
  float scale = 0.0f;
  std::int32_t zero_point = 0;
  Dims dimensions;                   ///< the combined shape, fully specified
  std::size_t size = 0;              ///< bytes
  std::vector<BufferRoleKey> roles;  ///< sorted, unique
  std::vector<PreparedModel> models; ///< the role models, one copy of each (pins their ids)
};

inline bool same_channel_quant(const Operand& a, const Operand& b) {
  if (a.channelQuant.has_value() != b.channelQuant.has_value()) return false;
  if (!a.channelQuant) return true;
  return a.channelQuant->channelDim == b.channelQuant->channelDim && a.channelQuant->scales == b.channelQuant->scales;
}

/// Validates the arguments of IDevice::allocate (HAL13.md c.5) and works out the buffer's
/// layout. INVALID_ARGUMENT for a malformed description or role; GENERAL_FAILURE for what nnhal
/// cannot allocate: a size not known now ("dynamic shape"), a non-fundamental operand type, or
/// a size above 4 GiB.
inline Expected<BufferLayout> validate_memory_desc(const BufferDesc& desc,
                                                   std::span<const PreparedModel* const> prepared_models,
                                                   std::span<const BufferRole> input_roles,
                                                   std::span<const BufferRole> output_roles) {
  if (prepared_models.empty()) return NNHAL_INVALID("allocate: no prepared models");
  for (std::size_t m = 0; m < prepared_models.size(); ++m)
    if (prepared_models[m] == nullptr) return NNHAL_INVALID("allocate: prepared model %zu is null", m);
  if (input_roles.empty() && output_roles.empty()) return NNHAL_INVALID("allocate: no roles");

  BufferLayout layout;
  layout.roles.reserve(input_roles.size() + output_roles.size());
  const Operand* first = nullptr;
  // A description of a rank above kMaxRank contradicts every role of known rank (prepared
  // models have no larger ranks); with only roles of unknown rank it is merely unsupported.
  const bool desc_too_long = !layout.dimensions.assign(desc.dimensions);
  for (int pass = 0; pass < 2; ++pass) {
    const bool output = pass == 1;
    const auto roles = output ? output_roles : input_roles;
    const char* kind = output ? "output" : "input";
    for (std::size_t r = 0; r < roles.size(); ++r) {
      const BufferRole& role = roles[r];
      if (role.modelIndex >= prepared_models.size())
        return NNHAL_INVALID("%s role %zu: modelIndex %" PRIu32
                             ", but there are %zu prepared models",
                             kind, r, role.modelIndex, prepared_models.size());
      const PreparedModel& pm = *prepared_models[role.modelIndex];
      const Subgraph& main = pm.model().main;
      const auto& io = output ? main.outputIndexes : main.inputIndexes;
      if (role.ioIndex >= io.size())
        return NNHAL_INVALID("%s role %zu: ioIndex %" PRIu32 ", but prepared model %" PRIu32
                             " has %zu %ss",
                             kind, r, role.ioIndex, role.modelIndex, io.size(), kind);
      if (!(role.frequency > 0.0f && role.frequency <= 1.0f))
        return NNHAL_INVALID("%s role %zu: frequency %g is outside (0, 1]", kind, r, static_cast<double>(role.frequency));
      layout.roles.push_back({pm.id(), role.ioIndex, output});

      const Operand& operand = main.operands[io[role.ioIndex]];
      if (first == nullptr) {
        first = &operand;
      } else if (operand.type != first->type) {
        return NNHAL_INVALID("%s role %zu: operand type %s differs from %s of the first role", kind, r,
                             to_string(operand.type).data(), to_string(first->type).data());
      } else if (operand.scale != first->scale || operand.zeroPoint != first->zeroPoint) {
        return NNHAL_INVALID("%s role %zu: quantization (scale %g, zeroPoint %" PRId32
                             ") differs from the first role's "
                             "(scale %g, zeroPoint %" PRId32 ")",
                             kind, r, static_cast<double>(operand.scale), operand.zeroPoint,
                             static_cast<double>(first->scale), first->zeroPoint);
      } else if (is_fundamental(operand.type) && !same_channel_quant(operand, *first)) {
        return NNHAL_INVALID("%s role %zu: per-channel quantization differs from the first role's", kind, r);
      }
      Dims combined;
      if ((desc_too_long && !operand.dimensions.empty()) ||
          !combine_dims(layout.dimensions.span(), operand.dimensions, combined))
        return NNHAL_INVALID("%s role %zu: operand dimensions do not match the description and earlier roles",
                             kind, r);
      layout.dimensions = combined;
    }
  }
  if (desc_too_long)
    return NNHAL_FAILURE("allocate: the description has rank %zu; nnhal supports up to %zu", desc.dimensions.size(),
                         kMaxRank);
  // Duplicates, found by sorting (role lists come from the client and may be long). Role
  // lookups during executions are binary searches in the sorted list.
  std::vector<std::pair<BufferRoleKey, std::size_t>> order;
  order.reserve(layout.roles.size());
  for (std::size_t k = 0; k < layout.roles.size(); ++k) order.emplace_back(layout.roles[k], k);
  std::sort(order.begin(), order.end());
  for (std::size_t k = 1; k < order.size(); ++k)
    if (order[k].first == order[k - 1].first) {
      const std::size_t at = order[k].second;
      const bool output = at >= input_roles.size();
      const BufferRole& role = output ? output_roles[at - input_roles.size()] : input_roles[at];
      return NNHAL_INVALID("%s role %zu: %s %" PRIu32 " of prepared model %" PRIu32
                           " is already named by an earlier role",
                           output ? "output" : "input", output ? at - input_roles.size() : at,
                           output ? "output" : "input", role.ioIndex, role.modelIndex);
    }
  for (std::size_t k = 0; k < order.size(); ++k) layout.roles[k] = order[k].first;
  // One copy of each prepared model, so that no later prepared model can reuse an id the
  // roles name while the buffer lives.
  layout.models.reserve(prepared_models.size());
  for (const PreparedModel* pm : prepared_models) layout.models.push_back(*pm);
  const auto by_id = [](const PreparedModel& a, const PreparedModel& b) { return std::less<const void*>{}(a.id(), b.id()); };
  std::sort(layout.models.begin(), layout.models.end(), by_id);
  layout.models.erase(std::unique(layout.models.begin(), layout.models.end(),
                                  [](const PreparedModel& a, const PreparedModel& b) { return a.id() == b.id(); }),
                      layout.models.end());

  layout.type = first->type;
  layout.scale = first->scale;
  layout.zero_point = first->zeroPoint;
  if (!is_fundamental(layout.type) || element_size(layout.type) == 0)
    return NNHAL_FAILURE("allocate: operand type %s is not supported for driver-managed buffers",
                         to_string(layout.type).data());
  if (!is_tensor(layout.type)) {
    if (!layout.dimensions.empty())
      return NNHAL_INVALID("allocate: a %s scalar buffer cannot have dimensions", to_string(layout.type).data());
  } else if (layout.dimensions.empty() || !layout.dimensions.all_known()) {
    return NNHAL_FAILURE("allocate: the buffer's dimensions are not fully known from the description and "
                         "roles (dynamic shapes are not supported)");
  }
  const std::uint64_t bytes = layout.dimensions.element_count();
  if (bytes > UINT32_MAX / element_size(layout.type))
    return NNHAL_FAILURE("allocate: the buffer would exceed 4 GiB");
  layout.size = static_cast<std::size_t>(bytes * element_size(layout.type));
  return layout;
}

}  // namespace detail
}  // namespace nnhal
