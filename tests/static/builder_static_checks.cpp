// Compile-time promises of the typed builder (nnhal/builder/): handle types carry their
// subgraph, subgraph handles their input and output types, and the closest-signature analysis
// behind the type-error messages picks the position and type a user would fix. This file only
// has to compile; what must not compile is in tests/compile_fail/.
#include <tuple>
#include <type_traits>

#include "nnhal/builder/builder.hpp"

namespace {
using nnhal::OperandRef;
using nnhal::OperandType;
using nnhal::OperationType;
namespace d = nnhal::detail;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
struct Body;
struct Branch;

// A handle without a tag is the main subgraph's; handles of different subgraphs are unrelated
// types (neither converts to the other).
static_assert(std::is_same_v<OperandRef<F32>, OperandRef<F32, nnhal::MainGraph>>);
static_assert(!std::is_convertible_v<OperandRef<F32, Body>, OperandRef<F32>>);
static_assert(!std::is_convertible_v<OperandRef<F32>, OperandRef<F32, Body>>);
static_assert(!std::is_convertible_v<OperandRef<F32, Body>, OperandRef<F32, Branch>>);
static_assert(!std::is_convertible_v<OperandRef<F32, Body>, OperandRef<I32, Body>>);

// A subgraph handle's types, and the typed outputs IF / WHILE give in a subgraph G.
using Loop = nnhal::SubgraphRef<Body, nnhal::In<I32, F32, I32>, nnhal::Out<I32, F32>>;
static_assert(Loop::inputs.size() == 3 && Loop::outputs.size() == 2);
static_assert(std::is_same_v<Loop::output_refs<Branch>, std::tuple<OperandRef<I32, Branch>, OperandRef<F32, Branch>>>);
static_assert(std::is_same_v<Loop::output_refs<nnhal::MainGraph, 1>, std::tuple<OperandRef<I32>>>);
static_assert(nnhal::TypedSubgraph<Loop> && !nnhal::TypedSubgraph<OperandRef<F32>>);
static_assert(d::while_output_count(nnhal::kAllOutputs, 2) == 2 && d::while_output_count(1, 2) == 1);

// Operand types and operations are named by tag types (what diagnostics print).
static_assert(std::is_same_v<d::operand_type_name<I32>, nnhal::types::TENSOR_INT32>);
static_assert(std::is_same_v<d::operand_type_name<B8>, nnhal::types::TENSOR_BOOL8>);
static_assert(std::is_same_v<d::operand_type_name<OperandType{0x10003}>, nnhal::types::operand_type_code<0x10003>>);
static_assert(std::is_same_v<d::operation_name<OperationType::WHILE>, nnhal::operations::WHILE>);

// An extension code is not mistaken for the built-in type with the same low byte.
static_assert(!d::table_accepts<OperationType::ADD>(
    std::array<OperandType, 3>{OperandType{0x10003}, OperandType{0x10003}, OperandType::INT32}, OperandType{0x10003}));

// The closest signature: ADD(QA8, F32, INT32) -> F32 differs from ADD(QA8, QA8, INT32) first at
// input 1 (more leading inputs match than for the float signature).
constexpr auto add_miss = d::closest_signature_miss<OperationType::ADD>(
    std::array<OperandType, 3>{QA8, F32, OperandType::INT32}, F32);
static_assert(add_miss.kind == d::SignatureMiss::kInputType && add_miss.position == 1 &&
              add_miss.expected == static_cast<int>(QA8));
// Every input matches a signature, the output does not: the output is named.
constexpr auto out_miss = d::closest_signature_miss<OperationType::ADD>(
    std::array<OperandType, 3>{F32, F32, OperandType::INT32}, I32);
static_assert(out_miss.kind == d::SignatureMiss::kOutputType && out_miss.expected == static_cast<int>(F32));
// No signature of this arity: the nearest arity is named.
constexpr auto count_miss = d::closest_signature_miss<OperationType::ADD>(std::array<OperandType, 2>{F32, F32}, F32);
static_assert(count_miss.kind == d::SignatureMiss::kInputCount && count_miss.expected_count == 3);
}  // namespace
