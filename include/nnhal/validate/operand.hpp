#pragma once
/// \file
/// Validation of one operand (HAL13.md e.2): type, dimensions, quantization parameters,
/// per-channel parameters, lifetime and data location. Yields the HAL version it needs.

#include <cmath>
#include <cstdint>

#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/extension.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/model/operand_size.hpp"

namespace nnhal {

/// True when `v` is one of the defined lifetime codes.
constexpr bool is_valid_lifetime(OperandLifeTime v) noexcept {
  const auto c = static_cast<std::int32_t>(v);
  return c >= 0 && c <= static_cast<std::int32_t>(OperandLifeTime::SUBGRAPH);
}

namespace detail {
/// Byte size of an operand of an extension type with fully specified dimensions (0 when
/// unknown), from the extension's element size; an overflow of uint32 yields an error.
inline Expected<std::uint64_t> extension_operand_size(const Operand& op,
                                                      const Extension::OperandTypeInformation& info) noexcept {
  std::uint64_t n = info.byteSize;
  if (!info.isTensor) return n;
  if (op.dimensions.empty()) return std::uint64_t{0};
  for (std::uint32_t d : op.dimensions) {
    if (d == 0) return std::uint64_t{0};
    n *= d;
    if (n > UINT32_MAX)
      return NNHAL_INVALID("data size overflows uint32 (the ceiling of Limits::max_tensor_bytes)");
  }
  return n;
}
}  // namespace detail

/// Checks one operand of a subgraph. `referenced_count` and the model's value sizes bound the
/// location. Operand types of extensions are accepted when `model` maps their prefix to one of
/// `extensions` that defines the type. Returns the operand's minimum HAL version.
inline Expected<HalVersion> validate_operand(const Operand& op, const Model& model,
                                             ExtensionList extensions = {}) noexcept {
  const OperandType t = op.type;
  HalVersion v = HalVersion::V1_0;
  const bool oem = t == OperandType::OEM || t == OperandType::TENSOR_OEM_BYTE;
  const Extension::OperandTypeInformation* ext = nullptr;
  if (is_extension(t)) {
    auto found = resolve_extension(model, extensions, static_cast<std::int32_t>(t), "operand type");
    if (!found) return std::move(found.error());
    ext = (*found)->operand_type(type_within_extension(static_cast<std::int32_t>(t)));
    if (ext == nullptr)
      return NNHAL_INVALID("extension operand type 0x%x: extension %.*s defines no operand type %u",
                           static_cast<unsigned>(t), static_cast<int>((*found)->name.size()),
                           (*found)->name.data(), type_within_extension(static_cast<std::int32_t>(t)));
  } else if (!is_fundamental(t) && !oem) {
    return NNHAL_INVALID("invalid operand type %d", static_cast<int>(t));
  }
  if (!is_valid_lifetime(op.lifetime))
    return NNHAL_INVALID("invalid lifetime %d", static_cast<int>(op.lifetime));
  if (ext != nullptr) v = HalVersion::V1_2;
  else if (!oem) v = info(t).since;
  const bool tensor = ext != nullptr ? ext->isTensor : is_tensor(t);

  if (!tensor && !op.dimensions.empty()) {
    if (ext != nullptr)
      return NNHAL_INVALID("scalar extension operand type 0x%x has %zu dimensions", static_cast<unsigned>(t),
                           op.dimensions.size());
    return NNHAL_INVALID("scalar %s has %zu dimensions", to_string(t).data(), op.dimensions.size());
  }
  if (tensor && op.dimensions.empty()) v = max_version(v, HalVersion::V1_2);  // unknown rank

  // Extension types: scale and zeroPoint 0 (HAL13.md a.1, e.2.4).
  if (ext != nullptr && (op.scale != 0.0f || op.zeroPoint != 0))
    return NNHAL_INVALID(
        "extension operand type 0x%x requires scale 0 and zeroPoint 0, got %g and %" PRId32,
        static_cast<unsigned>(t), static_cast<double>(op.scale), op.zeroPoint);

  // Quantization parameters (HAL13.md a.1).
  if (!oem && ext == nullptr) {
    const float s = op.scale;
    const std::int32_t zp = op.zeroPoint;
    auto need_zero_scale = [&]() -> Status {
      if (s != 0.0f) return NNHAL_INVALID("%s requires scale 0, got %g", to_string(t).data(), static_cast<double>(s));
      return {};
    };
    auto need_zero_zp = [&]() -> Status {
      if (zp != 0)
        return NNHAL_INVALID("%s requires zeroPoint 0, got %" PRId32, to_string(t).data(), zp);
      return {};
    };
    auto need_positive_scale = [&]() -> Status {
      if (!(s > 0.0f) || !std::isfinite(s))
        return NNHAL_INVALID("%s requires a finite scale > 0, got %g", to_string(t).data(), static_cast<double>(s));
      return {};
    };
    auto need_zp_range = [&](std::int32_t lo, std::int32_t hi) -> Status {
      if (zp < lo || zp > hi)
        return NNHAL_INVALID("%s zeroPoint %" PRId32 " outside [%" PRId32 ", %" PRId32 "]",
                             to_string(t).data(), zp, lo, hi);
      return {};
    };
    switch (t) {
      case OperandType::TENSOR_INT32:
        if (!(s >= 0.0f) || !std::isfinite(s))
          return NNHAL_INVALID("TENSOR_INT32 scale must be finite and >= 0, got %g", static_cast<double>(s));
        NNHAL_TRY(need_zero_zp());
        break;
      case OperandType::TENSOR_QUANT8_ASYMM:
        NNHAL_TRY(need_positive_scale());
        NNHAL_TRY(need_zp_range(0, 255));
        break;
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
        NNHAL_TRY(need_positive_scale());
        NNHAL_TRY(need_zp_range(-128, 127));
        break;
      case OperandType::TENSOR_QUANT16_ASYMM:
        NNHAL_TRY(need_positive_scale());
        NNHAL_TRY(need_zp_range(0, 65535));
        break;
      case OperandType::TENSOR_QUANT8_SYMM:
      case OperandType::TENSOR_QUANT16_SYMM:
        NNHAL_TRY(need_positive_scale());
        NNHAL_TRY(need_zero_zp());
        break;
      default:
        NNHAL_TRY(need_zero_scale());
        NNHAL_TRY(need_zero_zp());
        break;
    }
  }

  // Per-channel parameters.
  if (t == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (!op.channelQuant) return NNHAL_INVALID("TENSOR_QUANT8_SYMM_PER_CHANNEL requires channelQuant");
    const auto& cq = *op.channelQuant;
    if (cq.channelDim >= op.dimensions.size())
      return NNHAL_INVALID("channelDim %" PRIu32 " must be < rank %zu", cq.channelDim,
                           op.dimensions.size());
    const std::uint32_t channels = op.dimensions[cq.channelDim];
    if (channels == 0)
      return NNHAL_INVALID("channel dimension %" PRIu32 " must be known", cq.channelDim);
    if (cq.scales.size() != channels)
      return NNHAL_INVALID("channelQuant has %zu scales for %" PRIu32 " channels", cq.scales.size(),
                           channels);
    for (std::size_t i = 0; i < cq.scales.size(); ++i)
      if (!(cq.scales[i] > 0.0f) || !std::isfinite(cq.scales[i]))
        return NNHAL_INVALID("channelQuant scale %zu must be finite and > 0", i);
  } else if (op.channelQuant) {
    return NNHAL_INVALID("channelQuant is only allowed on TENSOR_QUANT8_SYMM_PER_CHANNEL");
  }

  // Lifetime and location (HAL13.md b.4, e.2.6-8).
  const DataLocation& loc = op.location;
  if ((t == OperandType::SUBGRAPH) != (op.lifetime == OperandLifeTime::SUBGRAPH))
    return NNHAL_INVALID("type SUBGRAPH and lifetime SUBGRAPH must go together");
  auto size = ext != nullptr ? detail::extension_operand_size(op, *ext) : operand_byte_size(op);
  if (!size) return std::move(size.error());
  switch (op.lifetime) {
    case OperandLifeTime::TEMPORARY_VARIABLE:
    case OperandLifeTime::SUBGRAPH_INPUT:
    case OperandLifeTime::SUBGRAPH_OUTPUT:
    case OperandLifeTime::NO_VALUE:
      if (loc.poolIndex != 0 || loc.offset != 0 || loc.length != 0)
        return NNHAL_INVALID("%s operand must have an empty location", to_string(op.lifetime).data());
      break;
    case OperandLifeTime::SUBGRAPH:
      if (loc.poolIndex != 0 || loc.length != 0)
        return NNHAL_INVALID("SUBGRAPH operand must have poolIndex 0 and length 0");
      if (loc.offset >= model.referenced.size())
        return NNHAL_INVALID("SUBGRAPH operand refers to subgraph %" PRIu32 " of %zu", loc.offset,
                             model.referenced.size());
      break;
    case OperandLifeTime::CONSTANT_COPY:
    case OperandLifeTime::CONSTANT_REFERENCE: {
      if (tensor && !oem) {
        if (op.dimensions.empty()) return NNHAL_INVALID("constant tensor must have a known rank");
        for (std::uint32_t d : op.dimensions)
          if (d == 0) return NNHAL_INVALID("constant tensor must have fully specified, non-zero dimensions");
      }
      std::uint64_t limit = 0;
      if (op.lifetime == OperandLifeTime::CONSTANT_COPY) {
        if (loc.poolIndex != 0) return NNHAL_INVALID("CONSTANT_COPY operand must have poolIndex 0");
        limit = model.operandValues.size();
      } else {
        if (loc.poolIndex >= model.pools.size())
          return NNHAL_INVALID("CONSTANT_REFERENCE pool %" PRIu32 " of %zu", loc.poolIndex,
                               model.pools.size());
        limit = model.pools[loc.poolIndex].size;
        if (model.pools[loc.poolIndex].data == nullptr && limit != 0)
          return NNHAL_INVALID("memory pool %" PRIu32 " has no data", loc.poolIndex);
      }
      if (std::uint64_t{loc.offset} + loc.length > limit)
        return NNHAL_INVALID("constant location [%" PRIu32 ", +%" PRIu32
                             ") exceeds its %llu-byte source",
                             loc.offset, loc.length, static_cast<unsigned long long>(limit));
      if (!oem && loc.length != *size)
        return NNHAL_INVALID("constant length %" PRIu32 " differs from its data size %llu",
                             loc.length, static_cast<unsigned long long>(*size));
      // Kernels read constants in place through typed pointers, so their bytes must be
      // aligned to the element size (the HAL's operandValues alignment rule guarantees this for
      // well-formed models).
      const std::byte* base = op.lifetime == OperandLifeTime::CONSTANT_COPY
                                  ? reinterpret_cast<const std::byte*>(model.operandValues.data())
                                  : model.pools[loc.poolIndex].data;
      if (!oem && base != nullptr && !is_aligned_for(t, base + loc.offset))
        return NNHAL_INVALID("constant at offset %" PRIu32 " is not aligned to its %" PRIu32
                             "-byte elements",
                             loc.offset, element_size(t));
      break;
    }
  }
  return v;
}

}  // namespace nnhal
