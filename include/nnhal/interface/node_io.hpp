#pragma once
/// \file
/// The interface between the executor and kernels: runtime operand records, the NodeIO handle
/// through which shape inference and kernels see one node's operands (typed views, the node's
/// parameters, its workspace and packed data), and OpKernel, what a kernel set provides per
/// operation. A record's type is fixed at prepare time, so the typed accessors only debug-check
/// it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "nnhal/config.hpp"
#include "nnhal/core/dims.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/core/result.hpp"
#include "nnhal/interface/parallel.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/tensor/tensor_view.hpp"

namespace nnhal {

/// One operand at run time: static facts copied from the model, the current shape and where the
/// data is. `data == nullptr` means no value (omitted, or not yet computed).
struct RtOperand {
  OperandType type = OperandType::FLOAT32;
  OperandLifeTime lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
  bool rank_known = true;  ///< false for a tensor declared with unknown rank, until inferred
  /// The shape was computed at prepare time (an output of a node whose inputs are static): a 0
  /// in `dims` is then a real zero-sized dimension, not an unknown one, and nothing a request
  /// says may change it.
  bool shape_fixed = false;
  Dims dims;
  float scale = 0.0f;
  std::int32_t zero_point = 0;
  const SymmPerChannelQuantParams* channel_quant = nullptr;
  std::byte* data = nullptr;
  std::size_t length = 0;  ///< bytes available at `data`
  /// For an operand type of an extension: its registered element size (> 0) and kind.
  std::uint32_t extension_bytes = 0;
  bool extension_tensor = false;

  /// Whether the operand is a tensor (an extension type's registered kind included).
  bool tensor() const noexcept { return extension_bytes != 0 ? extension_tensor : is_tensor(type); }
  /// Bytes per element (an extension type's registered size included).
  std::uint32_t element_bytes() const noexcept { return extension_bytes != 0 ? extension_bytes : element_size(type); }

  /// Bytes the current shape needs (0 when unknown or zero-sized; UINT64_MAX when the size
  /// does not fit 64 bits, so every "is the buffer large enough" check fails safely).
  std::uint64_t required_bytes() const noexcept {
    if (!tensor()) return element_bytes();
    if (!rank_known) return 0;
    std::uint64_t bytes = 0;
    return __builtin_mul_overflow(dims.element_count(), std::uint64_t{element_bytes()}, &bytes) ? UINT64_MAX : bytes;
  }
  bool has_value() const noexcept { return lifetime != OperandLifeTime::NO_VALUE; }
  bool shape_known() const noexcept { return !tensor() || (rank_known && dims.all_known()); }
};

/// Size in bytes of per-node parameters a kernel may precompute at prepare time.
inline constexpr std::size_t kNodeParamBytes = 128;

/// One node's view of its operands, resolved through the operand table of the running subgraph.
class NodeIO {
 public:
  NodeIO(RtOperand* table, std::span<const std::uint32_t> inputs,
         std::span<const std::uint32_t> outputs, const std::byte* params = nullptr,
         std::byte* workspace = nullptr, const std::byte* packed = nullptr,
         Parallel* parallel = nullptr) noexcept
      : table_(table), inputs_(inputs), outputs_(outputs), params_(params), workspace_(workspace),
        packed_(packed), parallel_(parallel) {}

  std::size_t input_count() const noexcept { return inputs_.size(); }
  std::size_t output_count() const noexcept { return outputs_.size(); }
  const RtOperand& input(std::size_t i) const noexcept { return table_[inputs_[i]]; }
  RtOperand& output(std::size_t i) const noexcept { return table_[outputs_[i]]; }
  /// True when input i exists and has a value (is not omitted).
  bool has_input(std::size_t i) const noexcept {
    return i < inputs_.size() && input(i).has_value();
  }

  /// Value of scalar input i as its element type. Precondition: the type is T.
  template <OperandType T>
  element_t<T> scalar(std::size_t i) const noexcept {
    static_assert(!is_tensor(T), "nnhal: scalar<T>() needs a scalar operand type");
    const RtOperand& op = input(i);
    NNHAL_ASSERT(op.type == T && op.data != nullptr);
    element_t<T> v;
    std::memcpy(&v, op.data, sizeof v);
    return v;
  }

  /// Read-only typed view of tensor input i. Precondition: its type is T.
  template <OperandType T>
  TensorView<T> in(std::size_t i) const noexcept {
    const RtOperand& op = input(i);
    NNHAL_ASSERT(op.type == T);
    return {reinterpret_cast<const element_t<T>*>(op.data), op.dims, op.scale, op.zero_point};
  }

  /// Writable typed view of tensor output i. Precondition: its type is T.
  template <OperandType T>
  MutableTensorView<T> out(std::size_t i) const noexcept {
    RtOperand& op = output(i);
    NNHAL_ASSERT(op.type == T);
    return {reinterpret_cast<element_t<T>*>(op.data), op.dims, op.scale, op.zero_point};
  }

  /// Typed element pointers of tensor input / output i, without a view: for kernels whose
  /// shapes prepare fixed. Precondition: the operand's type is T.
  template <OperandType T>
  const element_t<T>* in_data(std::size_t i) const noexcept {
    static_assert(is_tensor(T), "nnhal: in_data<T>() needs a tensor operand type");
    NNHAL_ASSERT(input(i).type == T);
    return reinterpret_cast<const element_t<T>*>(input(i).data);
  }
  template <OperandType T>
  element_t<T>* out_data(std::size_t i) const noexcept {
    static_assert(is_tensor(T), "nnhal: out_data<T>() needs a tensor operand type");
    NNHAL_ASSERT(output(i).type == T);
    return reinterpret_cast<element_t<T>*>(output(i).data);
  }

  /// True when inputs 0 and 1 and output 0 have one shape, fully known: at prepare time this
  /// means a node that is not dynamic will always run on exactly these shapes.
  bool same_known_shapes() const noexcept {
    const RtOperand &a = input(0), &b = input(1), &o = output(0);
    return a.shape_known() && b.shape_known() && o.shape_known() && a.dims == b.dims && a.dims == o.dims;
  }

  /// The per-node parameters written at prepare time, as P.
  template <class P>
  const P& params() const noexcept {
    static_assert(sizeof(P) <= kNodeParamBytes && alignof(P) <= 16);
    return *reinterpret_cast<const P*>(params_);
  }

  /// The scratch bytes the kernel asked for at prepare (KernelPrepare::workspace_bytes), 64-byte
  /// aligned, in the execution's arena; valid only while the kernel runs.
  std::byte* workspace() const noexcept { return workspace_; }

  /// The data the kernel packed at prepare (KernelPrepare::pack), owned by the prepared plan.
  const std::byte* packed() const noexcept { return packed_; }

  /// Where the kernel may run pieces of its work at once (for_each_piece), or nullptr: run on
  /// the calling thread. Its concurrency is the one the node was prepared with.
  Parallel* parallel() const noexcept { return parallel_; }

 private:
  RtOperand* table_;
  std::span<const std::uint32_t> inputs_;
  std::span<const std::uint32_t> outputs_;
  const std::byte* params_;
  std::byte* workspace_;
  const std::byte* packed_;
  Parallel* parallel_;
};

/// Computes the shapes of a node's outputs from its inputs (writes output(i).dims and
/// rank_known). Called at prepare time when the inputs are known, else at execution.
using InferFn = Status (*)(const NodeIO&);

/// Runs a node. Outputs have their shapes and buffers set.
using KernelFn = Status (*)(const NodeIO&);

/// What a kernel's prepare-time choice may set up for its node, beyond picking the function:
/// parameters precomputed into the node (requantization multipliers, ...), scratch bytes planned
/// into the execution's arena, and data packed once into the plan (packed weights, tables).
/// Nothing a kernel needs while running is allocated then.
struct KernelPrepare {
  std::span<std::byte, kNodeParamBytes> params;
  /// Scratch bytes the kernel needs while running (NodeIO::workspace()).
  std::size_t workspace_bytes = 0;
  /// True when only asked whether a kernel exists (the supported-operations query): skip
  /// expensive packing.
  bool dry_run = false;
  /// The node's packed data; read back at run time through NodeIO::packed().
  Vector<std::byte>* packed = nullptr;
  /// Where `packed` grows: the caller's arena (PrepareOptions::arena) or the heap.
  Memories memory{};
  /// The bytes pack() asked for and the arena could not give (0: none): preparation then fails
  /// with RESOURCE_EXHAUSTED_PERSISTENT, whatever the kernel chose.
  std::size_t exhausted = 0;
  /// How many pieces of the node may run at once (NodeIO::parallel()'s concurrency, 1 without
  /// one): a kernel whose pieces need scratch asks for that many slices.
  std::size_t concurrency = 1;
  /// PrepareOptions::reference_kernels: choose the plain reference kernel (scalar loops in the
  /// reference's order; no SIMD table, no packing, no blocking) where a faster one exists.
  /// Outputs then match the fast kernels within the conformance tolerances, bit for bit where
  /// the fast kernel keeps the reference's order of operations.
  bool reference = false;

  /// Stores a trivially copyable parameter block into the node's parameters.
  template <class P>
  void store(const P& p) noexcept {
    static_assert(sizeof(P) <= kNodeParamBytes && alignof(P) <= 16);
    std::memcpy(params.data(), &p, sizeof p);
  }

  /// `bytes` of packed storage owned by the prepared node (zeroed), or nullptr in a dry run or
  /// when the arena is too small (then `exhausted` is set).
  std::byte* pack(std::size_t bytes) {
    if (dry_run || packed == nullptr) return nullptr;
    if (!memory.assign(*packed, bytes, std::byte{0})) {
      exhausted = bytes;
      return nullptr;
    }
    return packed->data();
  }
};

/// Chooses a node's kernel once, at prepare time, from its operand types and quantization
/// parameters (shapes may still be unknown).
using SelectFn = Expected<KernelFn> (*)(const NodeIO&, KernelPrepare&);

/// What a kernel set provides for one operation: shape inference and the kernel choice. IF and
/// WHILE have neither: `control_flow` marks that the executor runs them over their subgraphs.
struct OpKernel {
  InferFn infer = nullptr;
  SelectFn select = nullptr;
  bool control_flow = false;
};

/// The runtime record of a declared operand of `model`, with constants bound to their bytes.
/// `extension`: the registered description of the operand's type when it is an extension's.
inline Expected<RtOperand> make_record(const Model& model, const Operand& op,
                                       const Extension::OperandTypeInformation* extension = nullptr) {
  RtOperand r;
  r.type = op.type;
  r.lifetime = op.lifetime;
  if (extension != nullptr) {
    r.extension_bytes = extension->byteSize;
    r.extension_tensor = extension->isTensor;
  }
  r.rank_known = !(r.tensor() && op.dimensions.empty());
  if (!r.dims.assign(op.dimensions))
    return NNHAL_FAILURE("rank %zu exceeds the supported maximum %zu", op.dimensions.size(), kMaxRank);
  r.scale = op.scale;
  r.zero_point = op.zeroPoint;
  r.channel_quant = op.channelQuant ? &*op.channelQuant : nullptr;
  if (op.lifetime == OperandLifeTime::CONSTANT_COPY) {
    r.data = const_cast<std::byte*>(reinterpret_cast<const std::byte*>(model.operandValues.data())) +
             op.location.offset;
    r.length = op.location.length;
  } else if (op.lifetime == OperandLifeTime::CONSTANT_REFERENCE) {
    r.data = model.pools[op.location.poolIndex].data + op.location.offset;
    r.length = op.location.length;
  }
  return r;
}

}  // namespace nnhal
