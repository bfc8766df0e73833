#pragma once
/// \file
/// Helpers for kernel tests: a one-node operand table with owned buffers, run through an
/// OpImpl exactly as the executor does (infer, select with a params block, allocate the outputs
/// from the inferred shapes, kernel).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "nnhal/interface/kernel_set.hpp"
#include "nnhal/interface/node_io.hpp"
#include "nnhal/kernels/resolve.hpp"

namespace nnhal::test {

/// The kernels of operation Op in a kernel set of Op alone (the test file includes Op's kernels
/// header).
template <OperationType Op>
const OpKernel& kernels_of() noexcept {
  return *kernel_table<OpSet<Op>>().find(Op);
}

/// One node: inputs and outputs in one operand table, each with its own heap buffer.
class KernelNode {
 public:
  /// Adds a tensor input holding `values` (row-major, sized to `dims`).
  template <OperandType T>
  std::uint32_t tensor(const Dims& dims, const std::vector<element_t<T>>& values, float scale = 0.0f,
                       std::int32_t zero_point = 0) {
    RtOperand op;
    op.type = T;
    op.dims = dims;
    op.scale = scale;
    op.zero_point = zero_point;
    op.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    const std::size_t bytes = values.size() * sizeof(element_t<T>);
    bind(op, bytes);
    if (bytes != 0) std::memcpy(op.data, values.data(), bytes);
    return push(op, inputs_);
  }

  /// Adds a scalar input.
  template <OperandType T>
  std::uint32_t scalar(element_t<T> v) {
    RtOperand op;
    op.type = T;
    op.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    bind(op, sizeof v);
    std::memcpy(op.data, &v, sizeof v);
    return push(op, inputs_);
  }

  /// Adds an omitted optional input (lifetime NO_VALUE, no data), as a request's hasNoValue.
  std::uint32_t omitted(OperandType type, const Dims& dims = {}) {
    RtOperand op;
    op.type = type;
    op.dims = dims;
    op.lifetime = OperandLifeTime::NO_VALUE;
    return push(op, inputs_);
  }

  /// Adds an output of type `type` (shape left to infer).
  std::uint32_t output(OperandType type, float scale = 0.0f, std::int32_t zero_point = 0) {
    RtOperand op;
    op.type = type;
    op.rank_known = false;
    op.scale = scale;
    op.zero_point = zero_point;
    op.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    return push(op, outputs_);
  }

  NodeIO io() { return NodeIO(table_.data(), inputs_, outputs_, params_.data(), workspace_.get(), packed_.data()); }
  /// From now on select() gives the node the workspace its kernel asks for
  /// (KernelPrepare::workspace_bytes), as the executor does; off by default, so kernels that
  /// have a plain path without scratch (shapes unknown at prepare) are tested on it.
  void use_workspace() { give_workspace_ = true; }
  /// From now on select() asks for the plain reference kernels (KernelPrepare::reference), as
  /// PrepareOptions::reference_kernels does.
  void use_reference_kernels() { reference_ = true; }
  RtOperand& in(std::size_t i) { return table_[inputs_[i]]; }
  RtOperand& out(std::size_t i) { return table_[outputs_[i]]; }

  Status infer(const OpKernel& impl) { return impl.infer(io()); }

  /// select, then a buffer for every output from its inferred shape (at least one byte).
  Expected<KernelFn> select(const OpKernel& impl) {
    KernelPrepare setup{std::span<std::byte, kNodeParamBytes>(params_)};
    setup.packed = &packed_;
    setup.reference = reference_;
    auto k = impl.select(io(), setup);
    if (!k) return k;
    if (give_workspace_) assign_workspace(setup.workspace_bytes);
    for (std::uint32_t o : outputs_) {
      RtOperand& op = table_[o];
      bind(op, static_cast<std::size_t>(op.required_bytes()));
    }
    return k;
  }

  /// infer, select, kernel; the first error is returned.
  Status run(const OpKernel& impl) {
    if (auto s = infer(impl); !s) return s;
    auto k = select(impl);
    if (!k) return std::move(k.error());
    return (*k)(io());
  }

  /// As the executor runs a node whose output shapes depend on its data: select (which plans
  /// the scratch the kernel asks for), then infer and the kernel with that scratch.
  Status run_planned(const OpKernel& impl) {
    KernelPrepare setup{std::span<std::byte, kNodeParamBytes>(params_)};
    setup.packed = &packed_;
    setup.reference = reference_;
    auto k = impl.select(io(), setup);
    if (!k) return std::move(k.error());
    assign_workspace(setup.workspace_bytes);
    const NodeIO node = io();
    if (auto s = impl.infer(node); !s) return s;
    for (std::uint32_t o : outputs_) bind(table_[o], static_cast<std::size_t>(table_[o].required_bytes()));
    return (*k)(node);
  }

  /// The values of output i (as many elements as its shape holds).
  template <OperandType T>
  std::vector<element_t<T>> values(std::size_t i) {
    const RtOperand& op = out(i);
    std::vector<element_t<T>> v(static_cast<std::size_t>(op.dims.element_count()));
    if (!v.empty()) std::memcpy(v.data(), op.data, v.size() * sizeof(element_t<T>));
    return v;
  }

 private:
  /// A 64-byte aligned workspace of `bytes` (none for 0), filled with a pattern rather than
  /// zeros, as an arena's reused memory would be.
  void assign_workspace(std::size_t bytes) {
    workspace_.reset();
    if (bytes == 0) return;
    workspace_.reset(new (std::align_val_t{64}) std::byte[bytes]);
    std::memset(workspace_.get(), 0xCD, bytes);
  }
  void bind(RtOperand& op, std::size_t bytes) {
    auto buf = std::make_unique<std::byte[]>(bytes == 0 ? 1 : bytes);  // aligned for any scalar
    op.data = buf.get();
    op.length = bytes;
    buffers_.push_back(std::move(buf));
  }
  std::uint32_t push(const RtOperand& op, std::vector<std::uint32_t>& list) {
    table_.push_back(op);
    list.push_back(static_cast<std::uint32_t>(table_.size() - 1));
    return list.back();
  }

  std::vector<RtOperand> table_;
  std::vector<std::uint32_t> inputs_, outputs_;
  std::vector<std::unique_ptr<std::byte[]>> buffers_;
  alignas(16) std::array<std::byte, kNodeParamBytes> params_{};
  nnhal::Vector<std::byte> packed_;  ///< the node's packed data (KernelPrepare::pack)
  struct AlignedDelete {
    void operator()(std::byte* p) const noexcept { ::operator delete[](p, std::align_val_t{64}); }
  };
  std::unique_ptr<std::byte[], AlignedDelete> workspace_;  ///< see use_workspace() and run_planned()
  bool give_workspace_ = false;
  bool reference_ = false;  ///< see use_reference_kernels()
};

/// Element offset of (b, y, x, ch) in an [n, h, w, c] image stored NHWC, or NCHW when `nchw`:
/// the test references' own indexing, independent of the library's window::Image.
inline std::size_t image_offset(bool nchw, std::size_t h, std::size_t w, std::size_t c, std::size_t b, std::size_t y,
                                std::size_t x, std::size_t ch) {
  return nchw ? ((b * c + ch) * h + y) * w + x : ((b * h + y) * w + x) * c + ch;
}

/// Dims of an [n, h, w, c] image in the layout `nchw` selects.
inline Dims image_dims(bool nchw, std::uint32_t n, std::uint32_t h, std::uint32_t w, std::uint32_t c) {
  return nchw ? Dims{n, c, h, w} : Dims{n, h, w, c};
}

}  // namespace nnhal::test
