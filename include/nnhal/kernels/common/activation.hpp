#pragma once
/// \file
/// Fused activations for float results, and validation of the activation scalar.

#include <cstdint>
#include <limits>

#include "nnhal/core/enums.hpp"

namespace nnhal {

/// Clamp bounds of a fused activation on float data.
struct FloatRange {
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
  constexpr float apply(float x) const noexcept { return x < min ? min : (x > max ? max : x); }
};

/// True for the four defined activation codes.
constexpr bool is_valid_activation(std::int32_t code) noexcept { return code >= 0 && code <= 3; }

/// Float clamp bounds of activation `code` (which must be valid).
constexpr FloatRange float_activation_range(std::int32_t code) noexcept {
  switch (static_cast<FusedActivationFunc>(code)) {
    case FusedActivationFunc::RELU: return {0.0f, std::numeric_limits<float>::infinity()};
    case FusedActivationFunc::RELU1: return {-1.0f, 1.0f};
    case FusedActivationFunc::RELU6: return {0.0f, 6.0f};
    case FusedActivationFunc::NONE: break;
  }
  return {};
}

}  // namespace nnhal
