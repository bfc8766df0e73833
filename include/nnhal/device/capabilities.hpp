#pragma once
/// \file
/// The CPU device's Capabilities (spec/HAL13.md b.1, b.2, c.1, f.3): the calibrated constants
/// it reports, the driver self-check of a Capabilities, the views older HAL versions ask for,
/// and the runtime's cost model (what an operation or a subgraph costs on a device with given
/// Capabilities), which drivers and partitioner-like tests use.
///
/// The figures are constants measured offline by tools/calibrate (docs/calibration.md), never
/// at start-up: a device must report the same Capabilities on every query and every start.

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/core/format.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/device/calibrated_capabilities.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal {

/// The figure of an operand type that operandPerformance does not list (HAL13.md b.2).
inline constexpr PerformanceInfo kPerformanceAbsent{FLT_MAX, FLT_MAX};

/// What nnhal's CPU device reports from getCapabilities_1_3: the calibrated constants of
/// include/nnhal/device/calibrated_capabilities.hpp. Equal on every call.
inline Capabilities cpu_capabilities() {
  return calibrated_capabilities();
}

/// The figure of `type` in `caps.operandPerformance`; kPerformanceAbsent when it has no entry.
inline PerformanceInfo performance_of(const Capabilities& caps, OperandType type) noexcept {
  for (const OperandPerformance& p : caps.operandPerformance)
    if (p.type == type) return p.info;
  return kPerformanceAbsent;
}

namespace detail {
/// HAL version that introduced operand type `t` for the purpose of Capabilities: 0..15 by the
/// type table, OEM types 1.0, extension types (above 0xFFFF) 1.2; UNSUPPORTED for other codes.
constexpr HalVersion capability_type_version(OperandType t) noexcept {
  const auto v = static_cast<std::int32_t>(t);
  if (is_fundamental(t)) return info(t).since;
  if (t == OperandType::OEM || t == OperandType::TENSOR_OEM_BYTE) return HalVersion::V1_0;
  return v > 0xFFFF ? HalVersion::V1_2 : HalVersion::UNSUPPORTED;
}

inline Status check_performance_info(const PerformanceInfo& p, const char* what) {
  if (!(p.execTime > 0.0f) || !std::isfinite(p.execTime))
    return NNHAL_INVALID("%s: execTime is %g; it must be > 0 and finite", what,
                         static_cast<double>(p.execTime));
  if (!(p.powerUsage > 0.0f) || !std::isfinite(p.powerUsage))
    return NNHAL_INVALID("%s: powerUsage is %g; it must be > 0 and finite", what,
                         static_cast<double>(p.powerUsage));
  return {};
}
}  // namespace detail

/// The driver self-check of HAL13.md e.5: every figure > 0 and finite (FLT_MAX is allowed);
/// operandPerformance sorted by type, strictly increasing, without SUBGRAPH, and listing only
/// operand types (0..14, OEM, TENSOR_OEM_BYTE, extension types). INVALID_ARGUMENT names the
/// first offending entry.
inline Status check_capabilities(const Capabilities& caps) {
  NNHAL_TRY(detail::check_performance_info(caps.relaxedFloat32toFloat16PerformanceScalar,
                                           "relaxedFloat32toFloat16PerformanceScalar"));
  NNHAL_TRY(detail::check_performance_info(caps.relaxedFloat32toFloat16PerformanceTensor,
                                           "relaxedFloat32toFloat16PerformanceTensor"));
  NNHAL_TRY(detail::check_performance_info(caps.ifPerformance, "ifPerformance"));
  NNHAL_TRY(detail::check_performance_info(caps.whilePerformance, "whilePerformance"));
  const auto& list = caps.operandPerformance;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const OperandType t = list[i].type;
    const auto code = static_cast<std::int32_t>(t);
    if (t == OperandType::SUBGRAPH)
      return NNHAL_INVALID("operandPerformance[%zu] is SUBGRAPH, which must not be listed", i);
    if (detail::capability_type_version(t) == HalVersion::UNSUPPORTED)
      return NNHAL_INVALID(
          "operandPerformance[%zu] has type %" PRId32 ", which is not an operand type", i, code);
    const std::string_view name = to_string(t);
    if (i > 0 && !(static_cast<std::int32_t>(list[i - 1].type) < code)) {
      const std::string_view before = to_string(list[i - 1].type);
      return NNHAL_INVALID("operandPerformance[%zu] (%.*s = %" PRId32
                           ") does not follow [%zu] (%.*s = %" PRId32
                           "): entries must "
                           "be sorted by type, strictly increasing",
                           i, static_cast<int>(name.size()), name.data(), code, i - 1,
                           static_cast<int>(before.size()), before.data(),
                           static_cast<std::int32_t>(list[i - 1].type));
    }
    char what[80];
    nnhal::format(what, sizeof what, "operandPerformance[%zu] (%.*s)", i,
                  static_cast<int>(name.size()), name.data());
    NNHAL_TRY(detail::check_performance_info(list[i].info, what));
  }
  return {};
}

/// `@1.0::Capabilities`.
struct CapabilitiesV1_0 {
  PerformanceInfo float32Performance;
  PerformanceInfo quantized8Performance;
};

/// `@1.1::Capabilities`.
struct CapabilitiesV1_1 {
  PerformanceInfo float32Performance;
  PerformanceInfo quantized8Performance;
  PerformanceInfo relaxedFloat32toFloat16Performance;
};

/// `@1.2::Capabilities`: 1.3 without ifPerformance / whilePerformance.
struct CapabilitiesV1_2 {
  PerformanceInfo relaxedFloat32toFloat16PerformanceScalar;
  PerformanceInfo relaxedFloat32toFloat16PerformanceTensor;
  std::vector<OperandPerformance> operandPerformance;
};

/// getCapabilities (1.0): float32 = the TENSOR_FLOAT32 entry, quantized8 = the
/// TENSOR_QUANT8_ASYMM entry (kPerformanceAbsent where the entry is missing).
inline CapabilitiesV1_0 convert_to_v1_0(const Capabilities& caps) {
  return {performance_of(caps, OperandType::TENSOR_FLOAT32),
          performance_of(caps, OperandType::TENSOR_QUANT8_ASYMM)};
}

/// getCapabilities_1_1: the 1.0 figures plus relaxed = the relaxed tensor figure.
inline CapabilitiesV1_1 convert_to_v1_1(const Capabilities& caps) {
  const CapabilitiesV1_0 v = convert_to_v1_0(caps);
  return {v.float32Performance, v.quantized8Performance,
          caps.relaxedFloat32toFloat16PerformanceTensor};
}

/// getCapabilities_1_2: the relaxed figures and the operandPerformance entries of types that
/// HAL 1.2 has (1.3-only types, TENSOR_QUANT8_ASYMM_SIGNED and SUBGRAPH, are dropped).
inline CapabilitiesV1_2 convert_to_v1_2(const Capabilities& caps) {
  CapabilitiesV1_2 v{caps.relaxedFloat32toFloat16PerformanceScalar,
                     caps.relaxedFloat32toFloat16PerformanceTensor,
                     {}};
  for (const OperandPerformance& p : caps.operandPerformance)
    if (detail::capability_type_version(p.type) <= HalVersion::V1_2)
      v.operandPerformance.push_back(p);
  return v;
}

// ------------------------------------------------------------------------------------------
// Cost model (HAL13.md b.2)
// ------------------------------------------------------------------------------------------

namespace detail::cost_model {
/// A cost summed in double, so that sums of FLT_MAX figures do not overflow; saturated to
/// FLT_MAX when handed out.
struct Cost {
  double exec = 0.0, power = 0.0;
  Cost& operator+=(const Cost& o) noexcept { return exec += o.exec, power += o.power, *this; }
};
inline Cost cost_of(const PerformanceInfo& p) noexcept {
  return {p.execTime, p.powerUsage};
}
inline PerformanceInfo saturated(const Cost& c) noexcept {
  auto clamp = [](double v) {
    return v < static_cast<double>(FLT_MAX) ? static_cast<float>(v) : FLT_MAX;
  };
  return {clamp(c.exec), clamp(c.power)};
}

/// Walks a model once: each referenced subgraph's cost is computed once and remembered, so a
/// subgraph referenced from many places costs no extra time; a reference cycle is an error.
class CostWalk {
 public:
  CostWalk(const Capabilities& caps, const Model& model)
      : caps_(caps),
        model_(model),
        state_(model.referenced.size(), kUnseen),
        memo_(model.referenced.size()) {}

  Expected<Cost> subgraph(const Subgraph& g, std::size_t depth) {
    Cost total;
    for (std::size_t i = 0; i < g.operations.size(); ++i) {
      auto c = operation(g, g.operations[i], depth);
      if (!c) return std::move(c.error().prefix("operations[%zu]", i));
      total += *c;
    }
    return total;
  }

  Expected<Cost> operation(const Subgraph& g, const Operation& op, std::size_t depth) {
    if (op.type == OperationType::IF) {
      auto then_cost = referenced(g, op, 1, depth);
      if (!then_cost) return std::move(then_cost.error());
      auto else_cost = referenced(g, op, 2, depth);
      if (!else_cost) return std::move(else_cost.error());
      Cost c = cost_of(caps_.ifPerformance);
      c += Cost{0.5 * (then_cost->exec + else_cost->exec),
                0.5 * (then_cost->power + else_cost->power)};
      return c;
    }
    if (op.type == OperationType::WHILE) {
      auto cond_cost = referenced(g, op, 0, depth);
      if (!cond_cost) return std::move(cond_cost.error());
      auto body_cost = referenced(g, op, 1, depth);
      if (!body_cost) return std::move(body_cost.error());
      Cost c = cost_of(caps_.whilePerformance);
      c += *cond_cost;
      c += *body_cost;
      return c;
    }
    if (op.inputs.empty())
      return NNHAL_INVALID("has no inputs, so no first input type to cost it by");
    if (op.inputs[0] >= g.operands.size())
      return NNHAL_INVALID("input 0 names operand %" PRIu32 ", but the subgraph has %zu operands",
                           op.inputs[0], g.operands.size());
    const OperandType t = g.operands[op.inputs[0]].type;
    if (model_.relaxComputationFloat32toFloat16 && t == OperandType::FLOAT32)
      return cost_of(caps_.relaxedFloat32toFloat16PerformanceScalar);
    if (model_.relaxComputationFloat32toFloat16 && t == OperandType::TENSOR_FLOAT32)
      return cost_of(caps_.relaxedFloat32toFloat16PerformanceTensor);
    return cost_of(performance_of(caps_, t));
  }

 private:
  static constexpr std::uint8_t kUnseen = 0, kOnStack = 1, kDone = 2;

  /// Cost of the subgraph that input `position` of IF / WHILE `op` names.
  Expected<Cost> referenced(const Subgraph& g, const Operation& op, std::size_t position,
                            std::size_t depth) {
    if (position >= op.inputs.size() || op.inputs[position] >= g.operands.size())
      return NNHAL_INVALID("input %zu does not name an operand", position);
    const Operand& ref = g.operands[op.inputs[position]];
    if (ref.type != OperandType::SUBGRAPH || ref.lifetime != OperandLifeTime::SUBGRAPH)
      return NNHAL_INVALID("input %zu is not a SUBGRAPH operand", position);
    const std::size_t k = ref.location.offset;
    if (k >= model_.referenced.size())
      return NNHAL_INVALID("input %zu names referenced subgraph %zu of %zu", position, k,
                           model_.referenced.size());
    if (state_[k] == kDone) return memo_[k];
    if (state_[k] == kOnStack)
      return NNHAL_INVALID("referenced subgraph %zu refers back to itself", k);
    if (depth >= NNHAL_MAX_CONTROL_FLOW_DEPTH)
      return NNHAL_INVALID("control flow is nested more than %d deep",
                           NNHAL_MAX_CONTROL_FLOW_DEPTH);
    state_[k] = kOnStack;
    auto c = subgraph(model_.referenced[k], depth + 1);
    if (!c) return std::move(c.error().prefix("referenced[%zu]", k));
    state_[k] = kDone;
    memo_[k] = *c;
    return *c;
  }

  const Capabilities& caps_;
  const Model& model_;
  std::vector<std::uint8_t> state_;
  std::vector<Cost> memo_;
};
}  // namespace detail::cost_model

/// Cost of one operation of `graph` (main or one of `model.referenced`) on a device with
/// `caps`, as the runtime computes it: the figure of its first input's type (the relaxed
/// scalar / tensor figure for FLOAT32 / TENSOR_FLOAT32 when the model relaxes computation);
/// IF = ifPerformance + 0.5 * (cost(then) + cost(else)); WHILE = whilePerformance +
/// cost(cond) + cost(body). execTime and powerUsage are summed separately; sums saturate at
/// FLT_MAX. INVALID_ARGUMENT for malformed control-flow references.
inline Expected<PerformanceInfo> operation_cost(const Capabilities& caps, const Model& model,
                                                const Subgraph& graph, const Operation& op) {
  detail::cost_model::CostWalk walk(caps, model);
  auto c = walk.operation(graph, op, 0);
  if (!c) return std::move(c.error().prefix("operation"));
  return detail::cost_model::saturated(*c);
}

/// Cost of a subgraph: the sum of its operations' costs (see operation_cost).
inline Expected<PerformanceInfo> subgraph_cost(const Capabilities& caps, const Model& model,
                                               const Subgraph& graph) {
  detail::cost_model::CostWalk walk(caps, model);
  auto c = walk.subgraph(graph, 0);
  if (!c) return std::move(c.error());
  return detail::cost_model::saturated(*c);
}

/// Cost of a model: the cost of its main subgraph.
inline Expected<PerformanceInfo> model_cost(const Capabilities& caps, const Model& model) {
  return subgraph_cost(caps, model, model.main);
}

}  // namespace nnhal
