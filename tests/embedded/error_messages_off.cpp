// NNHAL_ERROR_MESSAGES=0 (a program of its own, built with that definition: the whole program
// must agree on it, as on every nnhal configuration macro). Errors keep their ErrorStatus and
// lose their text: malformed models and requests, preparation outside the kernel set, a too
// small output and a loop timeout give the same statuses as with messages, the messages are
// empty, and the message arguments are not even evaluated.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/add.hpp"
#include "nnhal/kernels/less.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "nnhal/kernels/while.hpp"
#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"
#include "nnhal_all_public_headers.hpp"  // every public header compiles in this mode too
#include "validate/model_fixtures.hpp"

static_assert(NNHAL_ERROR_MESSAGES == 0, "this program is built with -DNNHAL_ERROR_MESSAGES=0");

namespace nnhal::test::messages_off {
namespace fx = nnhal::test::malformed;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
using Set = KernelSet<Use<OperationType::WHILE>, Use<OperationType::ADD, F32>, Use<OperationType::LESS, F32>>;

/// `result` failed with `status` and an empty message.
template <class E>
void check_failed(const E& result, ErrorStatus status) {
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().status() == status);
  CHECK(result.error().message().empty());
  CHECK(result.error().c_str()[0] == '\0');
}

/// An execution of `model` prepared with Set (it keeps the prepared model alive).
inline Execution<> execution_of(const Model& model) {
  auto prepared = PreparedModel::prepare<Set>(model);
  REQUIRE(prepared.has_value());
  auto execution = prepared->create_execution();
  REQUIRE(execution.has_value());
  return std::move(*execution);
}

int evaluations = 0;
int counted() { return ++evaluations; }
}  // namespace nnhal::test::messages_off

using namespace nnhal;
namespace mo = nnhal::test::messages_off;
namespace fx = nnhal::test::malformed;

TEST_CASE("messages off: an Error is its status") {
  static_assert(sizeof(Error) <= 2 * sizeof(ErrorStatus));
  const Error e = NNHAL_INVALID("operand %d of %s", mo::counted(), "ADD");
  CHECK(e.status() == ErrorStatus::INVALID_ARGUMENT);
  CHECK(e.message().empty());
  CHECK(mo::evaluations == 0);  // the message's arguments are not computed
  Error f = NNHAL_FAILURE("%d", mo::counted());
  f.prefix("context %d", 1);
  CHECK(f.status() == ErrorStatus::GENERAL_FAILURE);
  CHECK(f.message().empty());
  CHECK(mo::evaluations == 0);
  const Error g = Error::format(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT, "%s", "too big");
  CHECK(g.status() == ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT);
  CHECK(Error(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "late").message().empty());
}

TEST_CASE("messages off: malformed models are refused with INVALID_ARGUMENT") {
  SUBCASE("operand index out of range") {
    auto f = fx::add_model();
    f.model.main.operations[0].inputs[1] = 99;
    mo::check_failed(validate_model(f.model), ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("wrong number of inputs") {
    auto f = fx::add_model();
    f.model.main.operations[0].inputs.pop_back();
    mo::check_failed(validate_model(f.model), ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("fused activation out of range") {
    auto f = fx::add_model();
    const std::int32_t seven = 7;
    std::memcpy(f.model.operandValues.data(), &seven, sizeof seven);
    mo::check_failed(validate_model(f.model), ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("WHILE condition refers to a missing subgraph") {
    auto f = fx::while_model();
    f.model.main.operands[2].location.offset = 7;
    mo::check_failed(validate_model(f.model), ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("the same model prepares to the same status") {
    auto f = fx::add_model();
    f.model.main.operations[0].inputs[1] = 99;
    mo::check_failed(PreparedModel::prepare<mo::Set>(f.model), ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE("messages off: an operation outside the kernel set is a GENERAL_FAILURE") {
  auto f = fx::add_model();
  using AddI32Only = KernelSet<Use<OperationType::ADD, OperandType::TENSOR_INT32>, SetRowsOnly>;
  mo::check_failed(PreparedModel::prepare<AddI32Only>(f.model), ErrorStatus::GENERAL_FAILURE);
  using NoAdd = KernelSet<Use<OperationType::LESS, OperandType::TENSOR_FLOAT32>, SetRowsOnly>;
  mo::check_failed(PreparedModel::prepare<NoAdd>(f.model), ErrorStatus::GENERAL_FAILURE);
}

TEST_CASE("messages off: request and execution errors keep their status") {
  auto f = fx::add_model();
  auto execution = mo::execution_of(f.model);

  auto r = fx::add_request();
  REQUIRE(execution.run(r.request).has_value());
  float out[2];
  std::memcpy(out, r.pool_data(0) + 16, sizeof out);
  CHECK(out[0] == 11.0f);
  CHECK(out[1] == 22.0f);

  SUBCASE("an input too many") {
    r.request.inputs.push_back(r.request.inputs[0]);
    mo::check_failed(validate_request(r.request, f.model), ErrorStatus::INVALID_ARGUMENT);
    mo::check_failed(execution.run(r.request), ErrorStatus::INVALID_ARGUMENT);
  }
  SUBCASE("an output region outside its pool") {
    r.request.outputs[0].location.offset = 20;
    mo::check_failed(execution.run(r.request), ErrorStatus::INVALID_ARGUMENT);
  }
}

TEST_CASE("messages off: OUTPUT_INSUFFICIENT_SIZE and the loop timeout") {
  SUBCASE("an output of unknown shape in a buffer too small") {
    auto f = fx::add_model();
    f.model.main.operands[3].dimensions = {0};
    auto execution = mo::execution_of(f.model);
    auto r = fx::add_request();
    r.request.outputs[0].location.length = 4;
    mo::check_failed(execution.run(r.request), ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  }
  SUBCASE("a WHILE loop that does not end") {
    auto f = fx::while_model();
    auto execution = mo::execution_of(f.model);
    fx::RequestFixture r;
    const std::uint32_t p = r.add_pool(12);
    const float in[2] = {0.0f, std::numeric_limits<float>::infinity()};
    std::memcpy(r.pool_data(p), in, sizeof in);
    r.request.inputs = {fx::RequestFixture::arg(p, 0, 4), fx::RequestFixture::arg(p, 4, 4)};
    r.request.outputs = {fx::RequestFixture::arg(p, 8, 4)};
    ExecuteOptions<> options;
    options.loop_timeout = std::chrono::milliseconds(20);
    mo::check_failed(execution.run(r.request, options), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  }
}
