// Part NNHAL_KERNELS_PART of NNHAL_KERNELS_PARTS of the default set's kernels (see set.cpp): the
// kernels of every operation whose code is NNHAL_KERNELS_PART modulo NNHAL_KERNELS_PARTS.
#include "nnhal/kernels/all.hpp"

#if !defined(NNHAL_KERNELS_PART) || !defined(NNHAL_KERNELS_PARTS)
#error "define NNHAL_KERNELS_PART and NNHAL_KERNELS_PARTS"
#endif

namespace nnhal::detail {
using SelectFn = Expected<KernelFn> (*)(const NodeIO&, KernelPrepare&);

/// Compiles the kernels of Op in part Part when Mine: its one function (external, so it is
/// emitted) takes the address of the family's selection, which instantiates every kernel
/// reached from it, for set.cpp to link.
template <OperationType Op, int Part, bool Mine>
struct DefaultKernelsPart {
  static SelectFn select() noexcept;
};
template <OperationType Op, int Part, bool Mine>
SelectFn DefaultKernelsPart<Op, Part, Mine>::select() noexcept {
  if constexpr (Mine) {
    using K = Kernels<Op>;
    return &FamilySelect<K, family_types<K>()>::select;
  } else {
    return nullptr;
  }
}

#define NNHAL_DEFAULT_KERNELS_PART(name, code)                          \
  template struct DefaultKernelsPart<OperationType::name, NNHAL_KERNELS_PART, \
                                     (code) % NNHAL_KERNELS_PARTS == NNHAL_KERNELS_PART>;
NNHAL_OPERATION_TYPES(NNHAL_DEFAULT_KERNELS_PART)
#undef NNHAL_DEFAULT_KERNELS_PART
}  // namespace nnhal::detail
