#pragma once
/// \file
/// Tag types named after operand types (`nnhal::types::TENSOR_INT32`) and operations
/// (`nnhal::operations::ADD`), for compile-time diagnostics: g++ and clang print a template
/// argument that is a type by its name, whereas an enum value may print as
/// `(nnhal::OperandType)4`. The tags are only declared (never defined): naming them costs
/// nothing.

#include <cstdint>

#include "nnhal/core/enums.hpp"

/// One tag per HAL operand type, named exactly as the OperandType enumerator.
namespace nnhal::types {
struct FLOAT32;
struct INT32;
struct UINT32;
struct TENSOR_FLOAT32;
struct TENSOR_INT32;
struct TENSOR_QUANT8_ASYMM;
struct BOOL;
struct TENSOR_QUANT16_SYMM;
struct TENSOR_FLOAT16;
struct TENSOR_BOOL8;
struct FLOAT16;
struct TENSOR_QUANT8_SYMM_PER_CHANNEL;
struct TENSOR_QUANT16_ASYMM;
struct TENSOR_QUANT8_SYMM;
struct TENSOR_QUANT8_ASYMM_SIGNED;
struct SUBGRAPH;
struct OEM;
struct TENSOR_OEM_BYTE;
/// Any other operand type code (an extension type), shown by its number.
template <std::int32_t Code>
struct operand_type_code;
}  // namespace nnhal::types

/// One tag per HAL operation, named exactly as the OperationType enumerator.
namespace nnhal::operations {
#define NNHAL_DECLARE_OPERATION_TAG(name, code) struct name;
NNHAL_OPERATION_TYPES(NNHAL_DECLARE_OPERATION_TAG)
#undef NNHAL_DECLARE_OPERATION_TAG
/// Any other operation code (OEM, an extension), shown by its number.
template <std::int32_t Code>
struct operation_code;
}  // namespace nnhal::operations

namespace nnhal::detail {

template <OperandType T>
struct operand_type_tag {
  using type = types::operand_type_code<static_cast<std::int32_t>(T)>;
};
#define NNHAL_OPERAND_TYPE_TAG(name)                \
  template <>                                       \
  struct operand_type_tag<OperandType::name> {      \
    using type = types::name;                       \
  };
NNHAL_OPERAND_TYPE_TAG(FLOAT32)
NNHAL_OPERAND_TYPE_TAG(INT32)
NNHAL_OPERAND_TYPE_TAG(UINT32)
NNHAL_OPERAND_TYPE_TAG(TENSOR_FLOAT32)
NNHAL_OPERAND_TYPE_TAG(TENSOR_INT32)
NNHAL_OPERAND_TYPE_TAG(TENSOR_QUANT8_ASYMM)
NNHAL_OPERAND_TYPE_TAG(BOOL)
NNHAL_OPERAND_TYPE_TAG(TENSOR_QUANT16_SYMM)
NNHAL_OPERAND_TYPE_TAG(TENSOR_FLOAT16)
NNHAL_OPERAND_TYPE_TAG(TENSOR_BOOL8)
NNHAL_OPERAND_TYPE_TAG(FLOAT16)
NNHAL_OPERAND_TYPE_TAG(TENSOR_QUANT8_SYMM_PER_CHANNEL)
NNHAL_OPERAND_TYPE_TAG(TENSOR_QUANT16_ASYMM)
NNHAL_OPERAND_TYPE_TAG(TENSOR_QUANT8_SYMM)
NNHAL_OPERAND_TYPE_TAG(TENSOR_QUANT8_ASYMM_SIGNED)
NNHAL_OPERAND_TYPE_TAG(SUBGRAPH)
NNHAL_OPERAND_TYPE_TAG(OEM)
NNHAL_OPERAND_TYPE_TAG(TENSOR_OEM_BYTE)
#undef NNHAL_OPERAND_TYPE_TAG

/// The tag naming operand type T (`types::TENSOR_INT32`).
template <OperandType T>
using operand_type_name = typename operand_type_tag<T>::type;

template <OperationType Op>
struct operation_tag {
  using type = operations::operation_code<static_cast<std::int32_t>(Op)>;
};
#define NNHAL_OPERATION_TAG(name, code)                \
  template <>                                          \
  struct operation_tag<OperationType::name> {          \
    using type = operations::name;                     \
  };
NNHAL_OPERATION_TYPES(NNHAL_OPERATION_TAG)
#undef NNHAL_OPERATION_TAG

/// The tag naming operation Op (`operations::ADD`).
template <OperationType Op>
using operation_name = typename operation_tag<Op>::type;

}  // namespace nnhal::detail
