// Malformed DEPTHWISE_CONV_2D and TRANSPOSE_CONV_2D models: each rule broken once in an
// otherwise valid one-operation model with every shape known, so the error comes either from
// validation or from prepare (shape inference, the kernel's prepare-time checks), as a value
// naming the operation, never a crash. The unbroken models prepare.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed::depthwise_transpose {

namespace {

/// A one-operation model built operand by operand; constants go to operandValues.
class OneOp {
 public:
  explicit OneOp(OperationType type) : type_(type) {}

  /// A model input tensor.
  OneOp& in(OperandType type, nnhal::Vector<std::uint32_t> dims, float scale = 0.0f, std::int32_t zp = 0) {
    Operand op = make_operand(type, std::move(dims), kInput);
    op.scale = scale, op.zeroPoint = zp;
    inputs_.push_back(add(op));
    model_.main.inputIndexes.push_back(inputs_.back());
    return *this;
  }
  /// A constant tensor of `count` elements of `bytes_each` bytes, all bytes 1.
  OneOp& constant(OperandType type, nnhal::Vector<std::uint32_t> dims, std::size_t bytes_each, float scale = 0.0f,
                  std::int32_t zp = 0) {
    std::size_t count = 1;
    for (std::uint32_t d : dims) count *= d;
    while (model_.operandValues.size() % 4 != 0) model_.operandValues.push_back(0);
    const auto at = static_cast<std::uint32_t>(model_.operandValues.size());
    const auto bytes = static_cast<std::uint32_t>(count * bytes_each);
    model_.operandValues.resize(at + bytes, 1);
    Operand op = copy_constant(type, std::move(dims), at, bytes);
    op.scale = scale, op.zeroPoint = zp;
    inputs_.push_back(add(op));
    return *this;
  }
  /// A constant TENSOR_INT32 with the given values.
  OneOp& ints(std::vector<std::int32_t> values, nnhal::Vector<std::uint32_t> dims) {
    while (model_.operandValues.size() % 4 != 0) model_.operandValues.push_back(0);
    const auto at = static_cast<std::uint32_t>(model_.operandValues.size());
    const auto bytes = static_cast<std::uint32_t>(values.size() * sizeof(std::int32_t));
    model_.operandValues.resize(at + bytes);
    if (bytes != 0) std::memcpy(model_.operandValues.data() + at, values.data(), bytes);
    inputs_.push_back(add(copy_constant(OperandType::TENSOR_INT32, std::move(dims), at, bytes)));
    return *this;
  }
  OneOp& i32(std::int32_t v) {
    const std::uint32_t at = append_value(model_, v);
    inputs_.push_back(add(copy_constant(OperandType::INT32, {}, at, sizeof v)));
    return *this;
  }
  OneOp& flag(bool v) {
    const std::uint32_t at = append_value(model_, static_cast<std::uint8_t>(v ? 1 : 0));
    inputs_.push_back(add(copy_constant(OperandType::BOOL, {}, at, 1)));
    return *this;
  }
  /// Per-channel parameters of the last input.
  OneOp& channels(nnhal::Vector<float> scales, std::uint32_t dim) {
    model_.main.operands[inputs_.back()].channelQuant = SymmPerChannelQuantParams{std::move(scales), dim};
    return *this;
  }
  /// A model output.
  OneOp& out(OperandType type, nnhal::Vector<std::uint32_t> dims, float scale = 0.0f, std::int32_t zp = 0) {
    Operand op = make_operand(type, std::move(dims), kOutput);
    op.scale = scale, op.zeroPoint = zp;
    outputs_.push_back(add(op));
    model_.main.outputIndexes.push_back(outputs_.back());
    return *this;
  }

  /// Validation, then prepare: the first error, or success.
  Status check() const {
    Model m = model_;
    m.main.operations = {Operation{type_, inputs_, outputs_}};
    fix_consumers(m);
    if (auto v = validate_model(m); !v) return std::move(v.error());
    auto prepared = PreparedModel::prepare(m);
    if (!prepared) return std::move(prepared.error());
    return {};
  }

 private:
  std::uint32_t add(const Operand& op) {
    model_.main.operands.push_back(op);
    return static_cast<std::uint32_t>(model_.main.operands.size() - 1);
  }

  OperationType type_;
  Model model_;
  nnhal::Vector<std::uint32_t> inputs_, outputs_;
};

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto QPC8 = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;

void check_ok(const OneOp& m) {
  const Status s = m.check();
  CHECK_MESSAGE(s.has_value(), (s ? std::string() : std::string(s.error().message())));
}

/// `m` fails (at validation or prepare) with a message containing `fragment` (the operation's
/// name, or for an operand rule the operand's).
void check_error(const OneOp& m, const char* what, const char* fragment) {
  CAPTURE(what);
  const Status s = m.check();
  REQUIRE_FALSE(s.has_value());
  const std::string msg(s.error().message());
  CAPTURE(msg);
  CHECK(msg.find(fragment) != std::string::npos);
}

/// DEPTHWISE_CONV_2D, float NHWC [1, 4, 4, 2], explicit padding `pad`, strides, multiplier.
OneOp depthwise(nnhal::Vector<std::uint32_t> filter, std::uint32_t bias_len, std::int32_t pad, std::int32_t stride,
                std::int32_t mult, nnhal::Vector<std::uint32_t> out = {1, 3, 3, 2}) {
  OneOp m(OperationType::DEPTHWISE_CONV_2D);
  m.in(F32, {1, 4, 4, 2}).constant(F32, std::move(filter), 4).constant(F32, {bias_len}, 4);
  m.i32(pad).i32(pad).i32(pad).i32(pad).i32(stride).i32(stride).i32(mult).i32(0);
  m.out(F32, std::move(out));
  return m;
}

/// DEPTHWISE_CONV_2D, QA8 input [1, 2, 2, 2] with filter `ftype` [1, 1, 1, 2].
OneOp depthwise_q(OperandType ftype, float bias_scale, nnhal::Vector<float> scales = {}) {
  OneOp m(OperationType::DEPTHWISE_CONV_2D);
  m.in(QA8, {1, 2, 2, 2}, 0.5f, 128);
  m.constant(ftype, {1, 1, 1, 2}, 1, ftype == QPC8 ? 0.0f : 0.5f, ftype == QPC8 ? 0 : 128);
  if (ftype == QPC8) m.channels(std::move(scales), 3);
  m.constant(I32, {2}, 4, bias_scale);
  m.i32(2).i32(1).i32(1).i32(1).i32(0);  // VALID, strides 1, multiplier 1, no activation
  m.out(QA8, {1, 2, 2, 2}, 1.0f, 128);
  return m;
}

/// TRANSPOSE_CONV_2D explicit, float NHWC [1, 3, 3, 2], paddings (left = top, right = bottom).
OneOp transpose(nnhal::Vector<std::uint32_t> filter, std::uint32_t bias_len, std::int32_t head, std::int32_t tail,
                std::int32_t stride, nnhal::Vector<std::uint32_t> out = {1, 4, 4, 4}) {
  OneOp m(OperationType::TRANSPOSE_CONV_2D);
  m.in(F32, {1, 3, 3, 2}).constant(F32, std::move(filter), 4).constant(F32, {bias_len}, 4);
  m.i32(head).i32(tail).i32(head).i32(tail).i32(stride).i32(stride).i32(0).flag(false);
  m.out(F32, std::move(out));
  return m;
}

/// TRANSPOSE_CONV_2D implicit with output-shape tensor `shape`, scheme `scheme`, stride 1.
OneOp transpose_implicit(std::vector<std::int32_t> shape, nnhal::Vector<std::uint32_t> shape_dims, std::int32_t scheme,
                         nnhal::Vector<std::uint32_t> out = {1, 3, 3, 4}) {
  OneOp m(OperationType::TRANSPOSE_CONV_2D);
  m.in(F32, {1, 3, 3, 2}).constant(F32, {4, 2, 2, 2}, 4).constant(F32, {4}, 4);
  m.ints(std::move(shape), std::move(shape_dims)).i32(scheme).i32(1).i32(1).i32(0).flag(false);
  m.out(F32, std::move(out));
  return m;
}

/// TRANSPOSE_CONV_2D, QA8 input [1, 2, 2, 1], filter `ftype` [2, 1, 1, 1].
OneOp transpose_q(OperandType ftype, float bias_scale, nnhal::Vector<float> scales = {}) {
  OneOp m(OperationType::TRANSPOSE_CONV_2D);
  m.in(QA8, {1, 2, 2, 1}, 0.5f, 128);
  m.constant(ftype, {2, 1, 1, 1}, 1, ftype == QPC8 ? 0.0f : 0.5f, ftype == QPC8 ? 0 : 128);
  if (ftype == QPC8) m.channels(std::move(scales), 0);
  m.constant(I32, {2}, 4, bias_scale);
  m.i32(0).i32(0).i32(0).i32(0).i32(1).i32(1).i32(0).flag(false);
  m.out(QA8, {1, 2, 2, 2}, 1.0f, 128);
  return m;
}

}  // namespace

TEST_CASE("malformed DEPTHWISE_CONV_2D: strides, filter and bias shapes, multiplier, padding, quantization") {
  const char* op = "DEPTHWISE_CONV_2D";
  check_ok(depthwise({1, 2, 2, 2}, 2, 0, 1, 1));
  check_ok(depthwise({1, 2, 2, 4}, 4, 0, 1, 2, {1, 3, 3, 4}));
  check_error(depthwise({1, 2, 2, 2}, 2, 0, 0, 1), "stride 0", op);
  check_error(depthwise({1, 2, 2, 2}, 2, 0, -2, 1), "negative stride", op);
  check_error(depthwise({1, 2, 2, 3}, 3, 0, 1, 1, {1, 3, 3, 3}), "filter channels != depth_in * multiplier", op);
  check_error(depthwise({1, 2, 2, 2}, 3, 0, 1, 1), "bias length", op);
  check_error(depthwise({1, 2, 2, 2}, 2, 0, 1, 2), "multiplier mismatch", op);
  check_error(depthwise({1, 2, 2, 2}, 2, 0, 1, 0), "multiplier 0", op);
  check_error(depthwise({2, 2, 2, 2}, 2, 0, 1, 1), "filter dimension 0", op);
  check_error(depthwise({1, 2, 2, 2}, 2, 2, 1, 1, {1, 5, 5, 2}), "padding not below the filter", op);
  check_error(depthwise({1, 6, 6, 2}, 2, 0, 1, 1), "filter larger than the input", op);

  check_ok(depthwise_q(QA8, 0.25f));
  check_ok(depthwise_q(QPC8, 0.0f, {0.5f, 0.25f}));
  check_error(depthwise_q(QA8, 0.3f), "bias scale != input scale * filter scale", op);
  check_error(depthwise_q(QPC8, 0.0f, {0.5f, 0.25f, 0.125f}), "per-channel scale count", "operand 1: channelQuant");
}

TEST_CASE("malformed TRANSPOSE_CONV_2D: strides, output shape tensor, filter and bias shapes, quantization") {
  const char* op = "TRANSPOSE_CONV_2D";
  check_ok(transpose({4, 2, 2, 2}, 4, 0, 0, 1));
  check_ok(transpose({4, 2, 2, 2}, 4, 0, -1, 1, {1, 5, 5, 4}));  // negative tail padding: allowed
  check_error(transpose({4, 2, 2, 2}, 4, 0, 0, 0), "stride 0", op);
  check_error(transpose({4, 2, 2, 3}, 4, 0, 0, 1), "filter depth != input depth", op);
  check_error(transpose({4, 2, 2, 2}, 3, 0, 0, 1), "bias length", op);
  check_error(transpose({4, 2, 2, 2}, 4, -1, 0, 1), "negative head padding", op);
  check_error(transpose({4, 2, 2, 2}, 4, 2, 2, 1), "output size not positive", op);

  check_ok(transpose_implicit({1, 3, 3, 4}, {4}, 1));             // SAME, stride 1: 3 x 3
  check_ok(transpose_implicit({1, 3, 3, 4}, {4}, 2, {1, 4, 4, 4}));  // VALID: 3 + 2 - 1
  check_error(transpose_implicit({1, 4, 4}, {3}, 1), "output shape of 3 values", op);
  check_error(transpose_implicit({1, 4, 4, 4}, {2, 2}, 1), "output shape of rank 2", op);
  check_error(transpose_implicit({1, 4, 4, 4}, {4}, 7), "padding scheme", "input 4 (padding_scheme");

  check_ok(transpose_q(QA8, 0.25f));
  check_ok(transpose_q(QPC8, 0.0f, {0.5f, 0.25f}));
  check_error(transpose_q(QA8, 0.3f), "bias scale != input scale * filter scale", op);
  check_error(transpose_q(QPC8, 0.0f, {0.5f}), "per-channel scale count", "operand 1: channelQuant");
}

}  // namespace nnhal::test::malformed::depthwise_transpose
