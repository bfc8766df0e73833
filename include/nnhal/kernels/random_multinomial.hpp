#pragma once
/// \file
/// RANDOM_MULTINOMIAL kernels (the row: nnhal/ops/random_multinomial.hpp): num_samples class
/// indices per batch, drawn from softmax(logits).
///
/// As the reference (NNAPI Multinomial.cpp) up to the generator: per batch, the maximum of the
/// finite logits; the cumulative sums, in double, of exp(logit - max) over the finite logits (a
/// non-finite logit adds nothing, so it is never drawn); each sample is the first class whose
/// cumulative sum exceeds u * total, with u uniform in [0, 1) from 53 random bits.
/// The generator is nnhal's own (the reference's is TensorFlow's Philox, so individual samples
/// differ; only the distribution is specified): SplitMix64, started from the two seeds
/// (seeds[0] in the high half, seeds[1] in the low half of the 64-bit state) and stepped once
/// per sample across batches, so equal seeds give equal samples. Both seeds 0 ask for a random
/// seed: the steady clock and the node's addresses, mixed.
/// Runtime checks: logits [batches, classes] with classes > 0, num_samples > 0, seeds [2], and
/// at least one finite logit per batch (the reference would emit the out-of-range index
/// `classes`). Scratch: one double per class, planned at prepare from the logits' shape.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/common/axes.hpp"
#include "nnhal/kernels/common/roi.hpp"
#include "nnhal/kernels/kernel.hpp"
#include "nnhal/ops/random_multinomial.hpp"

namespace nnhal::kernels::random_multinomial {

inline constexpr const char* kName = "RANDOM_MULTINOMIAL";

/// What prepare recorded: the scratch bytes planned.
struct Planned {
  std::uint64_t workspace_bytes = 0;
};

/// SplitMix64: a small, seedable 64-bit generator (Steele, Lea and Flood, 2014).
struct SplitMix64 {
  std::uint64_t state = 0;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) from the top 53 bits.
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

/// The generator's start state for `seeds`, or a fresh random one when both are 0.
inline std::uint64_t start_state(std::int32_t s0, std::int32_t s1, const void* salt) noexcept {
  if (s0 != 0 || s1 != 0)
    return (std::uint64_t{static_cast<std::uint32_t>(s0)} << 32) | static_cast<std::uint32_t>(s1);
  SplitMix64 mix{static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
  mix.state ^= reinterpret_cast<std::uintptr_t>(salt);
  mix.state ^= reinterpret_cast<std::uintptr_t>(&mix) << 16;  // the stack differs between threads
  return mix.next();
}

/// Shapes checked: [batches, classes] logits, num_samples > 0, seeds [2].
struct Shape {
  std::uint32_t batches = 0, classes = 0, samples = 0;
};

inline Expected<Shape> read_shape(const NodeIO& io) {
  const Dims& d = io.input(0).dims;
  if (d.rank() != 2) return NNHAL_INVALID("%s logits must have rank 2", kName);
  const std::int32_t n = io.scalar<OperandType::INT32>(1);
  if (n <= 0) return NNHAL_INVALID("%s num_samples %" PRId32 " must be positive", kName, n);
  const Dims& s = io.input(2).dims;
  if (s.rank() != 1 || s[0] != 2) return NNHAL_INVALID("%s seeds must have shape [2]", kName);
  if (d[1] == 0) return NNHAL_INVALID("%s logits have no class", kName);
  return Shape{d[0], d[1], static_cast<std::uint32_t>(n)};
}

/// Output shape: [batches, num_samples].
inline Status infer(const NodeIO& io) {
  auto s = read_shape(io);
  if (!s) return std::move(s.error());
  return set_output(io, 0, Dims{s->batches, s->samples});
}

template <OperandType T>
Status kernel(const NodeIO& io) {
  auto se = read_shape(io);
  if (!se) return std::move(se.error());
  const Shape& s = *se;
  if (io.output(0).dims != Dims{s.batches, s.samples})
    return NNHAL_FAILURE("%s output shape does not match the inputs", kName);
  if (s.batches == 0) return {};
  if (io.workspace() == nullptr || std::uint64_t{s.classes} * sizeof(double) > io.params<Planned>().workspace_bytes)
    return NNHAL_FAILURE("%s: %" PRIu32 " classes need more scratch than planned at prepare", kName,
                         s.classes);
  const element_t<T>* logits = io.in_data<T>(0);
  const std::int32_t* seeds = io.in_data<OperandType::TENSOR_INT32>(2);
  std::int32_t* out = io.out_data<OperandType::TENSOR_INT32>(0);
  double* cdf = reinterpret_cast<double*>(io.workspace());
  SplitMix64 rng{start_state(seeds[0], seeds[1], out)};
  for (std::size_t b = 0; b < s.batches; ++b) {
    const element_t<T>* row = logits + b * s.classes;
    float max = std::numeric_limits<float>::lowest();
    for (std::size_t c = 0; c < s.classes; ++c) {
      const float v = roi::to_float(row[c], 0, 0);
      if (std::isfinite(v)) max = std::max(max, v);
    }
    double total = 0;
    for (std::size_t c = 0; c < s.classes; ++c) {
      const float v = roi::to_float(row[c], 0, 0);
      if (std::isfinite(v)) total += std::exp(static_cast<double>(v) - static_cast<double>(max));
      cdf[c] = total;
    }
    if (!(total > 0)) return NNHAL_INVALID("%s batch %zu has no finite logit", kName, b);
    std::int32_t* o = out + b * s.samples;
    for (std::size_t k = 0; k < s.samples; ++k) {
      const double target = rng.uniform() * total;
      const double* found = std::upper_bound(cdf, cdf + s.classes, target);
      // u < 1 keeps target below total, so a class is always found; the clamp guards rounding.
      o[k] = static_cast<std::int32_t>(std::min<std::ptrdiff_t>(found - cdf, static_cast<std::ptrdiff_t>(s.classes) - 1));
    }
  }
  return {};
}

/// RANDOM_MULTINOMIAL's kernels, keyed by the logits' type.
struct Family : KernelFamily {
  static constexpr std::array types{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16};

  static Status infer(const NodeIO& io) { return random_multinomial::infer(io); }

  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO& io, KernelPrepare& prepare) {
    Planned planned;
    const RtOperand& logits = io.input(0);
    if (logits.shape_known() && logits.dims.rank() == 2) {
      planned.workspace_bytes = std::uint64_t{logits.dims[1]} * sizeof(double);
      prepare.workspace_bytes = static_cast<std::size_t>(planned.workspace_bytes);
    }
    prepare.store(planned);
    return &kernel<T>;
  }
};

}  // namespace nnhal::kernels::random_multinomial

namespace nnhal {

template <>
struct Kernels<OperationType::RANDOM_MULTINOMIAL> : kernels::random_multinomial::Family {};
static_assert(kernels_cover_row<OperationType::RANDOM_MULTINOMIAL>());

}  // namespace nnhal
