// libFuzzer target: arbitrary bytes -> a Model + Request -> validate_model, supported_operations,
// and, when the model is valid, PreparedModel::prepare + create_execution + run (twice).
//
// The decoder is structure-aware: it builds a mostly valid model from the operation table
// (operations with one of their signatures, operands of the right types, constants filled from
// the input) and then applies a few field mutations with "interesting" values, so that inputs
// reach every validation rule as well as the executor. Sizes are bounded.
//
// Oracles besides the sanitizers:
//   * every validation failure is INVALID_ARGUMENT with a non-empty message;
//   * validate_model, supported_operations and prepare agree on validity;
//   * nothing the caller owns changes: the model (operandValues, pools), the request's input
//     bytes and every request byte outside the output regions.
//
// Build (clang only): configure with -DCMAKE_CXX_COMPILER=clang++ -DNNHAL_BUILD_FUZZ=ON and
// build nnhal_fuzz_validate_fuzz, or by hand:
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
//     -DHWY_DISABLE_PCLMUL_AES -I include -I <boost, range-v3, highway include dirs>
//     tests/fuzz/validate_fuzz.cpp -o validate_fuzz
// Run:   ASAN_OPTIONS=allocator_may_return_null=1 ./validate_fuzz -max_total_time=150
//          -rss_limit_mb=4096 corpus/
// Options:
//   NNHAL_FUZZ_DUMP (environment)        print the decoded model, request and results, to turn
//       a crash input into a regression test (tests/validate/malformed_regressions.cpp);
//   NNHAL_FUZZ_SEED_DIR (environment)    write a seed corpus into that folder and exit (see
//       write_seeds; tools/fuzz.sh does this before each campaign);
//   NNHAL_FUZZ_REPLAY_MAIN (macro)       build a plain executable (any compiler, no libFuzzer)
//       that runs the files named on its command line through the same code.
// The decoding depends on the operation table (which operations have kernels), so a crash
// input is only meaningful for the tree it was found on: keep the regression test, not the
// bytes.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/nnhal.hpp"  // AllKernels compiled once, in nnhal_fuzz_default_kernels
#include "nnhal/ops/registry.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"
#include "nnhal/validate/support.hpp"

namespace {

using namespace nnhal;

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "validate_fuzz: check failed: %s (line %d)\n", #cond, __LINE__); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (false)

/// Draws numbers from the fuzzer's bytes; yields zeros once they run out.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  std::uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | u8();
    return v;
  }
  /// A value in [0, bound) (bound > 0).
  std::uint32_t below(std::uint32_t bound) {
    if (bound <= 1) return 0;
    const std::uint32_t v = bound <= 256 ? u8() : (static_cast<std::uint32_t>(u8()) << 8 | u8());
    return v % bound;
  }
  /// True with probability about 1/n.
  bool one_in(std::uint32_t n) { return below(n) == 0; }
  bool empty() const { return n_ == 0; }

  /// A boundary-heavy 32-bit value.
  std::uint32_t interesting_u32() {
    static constexpr std::uint32_t kValues[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 255, 256, 65535, 65536,
                                                0x3FFFFFFF, 0x40000000, 0x7FFFFFFF, 0x80000000,
                                                0xFFFFFFF8, 0xFFFFFFFE, 0xFFFFFFFF};
    if (one_in(4)) return u32();
    return kValues[below(sizeof kValues / sizeof kValues[0])];
  }
  float interesting_float() {
    static constexpr float kValues[] = {0.0f, 1.0f, 0.5f, 0.25f, 0.125f, 2.0f, -1.0f, -0.0f,
                                        1e-30f, 1e30f, std::numeric_limits<float>::infinity(),
                                        std::numeric_limits<float>::quiet_NaN(),
                                        std::numeric_limits<float>::denorm_min()};
    return kValues[below(sizeof kValues / sizeof kValues[0])];
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

constexpr std::size_t kMaxOperandValues = 4096;
constexpr std::size_t kModelPoolSize = 256;

/// A model under construction plus the memory its pools point into.
struct ModelBox {
  Model model;
  std::vector<std::unique_ptr<std::byte[]>> pool_storage;
  std::vector<std::size_t> pool_used;
};

std::uint64_t byte_size(OperandType type, std::span<const std::uint32_t> dims) {
  if (!is_tensor(type)) return element_size(type);
  if (dims.empty()) return 0;
  std::uint64_t n = element_size(type);
  for (std::uint32_t d : dims) {
    n *= d;
    if (n > (1u << 20)) return UINT64_MAX;
  }
  return n;
}

/// Quantization parameters that are valid for `type`.
void set_valid_quant(Reader& r, Operand& op) {
  op.scale = 0.0f;
  op.zeroPoint = 0;
  switch (op.type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      op.scale = 0.5f * static_cast<float>(1 + r.below(4));
      op.zeroPoint = static_cast<std::int32_t>(r.below(256));
      break;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      op.scale = 0.5f * static_cast<float>(1 + r.below(4));
      op.zeroPoint = static_cast<std::int32_t>(r.below(256)) - 128;
      break;
    case OperandType::TENSOR_QUANT16_ASYMM:
      op.scale = 0.125f;
      op.zeroPoint = static_cast<std::int32_t>(r.below(65536));
      break;
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      op.scale = 0.25f * static_cast<float>(1 + r.below(4));
      break;
    case OperandType::TENSOR_INT32:
      if (r.one_in(2)) op.scale = 0.25f * static_cast<float>(r.below(4));
      break;
    default: break;
  }
}

nnhal::Vector<std::uint32_t> random_dims(Reader& r, bool constant) {
  nnhal::Vector<std::uint32_t> dims;
  const std::uint32_t rank = constant ? 1 + r.below(4) : r.below(5);
  for (std::uint32_t i = 0; i < rank; ++i) {
    std::uint32_t d = 1 + r.below(4);
    if (!constant && r.one_in(6)) d = 0;
    dims.push_back(d);
  }
  return dims;
}

/// Appends the bytes of a constant of `size` bytes to operandValues or a model pool and sets
/// the operand's location. Small scalar constants get small values (valid activations, axes).
void place_constant(Reader& r, ModelBox& box, Operand& op, std::uint64_t size) {
  Model& m = box.model;
  const bool small_scalar = !is_tensor(op.type) && size <= 4;
  auto fill = [&](std::byte* dst) {
    if (small_scalar && !r.one_in(5)) {
      std::memset(dst, 0, static_cast<std::size_t>(size));
      const std::uint8_t v = static_cast<std::uint8_t>(r.below(4));
      if (op.type == OperandType::FLOAT32) {
        const float f = static_cast<float>(v);
        std::memcpy(dst, &f, sizeof f);
      } else {
        dst[0] = static_cast<std::byte>(v);
      }
      return;
    }
    for (std::uint64_t i = 0; i < size; ++i) dst[i] = static_cast<std::byte>(r.u8());
  };
  if (!box.pool_storage.empty() && r.one_in(4)) {
    const std::uint32_t p = r.below(static_cast<std::uint32_t>(box.pool_storage.size()));
    std::size_t at = (box.pool_used[p] + 7) & ~std::size_t{7};
    if (at + size <= kModelPoolSize) {
      fill(box.pool_storage[p].get() + at);
      box.pool_used[p] = at + static_cast<std::size_t>(size);
      op.lifetime = OperandLifeTime::CONSTANT_REFERENCE;
      op.location = {p, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(size)};
      return;
    }
  }
  std::size_t at = (m.operandValues.size() + 7) & ~std::size_t{7};
  if (at + size > kMaxOperandValues) {
    op.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    return;
  }
  m.operandValues.resize(at + static_cast<std::size_t>(size));
  fill(reinterpret_cast<std::byte*>(m.operandValues.data() + at));
  op.lifetime = OperandLifeTime::CONSTANT_COPY;
  op.location = {0, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(size)};
}

/// A new operand of `type` for an operation input: a subgraph input, a constant or omitted.
std::uint32_t new_input_operand(Reader& r, ModelBox& box, Subgraph& sg, OperandType type) {
  Operand op;
  op.type = type;
  const std::uint32_t kind = r.below(10);  // 0-3 input, 4-8 constant, 9 omitted
  const bool constant = kind >= 4 && kind <= 8 && type != OperandType::SUBGRAPH;
  if (is_tensor(type)) op.dimensions = random_dims(r, constant);
  set_valid_quant(r, op);
  if (type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    if (op.dimensions.empty()) op.dimensions = {1 + r.below(3)};
    for (auto& d : op.dimensions) if (d == 0) d = 1;
    SymmPerChannelQuantParams cq;
    cq.channelDim = r.below(static_cast<std::uint32_t>(op.dimensions.size()));
    cq.scales.assign(op.dimensions[cq.channelDim], 0.5f);
    op.channelQuant = cq;
  }
  if (type == OperandType::SUBGRAPH) {
    op.lifetime = OperandLifeTime::SUBGRAPH;
    op.location.offset = r.below(static_cast<std::uint32_t>(box.model.referenced.size() + 1));
  } else if (kind == 9) {
    op.lifetime = OperandLifeTime::NO_VALUE;
  } else if (constant) {
    const std::uint64_t size = byte_size(type, op.dimensions);
    if (size == 0 || size == UINT64_MAX) op.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    else place_constant(r, box, op, size);
  } else {
    op.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  }
  sg.operands.push_back(std::move(op));
  return static_cast<std::uint32_t>(sg.operands.size() - 1);
}

OperandType random_type(Reader& r) {
  static constexpr OperandType kCommon[] = {
      OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
      OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
      OperandType::TENSOR_BOOL8, OperandType::TENSOR_FLOAT16, OperandType::INT32,
      OperandType::FLOAT32, OperandType::BOOL};
  return kCommon[r.below(sizeof kCommon / sizeof kCommon[0])];
}

/// Builds one subgraph: a few operations, each with a signature from the operation table.
void build_subgraph(Reader& r, ModelBox& box, Subgraph& sg) {
  const std::uint32_t n_ops = 1 + r.below(4);
  std::vector<std::uint32_t> produced;  // operands written so far (readable later)
  for (std::uint32_t k = 0; k < n_ops; ++k) {
    OperationType type;
    const std::uint32_t pick = r.below(20);
    if (pick < 14) {
      // An implemented operation, if any (else any code).
      std::vector<OperationType> implemented;
      for (const OperationInfo& info : operation_table())
        if (kernel_table<AllKernels>().find(info.type) != nullptr) implemented.push_back(info.type);
      type = implemented.empty() ? static_cast<OperationType>(r.below(kOperationTypeCount))
                                 : implemented[r.below(static_cast<std::uint32_t>(implemented.size()))];
    } else if (pick < 16) {
      type = r.one_in(2) ? OperationType::IF : OperationType::WHILE;
    } else if (pick < 19) {
      type = static_cast<OperationType>(r.below(kOperationTypeCount));
    } else {
      type = static_cast<OperationType>(static_cast<std::int32_t>(r.interesting_u32()));
    }
    const OperationInfo* info = find_operation(type);
    Operation operation;
    operation.type = type;
    std::vector<OperandType> in_types, out_types;
    if (info != nullptr && !info->signatures.empty()) {
      const Signature& s = info->signatures[r.below(static_cast<std::uint32_t>(info->signatures.size()))];
      const std::size_t n_in = s.inputs.size + (s.inputs.repeat >= 0 ? r.below(3) : 0);
      const std::size_t n_out = s.outputs.size + (s.outputs.repeat >= 0 ? 1 + r.below(2) : 0);
      for (std::size_t i = 0; i < n_in; ++i) {
        const std::uint8_t c = s.inputs.code_at(i, n_in);
        in_types.push_back(c == kAnyTypeCode ? random_type(r) : static_cast<OperandType>(c));
      }
      for (std::size_t i = 0; i < n_out; ++i) {
        const std::uint8_t c = s.outputs.accepts_count(n_out) ? s.outputs.code_at(i, n_out) : kAnyTypeCode;
        out_types.push_back(c == kAnyTypeCode ? random_type(r) : static_cast<OperandType>(c));
      }
      if (type == OperationType::IF && !in_types.empty()) {
        in_types[0] = OperandType::TENSOR_BOOL8;
      }
    } else {
      const std::uint32_t n_in = r.below(5), n_out = r.below(3);
      for (std::uint32_t i = 0; i < n_in; ++i) in_types.push_back(random_type(r));
      for (std::uint32_t i = 0; i < n_out; ++i) out_types.push_back(random_type(r));
    }
    for (OperandType t : in_types) {
      // Reuse an operand of the same type when there is one (chains), else a new one.
      std::uint32_t chosen = UINT32_MAX;
      if (!r.one_in(3)) {
        for (std::size_t tries = 0; tries < 4 && !produced.empty(); ++tries) {
          const std::uint32_t c = produced[r.below(static_cast<std::uint32_t>(produced.size()))];
          if (sg.operands[c].type == t) {
            chosen = c;
            break;
          }
        }
      }
      if (chosen == UINT32_MAX) chosen = new_input_operand(r, box, sg, t);
      if (type == OperationType::IF && operation.inputs.empty() && sg.operands[chosen].type == OperandType::TENSOR_BOOL8)
        sg.operands[chosen].dimensions = {1};
      operation.inputs.push_back(chosen);
    }
    for (OperandType t : out_types) {
      Operand op;
      op.type = t;
      op.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
      if (is_tensor(t)) {
        const std::uint32_t shape = r.below(3);  // unknown rank, unknown dims, random dims
        if (shape == 1) op.dimensions.assign(1 + r.below(4), 0);
        if (shape == 2) op.dimensions = random_dims(r, false);
      }
      set_valid_quant(r, op);
      if (t == OperandType::TENSOR_QUANT8_ASYMM || t == OperandType::TENSOR_QUANT8_ASYMM_SIGNED)
        op.scale = r.one_in(2) ? 4.0f : op.scale;  // satisfies MUL's output scale rule often
      sg.operands.push_back(std::move(op));
      const auto idx = static_cast<std::uint32_t>(sg.operands.size() - 1);
      operation.outputs.push_back(idx);
      produced.push_back(idx);
    }
    // Subgraph inputs of the same type can feed later operations too.
    for (std::uint32_t in : operation.inputs)
      if (sg.operands[in].lifetime == OperandLifeTime::SUBGRAPH_INPUT) produced.push_back(in);
    sg.operations.push_back(std::move(operation));
  }
  // Outputs of the last operation (and some others) become subgraph outputs.
  if (!sg.operations.empty())
    for (std::uint32_t out : sg.operations.back().outputs) sg.operands[out].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  for (std::uint32_t i = 0; i < sg.operands.size(); ++i)
    if (sg.operands[i].lifetime == OperandLifeTime::TEMPORARY_VARIABLE && r.one_in(4))
      sg.operands[i].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  for (std::uint32_t i = 0; i < sg.operands.size(); ++i) {
    if (sg.operands[i].lifetime == OperandLifeTime::SUBGRAPH_INPUT) sg.inputIndexes.push_back(i);
    if (sg.operands[i].lifetime == OperandLifeTime::SUBGRAPH_OUTPUT) sg.outputIndexes.push_back(i);
  }
  for (Operand& op : sg.operands) op.numberOfConsumers = 0;
  for (const Operation& operation : sg.operations)
    for (std::uint32_t in : operation.inputs) ++sg.operands[in].numberOfConsumers;
}


/// A copy of `op` for the other side of an IF/WHILE boundary: same type and quantization,
/// dimensions kept, partly unknown or of unknown rank (all compatible), given lifetime.
Operand boundary_copy(Reader& r, const Operand& op, OperandLifeTime lifetime) {
  Operand c;
  c.type = op.type;
  c.scale = op.scale;
  c.zeroPoint = op.zeroPoint;
  c.channelQuant = op.channelQuant;
  c.lifetime = lifetime;
  c.dimensions = op.dimensions;
  const std::uint32_t how = r.below(6);
  if (how == 0 && c.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) c.dimensions.clear();
  if (how == 1)
    for (auto& d : c.dimensions) d = r.one_in(2) ? 0 : d;
  return c;
}

void finish_subgraph(Subgraph& sg) {
  sg.inputIndexes.clear();
  sg.outputIndexes.clear();
  for (std::uint32_t i = 0; i < sg.operands.size(); ++i) {
    if (sg.operands[i].lifetime == OperandLifeTime::SUBGRAPH_INPUT) sg.inputIndexes.push_back(i);
    if (sg.operands[i].lifetime == OperandLifeTime::SUBGRAPH_OUTPUT) sg.outputIndexes.push_back(i);
  }
  for (Operand& op : sg.operands) op.numberOfConsumers = 0;
  for (const Operation& operation : sg.operations)
    for (std::uint32_t in : operation.inputs)
      if (in < sg.operands.size()) ++sg.operands[in].numberOfConsumers;
}

/// main = IF(c, r_then, r_else, inputs of r_then...) -> outputs of r_then, where referenced[0]
/// is a generic subgraph and referenced[1] a copy of it (the branches share an interface).
void build_if_model(Reader& r, ModelBox& box) {
  Model& m = box.model;
  m.referenced.resize(2);
  build_subgraph(r, box, m.referenced[0]);
  m.referenced[1] = m.referenced[0];
  const Subgraph& branch = m.referenced[0];
  Subgraph& main = m.main;
  Operand cond;
  cond.type = OperandType::TENSOR_BOOL8;
  cond.dimensions = {1};
  cond.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  main.operands.push_back(cond);
  Operand ref;
  ref.type = OperandType::SUBGRAPH;
  ref.lifetime = OperandLifeTime::SUBGRAPH;
  main.operands.push_back(ref);
  ref.location.offset = r.one_in(4) ? 0 : 1;
  main.operands.push_back(ref);
  Operation op{OperationType::IF, {0, 1, 2}, {}};
  for (std::uint32_t in : branch.inputIndexes) {
    main.operands.push_back(boundary_copy(r, branch.operands[in], OperandLifeTime::SUBGRAPH_INPUT));
    op.inputs.push_back(static_cast<std::uint32_t>(main.operands.size() - 1));
  }
  for (std::uint32_t out : branch.outputIndexes) {
    main.operands.push_back(boundary_copy(r, branch.operands[out], OperandLifeTime::SUBGRAPH_OUTPUT));
    op.outputs.push_back(static_cast<std::uint32_t>(main.operands.size() - 1));
  }
  main.operations.push_back(std::move(op));
  finish_subgraph(main);
}

/// main = WHILE(cond, body, carried..., input-only...) with body out_j = ADD(in_j, in_j) or
/// CAST(in_j) and cond = LOGICAL_NOT(constant): zero iterations, or a loop ended by the timeout.
void build_while_model(Reader& r, ModelBox& box) {
  Model& m = box.model;
  m.referenced.resize(2);
  Subgraph& cond = m.referenced[0];
  Subgraph& body = m.referenced[1];
  static constexpr OperandType kTypes[] = {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                                           OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_FLOAT16,
                                           OperandType::TENSOR_BOOL8};
  const std::uint32_t carried = 1 + r.below(2), input_only = r.below(2);
  const std::uint32_t m_out = 1 + r.below(carried);
  std::int32_t act = 0;
  const std::uint32_t act_at = static_cast<std::uint32_t>((m.operandValues.size() + 7) & ~std::size_t{7});
  m.operandValues.resize(act_at + 4);
  std::memcpy(m.operandValues.data() + act_at, &act, 4);
  for (std::uint32_t i = 0; i < carried + input_only; ++i) {
    Operand in;
    in.type = kTypes[r.below(sizeof kTypes / sizeof kTypes[0])];
    in.dimensions = random_dims(r, true);
    set_valid_quant(r, in);
    in.lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    body.operands.push_back(in);
  }
  Operand act_op;
  act_op.type = OperandType::INT32;
  act_op.lifetime = OperandLifeTime::CONSTANT_COPY;
  act_op.location = {0, act_at, 4};
  body.operands.push_back(act_op);
  const auto act_index = static_cast<std::uint32_t>(body.operands.size() - 1);
  for (std::uint32_t i = 0; i < carried; ++i) {
    Operand out = boundary_copy(r, body.operands[i], OperandLifeTime::SUBGRAPH_OUTPUT);
    body.operands.push_back(out);
    const auto o = static_cast<std::uint32_t>(body.operands.size() - 1);
    const OperandType t = body.operands[i].type;
    if (t == OperandType::TENSOR_BOOL8 || r.one_in(3))
      body.operations.push_back(Operation{OperationType::CAST, {i}, {o}});
    else
      body.operations.push_back(Operation{OperationType::ADD, {i, i, act_index}, {o}});
  }
  finish_subgraph(body);

  for (std::uint32_t i : body.inputIndexes) cond.operands.push_back(boundary_copy(r, body.operands[i], OperandLifeTime::SUBGRAPH_INPUT));
  Operand k;
  k.type = OperandType::TENSOR_BOOL8;
  k.dimensions = {1};
  const std::uint32_t k_at = static_cast<std::uint32_t>(m.operandValues.size());
  m.operandValues.push_back(r.one_in(6) ? 0 : 1);  // NOT(1) = false: no iteration
  k.lifetime = OperandLifeTime::CONSTANT_COPY;
  k.location = {0, k_at, 1};
  cond.operands.push_back(k);
  Operand c;
  c.type = OperandType::TENSOR_BOOL8;
  c.dimensions = {1};
  c.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  cond.operands.push_back(c);
  cond.operations.push_back(Operation{OperationType::LOGICAL_NOT,
                                      {static_cast<std::uint32_t>(cond.operands.size() - 2)},
                                      {static_cast<std::uint32_t>(cond.operands.size() - 1)}});
  finish_subgraph(cond);

  Subgraph& main = m.main;
  Operand ref;
  ref.type = OperandType::SUBGRAPH;
  ref.lifetime = OperandLifeTime::SUBGRAPH;
  main.operands.push_back(ref);
  ref.location.offset = 1;
  main.operands.push_back(ref);
  Operation op{OperationType::WHILE, {0, 1}, {}};
  for (std::uint32_t i : body.inputIndexes) {
    main.operands.push_back(boundary_copy(r, body.operands[i], OperandLifeTime::SUBGRAPH_INPUT));
    op.inputs.push_back(static_cast<std::uint32_t>(main.operands.size() - 1));
  }
  for (std::uint32_t j = 0; j < m_out; ++j) {
    main.operands.push_back(boundary_copy(r, body.operands[body.outputIndexes[j]], OperandLifeTime::SUBGRAPH_OUTPUT));
    op.outputs.push_back(static_cast<std::uint32_t>(main.operands.size() - 1));
  }
  main.operations.push_back(std::move(op));
  finish_subgraph(main);
}

/// One random field change somewhere in the model.
void mutate_model(Reader& r, ModelBox& box) {
  Model& m = box.model;
  const std::uint32_t g = r.below(static_cast<std::uint32_t>(m.referenced.size() + 1));
  Subgraph& sg = g == 0 ? m.main : m.referenced[g - 1];
  const std::uint32_t what = r.below(24);
  if (what < 12 && !sg.operands.empty()) {
    Operand& op = sg.operands[r.below(static_cast<std::uint32_t>(sg.operands.size()))];
    switch (what) {
      case 0: op.type = static_cast<OperandType>(r.one_in(2) ? static_cast<std::int32_t>(r.below(18))
                                                           : static_cast<std::int32_t>(r.interesting_u32())); break;
      case 1: op.lifetime = static_cast<OperandLifeTime>(static_cast<std::int32_t>(r.below(9)) - 1); break;
      case 2: if (!op.dimensions.empty()) op.dimensions[r.below(static_cast<std::uint32_t>(op.dimensions.size()))] = r.interesting_u32(); break;
      case 3: if (r.one_in(2)) op.dimensions.push_back(r.interesting_u32()); else if (!op.dimensions.empty()) op.dimensions.pop_back(); break;
      case 4: op.scale = r.interesting_float(); break;
      case 5: op.zeroPoint = static_cast<std::int32_t>(r.interesting_u32()); break;
      case 6: op.location.poolIndex = r.interesting_u32(); break;
      case 7: op.location.offset = r.interesting_u32(); break;
      case 8: op.location.length = r.interesting_u32(); break;
      case 9: op.numberOfConsumers = r.interesting_u32(); break;
      case 10:
        if (op.channelQuant && r.one_in(2)) {
          if (r.one_in(2)) op.channelQuant->channelDim = r.interesting_u32();
          else if (!op.channelQuant->scales.empty()) op.channelQuant->scales[0] = r.interesting_float();
          else op.channelQuant->scales.push_back(0.5f);
        } else if (op.channelQuant) {
          op.channelQuant.reset();
        } else {
          op.channelQuant = SymmPerChannelQuantParams{{0.5f}, 0};
        }
        break;
      default: op.dimensions.clear(); break;
    }
    return;
  }
  if (what < 18 && !sg.operations.empty()) {
    Operation& o = sg.operations[r.below(static_cast<std::uint32_t>(sg.operations.size()))];
    switch (what) {
      case 12: o.type = static_cast<OperationType>(r.one_in(2) ? static_cast<std::int32_t>(r.below(106))
                                                             : static_cast<std::int32_t>(r.interesting_u32())); break;
      case 13: if (!o.inputs.empty()) o.inputs[r.below(static_cast<std::uint32_t>(o.inputs.size()))] = r.one_in(2) ? r.below(static_cast<std::uint32_t>(sg.operands.size() + 1)) : r.interesting_u32(); break;
      case 14: if (!o.outputs.empty()) o.outputs[r.below(static_cast<std::uint32_t>(o.outputs.size()))] = r.one_in(2) ? r.below(static_cast<std::uint32_t>(sg.operands.size() + 1)) : r.interesting_u32(); break;
      case 15: if (r.one_in(2)) o.inputs.push_back(r.below(static_cast<std::uint32_t>(sg.operands.size() + 1))); else if (!o.inputs.empty()) o.inputs.pop_back(); break;
      case 16: if (r.one_in(2)) o.outputs.push_back(r.below(static_cast<std::uint32_t>(sg.operands.size() + 1))); else if (!o.outputs.empty()) o.outputs.pop_back(); break;
      default: std::swap(sg.operations.front(), sg.operations.back()); break;
    }
    return;
  }
  switch (what) {
    case 18: if (!sg.inputIndexes.empty()) sg.inputIndexes[r.below(static_cast<std::uint32_t>(sg.inputIndexes.size()))] = r.interesting_u32(); else sg.inputIndexes.push_back(r.interesting_u32()); break;
    case 19: if (!sg.outputIndexes.empty()) sg.outputIndexes.pop_back(); else sg.outputIndexes.push_back(r.below(static_cast<std::uint32_t>(sg.operands.size() + 1))); break;
    case 20: m.operandValues.resize(r.below(static_cast<std::uint32_t>(m.operandValues.size() + 2))); break;
    case 21: if (!m.pools.empty()) m.pools[r.below(static_cast<std::uint32_t>(m.pools.size()))].size = r.below(kModelPoolSize + 1); break;
    case 22: if (!m.pools.empty()) m.pools.back().data = nullptr; break;
    default: if (!sg.inputIndexes.empty()) sg.inputIndexes.push_back(sg.inputIndexes.front()); break;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

struct RequestBox {
  Request request;
  std::vector<std::unique_ptr<std::byte[]>> storage;
  std::vector<std::size_t> sizes;
};

/// Builds a request for `model`: one region per argument, in 1-3 pools, inputs filled from the
/// fuzzer's bytes, then a few mutations.
void build_request(Reader& r, const Model& model, RequestBox& box) {
  const Subgraph& main = model.main;
  const std::uint32_t n_pools = 1 + r.below(3);
  struct Arg {
    bool output;
    std::uint32_t pool;
    std::uint32_t size;
    RequestArgument arg;
  };
  std::vector<Arg> args;
  std::vector<std::size_t> used(n_pools, 0);
  for (int pass = 0; pass < 2; ++pass) {
    const auto& indexes = pass == 0 ? main.inputIndexes : main.outputIndexes;
    for (std::uint32_t idx : indexes) {
      const Operand* op = idx < main.operands.size() ? &main.operands[idx] : nullptr;
      RequestArgument a;
      std::vector<std::uint32_t> dims = op ? std::vector<std::uint32_t>(op->dimensions.begin(), op->dimensions.end()) : std::vector<std::uint32_t>{};
      if (op && is_tensor(op->type)) {
        bool fill = dims.empty() || r.one_in(4);
        for (std::uint32_t d : dims) fill = fill || d == 0;
        if (fill) {
          if (dims.empty()) dims.assign(1 + r.below(3), 0);
          for (auto& d : dims) if (d == 0) d = 1 + r.below(4);
          if (pass == 0 || r.one_in(2)) a.dimensions = dims;
        }
      }
      std::uint64_t size = op ? byte_size(op->type, dims) : 4;
      if (size == UINT64_MAX || size > 4096) size = 16;
      if (pass == 1 && size == 0) size = 4 * (1 + r.below(16));
      if (pass == 1 && r.one_in(8)) size = r.below(static_cast<std::uint32_t>(size) + 1);  // undersized output
      const std::uint32_t pool = r.below(n_pools);
      std::size_t at = (used[pool] + 7) & ~std::size_t{7};
      if (r.one_in(16)) at += 1 + r.below(3);  // misaligned
      a.location = {pool, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(size)};
      used[pool] = at + static_cast<std::size_t>(size);
      if (pass == 0 && op && op->lifetime == OperandLifeTime::SUBGRAPH_INPUT && r.one_in(12)) {
        a = RequestArgument{};
        a.hasNoValue = true;
      }
      args.push_back({pass == 1, pool, static_cast<std::uint32_t>(size), std::move(a)});
    }
  }
  for (std::uint32_t p = 0; p < n_pools; ++p) {
    const std::size_t size = used[p] + (r.one_in(4) ? r.below(16) : 0);
    box.storage.push_back(std::make_unique<std::byte[]>(size == 0 ? 1 : size));
    box.sizes.push_back(size);
    for (std::size_t i = 0; i < size; ++i) box.storage.back()[i] = static_cast<std::byte>(r.u8());
    box.request.pools.push_back(RequestMemoryPool{Memory{box.storage.back().get(), size}, 0});
  }
  for (Arg& a : args) (a.output ? box.request.outputs : box.request.inputs).push_back(std::move(a.arg));

  const std::uint32_t mutations = r.below(4) == 0 ? 1 + r.below(3) : 0;
  for (std::uint32_t k = 0; k < mutations; ++k) {
    const bool out = r.one_in(2);
    auto& list = out ? box.request.outputs : box.request.inputs;
    const std::uint32_t what = r.below(12);
    if (what < 8 && !list.empty()) {
      RequestArgument& a = list[r.below(static_cast<std::uint32_t>(list.size()))];
      switch (what) {
        case 0: a.hasNoValue = !a.hasNoValue; break;
        case 1: a.location.poolIndex = r.one_in(2) ? r.below(n_pools + 1) : r.interesting_u32(); break;
        case 2: a.location.offset = r.interesting_u32(); break;
        case 3: a.location.length = r.interesting_u32(); break;
        case 4: if (!a.dimensions.empty()) a.dimensions[r.below(static_cast<std::uint32_t>(a.dimensions.size()))] = r.interesting_u32(); else a.dimensions.push_back(r.interesting_u32()); break;
        case 5: a.dimensions.push_back(1 + r.below(4)); break;
        case 6: a.location = list[0].location; break;  // alias with the first argument
        default: a.dimensions.clear(); break;
      }
      continue;
    }
    switch (what) {
      case 8: if (!list.empty()) list.pop_back(); break;
      case 9: box.request.pools[r.below(n_pools)].token = r.interesting_u32(); break;
      case 10: box.request.pools[r.below(n_pools)].memory.data = nullptr; break;
      default: {
        // Shrink a pool (never claim more bytes than were allocated).
        const std::uint32_t p = r.below(n_pools);
        box.request.pools[p].memory.size = r.below(static_cast<std::uint32_t>(box.sizes[p]) + 1);
        break;
      }
    }
  }
}


// ---------------------------------------------------------------------------------------------
// Dumping (NNHAL_FUZZ_DUMP=1 in the environment): the decoded model and request, to turn a
// crash into a regression test.
// ---------------------------------------------------------------------------------------------

bool dump_enabled() {
  static const bool on = std::getenv("NNHAL_FUZZ_DUMP") != nullptr;
  return on;
}

void dump_list(const char* name, std::span<const std::uint32_t> v) {
  std::fprintf(stderr, "%s{", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::fprintf(stderr, "%s%u", i ? ", " : "", v[i]);
  std::fprintf(stderr, "}");
}

void dump_subgraph(const char* name, const Subgraph& sg) {
  std::fprintf(stderr, "%s:\n", name);
  for (std::size_t i = 0; i < sg.operands.size(); ++i) {
    const Operand& o = sg.operands[i];
    std::fprintf(stderr, "  operand %zu: type %d ", i, static_cast<int>(o.type));
    dump_list("dims", o.dimensions);
    std::fprintf(stderr, " consumers %u scale %g zp %d lifetime %d loc {%u, %u, %u}%s\n", o.numberOfConsumers,
                 static_cast<double>(o.scale), o.zeroPoint, static_cast<int>(o.lifetime), o.location.poolIndex,
                 o.location.offset, o.location.length, o.channelQuant ? " channelQuant" : "");
  }
  for (std::size_t k = 0; k < sg.operations.size(); ++k) {
    std::fprintf(stderr, "  operation %zu: type %d ", k, static_cast<int>(sg.operations[k].type));
    dump_list("in", sg.operations[k].inputs);
    dump_list(" out", sg.operations[k].outputs);
    std::fprintf(stderr, "\n");
  }
  dump_list("  inputIndexes", sg.inputIndexes);
  dump_list(" outputIndexes", sg.outputIndexes);
  std::fprintf(stderr, "\n");
}

void dump_model(const Model& m) {
  if (!dump_enabled()) return;
  dump_subgraph("main", m.main);
  for (std::size_t g = 0; g < m.referenced.size(); ++g) {
    char name[48];
    std::snprintf(name, sizeof name, "referenced[%zu]", g);
    dump_subgraph(name, m.referenced[g]);
  }
  std::fprintf(stderr, "operandValues (%zu bytes):", m.operandValues.size());
  for (std::uint8_t b : m.operandValues) std::fprintf(stderr, " %02x", b);
  std::fprintf(stderr, "\npools:");
  for (const Memory& p : m.pools) std::fprintf(stderr, " {%s, %zu}", p.data ? "data" : "null", p.size);
  std::fprintf(stderr, "\n");
}

void dump_request(const Request& q) {
  if (!dump_enabled()) return;
  for (int pass = 0; pass < 2; ++pass) {
    const auto& args = pass == 0 ? q.inputs : q.outputs;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const RequestArgument& a = args[i];
      std::fprintf(stderr, "request %s %zu: %s loc {%u, %u, %u} ", pass == 0 ? "input" : "output", i,
                   a.hasNoValue ? "omitted" : "present", a.location.poolIndex, a.location.offset, a.location.length);
      dump_list("dims", a.dimensions);
      std::fprintf(stderr, "\n");
    }
  }
  for (std::size_t p = 0; p < q.pools.size(); ++p)
    std::fprintf(stderr, "request pool %zu: %s size %zu token %u\n", p, q.pools[p].memory.data ? "data" : "null",
                 q.pools[p].memory.size, q.pools[p].token);
}

void check_invalid_status(const Error& e) {
  FUZZ_CHECK(e.status() == ErrorStatus::INVALID_ARGUMENT);
  FUZZ_CHECK(!e.message().empty());
}

/// Bytes of request pool `p` that an output may write (1) or must keep (0).
std::vector<std::uint8_t> writable_mask(const Request& request, std::size_t p, std::size_t size) {
  std::vector<std::uint8_t> mask(size, 0);
  for (const RequestArgument& a : request.outputs) {
    if (a.hasNoValue || a.location.poolIndex != p) continue;
    std::uint64_t begin = a.location.offset, end = begin + a.location.length;
    if (a.location.offset == 0 && a.location.length == 0) end = size;
    for (std::uint64_t i = begin; i < end && i < size; ++i) mask[i] = 1;
  }
  return mask;
}


/// What the last run_one reached, for choosing seeds.
struct Reached {
  bool executed = false;               ///< a run of a valid request succeeded
  std::vector<OperationType> main_ops;  ///< the operations of main
};
Reached g_reached;

void run_one(const std::uint8_t* data, std::size_t size) {
  g_reached = {};
  Reader r(data, size);
  ModelBox box;
  Model& m = box.model;

  const std::uint32_t n_pools = r.below(3);
  for (std::uint32_t p = 0; p < n_pools; ++p) {
    box.pool_storage.push_back(std::make_unique<std::byte[]>(kModelPoolSize));
    std::memset(box.pool_storage.back().get(), 0, kModelPoolSize);
    box.pool_used.push_back(0);
    m.pools.push_back(Memory{box.pool_storage.back().get(), kModelPoolSize});
  }
  const std::uint32_t shape = r.below(10);
  if (shape < 6) {
    const std::uint32_t n_referenced = r.below(4) == 0 ? 1 + r.below(3) : 0;
    m.referenced.resize(n_referenced);
    build_subgraph(r, box, m.main);
    for (Subgraph& sg : m.referenced) build_subgraph(r, box, sg);
  } else if (shape < 8) {
    build_if_model(r, box);
  } else {
    build_while_model(r, box);
  }
  m.relaxComputationFloat32toFloat16 = r.one_in(2);
  const std::uint32_t mutations = r.below(3) == 0 ? 0 : 1 + r.below(3);
  for (std::uint32_t k = 0; k < mutations; ++k) mutate_model(r, box);

  for (const Operation& op : m.main.operations) g_reached.main_ops.push_back(op.type);
  dump_model(m);
  // Snapshots of everything the caller owns.
  const Model copy = m;
  std::vector<std::vector<std::byte>> pools_before;
  for (const Memory& pool : m.pools)
    pools_before.emplace_back(pool.data, pool.data == nullptr ? pool.data : pool.data + pool.size);

  ValidationOptions options;
  options.allow_runtime_only = r.one_in(2);
  // What this "driver" commits while running: 16 MiB of memory grown at execution time. With
  // the default (1 GiB) a valid model can ask for a legitimately huge computed shape (a RESIZE
  // to a height given at run time), which is bounded but takes longer than libFuzzer's -timeout
  // under ASan; the limit is the driver's tool for that (docs/security.md).
  options.limits.max_dynamic_bytes = std::uint64_t{16} << 20;
  auto version = validate_model(m, options);
  if (dump_enabled()) std::fprintf(stderr, "validate_model: %s\n", version ? "valid" : version.error().c_str());
  if (!version) check_invalid_status(version.error());
  else FUZZ_CHECK(*version <= HalVersion::V1_3);
  auto supported = supported_operations(m, options);
  FUZZ_CHECK(supported.has_value() == version.has_value());
  if (supported) FUZZ_CHECK(supported->size() == m.main.operations.size());
  else check_invalid_status(supported.error());

  if (version) {
    PrepareOptions prepare_options;
    prepare_options.validation = options;
    auto prepared = PreparedModel::prepare(m, prepare_options);
    if (dump_enabled()) std::fprintf(stderr, "prepare: %s\n", prepared ? "ok" : prepared.error().c_str());
    if (prepared && prepared->execution_bytes() <= (std::uint64_t{64} << 20)) {
      RequestBox rb;
      build_request(r, m, rb);
      dump_request(rb.request);
      std::vector<std::vector<std::byte>> request_before;
      for (std::size_t p = 0; p < rb.storage.size(); ++p)
        request_before.emplace_back(rb.storage[p].get(), rb.storage[p].get() + rb.sizes[p]);
      ExecuteOptions<> execute_options;
      execute_options.request.allow_unspecified_outputs = !r.one_in(4);
      execute_options.loop_timeout = std::chrono::milliseconds(1);
      auto valid = validate_request(rb.request, m, execute_options.request);
      if (!valid) check_invalid_status(valid.error());
      auto execution = prepared->create_execution();
      if (execution) {
        for (int round = 0; round < 2; ++round) {
          Status s = execution->run(rb.request, execute_options);
          if (dump_enabled()) std::fprintf(stderr, "run: %s\n", s ? "ok" : s.error().c_str());
          if (!valid) {
            check_invalid_status(s.error());
            FUZZ_CHECK(execution->output_shapes().empty());
          }
          if (s) FUZZ_CHECK(execution->output_shapes().size() == m.main.outputIndexes.size());
          if (s && valid) g_reached.executed = true;
        }
      }
      // Bytes outside the output regions must not change; if the request was invalid, none.
      for (std::size_t p = 0; p < rb.storage.size(); ++p) {
        const std::vector<std::uint8_t> mask =
            valid ? writable_mask(rb.request, p, rb.sizes[p]) : std::vector<std::uint8_t>(rb.sizes[p], 0);
        for (std::size_t i = 0; i < rb.sizes[p]; ++i)
          if (!mask[i] && rb.storage[p][i] != request_before[p][i]) {
            std::fprintf(stderr, "validate_fuzz: request pool %zu byte %zu changed outside every output\n", p, i);
            std::abort();
          }
      }
    }
  }

  // The model, its constants and its pools are unchanged.
  FUZZ_CHECK(m.operandValues == copy.operandValues);
  FUZZ_CHECK(m.main.operands.size() == copy.main.operands.size());
  FUZZ_CHECK(m.referenced.size() == copy.referenced.size());
  for (std::size_t p = 0; p < m.pools.size(); ++p)
    if (m.pools[p].data != nullptr && !pools_before[p].empty())
      FUZZ_CHECK(std::memcmp(pools_before[p].data(), m.pools[p].data, pools_before[p].size()) == 0);
}

/// NNHAL_FUZZ_SEED_DIR=DIR: writes seeds and exits. The decoder maps bytes to models through
/// modulo choices over the operation table, so it has no inverse that would turn a model (of the
/// builder or of ../shared/cts) into its input. Instead the seeds steer its first choices: for
/// each operation with kernels, a main subgraph of that one operation (the bytes that pick it),
/// followed by deterministic pseudo-random bytes, half of them small values, tried until the
/// model is valid and a valid request runs; then a few IF and WHILE models the same way.
void write_seeds() {
  const char* dir = std::getenv("NNHAL_FUZZ_SEED_DIR");
  if (dir == nullptr) return;
  std::uint64_t state = 0x2545F4914F6CDD1Du;
  const auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int written = 0;
  const auto save = [&](const std::vector<std::uint8_t>& bytes) {
    char path[4096];
    std::snprintf(path, sizeof path, "%s/seed_%03d", dir, written);
    std::FILE* f = std::fopen(path, "wb");
    if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
      std::fprintf(stderr, "cannot write %s\n", path);
      std::exit(1);
    }
    std::fclose(f);
    ++written;
  };
  // Tries `prefix` + random tails; saves the first that executes.
  const auto search = [&](std::vector<std::uint8_t> prefix, int tries) {
    const std::size_t fixed = prefix.size();
    for (int t = 0; t < tries; ++t) {
      prefix.resize(fixed + 32 + next() % 224);
      for (std::size_t i = fixed; i < prefix.size(); ++i)
        prefix[i] = static_cast<std::uint8_t>(next() % 2 != 0 ? next() % 8 : next() % 256);
      run_one(prefix.data(), prefix.size());
      if (g_reached.executed) {
        save(prefix);
        return true;
      }
    }
    return false;
  };
  std::uint32_t implemented = 0;
  for (const OperationInfo& info : operation_table())
    if (kernel_table<AllKernels>().find(info.type) != nullptr) ++implemented;
  int operations = 0;
  // Bytes read by run_one and build_subgraph: pools (0), shape (< 6: plain), referenced
  // subgraphs (1: none), operations (0: one), pick (0: an implemented operation), which one.
  for (std::uint32_t i = 0; i < implemented && i < 256; ++i)
    operations += search({0, 0, 1, 0, 0, static_cast<std::uint8_t>(i)}, 3000) ? 1 : 0;
  int control = 0;
  for (std::uint8_t shape : {6, 7, 8, 9})
    for (int k = 0; k < 2; ++k) control += search({0, shape}, 400) ? 1 : 0;
  std::fprintf(stderr, "wrote %d seed(s) to %s (%d of %u operations, %d IF/WHILE models)\n", written, dir,
               operations, implemented, control);
  std::exit(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  write_seeds();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  run_one(data, size);
  return 0;
}

#ifdef NNHAL_FUZZ_REPLAY_MAIN
#include "fuzz/replay_main.hpp"
#endif
