#pragma once
/// \file
/// Small, valid models and requests that the malformed-input suites start from: each test takes
/// one of these, breaks exactly one rule, and checks the error. The fixtures own the memory
/// their pools point into, so they are movable but not copyable. Everything lives in
/// nnhal::test::malformed and the suites use no using-directives, so they stay correct when
/// CMake batches test files into one translation unit (unity build).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "nnhal/core/result.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/model/model.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"

namespace nnhal::test::malformed {

inline constexpr auto kInput = OperandLifeTime::SUBGRAPH_INPUT;
inline constexpr auto kOutput = OperandLifeTime::SUBGRAPH_OUTPUT;

// ---------------------------------------------------------------------------------------------
// Operand builders
// ---------------------------------------------------------------------------------------------

inline Operand make_operand(OperandType type, nnhal::Vector<std::uint32_t> dims,
                            OperandLifeTime lifetime = OperandLifeTime::TEMPORARY_VARIABLE) {
  Operand op;
  op.type = type;
  op.dimensions.assign(dims.begin(), dims.end());
  op.lifetime = lifetime;
  return op;
}

inline Operand f32_tensor(nnhal::Vector<std::uint32_t> dims,
                          OperandLifeTime lifetime = OperandLifeTime::TEMPORARY_VARIABLE) {
  return make_operand(OperandType::TENSOR_FLOAT32, std::move(dims), lifetime);
}

/// A CONSTANT_COPY operand at `offset` in operandValues (its length is its data size).
inline Operand copy_constant(OperandType type, nnhal::Vector<std::uint32_t> dims, std::uint32_t offset,
                             std::uint32_t length) {
  Operand op = make_operand(type, std::move(dims), OperandLifeTime::CONSTANT_COPY);
  op.location = {0, offset, length};
  return op;
}

/// A SUBGRAPH operand naming Model::referenced[index].
inline Operand subgraph_ref(std::uint32_t index) {
  Operand op = make_operand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  op.location = {0, index, 0};
  return op;
}

/// Recomputes Operand::numberOfConsumers of every operand of `sg` from its operations.
inline void fix_consumers(Subgraph& sg) {
  for (Operand& op : sg.operands) op.numberOfConsumers = 0;
  for (const Operation& operation : sg.operations)
    for (std::uint32_t in : operation.inputs)
      if (in < sg.operands.size()) ++sg.operands[in].numberOfConsumers;
}

inline void fix_consumers(Model& model) {
  fix_consumers(model.main);
  for (Subgraph& sg : model.referenced) fix_consumers(sg);
}

/// Appends `bytes` bytes of `value` to operandValues; returns the offset.
template <class T>
std::uint32_t append_value(Model& model, const T& value) {
  const auto at = static_cast<std::uint32_t>(model.operandValues.size());
  model.operandValues.resize(at + sizeof(T));
  std::memcpy(model.operandValues.data() + at, &value, sizeof(T));
  return at;
}

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

/// A model plus the memory its CONSTANT_REFERENCE pools point into.
struct ModelFixture {
  Model model;
  std::vector<std::unique_ptr<std::byte[]>> storage;

  /// Adds a model pool of `size` bytes filled with `fill`; returns its index.
  std::uint32_t add_pool(std::size_t size, std::byte fill = std::byte{0}) {
    storage.push_back(std::make_unique<std::byte[]>(size));
    std::memset(storage.back().get(), static_cast<int>(fill), size);
    model.pools.push_back(Memory{storage.back().get(), size});
    return static_cast<std::uint32_t>(model.pools.size() - 1);
  }
};

/// main: operand 0 in0 [2] (input), 1 in1 [2] (input), 2 activation INT32 (CONSTANT_COPY 0),
/// 3 out [2] (output); operation 0: ADD(0, 1, 2) -> 3. operandValues = 4 zero bytes.
inline ModelFixture add_model() {
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  m.main.operands = {
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      copy_constant(OperandType::INT32, {}, act, 4),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  m.main.operations = {Operation{OperationType::ADD, {0, 1, 2}, {3}}};
  m.main.inputIndexes = {0, 1};
  m.main.outputIndexes = {3};
  fix_consumers(m);
  return f;
}

/// main: 0 x [2] (input), 1 activation (CONSTANT_COPY), 2 t [2] (temporary), 3 y [2] (output);
/// operation 0: ADD(0, 0, 1) -> 2; operation 1: ADD(2, 0, 1) -> 3.
inline ModelFixture add_chain_model() {
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  m.main.operands = {
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      copy_constant(OperandType::INT32, {}, act, 4),
      f32_tensor({2}),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  m.main.operations = {
      Operation{OperationType::ADD, {0, 0, 1}, {2}},
      Operation{OperationType::ADD, {2, 0, 1}, {3}},
  };
  m.main.inputIndexes = {0};
  m.main.outputIndexes = {3};
  fix_consumers(m);
  return f;
}

/// main: 0 in0 [2] (input), 1 weights [2] (CONSTANT_REFERENCE: pool 0, offset 8, 8 bytes),
/// 2 activation (CONSTANT_COPY), 3 out [2] (output); ADD(0, 1, 2) -> 3. Pool 0 has 32 bytes
/// holding 1.0f, 2.0f at offset 8.
inline ModelFixture constant_reference_model() {
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t pool = f.add_pool(32);
  const float w[2] = {1.0f, 2.0f};
  std::memcpy(f.storage[pool].get() + 8, w, sizeof w);
  const std::uint32_t act = append_value(m, std::int32_t{0});
  Operand weights = f32_tensor({2}, OperandLifeTime::CONSTANT_REFERENCE);
  weights.location = {pool, 8, 8};
  m.main.operands = {
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      weights,
      copy_constant(OperandType::INT32, {}, act, 4),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  m.main.operations = {Operation{OperationType::ADD, {0, 1, 2}, {3}}};
  m.main.inputIndexes = {0};
  m.main.outputIndexes = {3};
  fix_consumers(m);
  return f;
}

/// A referenced subgraph computing `op`(a, a, NONE) -> b on TENSOR_FLOAT32 [2]; the activation
/// constant is at operandValues offset `act`.
inline Subgraph unary_branch(OperationType op, std::uint32_t act) {
  Subgraph sg;
  sg.operands = {
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      copy_constant(OperandType::INT32, {}, act, 4),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  sg.operations = {Operation{op, {0, 0, 1}, {2}}};
  sg.inputIndexes = {0};
  sg.outputIndexes = {2};
  return sg;
}

/// main: 0 cond TENSOR_BOOL8 [1] (input), 1 x [2] (input), 2 then = referenced[0],
/// 3 else = referenced[1], 4 y [2] (output); operation 0: IF(0, 2, 3, 1) -> 4.
/// referenced[0]: ADD(a, a) -> b; referenced[1]: MUL(a, a) -> b.
inline ModelFixture if_model() {
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  m.main.operands = {
      make_operand(OperandType::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      subgraph_ref(0),
      subgraph_ref(1),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  m.main.operations = {Operation{OperationType::IF, {0, 2, 3, 1}, {4}}};
  m.main.inputIndexes = {0, 1};
  m.main.outputIndexes = {4};
  m.referenced = {unary_branch(OperationType::ADD, act), unary_branch(OperationType::MUL, act)};
  fix_consumers(m);
  return f;
}

/// main: 0 x [1] (input), 1 limit [1] (input), 2 cond = referenced[0], 3 body = referenced[1],
/// 4 y [1] (output); operation 0: WHILE(2, 3, 0, 1) -> 4 (m = 1, k = 0, n = 1).
/// referenced[0] (condition): inputs x, limit; LESS(x, limit) -> c (TENSOR_BOOL8 [1]).
/// referenced[1] (body): inputs x, limit; ADD(x, one, NONE) -> x' (output).
inline ModelFixture while_model() {
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  const std::uint32_t one = append_value(m, 1.0f);
  m.main.operands = {
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_INPUT),
      subgraph_ref(0),
      subgraph_ref(1),
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  m.main.operations = {Operation{OperationType::WHILE, {2, 3, 0, 1}, {4}}};
  m.main.inputIndexes = {0, 1};
  m.main.outputIndexes = {4};

  Subgraph cond;
  cond.operands = {
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_INPUT),
      make_operand(OperandType::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  cond.operations = {Operation{OperationType::LESS, {0, 1}, {2}}};
  cond.inputIndexes = {0, 1};
  cond.outputIndexes = {2};

  Subgraph body;
  body.operands = {
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_INPUT),
      copy_constant(OperandType::TENSOR_FLOAT32, {1}, one, 4),
      copy_constant(OperandType::INT32, {}, act, 4),
      f32_tensor({1}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  body.operations = {Operation{OperationType::ADD, {0, 2, 3}, {4}}};
  body.inputIndexes = {0, 1};
  body.outputIndexes = {4};

  m.referenced = {std::move(cond), std::move(body)};
  fix_consumers(m);
  return f;
}

/// A subgraph with inputs c (TENSOR_BOOL8 [1]) and x ([2]) and output y ([2]) computing
/// IF(c, referenced[then_index], referenced[else_index], c, x) -> y. Such subgraphs can refer
/// to each other (chains, cycles).
inline Subgraph if_forwarding_subgraph(std::uint32_t then_index, std::uint32_t else_index) {
  Subgraph sg;
  sg.operands = {
      make_operand(OperandType::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      subgraph_ref(then_index),
      subgraph_ref(else_index),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  sg.operations = {Operation{OperationType::IF, {0, 2, 3, 0, 1}, {4}}};
  sg.inputIndexes = {0, 1};
  sg.outputIndexes = {4};
  fix_consumers(sg);
  return sg;
}

/// The leaf matching if_forwarding_subgraph's interface: inputs c, x; ADD(x, x, NONE) -> y.
inline Subgraph if_forwarding_leaf(std::uint32_t act) {
  Subgraph sg;
  sg.operands = {
      make_operand(OperandType::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_INPUT),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_INPUT),
      copy_constant(OperandType::INT32, {}, act, 4),
      f32_tensor({2}, OperandLifeTime::SUBGRAPH_OUTPUT),
  };
  sg.operations = {Operation{OperationType::ADD, {1, 1, 2}, {3}}};
  sg.inputIndexes = {0, 1};
  sg.outputIndexes = {3};
  fix_consumers(sg);
  return sg;
}

/// main = if_forwarding_subgraph(0, 0); referenced[i] forwards to referenced[i + 1]; the last
/// one is the leaf. `depth` >= 1 referenced subgraphs.
inline ModelFixture if_chain_model(std::uint32_t depth) {
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  m.main = if_forwarding_subgraph(0, 0);
  m.referenced.reserve(depth);
  for (std::uint32_t i = 0; i + 1 < depth; ++i) m.referenced.push_back(if_forwarding_subgraph(i + 1, i + 1));
  m.referenced.push_back(if_forwarding_leaf(act));
  return f;
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/// A request plus the memory of its pools.
struct RequestFixture {
  Request request;
  std::vector<std::unique_ptr<std::byte[]>> storage;

  std::uint32_t add_pool(std::size_t size, std::byte fill = std::byte{0}) {
    storage.push_back(std::make_unique<std::byte[]>(size));
    std::memset(storage.back().get(), static_cast<int>(fill), size);
    request.pools.push_back(RequestMemoryPool{Memory{storage.back().get(), size}, 0});
    return static_cast<std::uint32_t>(request.pools.size() - 1);
  }
  std::byte* pool_data(std::uint32_t pool) const { return storage[pool].get(); }
  static RequestArgument arg(std::uint32_t pool, std::uint32_t offset, std::uint32_t length,
                             std::vector<std::uint32_t> dims = {}) {
    RequestArgument a;
    a.location = {pool, offset, length};
    a.dimensions = std::move(dims);
    return a;
  }
  static RequestArgument omitted() {
    RequestArgument a;
    a.hasNoValue = true;
    return a;
  }
};

/// For add_model(): one 24-byte pool; input 0 at [0, 8), input 1 at [8, 16), output at [16, 24).
/// Inputs hold {1, 2} and {10, 20}.
inline RequestFixture add_request() {
  RequestFixture r;
  const std::uint32_t p = r.add_pool(24);
  const float in[4] = {1.0f, 2.0f, 10.0f, 20.0f};
  std::memcpy(r.pool_data(p), in, sizeof in);
  r.request.inputs = {RequestFixture::arg(p, 0, 8), RequestFixture::arg(p, 8, 8)};
  r.request.outputs = {RequestFixture::arg(p, 16, 8)};
  return r;
}

/// A request with one input and one output, each [2] floats, in one 16-byte pool (for
/// add_chain_model() and constant_reference_model()).
inline RequestFixture one_in_one_out_request() {
  RequestFixture r;
  const std::uint32_t p = r.add_pool(16);
  const float in[2] = {1.0f, 2.0f};
  std::memcpy(r.pool_data(p), in, sizeof in);
  r.request.inputs = {RequestFixture::arg(p, 0, 8)};
  r.request.outputs = {RequestFixture::arg(p, 8, 8)};
  return r;
}

// ---------------------------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------------------------

/// The error of a failed Expected / Status (checks that it failed).
template <class E>
const Error& error_of(const E& result) {
  REQUIRE_FALSE(result.has_value());
  return result.error();
}

/// Checks that `result` failed with INVALID_ARGUMENT and that its message contains every
/// fragment of `facts`.
template <class E>
void check_invalid(const E& result, std::initializer_list<std::string_view> facts) {
  REQUIRE_MESSAGE(!result.has_value(), "expected INVALID_ARGUMENT, the input was accepted");
  const Error& e = result.error();
  const std::string message(e.message());
  INFO("message: " << message);
  CHECK(e.status() == ErrorStatus::INVALID_ARGUMENT);
  for (std::string_view fact : facts) {
    INFO("expected fragment: " << std::string(fact));
    CHECK(message.find(fact) != std::string::npos);
  }
}

/// validate_model(model) must fail with INVALID_ARGUMENT naming `facts`.
inline void check_model_invalid(const Model& model, std::initializer_list<std::string_view> facts,
                                const ValidationOptions& options = {}) {
  check_invalid(validate_model(model, options), facts);
}

/// validate_request(request, model) must fail with INVALID_ARGUMENT naming `facts`.
inline void check_request_invalid(const Request& request, const Model& model,
                                  std::initializer_list<std::string_view> facts,
                                  const RequestValidationOptions& options = {}) {
  REQUIRE(validate_model(model).has_value());
  check_invalid(validate_request(request, model, options), facts);
}

/// validate_model must succeed; prints the error otherwise.
inline void check_model_valid(const Model& model, const ValidationOptions& options = {}) {
  auto v = validate_model(model, options);
  INFO("error: " << (v ? std::string("none") : std::string(v.error().message())));
  CHECK(v.has_value());
}

}  // namespace nnhal::test::malformed
