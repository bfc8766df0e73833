#pragma once
/// \file
/// TestModel -> nnhal::Model and nnhal::Request, laid out the way the Android test harness does
/// it (SCHEMA.md "What each lifetime means for a test runner"): CONSTANT_COPY data inline in
/// operandValues, CONSTANT_REFERENCE data in one memory pool the runner owns, inputs in one
/// request pool and outputs in another.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "cts/layout.hpp"
#include "cts/test_model.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/model/model.hpp"

namespace nnhal::cts {

/// A model plus the memory its CONSTANT_REFERENCE operands point into. Model::pools does not
/// own memory, so the two travel together; moving keeps the pointers valid (heap buffer).
struct BuiltModel {
  Model model;
  AlignedBytes constants;
};

/// How the main graph's outputs are declared.
enum class OutputDims {
  Listed,   ///< as the corpus lists them (the ordinary run)
  Unknown,  ///< every dimension 0, rank kept (the dynamic-output-shape run)
};

namespace detail {

/// Converts one subgraph. CONSTANT_COPY data is appended to `operand_values`; CONSTANT_REFERENCE
/// operands are only recorded in `references` (their data is placed once all subgraphs are
/// known, into one pool).
inline Subgraph convert_subgraph(const TestSubgraph& in, bool is_main, OutputDims output_dims,
                                 Vector<std::uint8_t>& operand_values,
                                 std::vector<const TestOperand*>& references) {
  Subgraph out;
  out.operands.reserve(in.operands.size());
  for (const TestOperand& t : in.operands) {
    Operand op = t.operand;
    op.location = {};
    switch (op.lifetime) {
      case OperandLifeTime::CONSTANT_COPY:
        op.location.offset = static_cast<std::uint32_t>(append_operand_value(operand_values, t.data));
        op.location.length = static_cast<std::uint32_t>(t.data.size());
        break;
      case OperandLifeTime::SUBGRAPH: {
        std::uint32_t index = 0;  // the corpus value is the index into Model::referenced
        if (t.data.size() == sizeof index) std::memcpy(&index, t.data.data(), sizeof index);
        op.location.offset = index;
        break;
      }
      case OperandLifeTime::CONSTANT_REFERENCE:
        references.push_back(&t);
        break;
      case OperandLifeTime::SUBGRAPH_OUTPUT:
        if (is_main && output_dims == OutputDims::Unknown)
          std::fill(op.dimensions.begin(), op.dimensions.end(), 0u);
        break;
      default:
        break;
    }
    out.operands.push_back(std::move(op));
  }
  out.operations = in.operations;
  out.inputIndexes = in.inputIndexes;
  out.outputIndexes = in.outputIndexes;
  return out;
}

/// Points every CONSTANT_REFERENCE operand of `sg`, in order, at the next slot of pool 0.
inline void bind_references(Subgraph& sg, const std::vector<Slot>& slots, std::size_t& next) {
  for (Operand& op : sg.operands) {
    if (op.lifetime != OperandLifeTime::CONSTANT_REFERENCE) continue;
    const Slot& slot = slots[next++];
    op.location = {0, static_cast<std::uint32_t>(slot.offset), static_cast<std::uint32_t>(slot.length)};
  }
}

}  // namespace detail

inline BuiltModel build_model(const TestModel& test, OutputDims output_dims = OutputDims::Listed) {
  BuiltModel built;
  Model& m = built.model;
  m.relaxComputationFloat32toFloat16 = test.relaxed;
  std::vector<const TestOperand*> references;  // main's first, then each referenced graph's
  m.main = detail::convert_subgraph(test.main, true, output_dims, m.operandValues, references);
  m.referenced.reserve(test.referenced.size());
  for (const TestSubgraph& sg : test.referenced)
    m.referenced.push_back(detail::convert_subgraph(sg, false, output_dims, m.operandValues, references));

  if (!references.empty()) {
    std::vector<std::size_t> sizes;
    for (const TestOperand* t : references) sizes.push_back(t->data.size());
    std::size_t total = 0;
    const auto slots = layout_slots(sizes, kConstantAlignment, 0, total);
    built.constants = AlignedBytes(total);
    for (std::size_t k = 0; k < slots.size(); ++k)
      if (!references[k]->data.empty())
        std::memcpy(built.constants.data() + slots[k].offset, references[k]->data.data(), references[k]->data.size());
    std::size_t next = 0;
    detail::bind_references(m.main, slots, next);
    for (Subgraph& sg : m.referenced) detail::bind_references(sg, slots, next);
    m.pools.push_back(Memory{built.constants.data(), built.constants.size()});
  }
  return built;
}

/// A request with the memory it points into: pool 0 holds the inputs, pool 1 the outputs
/// (separate allocations, so no output can overlap an input).
struct BuiltRequest {
  Request request;
  AlignedBytes inputs;
  AlignedBytes outputs;
  std::vector<Slot> output_slots;  ///< where output k lives in `outputs`
};

/// Bytes of the listed shape of an operand (element size for scalars, 0 if any dimension is 0).
inline std::size_t listed_bytes(const Operand& operand) {
  return element_size(operand.type) * (is_tensor(operand.type) ? element_count(operand.dimensions) : 1);
}

/// Byte the output buffers are filled with before a run. 0xFF makes every float32/float16
/// element a NaN, which fails any comparison, and integers -1 or their maximum, so an output the
/// executor never wrote is caught (except bool8, where any non-zero byte reads as true).
inline constexpr std::byte kOutputSentinel{0xFF};

inline BuiltRequest build_request(const TestModel& test) {
  BuiltRequest built;
  const TestSubgraph& main = test.main;

  std::vector<std::size_t> input_sizes;
  for (std::uint32_t index : main.inputIndexes) input_sizes.push_back(main.operands[index].data.size());
  std::size_t total = 0;
  const auto in_slots = layout_slots(input_sizes, kRequestAlignment, 0, total);
  built.inputs = AlignedBytes(total);
  for (std::size_t k = 0; k < main.inputIndexes.size(); ++k) {
    const TestOperand& t = main.operands[main.inputIndexes[k]];
    RequestArgument arg;
    if (t.data.empty()) {
      arg.hasNoValue = true;  // SCHEMA: an input without values is an omitted optional input
    } else {
      std::memcpy(built.inputs.data() + in_slots[k].offset, t.data.data(), t.data.size());
      arg.location = {0, static_cast<std::uint32_t>(in_slots[k].offset),
                      static_cast<std::uint32_t>(in_slots[k].length)};
    }
    built.request.inputs.push_back(std::move(arg));
  }

  std::vector<std::size_t> output_sizes;
  for (std::uint32_t index : main.outputIndexes) output_sizes.push_back(listed_bytes(main.operands[index].operand));
  built.output_slots = layout_slots(output_sizes, kRequestAlignment, 1, total);
  built.outputs = AlignedBytes(total);
  std::memset(built.outputs.data(), static_cast<int>(kOutputSentinel), total);
  for (const Slot& slot : built.output_slots) {
    RequestArgument arg;
    arg.location = {1, static_cast<std::uint32_t>(slot.offset), static_cast<std::uint32_t>(slot.length)};
    built.request.outputs.push_back(std::move(arg));
  }

  built.request.pools.push_back(RequestMemoryPool{Memory{built.inputs.data(), built.inputs.size()}, 0});
  built.request.pools.push_back(RequestMemoryPool{Memory{built.outputs.data(), built.outputs.size()}, 0});
  return built;
}

}  // namespace nnhal::cts
