// A counting allocator proves that executing a prepared model whose operands all have known
// sizes, WHILE loops included, allocates nothing: every buffer is reserved when the Execution
// is created.
#include <doctest/doctest.h>

#include <vector>

#include "control_flow_models.hpp"
#include "../support/counting_allocator.hpp"
#include "nnhal/exec/prepared_model.hpp"

namespace {
using nnhal::test::allocations_during;

struct Counter {
  nnhal::PreparedModel prepared;
  nnhal::Execution<nnhal::ManualClock> execution;
  std::int32_t io[3] = {0, 0, 0};
  nnhal::Request request;

  explicit Counter(const nnhal::Model& model)
      : prepared(*nnhal::PreparedModel::prepare(model)),
        execution(*prepared.create_execution<nnhal::ManualClock>()) {
    request.pools.push_back({{reinterpret_cast<std::byte*>(io), sizeof io}, 0});
    request.inputs = {{false, {0, 0, 4}, {}}, {false, {0, 4, 4}, {}}};
    request.outputs = {{false, {0, 8, 4}, {}}};
  }
  bool run(std::int32_t limit) {
    io[0] = 0;
    io[1] = limit;
    return execution.run(request).has_value() && io[2] == limit;
  }
};
}  // namespace

TEST_CASE("the counting allocator sees allocations") {
  // A vector's growth cannot be elided the way a plain new/delete pair may be.
  std::vector<int> v;
  CHECK(allocations_during([&] { v.reserve(1000); }) == 1);
}

TEST_CASE("a WHILE loop over operands of known size allocates nothing while it executes") {
  Counter c(nnhal::test::cf::while_counter_model());
  REQUIRE(c.run(3));  // first execution
  bool ok = true;
  CHECK(allocations_during([&] { ok = c.run(1); }) == 0);
  CHECK(allocations_during([&] { ok = ok && c.run(100'000); }) == 0);
  CHECK(ok);
}

TEST_CASE("an IF execution allocates nothing") {
  Counter c(nnhal::test::cf::if_model());
  REQUIRE(c.execution.run(c.request).has_value());
  CHECK(allocations_during([&] { (void)c.execution.run(c.request); }) == 0);
}
