#pragma once
/// \file
/// The HAL 1.3 model structures (spec/HAL13.md section b): Operand, Operation, Subgraph, Model.
/// They mirror the HIDL 1.3 fields so a driver converts its HIDL/AIDL objects one to one. The
/// model's lists are nnhal::Vector (std::vector with nnhal::Allocator): default-constructed they use the heap; a
/// ModelBuilder given an Arena puts a whole model in the caller's memory (nnhal/core/arena.hpp).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <span>
#include <string>
#include <vector>

#include "nnhal/core/arena.hpp"
#include "nnhal/core/enums.hpp"

namespace nnhal {


/// Where a constant, request argument or subgraph reference lives (`DataLocation`).
struct DataLocation {
  std::uint32_t poolIndex = 0;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
};

/// Per-channel quantization parameters of TENSOR_QUANT8_SYMM_PER_CHANNEL operands.
struct SymmPerChannelQuantParams {
  Vector<float> scales;
  std::uint32_t channelDim = 0;
};

/// The channelQuant branch of the HIDL ExtraParams union: present or absent. (A small wrapper
/// rather than std::optional: g++ 12 reports false maybe-uninitialized warnings when Operands
/// holding an optional of a vector are copied at -O3.)
class OptionalChannelQuant {
 public:
  OptionalChannelQuant() = default;
  OptionalChannelQuant(SymmPerChannelQuantParams p) : value_(std::move(p)), present_(true) {}
  OptionalChannelQuant& operator=(SymmPerChannelQuantParams p) {
    value_ = std::move(p);
    present_ = true;
    return *this;
  }
  void reset() noexcept {
    value_ = {};
    present_ = false;
  }
  bool has_value() const noexcept { return present_; }
  explicit operator bool() const noexcept { return present_; }
  const SymmPerChannelQuantParams& operator*() const noexcept { return value_; }
  SymmPerChannelQuantParams& operator*() noexcept { return value_; }
  const SymmPerChannelQuantParams* operator->() const noexcept { return &value_; }
  SymmPerChannelQuantParams* operator->() noexcept { return &value_; }

 private:
  SymmPerChannelQuantParams value_;
  bool present_ = false;
};

/// One operand of a subgraph (`@1.3::Operand`). `dimensions` empty = scalar or unknown rank;
/// a 0 entry = unknown dimension.
struct Operand {
  OperandType type = OperandType::FLOAT32;
  Vector<std::uint32_t> dimensions;
  std::uint32_t numberOfConsumers = 0;
  float scale = 0.0f;
  std::int32_t zeroPoint = 0;
  OperandLifeTime lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
  DataLocation location;
  /// Set only for TENSOR_QUANT8_SYMM_PER_CHANNEL (the HIDL ExtraParams channelQuant branch).
  OptionalChannelQuant channelQuant;
};

/// One operation: its code and operand indexes into the enclosing subgraph.
struct Operation {
  OperationType type = OperationType::ADD;
  Vector<std::uint32_t> inputs;
  Vector<std::uint32_t> outputs;
};

/// A graph of operations over its own operands (`@1.3::Subgraph`).
struct Subgraph {
  /// An empty subgraph whose lists will live in `memory`.
  static Subgraph in(MemoryResource* memory) noexcept {
    return Subgraph{Vector<Operand>(memory), Vector<Operation>(memory), Vector<std::uint32_t>(memory),
                    Vector<std::uint32_t>(memory)};
  }
  Vector<Operand> operands;
  Vector<Operation> operations;
  Vector<std::uint32_t> inputIndexes;
  Vector<std::uint32_t> outputIndexes;
};

/// A region of memory that a model or request refers to (the mapped `hidl_memory`). nnhal never
/// owns it: the memory must outlive every Model, prepared model and execution that uses it.
struct Memory {
  std::byte* data = nullptr;
  std::size_t size = 0;
};

/// One entry of a model's extension map (`@1.2::Model.ExtensionNameAndPrefix`): operand and
/// operation type codes whose high 16 bits are `prefix` belong to the extension `name`.
struct ExtensionNameAndPrefix {
  std::string name;
  std::uint16_t prefix = 0;
};

/// A complete model (`@1.3::Model`): the main subgraph, the subgraphs IF/WHILE refer to, the
/// inline constant bytes, the memory pools of CONSTANT_REFERENCE operands and the names of the
/// vendor extensions its type codes from 0x10000 refer to.
struct Model {
  /// An empty model whose lists will live in `memory`.
  static Model in(MemoryResource* memory) noexcept {
    return Model{Subgraph::in(memory), Vector<Subgraph>(memory), Vector<std::uint8_t>(memory),
                 Vector<Memory>(memory), false, Vector<ExtensionNameAndPrefix>(memory)};
  }
  Subgraph main;
  Vector<Subgraph> referenced;
  Vector<std::uint8_t> operandValues;
  Vector<Memory> pools;
  bool relaxComputationFloat32toFloat16 = false;
  Vector<ExtensionNameAndPrefix> extensionNameToPrefix;
};

/// A copy of `from` whose lists all live in `mem` (RESOURCE_EXHAUSTED_PERSISTENT when its arena
/// runs out; the partial copy is then dropped). Extension names stay std::string (a model built
/// for an arena has none, or names short enough to sit inside the string).
inline Expected<Model> copy_model(const Model& from, const Memories& mem) {
  auto copy_list = [&mem]<class T>(Vector<T>& to, const Vector<T>& list) {
    return mem.assign(to, std::span<const T>(list));
  };
  auto copy_subgraph = [&](Subgraph& to, const Subgraph& sg) -> Status {
    if (!mem.reserve(to.operands, sg.operands.size())) return mem.exhausted();
    for (const Operand& op : sg.operands) {
      SymmPerChannelQuantParams params{mem.vector<float>(), 0};
      if (op.channelQuant) {
        params.channelDim = op.channelQuant->channelDim;
        if (!copy_list(params.scales, op.channelQuant->scales)) return mem.exhausted();
      }
      // Constructed with its lists in place: assigning a list of another memory would copy it
      // into the memory of the list assigned to.
      to.operands.push_back(Operand{op.type, mem.vector<std::uint32_t>(), op.numberOfConsumers, op.scale,
                                    op.zeroPoint, op.lifetime, op.location,
                                    op.channelQuant ? OptionalChannelQuant(std::move(params)) : OptionalChannelQuant()});
      if (!copy_list(to.operands.back().dimensions, op.dimensions)) return mem.exhausted();
    }
    if (!mem.reserve(to.operations, sg.operations.size())) return mem.exhausted();
    for (const Operation& operation : sg.operations) {
      to.operations.push_back(Operation{operation.type, mem.vector<std::uint32_t>(), mem.vector<std::uint32_t>()});
      if (!copy_list(to.operations.back().inputs, operation.inputs)) return mem.exhausted();
      if (!copy_list(to.operations.back().outputs, operation.outputs)) return mem.exhausted();
    }
    if (!copy_list(to.inputIndexes, sg.inputIndexes)) return mem.exhausted();
    if (!copy_list(to.outputIndexes, sg.outputIndexes)) return mem.exhausted();
    return {};
  };
  Model m = Model::in(mem.resource());
  NNHAL_TRY(copy_subgraph(m.main, from.main));
  if (!mem.reserve(m.referenced, from.referenced.size())) return mem.exhausted();
  for (const Subgraph& sg : from.referenced) {
    m.referenced.push_back(Subgraph::in(mem.resource()));
    NNHAL_TRY(copy_subgraph(m.referenced.back(), sg));
  }
  if (!copy_list(m.operandValues, from.operandValues)) return mem.exhausted();
  if (!copy_list(m.pools, from.pools)) return mem.exhausted();
  m.relaxComputationFloat32toFloat16 = from.relaxComputationFloat32toFloat16;
  if (!copy_list(m.extensionNameToPrefix, from.extensionNameToPrefix)) return mem.exhausted();
  return m;
}

/// A vendor extension as a device reports it (`@1.2::Extension`, getSupportedExtensions): its
/// name and the operand types it defines.
struct Extension {
  /// One operand type of an extension: its code within the extension (the low 16 bits of an
  /// operand type), whether it is a tensor, and the bytes of one element (of the scalar).
  struct OperandTypeInformation {
    std::uint16_t type = 0;
    bool isTensor = false;
    std::uint32_t byteSize = 0;
  };
  std::string name;
  std::vector<OperandTypeInformation> operandTypes;
};

/// One request argument (`@1.0::RequestArgument`).
struct RequestArgument {
  bool hasNoValue = false;
  DataLocation location;
  std::vector<std::uint32_t> dimensions;
};

/// A request memory pool: mapped memory, or a token naming a driver-managed buffer (> 0).
struct RequestMemoryPool {
  Memory memory;
  std::uint32_t token = 0;  ///< non-zero: a driver-managed buffer; `memory` is then unused
};

/// An execution request (`@1.3::Request`): arguments bound to main's inputIndexes/outputIndexes.
struct Request {
  std::vector<RequestArgument> inputs;
  std::vector<RequestArgument> outputs;
  std::vector<RequestMemoryPool> pools;
};

/// Shape of one output after an execution (`@1.2::OutputShape`).
struct OutputShape {
  std::vector<std::uint32_t> dimensions;
  bool isSufficient = true;
};

/// Duration of an execution in microseconds; UINT64_MAX = not measured (`@1.2::Timing`).
struct Timing {
  std::uint64_t timeOnDevice = UINT64_MAX;
  std::uint64_t timeInDriver = UINT64_MAX;
};

/// Relative cost of an operand type's computation; lower is better (`PerformanceInfo`).
struct PerformanceInfo {
  float execTime = 0.0f;
  float powerUsage = 0.0f;
};

/// Performance of one operand type (`Capabilities::OperandPerformance`).
struct OperandPerformance {
  OperandType type = OperandType::FLOAT32;
  PerformanceInfo info;
};

/// What a device reports about its speed (`@1.3::Capabilities`).
struct Capabilities {
  PerformanceInfo relaxedFloat32toFloat16PerformanceScalar;
  PerformanceInfo relaxedFloat32toFloat16PerformanceTensor;
  std::vector<OperandPerformance> operandPerformance;  ///< sorted by type, no SUBGRAPH
  PerformanceInfo ifPerformance;
  PerformanceInfo whilePerformance;
};

}  // namespace nnhal
