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

namespace nnhal::test::malformed::pool_resize_suite {

namespace {

/// A one-operation model: the data tensor is a request input, scalars are constants, the output
/// has unknown dimensions.
class OneOp {
 public:
  OneOp(OperationType type, OperandType data, std::vector<std::uint32_t> dims) : type_(type), data_(data) {
    const std::uint32_t i = add(make_operand(data, std::move(dims), kInput));
    inputs_.push_back(i);
    model_.main.inputIndexes.push_back(i);
  }
  template <OperandType T>
  OneOp& scalar(element_t<T> v) {
    auto& bytes = model_.operandValues;  // keep each constant aligned to its size
    bytes.resize((bytes.size() + sizeof v - 1) / sizeof v * sizeof v);
    const std::uint32_t at = append_value(model_, v);
    inputs_.push_back(add(copy_constant(T, {}, at, sizeof v)));
    return *this;
  }
  OneOp& ints(std::initializer_list<std::int32_t> values) {
    for (std::int32_t v : values) scalar<OperandType::INT32>(v);
    return *this;
  }
  OneOp& flag(bool v) { return scalar<OperandType::BOOL>(v ? 1 : 0); }

  Model model() const {
    Model m = model_;
    const auto o = static_cast<std::uint32_t>(m.main.operands.size());
    m.main.operands.push_back(make_operand(data_, {}, kOutput));
    m.main.outputIndexes.push_back(o);
    m.main.operations.push_back(Operation{type_, inputs_, {o}});
    fix_consumers(m);
    return m;
  }

 private:
  std::uint32_t add(const Operand& op) {
    model_.main.operands.push_back(op);
    return static_cast<std::uint32_t>(model_.main.operands.size() - 1);
  }
  OperationType type_;
  OperandType data_;
  Model model_;
  std::vector<std::uint32_t> inputs_;
};

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();

void check_prepares(const OneOp& op) {
  const Model m = op.model();
  REQUIRE(validate_model(m).has_value());
  auto p = PreparedModel::prepare(m);
  INFO("error: " << (p ? std::string("none") : std::string(p.error().message())));
  CHECK(p.has_value());
}

/// Validates, then fails to prepare with a message naming `name` and containing `fact`.
void check_refused(const OneOp& op, const char* name, const char* fact) {
  INFO("operation ", std::string(name), ", expected fragment: ", std::string(fact));
  const Model m = op.model();
  REQUIRE(validate_model(m).has_value());
  auto p = PreparedModel::prepare(m);
  REQUIRE_FALSE(p.has_value());
  const std::string msg(p.error().message());
  CAPTURE(msg);
  CHECK(msg.find(name) != std::string::npos);
  CHECK(msg.find(fact) != std::string::npos);
}

/// An explicit-padding pool over [1, 4, 4, 2]: pads l r t b, strides w h, filter w h, activation.
OneOp pool_explicit(OperationType op, std::initializer_list<std::int32_t> scalars,
                    std::vector<std::uint32_t> dims = {1, 4, 4, 2}) {
  OneOp m(op, F32, std::move(dims));
  m.ints(scalars);
  return m;
}

/// A resize of [1, 2, 3, 2] by INT32 size (width, height) with layout / align / half flags.
OneOp resize_size(OperationType op, std::int32_t w, std::int32_t h, bool align = false, bool half = false) {
  OneOp m(op, F32, {1, 2, 3, 2});
  m.ints({w, h}).flag(false).flag(align).flag(half);
  return m;
}

/// A resize of [1, 2, 3, 2] by FLOAT32 scales (width, height).
OneOp resize_scale(OperationType op, float w, float h) {
  OneOp m(op, F32, {1, 2, 3, 2});
  m.scalar<OperandType::FLOAT32>(w).scalar<OperandType::FLOAT32>(h).flag(false);
  return m;
}

}  // namespace

TEST_CASE("malformed pool ops: strides, paddings, filters, activation and scheme refused at prepare") {
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
    check_refused(pool_explicit(op, {0, 0, 0, 0, 1, 1, 2, 2, 9}), name, "activation");
    // Extreme values: a 2^31 - 1 filter with paddings just below it gives an output too large.
    check_refused(pool_explicit(op, {kMax - 1, kMax - 1, 0, 0, 1, 1, kMax, 2, 0}), name, "too large");
    check_prepares(pool_explicit(op, {0, 0, 0, 0, kMax, kMax, 2, 2, 0}));
    // Implicit padding: an undefined scheme.
    OneOp bad_scheme(op, F32, {1, 4, 4, 2});
    bad_scheme.ints({7, 1, 1, 2, 2, 0});
    check_refused(bad_scheme, name, "padding scheme");
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
    OneOp rank3(op, F32, {2, 3, 2});
    rank3.ints({4, 4}).flag(false);
    check_refused(rank3, name, "rank 3");
  }
}

}  // namespace nnhal::test::malformed::pool_resize_suite
