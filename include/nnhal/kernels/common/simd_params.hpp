#pragma once
/// \file
/// The SIMD target a node's FLOAT32 kernel runs: chosen once at prepare (simd::dispatch()) and
/// kept in the node's parameters, so the run path is one indirect call.

#include "nnhal/simd/dispatch.hpp"

namespace nnhal::kernels {

/// Node parameters of a kernel that calls a SIMD family.
struct SimdParams {
  const simd::Dispatch* simd;
};

/// The parameters naming the target this CPU runs.
inline SimdParams chosen_simd() noexcept { return SimdParams{&simd::dispatch()}; }

}  // namespace nnhal::kernels
