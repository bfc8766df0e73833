// Compile-time promises of the kernel architecture: rows are light and derived, every kernel
// family covers its row's signatures (or lists the gaps), and kernel sets resolve at compile
// time. This file only has to compile.
#include <type_traits>

#include "nnhal/kernels/all.hpp"
#include "nnhal/ops/registry.hpp"

namespace {
using nnhal::HalVersion;
using nnhal::OperandType;
using nnhal::OperationType;

// Every operation's kernels cover its row: each signature's key type has a kernel or stands on
// the family's no_kernel list (nnhal::kernels_cover_row).
#define NNHAL_CHECK_COVERS(name, code) static_assert(nnhal::kernels_cover_row<OperationType::name>(), #name);
NNHAL_OPERATION_TYPES(NNHAL_CHECK_COVERS)
#undef NNHAL_CHECK_COVERS

// Derived row members: the name is the enumerator's, `since` the oldest signature's version,
// the value-read mask follows the slots.
static_assert(nnhal::operation_info<OperationType::ADD>().name == "ADD");
static_assert(nnhal::operation_info<OperationType::DIV>().since == HalVersion::V1_1);
static_assert(nnhal::operation_info<OperationType::RANK>().since == HalVersion::V1_3);
static_assert(nnhal::operation_info<OperationType::RESHAPE>().value_inputs == 0b10);
static_assert(nnhal::operation_info<OperationType::SLICE>().value_inputs == 0b110);
static_assert(nnhal::operation_info<OperationType::ADD>().value_inputs == 0);

// The default set: every HAL 1.3 operation (each has kernels now), IF and WHILE as control
// flow, nothing for OEM_OPERATION; DIV's QUANT8_ASYMM_SIGNED signature is a listed gap.
constexpr const nnhal::KernelTable& kAll = nnhal::kKernelTable<nnhal::AllKernels>;
#define NNHAL_CHECK_IN_ALL(name, code) \
  static_assert(kAll.contains(OperationType::name), #name);
NNHAL_OPERATION_TYPES(NNHAL_CHECK_IN_ALL)
#undef NNHAL_CHECK_IN_ALL
static_assert(!kAll.contains(OperationType::OEM_OPERATION));
static_assert(kAll.contains(OperationType::WHILE) && kAll.find(OperationType::WHILE)->control_flow);
static_assert(!kAll.find(OperationType::ADD)->control_flow);
static_assert(nnhal::detail::contains(nnhal::Kernels<OperationType::DIV>::no_kernel,
                                      OperandType::TENSOR_QUANT8_ASYMM_SIGNED));

// A set of two operations has exactly those two.
using Two = nnhal::OpSet<OperationType::ADD, OperationType::IF>;
constexpr const nnhal::KernelTable& kTwo = nnhal::kKernelTable<Two>;
static_assert(kTwo.contains(OperationType::ADD) && kTwo.contains(OperationType::IF));
static_assert(!kTwo.contains(OperationType::MUL) && !kTwo.contains(OperationType::WHILE));

// A type-restricted entry is a different kernel (its selection knows fewer types).
using AddF32 = nnhal::KernelSet<nnhal::Use<OperationType::ADD, OperandType::TENSOR_FLOAT32>>;
static_assert(nnhal::kKernelTable<AddF32>.find(OperationType::ADD) != kTwo.find(OperationType::ADD));
}  // namespace

int main() { return 0; }
