#pragma once
/// \file
/// The output checks of the conformance runner, exactly as SCHEMA.md "How outputs are compared"
/// states the Android generated-test criteria: per-type absolute/relative tolerances, exact
/// booleans, the reported shape, and the statistical check of RANDOM_MULTINOMIAL.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cts/test_model.hpp"
#include "nnhal/core/operand_traits.hpp"

namespace nnhal::cts {

/// An element passes when |actual - expected| <= atol + rtol * |expected|; `exact` types
/// (TENSOR_BOOL8) allow no difference at all.
struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
  bool exact = false;
};

/// 1e-5 as the harness holds it: a float32 constant, widened.
inline constexpr double kFloat32Atol = static_cast<double>(1e-5f);
/// 5 float32 ULP: 5 * 2^-23.
inline constexpr double kFloat32Rtol = 5.0 / 8388608.0;
/// 5 float16 ULP: 5 * 2^-10, both absolute and relative.
inline constexpr double kFloat16Tol = 5.0 / 1024.0;

/// TENSOR_FLOAT32 outputs get the fp16 tolerance when the model is relaxed or when any of its
/// subgraphs has a TENSOR_FLOAT16 operand (the harness then assumes fp16 arithmetic anywhere).
inline bool uses_relaxed_float32_tolerance(const TestModel& test) {
  if (test.relaxed) return true;
  auto has_fp16 = [](const TestSubgraph& sg) {
    for (const TestOperand& t : sg.operands)
      if (t.operand.type == OperandType::TENSOR_FLOAT16) return true;
    return false;
  };
  if (has_fp16(test.main)) return true;
  for (const TestSubgraph& sg : test.referenced)
    if (has_fp16(sg)) return true;
  return false;
}

/// Quantized 8-bit outputs of the mobilenet models get atol 3 instead of 1 (the harness keys
/// this on the test name).
inline bool is_mobilenet(std::string_view model_name) {
  return model_name.find("mobilenet") != std::string_view::npos;
}

/// Tolerance of a main-graph output of `type`; nullopt for types the harness cannot compare
/// (float and bool scalars, per-channel quant8; the corpus has no such outputs).
inline std::optional<Tolerance> output_tolerance(OperandType type, bool relaxed_float32, bool mobilenet) {
  switch (type) {
    case OperandType::TENSOR_FLOAT32:
      return relaxed_float32 ? Tolerance{kFloat16Tol, kFloat16Tol, false}
                             : Tolerance{kFloat32Atol, kFloat32Rtol, false};
    case OperandType::TENSOR_FLOAT16:
      return Tolerance{kFloat16Tol, kFloat16Tol, false};
    case OperandType::TENSOR_INT32:
    case OperandType::INT32:
      return Tolerance{1.0, 0.0, false};
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
      return Tolerance{mobilenet ? 3.0 : 1.0, 0.0, false};
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return Tolerance{1.0, 0.0, false};
    case OperandType::TENSOR_BOOL8:
      return Tolerance{0.0, 0.0, true};
    default:
      return std::nullopt;
  }
}

/// The per-element rule. An expected NaN always fails (SCHEMA). A NaN result fails too: the
/// formula is false for it. Equal values pass, which only matters for infinities, where
/// |inf - inf| is NaN; the Android harness also lets those through (it tests `diff > range`).
inline bool element_matches(double actual, double expected, const Tolerance& tol) {
  if (std::isnan(expected)) return false;
  if (actual == expected) return true;
  if (tol.exact) return false;
  return std::fabs(actual - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

/// Compares `count` elements of two buffers of `type`. Returns a description of the mismatches
/// (how many, and the first one), or nullopt when every element passes.
inline std::optional<std::string> compare_values(OperandType type, const Tolerance& tol,
                                                 const std::byte* actual, const std::byte* expected,
                                                 std::size_t count) {
  std::size_t bad = 0, first = 0;
  double first_actual = 0.0, first_expected = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const double a = read_element(type, actual, i);
    const double e = read_element(type, expected, i);
    if (element_matches(a, e, tol)) continue;
    if (bad++ == 0) {
      first = i;
      first_actual = a;
      first_expected = e;
    }
  }
  if (bad == 0) return std::nullopt;
  char rule[64];
  if (tol.exact) std::snprintf(rule, sizeof rule, "exact");
  else std::snprintf(rule, sizeof rule, "atol %g, rtol %g", tol.atol, tol.rtol);
  char text[256];
  std::snprintf(text, sizeof text, "%zu of %zu elements differ, first [%zu]: got %.9g, expected %.9g (%s)",
                bad, count, first, first_actual, first_expected, rule);
  return std::string(text);
}

inline std::string dims_string(std::span<const std::uint32_t> dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

/// The reported shape must equal the listed one exactly (rank and every dimension).
inline std::optional<std::string> compare_shape(std::span<const std::uint32_t> listed,
                                                std::span<const std::uint32_t> reported) {
  if (listed.size() == reported.size() &&
      std::equal(listed.begin(), listed.end(), reported.begin()))
    return std::nullopt;
  return "reported shape " + dims_string(reported) + ", expected " + dims_string(listed);
}

/// RANDOM_MULTINOMIAL check (SCHEMA.md "Multinomial check"): the frequency of every class among
/// the samples must be within `tolerance` of softmax(logits), per batch. `logits` is
/// [batches, classes] of TENSOR_FLOAT32/TENSOR_FLOAT16, `samples` [batches, samples] int32.
inline std::optional<std::string> check_multinomial(OperandType logits_type, const std::byte* logits,
                                                    std::span<const std::uint32_t> logits_dims,
                                                    const std::byte* samples,
                                                    std::span<const std::uint32_t> samples_dims,
                                                    double tolerance) {
  if (logits_dims.size() != 2 || samples_dims.size() != 2 || logits_dims[0] != samples_dims[0])
    return "multinomial check needs logits [batches, classes] and samples [batches, samples], got " +
           dims_string(logits_dims) + " and " + dims_string(samples_dims);
  const std::size_t batches = logits_dims[0], classes = logits_dims[1], count = samples_dims[1];
  if (classes == 0 || count == 0) return "multinomial check with no classes or no samples";
  for (std::size_t b = 0; b < batches; ++b) {
    // Softmax in float32 as the harness computes it (fp16 logits widened first). Subtracting
    // the maximum first changes nothing mathematically and keeps exp() finite.
    std::vector<float> p(classes);
    float max_logit = -INFINITY;
    for (std::size_t c = 0; c < classes; ++c) {
      p[c] = static_cast<float>(read_element(logits_type, logits, b * classes + c));
      max_logit = std::fmax(max_logit, p[c]);
    }
    float sum = 0.0f;
    for (float& v : p) sum += (v = std::exp(v - max_logit));
    for (float& v : p) v /= sum;

    std::vector<std::size_t> seen(classes, 0);
    for (std::size_t s = 0; s < count; ++s) {
      const double k = read_element(OperandType::TENSOR_INT32, samples, b * count + s);
      if (!(k >= 0 && k < static_cast<double>(classes))) {
        char text[128];
        std::snprintf(text, sizeof text, "batch %zu sample %zu is class %.0f, outside [0, %zu)", b, s, k, classes);
        return std::string(text);
      }
      ++seen[static_cast<std::size_t>(k)];
    }
    for (std::size_t c = 0; c < classes; ++c) {
      const double observed = static_cast<double>(seen[c]) / static_cast<double>(count);
      if (std::fabs(observed - static_cast<double>(p[c])) > tolerance) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "batch %zu class %zu: observed frequency %.6g, softmax probability %.6g, tolerance %g",
                      b, c, observed, static_cast<double>(p[c]), tolerance);
        return std::string(text);
      }
    }
  }
  return std::nullopt;
}

}  // namespace nnhal::cts
