// Table rows of REDUCE_ALL, REDUCE_ANY, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD and REDUCE_SUM
// (operations.md 75..80): {T, axes, keep_dims} types per version and the rank <= 4 rule.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using enum nnhal::OperandType;

namespace {
std::optional<HalVersion> reduce(OperationType op, OperandType t) {
  return lowest_version(op, {t, TENSOR_INT32, BOOL}, {t});
}
}  // namespace

TEST_CASE("REDUCE_ALL / REDUCE_ANY: TENSOR_BOOL8 only") {
  for (OperationType op : {OperationType::REDUCE_ALL, OperationType::REDUCE_ANY}) {
    CHECK(find_operation(op)->inputs.size() == 3);
    CHECK(reduce(op, TENSOR_BOOL8) == HalVersion::V1_2);
    CHECK_FALSE(reduce(op, TENSOR_FLOAT32));
    CHECK_FALSE(lowest_version(op, {TENSOR_BOOL8, TENSOR_INT32, INT32}, {TENSOR_BOOL8}));
  }
}

TEST_CASE("REDUCE_MAX / REDUCE_MIN: F16, F32, QA8 1.2; QAS8 1.3") {
  for (OperationType op : {OperationType::REDUCE_MAX, OperationType::REDUCE_MIN}) {
    CHECK(reduce(op, TENSOR_FLOAT16) == HalVersion::V1_2);
    CHECK(reduce(op, TENSOR_FLOAT32) == HalVersion::V1_2);
    CHECK(reduce(op, TENSOR_QUANT8_ASYMM) == HalVersion::V1_2);
    CHECK(reduce(op, TENSOR_QUANT8_ASYMM_SIGNED) == HalVersion::V1_3);
    CHECK_FALSE(reduce(op, TENSOR_INT32));
    CHECK_FALSE(reduce(op, TENSOR_BOOL8));
  }
}

TEST_CASE("REDUCE_PROD / REDUCE_SUM: F16, F32 only") {
  for (OperationType op : {OperationType::REDUCE_PROD, OperationType::REDUCE_SUM}) {
    CHECK(reduce(op, TENSOR_FLOAT16) == HalVersion::V1_2);
    CHECK(reduce(op, TENSOR_FLOAT32) == HalVersion::V1_2);
    CHECK_FALSE(reduce(op, TENSOR_QUANT8_ASYMM));
    CHECK_FALSE(reduce(op, TENSOR_QUANT8_ASYMM_SIGNED));
  }
}

TEST_CASE("REDUCE_*: a known input rank above 4 is rejected") {
  for (OperationType op :
       {OperationType::REDUCE_ALL, OperationType::REDUCE_SUM, OperationType::REDUCE_MAX}) {
    const OperandType t = op == OperationType::REDUCE_ALL ? TENSOR_BOOL8 : TENSOR_FLOAT32;
    OneOpModel m(op);
    m.in(t, {1, 1, 1, 1, 2});
    m.in(TENSOR_INT32, {1});
    m.in(BOOL);
    m.out(t);
    auto r = m.check();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().status() == ErrorStatus::INVALID_ARGUMENT);
    m.input(0).dimensions = {1, 1, 1, 2};
    CHECK(m.check().value() == HalVersion::V1_2);
  }
}
