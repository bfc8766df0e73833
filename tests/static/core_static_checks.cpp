// Compile-time promises of the core vocabulary and the operation table. This file only has
// to compile.
#include <type_traits>

#include "nnhal/core/enums.hpp"
#include "nnhal/core/half.hpp"
#include "nnhal/core/operand_traits.hpp"
#include "nnhal/builder/builder.hpp"
#include "nnhal/ops/registry.hpp"
#include "nnhal/tensor/tensor_view.hpp"

namespace {
using nnhal::HalVersion;
using nnhal::OperandType;
using nnhal::OperationType;

// Exact HAL numeric values.
static_assert(static_cast<int>(OperandType::SUBGRAPH) == 15);
static_assert(static_cast<int>(OperandType::TENSOR_QUANT8_ASYMM_SIGNED) == 14);
static_assert(static_cast<int>(OperandType::OEM) == 10000);
static_assert(static_cast<int>(OperationType::WHILE) == 97);
static_assert(static_cast<int>(OperationType::RANK) == 101);
static_assert(static_cast<int>(nnhal::ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT) == 8);
static_assert(static_cast<int>(nnhal::OperandLifeTime::SUBGRAPH) == 6);

// Element types follow the operand type.
static_assert(std::is_same_v<nnhal::element_t<OperandType::TENSOR_FLOAT32>, float>);
static_assert(std::is_same_v<nnhal::element_t<OperandType::TENSOR_QUANT8_ASYMM>, std::uint8_t>);
static_assert(std::is_same_v<nnhal::element_t<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>, std::int8_t>);
static_assert(std::is_same_v<nnhal::element_t<OperandType::TENSOR_FLOAT16>, nnhal::Half>);
static_assert(std::is_same_v<nnhal::element_t<OperandType::TENSOR_QUANT16_ASYMM>, std::uint16_t>);
static_assert(std::is_same_v<nnhal::TensorView<OperandType::TENSOR_INT32>::element_type, const std::int32_t>);
static_assert(std::is_same_v<nnhal::MutableTensorView<OperandType::TENSOR_BOOL8>::element_type, std::uint8_t>);

// Traits.
static_assert(nnhal::element_size(OperandType::TENSOR_FLOAT16) == 2);
static_assert(nnhal::element_size(OperandType::SUBGRAPH) == 0);
static_assert(nnhal::is_tensor(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL));
static_assert(!nnhal::is_tensor(OperandType::FLOAT16));
static_assert(nnhal::is_quantized(OperandType::TENSOR_QUANT16_SYMM));
static_assert(!nnhal::is_quantized(OperandType::TENSOR_INT32));
static_assert(nnhal::operand_type_traits<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>::since == HalVersion::V1_3);
static_assert(nnhal::operand_type_traits<OperandType::BOOL>::since == HalVersion::V1_2);

// Half conversions are constexpr and exact on representable values.
static_assert(static_cast<float>(nnhal::Half(1.5f)) == 1.5f);
static_assert(nnhal::Half(65504.0f).bits == 0x7BFF);
static_assert(nnhal::Half(1e6f).bits == 0x7C00);  // overflow rounds to infinity

// The table is complete and indexed by code (also asserted inside registry.hpp).
static_assert(nnhal::operation_table().size() == 102);
static_assert(nnhal::operation_info<OperationType::ADD>().name == "ADD");
static_assert(nnhal::operation_info<OperationType::WHILE>().has(nnhal::kOpControlFlow));
static_assert(nnhal::find_operation(OperationType::OEM_OPERATION) == nullptr);
static_assert(nnhal::find_operation(static_cast<OperationType>(102)) == nullptr);

// The typed builder's compile-time check reads the same table.
static_assert(nnhal::detail::table_accepts<OperationType::ADD>(
    std::array{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::INT32},
    OperandType::TENSOR_FLOAT32));
static_assert(!nnhal::detail::table_accepts<OperationType::ADD>(
    std::array{OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32, OperandType::INT32},
    OperandType::TENSOR_FLOAT32));
static_assert(!nnhal::detail::table_accepts<OperationType::DIV>(
    std::array{OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM, OperandType::INT32},
    OperandType::TENSOR_QUANT8_ASYMM));
}  // namespace
