// Malformed AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D, RESIZE_BILINEAR and
// RESIZE_NEAREST_NEIGHBOR models whose faults are runtime checks of the reference (bad strides,
// paddings, filters, activation, padding scheme, a filter larger than the padded input, output
// sizes that are zero, negative, not finite or overflow, both resize flags set, a rank that is
// not 4): each model validates (its operand types match a signature) but preparing it fails
// with an error naming the operation, without crashing; the valid neighbour of each case
// prepares.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"
#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed::pool_resize_suite {

namespace {

/// A one-operation model whose first input is a data tensor of type `data` and whose output
/// has that type.
OneOp data_op(OperationType type, OperandType data, nnhal::Vector<std::uint32_t> dims) {
  OneOp m(type);
  m.tensor(data, std::move(dims)).output(data);
  return m;
}

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();

/// An explicit-padding pool over [1, 4, 4, 2]: pads l r t b, strides w h, filter w h, activation.
OneOp pool_explicit(OperationType op, std::initializer_list<std::int32_t> scalars,
                    nnhal::Vector<std::uint32_t> dims = {1, 4, 4, 2}) {
  OneOp m = data_op(op, F32, std::move(dims));
  m.ints(scalars);
  return m;
}

/// A resize of [1, 2, 3, 2] by INT32 size (width, height) with layout / align / half flags.
OneOp resize_size(OperationType op, std::int32_t w, std::int32_t h, bool align = false, bool half = false) {
  OneOp m = data_op(op, F32, {1, 2, 3, 2});
  m.ints({w, h}).flag(false).flag(align).flag(half);
  return m;
}

/// A resize of [1, 2, 3, 2] by FLOAT32 scales (width, height).
OneOp resize_scale(OperationType op, float w, float h) {
  OneOp m = data_op(op, F32, {1, 2, 3, 2});
  m.scalar<OperandType::FLOAT32>(w).scalar<OperandType::FLOAT32>(h).flag(false);
  return m;
}

}  // namespace

TEST_CASE("malformed pool ops: strides, paddings, filters, activation and scheme refused before running") {
  for (OperationType op : {OperationType::AVERAGE_POOL_2D, OperationType::MAX_POOL_2D, OperationType::L2_POOL_2D}) {
    const char* name = op == OperationType::AVERAGE_POOL_2D ? "AVERAGE_POOL_2D"
                       : op == OperationType::MAX_POOL_2D   ? "MAX_POOL_2D"
                                                            : "L2_POOL_2D";
    check_prepares(pool_explicit(op, {0, 1, 1, 0, 2, 2, 2, 2, 0}));
    check_refused(pool_explicit(op, {0, 0, 0, 0, 0, 1, 2, 2, 0}), name, "stride");
    check_refused(pool_explicit(op, {0, 0, 0, 0, 1, -3, 2, 2, 0}), name, "stride");
    check_refused(pool_explicit(op, {-1, 0, 0, 0, 1, 1, 2, 2, 0}), name, "negative padding");
    check_refused(pool_explicit(op, {0, 0, 0, 0, 1, 1, 0, 2, 0}), name, "filter");
    check_refused(pool_explicit(op, {0, 0, 0, 0, 1, 1, 5, 2, 0}), name, "smaller than the filter");
    check_refused(pool_explicit(op, {2, 0, 0, 0, 1, 1, 2, 2, 0}), name, "larger than each padding");
    // A constant activation or scheme outside its set is refused by validation itself.
    check_model_invalid(pool_explicit(op, {0, 0, 0, 0, 1, 1, 2, 2, 9}).model(), {name, "input 9 (activation"});
    // Extreme values: a 2^31 - 1 filter with paddings just below it gives an output too large.
    check_refused(pool_explicit(op, {kMax - 1, kMax - 1, 0, 0, 1, 1, kMax, 2, 0}), name, "too large");
    check_prepares(pool_explicit(op, {0, 0, 0, 0, kMax, kMax, 2, 2, 0}));
    // Implicit padding: an undefined scheme.
    OneOp bad_scheme = data_op(op, F32, {1, 4, 4, 2});
    bad_scheme.ints({7, 1, 1, 2, 2, 0});
    check_model_invalid(bad_scheme.model(), {name, "input 1 (padding_scheme"});
    // (A 0 in a model input's shape means "unknown", checked at execution: tests/ops/pooling.cpp
    // covers the empty dimensions.) A pool's output is never much larger than its input; an input this large is already
    // refused by model validation.
    CHECK_FALSE(validate_model(pool_explicit(op, {0, 0, 0, 0, 1, 1, 1, 1, 0},
                                             {4000000000u, 4000000000u, 4000000000u, 2})
                                   .model())
                    .has_value());
    // Rank 3.
    check_refused(pool_explicit(op, {0, 0, 0, 0, 1, 1, 1, 1, 0}, {4, 4, 2}), name, "rank 3");
  }
}

TEST_CASE("malformed resize ops: output sizes, scales and flags refused at prepare") {
  for (OperationType op : {OperationType::RESIZE_BILINEAR, OperationType::RESIZE_NEAREST_NEIGHBOR}) {
    const char* name = op == OperationType::RESIZE_BILINEAR ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR";
    check_prepares(resize_size(op, 5, 3));
    check_prepares(resize_size(op, 1, 1, true));
    check_prepares(resize_scale(op, 1.5f, 0.5f));
    check_refused(resize_size(op, 0, 3), name, "not positive");
    check_refused(resize_size(op, 5, -2), name, "not positive");
    check_refused(resize_size(op, 5, 3, true, true), name, "align_corners and half_pixel_centers");
    check_refused(resize_scale(op, 0.1f, 1.0f), name, "not positive");  // floor(3 * 0.1) = 0
    check_refused(resize_scale(op, -2.0f, 1.0f), name, "not positive");
    check_refused(resize_scale(op, std::numeric_limits<float>::quiet_NaN(), 1.0f), name, "out of range");
    check_refused(resize_scale(op, std::numeric_limits<float>::infinity(), 1.0f), name, "out of range");
    check_refused(resize_scale(op, 1e30f, 1.0f), name, "out of range");
    check_refused(resize_size(op, kMax, kMax), "", "overflows");
    OneOp rank3 = data_op(op, F32, {2, 3, 2});
    rank3.ints({4, 4}).flag(false);
    check_refused(rank3, name, "rank 3");
  }
}

}  // namespace nnhal::test::malformed::pool_resize_suite
