// Malformed requests (HAL13.md b.8, e.4): every defect must be reported as INVALID_ARGUMENT naming
// the argument ("input 1", "output 0", "pool 2"), by validate_request and by Execution::run, and
// nothing the caller owns may be written outside the output regions. Each SUBCASE starts from a
// valid model + request (model_fixtures.hpp) and breaks exactly one rule.

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "nnhal/interface/node_io.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed::request_suite {

namespace {


/// add_model() with a second output: SUB(0, 1, 2) -> 4.
ModelFixture two_output_model() {
  ModelFixture f = add_model();
  f.model.main.operands.push_back(f32_tensor({2}, kOutput));
  f.model.main.operations.push_back(Operation{OperationType::SUB, {0, 1, 2}, {4}});
  f.model.main.outputIndexes.push_back(4);
  fix_consumers(f.model);
  return f;
}

/// add_model() whose activation is a third main input (INT32 scalar).
ModelFixture scalar_input_model() {
  ModelFixture f = add_model();
  Operand& act = f.model.main.operands[2];
  act.lifetime = kInput;
  act.location = {};
  f.model.main.inputIndexes.push_back(2);
  return f;
}

/// add_request() plus a pool holding the INT32 activation 0 for scalar_input_model().
RequestFixture scalar_input_request() {
  RequestFixture r = add_request();
  const std::uint32_t p = r.add_pool(4);
  r.request.inputs.push_back(RequestFixture::arg(p, 0, 4));
  return r;
}

/// Runs `request` on a fresh execution of `model` (which must prepare).
Status run(const Model& model, const Request& request) {
  auto prepared = PreparedModel::prepare(model);
  REQUIRE_MESSAGE(prepared.has_value(), (prepared ? "" : prepared.error().c_str()));
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  return execution->run(request);
}

std::vector<float> floats_at(const std::byte* p, std::size_t n) {
  std::vector<float> v(n);
  std::memcpy(v.data(), p, n * sizeof(float));
  return v;
}

}  // namespace

// =============================================================================================
// The fixtures are valid and run.
// =============================================================================================

TEST_CASE("malformed request: the fixtures are valid") {
  SUBCASE("ADD") {
    auto m = add_model();
    auto r = add_request();
    CHECK(validate_request(r.request, m.model).has_value());
    Status s = run(m.model, r.request);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().c_str()));
    CHECK(floats_at(r.pool_data(0) + 16, 2) == std::vector<float>{11.0f, 22.0f});
  }
  SUBCASE("CONSTANT_REFERENCE") {
    auto m = constant_reference_model();
    auto r = one_in_one_out_request();
    CHECK(validate_request(r.request, m.model).has_value());
    Status s = run(m.model, r.request);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().c_str()));
    CHECK(floats_at(r.pool_data(0) + 8, 2) == std::vector<float>{2.0f, 4.0f});
  }
  SUBCASE("inputs may overlap each other") {
    auto m = add_model();
    auto r = add_request();
    r.request.inputs[1] = r.request.inputs[0];
    CHECK(validate_request(r.request, m.model).has_value());
  }
  SUBCASE("scalar input") {
    auto m = scalar_input_model();
    auto r = scalar_input_request();
    CHECK(validate_request(r.request, m.model).has_value());
  }
  SUBCASE("request dimensions fill in an unknown input dimension") {
    auto m = add_model();
    m.model.main.operands[0].dimensions = {0};
    auto r = add_request();
    r.request.inputs[0].dimensions = {2};
    CHECK(validate_request(r.request, m.model).has_value());
  }
}

// =============================================================================================
// e.4.1 Counts
// =============================================================================================

TEST_CASE("malformed request: argument counts") {
  auto m = add_model();
  auto r = add_request();
  SUBCASE("too few inputs") {
    r.request.inputs.pop_back();
    check_request_invalid(r.request, m.model, {"request has 1 inputs, the model has 2"});
  }
  SUBCASE("too many inputs") {
    r.request.inputs.push_back(r.request.inputs[0]);
    check_request_invalid(r.request, m.model, {"request has 3 inputs, the model has 2"});
  }
  SUBCASE("no outputs") {
    r.request.outputs.clear();
    check_request_invalid(r.request, m.model, {"request has 0 outputs, the model has 1"});
  }
  SUBCASE("too many outputs") {
    r.request.outputs.push_back(RequestFixture::arg(0, 16, 8));
    check_request_invalid(r.request, m.model, {"request has 2 outputs, the model has 1"});
  }
}

// =============================================================================================
// e.4.3 Pools and locations
// =============================================================================================

TEST_CASE("malformed request: pools and locations") {
  auto m = add_model();
  auto r = add_request();
  Request& q = r.request;
  SUBCASE("input pool index out of range") {
    q.inputs[1].location.poolIndex = 1;
    check_request_invalid(q, m.model, {"input 1: poolIndex 1 of 1 pools"});
  }
  SUBCASE("output pool index UINT32_MAX") {
    q.outputs[0].location.poolIndex = 0xFFFFFFFFu;
    check_request_invalid(q, m.model, {"output 0: poolIndex 4294967295 of 1 pools"});
  }
  SUBCASE("no pools at all") {
    q.pools.clear();
    check_request_invalid(q, m.model, {"input 0: poolIndex 0 of 0 pools"});
  }
  SUBCASE("input beyond its pool") {
    q.inputs[0].location.offset = 20;
    check_request_invalid(q, m.model, {"input 0: location [20, +8) exceeds pool 0 of 24 bytes"});
  }
  SUBCASE("input offset + length overflows uint32") {
    q.inputs[1].location = {0, 0xFFFFFFF8u, 16};  // wraps to 8 in 32 bits
    check_request_invalid(q, m.model, {"input 1: location [4294967288, +16) exceeds pool 0"});
  }
  SUBCASE("input length UINT32_MAX") {
    q.inputs[1].location = {0, 8, 0xFFFFFFFFu};
    check_request_invalid(q, m.model, {"input 1", "exceeds pool 0"});
  }
  SUBCASE("output beyond its pool") {
    q.outputs[0].location.offset = 17;
    check_request_invalid(q, m.model, {"output 0: location [17, +8) exceeds pool 0 of 24 bytes"});
  }
  SUBCASE("output offset + length overflows uint32") {
    q.outputs[0].location = {0, 0xFFFFFFFFu, 1};
    check_request_invalid(q, m.model, {"output 0", "exceeds pool 0"});
  }
  SUBCASE("a pool with a size but no memory") {
    q.pools.push_back(RequestMemoryPool{Memory{nullptr, 16}, 0});
    check_request_invalid(q, m.model, {"pool 1 has a size but no memory"});
  }
  SUBCASE("an argument in a pool without memory") {
    q.pools.push_back(RequestMemoryPool{Memory{nullptr, 0}, 0});
    q.inputs[0].location = {1, 0, 0};
    check_request_invalid(q, m.model, {"input 0: pool 1 has no memory"});
  }
  SUBCASE("an argument with offset in a driver-managed buffer") {
    q.pools.push_back(RequestMemoryPool{Memory{}, 5});
    q.inputs[1].location = {1, 8, 0};
    check_request_invalid(q, m.model, {"input 1: an argument in a driver-managed buffer must have offset 0 and length 0"});
  }
  SUBCASE("an argument with length in a driver-managed buffer") {
    q.pools.push_back(RequestMemoryPool{Memory{}, 5});
    q.outputs[0].location = {1, 0, 8};
    check_request_invalid(q, m.model, {"output 0: an argument in a driver-managed buffer"});
  }
  SUBCASE("input buffer not aligned to its elements") {
    q.inputs[0].location = {0, 2, 8};
    check_request_invalid(q, m.model, {"input 0: buffer at offset 2 is not aligned to its 4-byte elements"});
  }
  SUBCASE("output buffer not aligned to its elements") {
    q.outputs[0].location = {0, 15, 8};
    check_request_invalid(q, m.model, {"output 0: buffer at offset 15 is not aligned"});
  }
  SUBCASE("input with offset but length 0 addresses nothing") {
    q.inputs[0].location = {0, 4, 0};
    check_request_invalid(q, m.model, {"input 0: buffer of 0 bytes is smaller than the 8 bytes of its data"});
  }
}

// =============================================================================================
// e.4.2 Omitted arguments
// =============================================================================================

TEST_CASE("malformed request: omitted arguments") {
  auto m = add_model();
  auto r = add_request();
  Request& q = r.request;
  SUBCASE("omitted input with an offset") {
    q.inputs[0] = RequestFixture::omitted();
    q.inputs[0].location.offset = 4;
    check_request_invalid(q, m.model, {"input 0: an omitted argument must have an empty location and no dimensions"});
  }
  SUBCASE("omitted input with a pool index") {
    q.inputs[1] = RequestFixture::omitted();
    q.inputs[1].location.poolIndex = 3;
    check_request_invalid(q, m.model, {"input 1: an omitted argument must have an empty location"});
  }
  SUBCASE("omitted input with a length") {
    q.inputs[1] = RequestFixture::omitted();
    q.inputs[1].location.length = 8;
    check_request_invalid(q, m.model, {"input 1: an omitted argument"});
  }
  SUBCASE("omitted input with dimensions") {
    q.inputs[0] = RequestFixture::omitted();
    q.inputs[0].dimensions = {2};
    check_request_invalid(q, m.model, {"input 0: an omitted argument must have an empty location and no dimensions"});
  }
  SUBCASE("omitted output") {
    q.outputs[0] = RequestFixture::omitted();
    check_request_invalid(q, m.model, {"output 0: outputs cannot be omitted"});
  }
  SUBCASE("omitted output with a location") {
    q.outputs[0].hasNoValue = true;
    check_request_invalid(q, m.model, {"output 0: an omitted argument must have an empty location"});
  }
  SUBCASE("omitted input read by an operation that needs it") {
    q.inputs[1] = RequestFixture::omitted();
    check_request_invalid(q, m.model, {"input 1: omitted, but an operation reading it requires a value"});
  }
  SUBCASE("omitted scalar input") {
    auto sm = scalar_input_model();
    auto sr = scalar_input_request();
    sr.request.inputs[2] = RequestFixture::omitted();
    check_request_invalid(sr.request, sm.model, {"input 2: omitted, but an operation reading it requires a value"});
  }
}

// =============================================================================================
// e.4.4-5 Dimensions
// =============================================================================================

TEST_CASE("malformed request: dimensions") {
  auto m = add_model();
  auto r = add_request();
  Request& q = r.request;
  SUBCASE("input rank differs from the model") {
    q.inputs[0].dimensions = {2, 1};
    check_request_invalid(q, m.model, {"input 0: request gives rank 2, model operand has rank 1"});
  }
  SUBCASE("input dimension conflicts with the model") {
    q.inputs[1].dimensions = {3};
    check_request_invalid(q, m.model, {"input 1: request dimension 0 is 3, model operand has 2"});
  }
  SUBCASE("output rank differs from the model") {
    q.outputs[0].dimensions = {1, 2};
    check_request_invalid(q, m.model, {"output 0: request gives rank 2, model operand has rank 1"});
  }
  SUBCASE("output dimension conflicts with the model") {
    q.outputs[0].dimensions = {4};
    check_request_invalid(q, m.model, {"output 0: request dimension 0 is 4, model operand has 2"});
  }
  SUBCASE("0 in input dimensions") {
    m.model.main.operands[0].dimensions = {0};
    q.inputs[0].dimensions = {0};
    check_request_invalid(q, m.model, {"input 0: request dimension 0 is 0"});
  }
  SUBCASE("0 in input dimensions where the model knows the dimension") {
    q.inputs[0].dimensions = {0};
    check_request_invalid(q, m.model, {"input 0: request dimension 0 is 0"});
  }
  SUBCASE("unknown input dimension and no request dimensions") {
    m.model.main.operands[1].dimensions = {0};
    check_request_invalid(q, m.model, {"input 1: tensor with unknown dimensions needs dimensions in the request"});
  }
  SUBCASE("unknown input rank and no request dimensions") {
    m.model.main.operands[0].dimensions.clear();
    check_request_invalid(q, m.model, {"input 0: tensor of unknown rank needs dimensions in the request"});
  }
  SUBCASE("scalar argument with dimensions") {
    auto sm = scalar_input_model();
    auto sr = scalar_input_request();
    sr.request.inputs[2].dimensions = {1};
    check_request_invalid(sr.request, sm.model, {"input 2: scalar argument must not have dimensions"});
  }
  SUBCASE("unknown output dimension when unspecified outputs are not allowed (executeFenced)") {
    m.model.main.operands[3].dimensions = {0};
    const RequestValidationOptions fenced{.allow_unspecified_outputs = false};
    CHECK(validate_request(q, m.model).has_value());
    check_request_invalid(q, m.model, {"output 0: tensor with unknown dimensions needs dimensions"}, fenced);
  }
  SUBCASE("unknown output rank when unspecified outputs are not allowed") {
    m.model.main.operands[3].dimensions.clear();
    const RequestValidationOptions fenced{.allow_unspecified_outputs = false};
    check_request_invalid(q, m.model, {"output 0: tensor of unknown rank needs dimensions"}, fenced);
  }
  SUBCASE("0 in output dimensions when unspecified outputs are not allowed") {
    m.model.main.operands[3].dimensions = {0};
    q.outputs[0].dimensions = {0};
    const RequestValidationOptions fenced{.allow_unspecified_outputs = false};
    check_request_invalid(q, m.model, {"output 0: request dimension 0 is 0"}, fenced);
  }
}

// =============================================================================================
// Input buffer sizes
// =============================================================================================

TEST_CASE("malformed request: input buffers smaller than their data") {
  auto m = add_model();
  auto r = add_request();
  Request& q = r.request;
  SUBCASE("declared shape") {
    q.inputs[0].location.length = 4;
    check_request_invalid(q, m.model, {"input 0: buffer of 4 bytes is smaller than the 8 bytes of its data"});
  }
  SUBCASE("shape given by the request") {
    m.model.main.operands[1].dimensions = {0};
    q.inputs[1].dimensions = {4};
    check_request_invalid(q, m.model, {"input 1: buffer of 8 bytes is smaller than the 16 bytes of its data"});
  }
  SUBCASE("huge request dimension") {
    m.model.main.operands[1].dimensions = {0};
    q.inputs[1].dimensions = {0xFFFFFFFFu};
    check_request_invalid(q, m.model, {"input 1: buffer of 8 bytes is smaller"});
  }
  SUBCASE("request shape whose byte size overflows uint64") {
    m.model.main.operands[1].dimensions.clear();
    q.inputs[1].dimensions.assign(8, 0xFFFFFFFFu);
    check_request_invalid(q, m.model, {"input 1: buffer of 8 bytes is smaller"});
  }
  SUBCASE("whole-pool binding of a too small pool") {
    const std::uint32_t p = r.add_pool(4);
    q.inputs[0].location = {p, 0, 0};  // offset 0, length 0: the whole 4-byte pool
    check_request_invalid(q, m.model, {"input 0: buffer of 4 bytes is smaller than the 8 bytes"});
  }
  SUBCASE("scalar input") {
    auto sm = scalar_input_model();
    auto sr = scalar_input_request();
    sr.request.inputs[2].location.length = 2;
    check_request_invalid(sr.request, sm.model, {"input 2: buffer of 2 bytes is smaller than the 4 bytes"});
  }
}

// =============================================================================================
// Output aliasing
// =============================================================================================

TEST_CASE("malformed request: outputs overlapping other memory") {
  SUBCASE("output overlapping another output") {
    auto m = two_output_model();
    RequestFixture r = add_request();
    const std::uint32_t p = r.add_pool(32);
    r.request.outputs = {RequestFixture::arg(p, 0, 8), RequestFixture::arg(p, 4, 8)};
    check_request_invalid(r.request, m.model, {"output 1 overlaps output 0"});
    r.request.outputs = {RequestFixture::arg(p, 0, 8), RequestFixture::arg(p, 8, 8)};
    CHECK(validate_request(r.request, m.model).has_value());
  }
  SUBCASE("two outputs on the same bytes") {
    auto m = two_output_model();
    RequestFixture r = add_request();
    r.request.outputs = {RequestFixture::arg(0, 16, 8), RequestFixture::arg(0, 16, 8)};
    check_request_invalid(r.request, m.model, {"output", "overlaps output"});
  }
  SUBCASE("output overlapping an input") {
    auto m = add_model();
    auto r = add_request();
    r.request.outputs[0].location.offset = 4;  // [4, 12): inputs are at [0, 8) and [8, 16)
    check_request_invalid(r.request, m.model, {"output 0 overlaps input 0"});
  }
  SUBCASE("output on the bytes of an input (in place)") {
    auto m = add_model();
    auto r = add_request();
    r.request.outputs[0].location = r.request.inputs[1].location;
    check_request_invalid(r.request, m.model, {"overlaps", "output 0", "input 1"});
  }
  SUBCASE("output binding a whole pool that holds the inputs") {
    auto m = add_model();
    auto r = add_request();
    r.request.outputs[0].location = {0, 0, 0};
    check_request_invalid(r.request, m.model, {"output 0 overlaps input"});
  }
  SUBCASE("input starting inside an output") {
    auto m = add_model();
    auto r = add_request();
    r.request.outputs[0].location = {0, 0, 8};
    r.request.inputs[0].location = {0, 4, 8};
    check_request_invalid(r.request, m.model, {"input 0 overlaps output 0"});
  }
  SUBCASE("output overlapping an input through another pool aliasing the same memory") {
    auto m = add_model();
    auto r = add_request();
    r.request.pools.push_back(r.request.pools[0]);
    r.request.outputs[0].location = {1, 8, 8};  // = input 1's bytes
    check_request_invalid(r.request, m.model, {"overlaps", "output 0", "input 1"});
  }
}

// =============================================================================================
// The rule for model pools (b.8): only CONSTANT_REFERENCE regions are off limits to outputs;
// inputs may read anywhere.
// =============================================================================================

TEST_CASE("request regions: outputs must avoid constant regions, nothing else of a model pool") {
  auto m = constant_reference_model();  // pool 0 of 32 bytes, operand 1 at [8, 16)
  auto r = one_in_one_out_request();
  r.request.pools.push_back(RequestMemoryPool{m.model.pools[0], 0});  // request pool 1 = model pool 0
  SUBCASE("an output in a model pool outside every constant region is accepted and written") {
    r.request.outputs[0].location = {1, 24, 8};
    CHECK(validate_request(r.request, m.model).has_value());
    Status s = run(m.model, r.request);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().c_str()));
    CHECK(floats_at(m.model.pools[0].data + 24, 2) == std::vector<float>{2.0f, 4.0f});
  }
  SUBCASE("an output on a constant region is rejected, naming the constant") {
    r.request.outputs[0].location = {1, 8, 8};
    check_request_invalid(r.request, m.model, {"output 0 overlaps constant operand 1 of main (model pool 0)"});
  }
  SUBCASE("an output sharing one byte with a constant region is rejected") {
    r.request.outputs[0].location = {1, 4, 8};
    check_request_invalid(r.request, m.model, {"output 0 overlaps constant operand 1 of main"});
  }
  SUBCASE("an output touching a constant region without sharing a byte is accepted") {
    r.request.outputs[0].location = {1, 16, 8};
    CHECK(validate_request(r.request, m.model).has_value());
  }
  SUBCASE("an input on a constant region is accepted (both are only read)") {
    r.request.inputs[0].location = {1, 8, 8};
    CHECK(validate_request(r.request, m.model).has_value());
    Status s = run(m.model, r.request);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().c_str()));
    CHECK(floats_at(r.pool_data(0) + 8, 2) == std::vector<float>{2.0f, 4.0f});  // w + w
  }
  SUBCASE("a constant of a referenced subgraph is protected too") {
    // Move the constant into a referenced subgraph's operand list: only its region matters.
    Operand constant = m.model.main.operands[1];
    m.model.referenced.push_back(Subgraph{});
    m.model.referenced[0].operands.push_back(constant);
    const std::byte* at = m.model.pools[0].data + 8;
    CHECK(error_of(nnhal::detail::check_output_against_constants(m.model, 0, at, 8)).message() ==
          "output 0 overlaps constant operand 1 of main (model pool 0)");
    m.model.main.operands[1].location.offset = 0;  // main's constant elsewhere now
    CHECK(error_of(nnhal::detail::check_output_against_constants(m.model, 0, at, 8)).message() ==
          "output 0 overlaps constant operand 0 of referenced[0] (model pool 0)");
    CHECK(nnhal::detail::check_output_against_constants(m.model, 0, at + 8, 8).has_value());
  }
}

TEST_CASE("request lengths: inputs shorter than their data are rejected, everything else is accepted") {
  auto m = add_model();  // TENSOR_FLOAT32 [2] inputs at [0, 8) and [8, 16), output at [16, 24)
  SUBCASE("an input region shorter than its data: INVALID_ARGUMENT (e.4 rule 3 and the executor's bounds)") {
    auto r = add_request();
    r.request.inputs[1].location.length = 4;
    check_request_invalid(r.request, m.model, {"input 1: buffer of 4 bytes is smaller than the 8 bytes of its data"});
  }
  SUBCASE("an input region longer than its data: accepted (HIDL; the canonical rule 6 is not applied)") {
    RequestFixture r;
    const std::uint32_t p = r.add_pool(64);
    const float in[4] = {1.0f, 2.0f, 10.0f, 20.0f};
    std::memcpy(r.pool_data(p), in, sizeof in);
    r.request.inputs = {RequestFixture::arg(p, 0, 16), RequestFixture::arg(p, 8, 8)};
    r.request.outputs = {RequestFixture::arg(p, 32, 8)};
    CHECK(validate_request(r.request, m.model).has_value());
    Status s = run(m.model, r.request);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().c_str()));
    CHECK(floats_at(r.pool_data(p) + 32, 2) == std::vector<float>{11.0f, 22.0f});
  }
  SUBCASE("an output region longer than its data: accepted, and only the data is written") {
    RequestFixture r = add_request();
    const std::uint32_t p = r.add_pool(32, std::byte{0x5A});
    r.request.outputs = {RequestFixture::arg(p, 0, 32)};
    CHECK(validate_request(r.request, m.model).has_value());
    Status s = run(m.model, r.request);
    REQUIRE_MESSAGE(s.has_value(), (s ? "" : s.error().c_str()));
    CHECK(floats_at(r.pool_data(p), 2) == std::vector<float>{11.0f, 22.0f});
    CHECK(r.pool_data(p)[8] == std::byte{0x5A});
  }
  SUBCASE("an output region shorter than its data: valid, OUTPUT_INSUFFICIENT_SIZE at execution") {
    RequestFixture r = add_request();
    r.request.outputs[0].location.length = 4;
    CHECK(validate_request(r.request, m.model).has_value());
    auto prepared = PreparedModel::prepare(m.model);
    REQUIRE(prepared.has_value());
    auto execution = prepared->create_execution();
    REQUIRE(execution.has_value());
    Status s = execution->run(r.request);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    REQUIRE(execution->output_shapes().size() == 1);
    CHECK(execution->output_shapes()[0].dimensions == std::vector<std::uint32_t>{2});
    CHECK_FALSE(execution->output_shapes()[0].isSufficient);
  }
}

// =============================================================================================
// Through Execution::run: the same errors, nothing written.
// =============================================================================================

TEST_CASE("malformed request: Execution::run rejects invalid requests without writing") {
  auto m = add_model();
  auto prepared = PreparedModel::prepare(m.model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  auto r = add_request();
  std::memset(r.pool_data(0) + 16, 0x5A, 8);
  const std::vector<std::byte> before(r.pool_data(0), r.pool_data(0) + 24);
  SUBCASE("count") {
    r.request.inputs.pop_back();
    check_invalid(execution->run(r.request), {"request has 1 inputs"});
  }
  SUBCASE("location") {
    r.request.inputs[0].location.offset = 0xFFFFFFFFu;
    check_invalid(execution->run(r.request), {"input 0", "exceeds pool 0"});
  }
  SUBCASE("overlap") {
    r.request.outputs[0].location.offset = 8;
    check_invalid(execution->run(r.request), {"overlaps"});
  }
  SUBCASE("dimensions") {
    r.request.inputs[0].dimensions = {7};
    check_invalid(execution->run(r.request), {"input 0: request dimension 0 is 7"});
  }
  CHECK(execution->output_shapes().empty());
  CHECK(std::memcmp(before.data(), r.pool_data(0), before.size()) == 0);
  // The execution is still usable afterwards.
  auto good = add_request();
  CHECK(execution->run(good.request).has_value());
  CHECK(floats_at(good.pool_data(0) + 16, 2) == std::vector<float>{11.0f, 22.0f});
}

TEST_CASE("malformed request: an undersized output buffer is OUTPUT_INSUFFICIENT_SIZE, not invalid") {
  auto m = add_model();
  auto r = add_request();
  constexpr std::size_t kGuard = 64;
  const std::uint32_t out_pool = r.add_pool(4 + kGuard, std::byte{0xAB});
  r.request.outputs[0] = RequestFixture::arg(out_pool, 0, 4);  // needs 8 bytes
  CHECK(validate_request(r.request, m.model).has_value());

  auto prepared = PreparedModel::prepare(m.model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  const std::vector<std::byte> inputs_before(r.pool_data(0), r.pool_data(0) + 16);
  Status s = execution->run(r.request);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  REQUIRE(execution->output_shapes().size() == 1);
  CHECK(execution->output_shapes()[0].dimensions == std::vector<std::uint32_t>{2});
  CHECK_FALSE(execution->output_shapes()[0].isSufficient);
  for (std::size_t i = 4; i < 4 + kGuard; ++i) {
    INFO("guard byte " << i);
    CHECK(r.pool_data(out_pool)[i] == std::byte{0xAB});
  }
  CHECK(std::memcmp(inputs_before.data(), r.pool_data(0), inputs_before.size()) == 0);

  SUBCASE("whole-pool binding of a too small pool") {
    r.request.outputs[0] = RequestFixture::arg(out_pool, 0, 0);
    const std::uint32_t tiny = r.add_pool(4, std::byte{0xCD});
    r.request.outputs[0] = RequestFixture::arg(tiny, 0, 0);
    Status t = execution->run(r.request);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().status() == ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
    REQUIRE(execution->output_shapes().size() == 1);
    CHECK_FALSE(execution->output_shapes()[0].isSufficient);
  }
  SUBCASE("a sufficient buffer afterwards succeeds") {
    auto good = add_request();
    CHECK(execution->run(good.request).has_value());
    REQUIRE(execution->output_shapes().size() == 1);
    CHECK(execution->output_shapes()[0].isSufficient);
  }
}

TEST_CASE("malformed request: validation and execution leave inputs and the request untouched") {
  auto m = add_model();
  auto r = add_request();
  const Request copy = r.request;
  const std::vector<std::byte> inputs_before(r.pool_data(0), r.pool_data(0) + 16);
  CHECK(validate_request(r.request, m.model).has_value());
  CHECK(run(m.model, r.request).has_value());
  CHECK(std::memcmp(inputs_before.data(), r.pool_data(0), inputs_before.size()) == 0);
  CHECK(r.request.inputs.size() == copy.inputs.size());
  CHECK(r.request.pools[0].memory.data == copy.pools[0].memory.data);
  CHECK(r.request.outputs[0].location.offset == copy.outputs[0].location.offset);
}

// =============================================================================================
// Scale: no quadratic blow-up.
// =============================================================================================

TEST_CASE("malformed request: 50000 outputs validate in n log n") {
  constexpr std::uint32_t kOutputs = 50000;
  ModelFixture f;
  Model& m = f.model;
  const std::uint32_t act = append_value(m, std::int32_t{0});
  m.main.operands.push_back(f32_tensor({2}, kInput));
  m.main.operands.push_back(copy_constant(OperandType::INT32, {}, act, 4));
  for (std::uint32_t i = 0; i < kOutputs; ++i) {
    m.main.operands.push_back(f32_tensor({2}, kOutput));
    m.main.operations.push_back(Operation{OperationType::ADD, {0, 0, 1}, {i + 2}});
    m.main.outputIndexes.push_back(i + 2);
  }
  m.main.inputIndexes = {0};
  fix_consumers(m);

  RequestFixture r;
  const std::uint32_t p = r.add_pool(8 * (kOutputs + 1));
  r.request.inputs = {RequestFixture::arg(p, 8 * kOutputs, 8)};
  // Outputs in reverse address order, so the overlap check has to sort.
  for (std::uint32_t i = 0; i < kOutputs; ++i)
    r.request.outputs.push_back(RequestFixture::arg(p, 8 * (kOutputs - 1 - i), 8));

  const auto start = std::chrono::steady_clock::now();
  check_model_valid(m);
  CHECK(validate_request(r.request, m).has_value());
  // One overlap among 50000 outputs is found.
  r.request.outputs[kOutputs / 2].location.offset += 4;
  check_request_invalid(r.request, m, {"overlaps"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 10.0);
}

}  // namespace nnhal::test::malformed::request_suite
