#pragma once
// Test extensions and models for tests/interface/extension.cpp and tests/device/extension.cpp.
//
// `com.example.test_ops` defines two operand types (0: a tensor of 2-byte elements, bfloat16
// here; 1: an 8-byte scalar) and four operations: 0 GELU over TENSOR_FLOAT32 (with a rule:
// rank <= 4), 1 WIDEN from its type 0 to TENSOR_FLOAT32, 2 NARROW from TENSOR_FLOAT32 to its
// type 0, and 3 OPAQUE from type 0 to type 0, validated but without kernels.
// `com.example.other_ops` defines one operand type and no operation.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nnhal/interface/extension.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/common/elementwise.hpp"
#include "nnhal/kernels/mul.hpp"
#include "nnhal/kernels/resolve.hpp"

namespace nnhal::test::ext {

inline constexpr auto F32 = OperandType::TENSOR_FLOAT32;

/// The reference of the GELU kernel, element by element.
inline float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f))); }

struct GeluRow {
  static constexpr std::array<Slot, 1> kInputs{{{"input", Role::Data}}};
  static constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};
  static constexpr std::array<Signature, 1> kSignatures{sig(HalVersion::V1_2, {F32}, {F32})};
  static Status validate(const OperationView& op, HalVersion&) {
    if (auto rank = op.input_rank(0); rank && *rank > 4) return NNHAL_INVALID("input rank %zu is above 4", *rank);
    return {};
  }
  static constexpr OperationInfo info = make_extension_row("GELU", {
      .inputs = kInputs,
      .outputs = kOutputs,
      .signatures = kSignatures,
      .validate = &validate,
      .flags = kOpAllowsZeroSized,
  });
};

struct GeluKernels : KernelFamily {
  static constexpr std::array types{F32};
  static Status infer(const NodeIO& io) { return kernels::elementwise::infer_same_shape(io, "GELU"); }
  static Status run(const NodeIO& io) {
    const auto n = static_cast<std::size_t>(io.input(0).dims.element_count());
    const float* x = io.in_data<F32>(0);
    float* y = io.out_data<F32>(0);
    for (std::size_t i = 0; i < n; ++i) y[i] = gelu(x[i]);
    return {};
  }
  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &run;
  }
};

/// A unary row from `In` to `Out` (local codes for the extension's types) named `Name`.
template <OperandType In, OperandType Out, const char* Name>
struct UnaryRow {
  static constexpr std::array<Slot, 1> kInputs{{{"input", Role::Data}}};
  static constexpr std::array<Slot, 1> kOutputs{{{"output", Role::Data}}};
  static constexpr std::array<Signature, 1> kSignatures{sig(HalVersion::V1_2, {In}, {Out})};
  static constexpr OperationInfo info = make_extension_row(Name, {
      .inputs = kInputs,
      .outputs = kOutputs,
      .signatures = kSignatures,
      .flags = kOpAllowsZeroSized,
  });
};
inline constexpr char kWiden[] = "WIDEN";
inline constexpr char kNarrow[] = "NARROW";
inline constexpr char kOpaque[] = "OPAQUE";
inline constexpr OperandType kBf16 = extension_operand(0);

/// bfloat16 <-> float: the high 16 bits of a float (truncated).
inline std::uint16_t to_bf16(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return static_cast<std::uint16_t>(bits >> 16);
}
inline float from_bf16(std::uint16_t b) {
  const std::uint32_t bits = std::uint32_t{b} << 16;
  float x;
  std::memcpy(&x, &bits, 4);
  return x;
}

/// Kernels of WIDEN (key type: the extension's bfloat16) and NARROW (key type: FLOAT32). Data
/// of an extension type is reached as bytes (no typed view knows its C++ type).
struct WidenKernels : KernelFamily {
  static constexpr std::array types{kBf16};
  static Status infer(const NodeIO& io) { return kernels::elementwise::infer_same_shape(io, "WIDEN"); }
  static Status run(const NodeIO& io) {
    const auto n = static_cast<std::size_t>(io.input(0).dims.element_count());
    const std::byte* in = io.input(0).data;
    float* out = io.out_data<F32>(0);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint16_t b;
      std::memcpy(&b, in + 2 * i, 2);
      out[i] = from_bf16(b);
    }
    return {};
  }
  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &run;
  }
};
struct NarrowKernels : KernelFamily {
  static constexpr std::array types{F32};
  static Status infer(const NodeIO& io) { return kernels::elementwise::infer_same_shape(io, "NARROW"); }
  static Status run(const NodeIO& io) {
    const auto n = static_cast<std::size_t>(io.input(0).dims.element_count());
    const float* in = io.in_data<F32>(0);
    std::byte* out = io.output(0).data;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint16_t b = to_bf16(in[i]);
      std::memcpy(out + 2 * i, &b, 2);
    }
    return {};
  }
  template <OperandType T>
  static Expected<KernelFn> select(const NodeIO&, KernelPrepare&) {
    return &run;
  }
};

struct TestOps {
  static constexpr std::string_view name = "com.example.test_ops";
  static constexpr std::array<Extension::OperandTypeInformation, 2> operand_types{{{0, true, 2}, {1, false, 8}}};
  using operations = ExtensionOperations<ExtensionOp<0, GeluRow, GeluKernels>,
                                         ExtensionOp<1, UnaryRow<kBf16, F32, kWiden>, WidenKernels>,
                                         ExtensionOp<2, UnaryRow<F32, kBf16, kNarrow>, NarrowKernels>,
                                         ExtensionOp<3, UnaryRow<kBf16, kBf16, kOpaque>, NoKernelsYet>>;
};

struct OtherOps {
  static constexpr std::string_view name = "com.example.other_ops";
  static constexpr std::array<Extension::OperandTypeInformation, 1> operand_types{{{3, true, 4}}};
  using operations = ExtensionOperations<>;
};

/// ADD and MUL over float, and both extensions.
using Set = KernelSet<Use<OperationType::ADD, F32>, Use<OperationType::MUL, F32>, UseExtension<TestOps>,
                      UseExtension<OtherOps>>;
/// The same operations without the extensions.
using BuiltinOnly = KernelSet<Use<OperationType::ADD, F32>, Use<OperationType::MUL, F32>>;
/// ADD, MUL and only the second extension.
using OtherOnly = KernelSet<Use<OperationType::ADD, F32>, Use<OperationType::MUL, F32>, UseExtension<OtherOps>>;

inline constexpr std::string_view kTestOps = TestOps::name;

inline Operand operand(OperandType type, OperandLifeTime lifetime, std::uint32_t consumers,
                       nnhal::Vector<std::uint32_t> dims = {4}) {
  Operand op;
  op.type = type;
  op.dimensions = std::move(dims);
  op.lifetime = lifetime;
  op.numberOfConsumers = consumers;
  return op;
}

/// One operation `code` from input operand `in` to output operand `out`; the model maps
/// kTestOps to `prefix`.
inline Model unary_model(std::int32_t code, Operand in, Operand out, std::uint16_t prefix = 1) {
  Model m;
  in.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  in.numberOfConsumers = 1;
  out.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  m.main.operands = {std::move(in), std::move(out)};
  m.main.operations = {{static_cast<OperationType>(code), {0}, {1}}};
  m.main.inputIndexes = {0};
  m.main.outputIndexes = {1};
  m.extensionNameToPrefix = {{std::string(kTestOps), prefix}};
  return m;
}

/// GELU (operation 0 of kTestOps at `prefix`) over 4 floats.
inline Model gelu_model(std::uint16_t prefix = 1) {
  return unary_model(extension_code(prefix, 0), operand(F32, OperandLifeTime::SUBGRAPH_INPUT, 1),
                     operand(F32, OperandLifeTime::SUBGRAPH_OUTPUT, 0), prefix);
}

/// out = GELU(x + y) * z over 4 floats: ADD -> GELU (code `gelu_code`) -> MUL. `map` is the
/// model's extensionNameToPrefix.
inline Model chain_model(std::int32_t gelu_code, nnhal::Vector<ExtensionNameAndPrefix> map) {
  using L = OperandLifeTime;
  Model m;
  Operand none = operand(OperandType::INT32, L::CONSTANT_COPY, 2, {});
  none.location = {0, 0, 4};
  m.operandValues.assign(4, 0);
  m.main.operands = {operand(F32, L::SUBGRAPH_INPUT, 1),     operand(F32, L::SUBGRAPH_INPUT, 1), none,
                     operand(F32, L::TEMPORARY_VARIABLE, 1), operand(F32, L::TEMPORARY_VARIABLE, 1),
                     operand(F32, L::SUBGRAPH_INPUT, 1),     operand(F32, L::SUBGRAPH_OUTPUT, 0)};
  m.main.operations = {{OperationType::ADD, {0, 1, 2}, {3}},
                       {static_cast<OperationType>(gelu_code), {3}, {4}},
                       {OperationType::MUL, {4, 5, 2}, {6}}};
  m.main.inputIndexes = {0, 1, 5};
  m.main.outputIndexes = {6};
  m.extensionNameToPrefix = std::move(map);
  return m;
}

inline Model chain_model() { return chain_model(extension_code(1, 0), {{std::string(kTestOps), 1}}); }

/// out = WIDEN(NARROW(x)) over 4 floats at prefix 1: the middle operand, of the extension's
/// type, is a temporary of the arena.
inline Model round_trip_model() {
  using L = OperandLifeTime;
  Model m;
  m.main.operands = {operand(F32, L::SUBGRAPH_INPUT, 1),
                     operand(static_cast<OperandType>(extension_code(1, 0)), L::TEMPORARY_VARIABLE, 1),
                     operand(F32, L::SUBGRAPH_OUTPUT, 0)};
  m.main.operations = {{static_cast<OperationType>(extension_code(1, 2)), {0}, {1}},
                       {static_cast<OperationType>(extension_code(1, 1)), {1}, {2}}};
  m.main.inputIndexes = {0};
  m.main.outputIndexes = {2};
  m.extensionNameToPrefix = {{std::string(kTestOps), 1}};
  return m;
}

/// The inputs of chain_model() and the output its operations compute from them.
struct ChainData {
  std::vector<float> x{-2.0f, -0.75f, 0.25f, 1.5f};
  std::vector<float> y{0.5f, 0.25f, 0.5f, 0.5f};
  std::vector<float> z{2.0f, -1.0f, 3.0f, 0.5f};
  std::vector<float> expected() const {
    std::vector<float> out(4);
    for (std::size_t i = 0; i < 4; ++i) out[i] = gelu(x[i] + y[i]) * z[i];
    return out;
  }
};

/// A request for chain_model() in one pool: x, y, z, then the output.
struct ChainRequest {
  std::vector<float> pool;
  Request request;
  explicit ChainRequest(const ChainData& d) : pool(16, 0.0f) {
    std::memcpy(pool.data(), d.x.data(), 16);
    std::memcpy(pool.data() + 4, d.y.data(), 16);
    std::memcpy(pool.data() + 8, d.z.data(), 16);
    request.pools.push_back({{reinterpret_cast<std::byte*>(pool.data()), pool.size() * sizeof(float)}, 0});
    request.inputs = {{false, {0, 0, 16}, {}}, {false, {0, 16, 16}, {}}, {false, {0, 32, 16}, {}}};
    request.outputs = {{false, {0, 48, 16}, {}}};
  }
  std::vector<float> output() const { return {pool.begin() + 12, pool.end()}; }
};

}  // namespace nnhal::test::ext
