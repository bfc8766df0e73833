// Table rows of the tensor-manipulation and parameterised operations added in HAL 1.2
// (operations.md 39, 40, 46, 50, 51, 57, 64..66, 69..71, 74, 84, 86, 87, 89, 90, 94): input
// forms, accepted types per version, rejected combinations, and the rank limits validate checks.
#include <doctest/doctest.h>

#include "ops/table_test_util.hpp"

using namespace nnhal;
using nnhal::test::lowest_version;
using nnhal::test::OneOpModel;
using nnhal::test::repeat;
using enum nnhal::OperandType;

namespace {
constexpr OperandType kFloatIntQuant[] = {TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_INT32,
                                          TENSOR_QUANT8_ASYMM};
}  // namespace

TEST_CASE("ARGMAX / ARGMIN: {T, INT32} -> TENSOR_INT32") {
  for (OperationType op : {OperationType::ARGMAX, OperationType::ARGMIN}) {
    for (OperandType t : kFloatIntQuant)
      CHECK(lowest_version(op, {t, INT32}, {TENSOR_INT32}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32}, {TENSOR_INT32}) ==
          HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}));
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_INT32}, {TENSOR_INT32}));
    CHECK_FALSE(lowest_version(op, {TENSOR_BOOL8, INT32}, {TENSOR_INT32}));
  }
}

TEST_CASE("MAXIMUM / MINIMUM, POW, PRELU: two same-type inputs") {
  for (OperationType op : {OperationType::MAXIMUM, OperationType::MINIMUM}) {
    for (OperandType t : kFloatIntQuant) CHECK(lowest_version(op, {t, t}, {t}) == HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_ASYMM_SIGNED},
                         {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
    CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, TENSOR_FLOAT16}, {TENSOR_FLOAT32}));
  }
  const auto pow = OperationType::POW;
  CHECK(lowest_version(pow, {TENSOR_FLOAT16, TENSOR_FLOAT16}, {TENSOR_FLOAT16}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(pow, {TENSOR_FLOAT32, TENSOR_FLOAT32}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_2);
  CHECK_FALSE(lowest_version(pow, {TENSOR_INT32, TENSOR_INT32}, {TENSOR_INT32}));
  const auto prelu = OperationType::PRELU;
  CHECK(lowest_version(prelu, {TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM}, {TENSOR_QUANT8_ASYMM}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(prelu, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_QUANT8_ASYMM_SIGNED},
                       {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(prelu, {TENSOR_INT32, TENSOR_INT32}, {TENSOR_INT32}));
}

TEST_CASE("EXPAND_DIMS, GATHER, SELECT, SLICE, TILE, TOPK_V2: parameter types") {
  for (OperandType t : kFloatIntQuant) {
    CHECK(lowest_version(OperationType::EXPAND_DIMS, {t, INT32}, {t}) == HalVersion::V1_2);
    CHECK(lowest_version(OperationType::GATHER, {t, INT32, TENSOR_INT32}, {t}) == HalVersion::V1_2);
    CHECK(lowest_version(OperationType::SELECT, {TENSOR_BOOL8, t, t}, {t}) == HalVersion::V1_2);
    CHECK(lowest_version(OperationType::SLICE, {t, TENSOR_INT32, TENSOR_INT32}, {t}) ==
          HalVersion::V1_2);
    CHECK(lowest_version(OperationType::TILE, {t, TENSOR_INT32}, {t}) == HalVersion::V1_2);
    CHECK(lowest_version(OperationType::TOPK_V2, {t, INT32}, {t, TENSOR_INT32}) ==
          HalVersion::V1_2);
  }
  const OperandType s = TENSOR_QUANT8_ASYMM_SIGNED;
  CHECK(lowest_version(OperationType::GATHER, {s, INT32, TENSOR_INT32}, {s}) == HalVersion::V1_3);
  CHECK(lowest_version(OperationType::SELECT, {TENSOR_BOOL8, s, s}, {s}) == HalVersion::V1_3);
  CHECK(lowest_version(OperationType::TOPK_V2, {s, INT32}, {s, TENSOR_INT32}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(OperationType::GATHER, {TENSOR_FLOAT32, TENSOR_INT32, INT32},
                             {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(OperationType::SELECT, {TENSOR_INT32, TENSOR_FLOAT32, TENSOR_FLOAT32},
                             {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(OperationType::TOPK_V2, {TENSOR_FLOAT32, INT32}, {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(OperationType::EXPAND_DIMS, {TENSOR_BOOL8, INT32}, {TENSOR_BOOL8}));
  CHECK(find_operation(OperationType::SLICE)->has(kOpAllowsZeroSized));
  CHECK_FALSE(find_operation(OperationType::TILE)->has(kOpAllowsZeroSized));
}

TEST_CASE("SPLIT: any number of outputs of the input type") {
  const auto op = OperationType::SPLIT;
  CHECK((find_operation(op)->outputs[0].flags & kSlotRepeated) != 0);
  for (std::size_t n : {1u, 2u, 3u, 7u}) {
    CAPTURE(n);
    CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32}, repeat(TENSOR_FLOAT32, n)) ==
          HalVersion::V1_2);
    CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32, INT32},
                         repeat(TENSOR_QUANT8_ASYMM_SIGNED, n)) == HalVersion::V1_3);
  }
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32}, {}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32}, {TENSOR_FLOAT32, TENSOR_FLOAT16}));
}

TEST_CASE("PAD_V2: pad value type follows the input; rank <= 4") {
  const auto op = OperationType::PAD_V2;
  CHECK(lowest_version(op, {TENSOR_FLOAT32, TENSOR_INT32, FLOAT32}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, TENSOR_INT32, FLOAT16}, {TENSOR_FLOAT16}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, TENSOR_INT32, INT32}, {TENSOR_QUANT8_ASYMM}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, TENSOR_INT32, INT32},
                       {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK_FALSE(
      lowest_version(op, {TENSOR_QUANT8_ASYMM, TENSOR_INT32, FLOAT32}, {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, TENSOR_INT32, FLOAT32}, {TENSOR_FLOAT16}));
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32, TENSOR_INT32, INT32}, {TENSOR_INT32}));

  OneOpModel m(op);
  m.in(TENSOR_FLOAT32, {1, 2, 3, 4, 5});
  m.in(TENSOR_INT32, {5, 2});
  m.in(FLOAT32);
  m.out(TENSOR_FLOAT32);
  auto r = m.check();
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().status() == ErrorStatus::INVALID_ARGUMENT);
  m.input(0).dimensions = {1, 2, 3, 4};
  m.input(1).dimensions = {4, 2};  // paddings must be [rank, 2]
  CHECK(m.check().value() == HalVersion::V1_2);
  m.input(0).dimensions = {};  // unknown rank: left to execution
  CHECK(m.check().value() == HalVersion::V1_2);
}

TEST_CASE("CHANNEL_SHUFFLE: F16, F32, QA8 1.2, QAS8 1.3; known rank <= 4") {
  const auto op = OperationType::CHANNEL_SHUFFLE;
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, INT32, INT32}, {TENSOR_QUANT8_ASYMM}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32, INT32},
                       {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK_FALSE(lowest_version(op, {TENSOR_INT32, INT32, INT32}, {TENSOR_INT32}));

  OneOpModel m(op);
  m.in(TENSOR_FLOAT32, {1, 1, 1, 2, 4});
  m.ins({INT32, INT32});
  m.out(TENSOR_FLOAT32);
  CHECK_FALSE(m.check().has_value());
  m.input(0).dimensions = {2, 4};
  CHECK(m.check().value() == HalVersion::V1_2);
}

TEST_CASE("RANDOM_MULTINOMIAL, LOG_SOFTMAX, INSTANCE_NORMALIZATION: float scalars follow T") {
  CHECK(lowest_version(OperationType::RANDOM_MULTINOMIAL, {TENSOR_FLOAT16, INT32, TENSOR_INT32},
                       {TENSOR_INT32}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::RANDOM_MULTINOMIAL,
                             {TENSOR_QUANT8_ASYMM, INT32, TENSOR_INT32}, {TENSOR_INT32}));
  CHECK(lowest_version(OperationType::LOG_SOFTMAX, {TENSOR_FLOAT32, FLOAT32, INT32},
                       {TENSOR_FLOAT32}) == HalVersion::V1_2);
  CHECK(lowest_version(OperationType::LOG_SOFTMAX, {TENSOR_FLOAT16, FLOAT16, INT32},
                       {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(OperationType::LOG_SOFTMAX, {TENSOR_FLOAT16, FLOAT32, INT32},
                             {TENSOR_FLOAT16}));
  const auto inorm = OperationType::INSTANCE_NORMALIZATION;
  CHECK(find_operation(inorm)->inputs.size() == 5);
  CHECK(lowest_version(inorm, {TENSOR_FLOAT16, FLOAT16, FLOAT16, FLOAT16, BOOL},
                       {TENSOR_FLOAT16}) == HalVersion::V1_2);
  CHECK_FALSE(lowest_version(inorm, {TENSOR_FLOAT32, FLOAT32, FLOAT32, FLOAT32}, {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(inorm, {TENSOR_QUANT8_ASYMM, FLOAT32, FLOAT32, FLOAT32, BOOL},
                             {TENSOR_QUANT8_ASYMM}));
}

TEST_CASE("RESIZE_NEAREST_NEIGHBOR: 4 inputs 1.2, 5 or 6 inputs 1.3, by size or by scale") {
  const auto op = OperationType::RESIZE_NEAREST_NEIGHBOR;
  CHECK(find_operation(op)->has(kOpAllowsZeroSized));
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, FLOAT32, FLOAT32, BOOL}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_FLOAT16, FLOAT16, FLOAT16, BOOL}, {TENSOR_FLOAT16}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM, FLOAT32, FLOAT32, BOOL}, {TENSOR_QUANT8_ASYMM}) ==
        HalVersion::V1_2);
  CHECK(lowest_version(op, {TENSOR_QUANT8_ASYMM_SIGNED, INT32, INT32, BOOL},
                       {TENSOR_QUANT8_ASYMM_SIGNED}) == HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL, BOOL}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_3);
  CHECK(lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL, BOOL, BOOL}, {TENSOR_FLOAT32}) ==
        HalVersion::V1_3);
  CHECK_FALSE(
      lowest_version(op, {TENSOR_FLOAT32, INT32, INT32}, {TENSOR_FLOAT32}));  // layout required
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT32, INT32, FLOAT32, BOOL}, {TENSOR_FLOAT32}));
  CHECK_FALSE(lowest_version(op, {TENSOR_FLOAT16, FLOAT32, FLOAT32, BOOL}, {TENSOR_FLOAT16}));
  CHECK_FALSE(
      lowest_version(op, {TENSOR_QUANT8_ASYMM, FLOAT16, FLOAT16, BOOL}, {TENSOR_QUANT8_ASYMM}));
  CHECK_FALSE(
      lowest_version(op, {TENSOR_FLOAT32, INT32, INT32, BOOL, BOOL, BOOL, BOOL}, {TENSOR_FLOAT32}));
}
