// Malformed models for the validation rules of SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION,
// LOCAL_RESPONSE_NORMALIZATION, INSTANCE_NORMALIZATION and FILL (a constant axis out of range,
// rank limits, scalars of the wrong type): each is INVALID_ARGUMENT with a message naming the
// operation and the operand, and the valid neighbour of each case is accepted. Quantization the
// reference fixes at execution (LOGISTIC's output scale, RELU's output = input) is refused at
// prepare, naming the operation.

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed::activation_norm_suite {

namespace {

/// A model of one operation: tensor inputs are request inputs, scalars are constants.
class OneOp {
 public:
  std::uint32_t tensor(OperandType type, nnhal::Vector<std::uint32_t> dims, float scale = 0.0f,
                       std::int32_t zero_point = 0) {
    Operand op = make_operand(type, std::move(dims), kInput);
    op.scale = scale;
    op.zeroPoint = zero_point;
    const std::uint32_t i = add(op);
    f_.model.main.inputIndexes.push_back(i);
    return i;
  }
  template <class T>
  std::uint32_t scalar(OperandType type, T value) {
    auto& bytes = f_.model.operandValues;  // keep each constant aligned to its size
    bytes.resize((bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
    const std::uint32_t at = append_value(f_.model, value);
    return add(copy_constant(type, {}, at, sizeof(T)));
  }
  /// Adds the operation with `inputs` and one output of `type` / `dims`; returns the model.
  const Model& finish(OperationType op, nnhal::Vector<std::uint32_t> inputs, OperandType type,
                      nnhal::Vector<std::uint32_t> dims, float scale = 0.0f, std::int32_t zero_point = 0) {
    Operand out = make_operand(type, std::move(dims), kOutput);
    out.scale = scale;
    out.zeroPoint = zero_point;
    const std::uint32_t o = add(out);
    f_.model.main.outputIndexes.push_back(o);
    f_.model.main.operations.push_back(Operation{op, std::move(inputs), {o}});
    fix_consumers(f_.model);
    return f_.model;
  }

 private:
  std::uint32_t add(const Operand& op) {
    f_.model.main.operands.push_back(op);
    return static_cast<std::uint32_t>(f_.model.main.operands.size() - 1);
  }
  ModelFixture f_;
};

constexpr auto F32 = OperandType::TENSOR_FLOAT32;

/// SOFTMAX of a [2, 3] float input with beta 1 and a constant axis.
Model softmax_model(std::int32_t axis) {
  OneOp m;
  const auto in = m.tensor(F32, {2, 3});
  const auto beta = m.scalar(OperandType::FLOAT32, 1.0f);
  const auto a = m.scalar(OperandType::INT32, axis);
  return m.finish(OperationType::SOFTMAX, {in, beta, a}, F32, {2, 3});
}

}  // namespace

TEST_CASE("malformed model: SOFTMAX with a constant axis out of range") {
  check_model_valid(softmax_model(1));
  check_model_valid(softmax_model(-2));
  check_model_invalid(softmax_model(2), {"operation 0 (SOFTMAX)", "input 2 (axis) is 2, outside [-2, 2)"});
  check_model_invalid(softmax_model(-3), {"operation 0 (SOFTMAX)", "input 2 (axis) is -3"});
}

TEST_CASE("malformed model: SOFTMAX with beta of the wrong type and an input of rank 5") {
  {
    OneOp m;
    const auto in = m.tensor(F32, {2, 3});
    const auto beta = m.scalar(OperandType::FLOAT16, Half(1.0f));  // FLOAT32 data needs a FLOAT32 beta
    check_model_invalid(m.finish(OperationType::SOFTMAX, {in, beta}, F32, {2, 3}),
                        {"operation 0 (SOFTMAX)", "no signature accepts inputs (TENSOR_FLOAT32, FLOAT16)"});
  }
  {
    OneOp m;
    const auto in = m.tensor(F32, {1, 1, 1, 2, 3});
    const auto beta = m.scalar(OperandType::FLOAT32, 1.0f);
    check_model_invalid(m.finish(OperationType::SOFTMAX, {in, beta}, F32, {1, 1, 1, 2, 3}),
                        {"operation 0 (SOFTMAX)", "input 0 has rank 5"});
  }
}

TEST_CASE("malformed model: LOG_SOFTMAX with a constant axis out of range") {
  auto model = [](std::int32_t axis) {
    OneOp m;
    const auto in = m.tensor(OperandType::TENSOR_FLOAT16, {4});
    const auto beta = m.scalar(OperandType::FLOAT16, Half(1.0f));
    const auto a = m.scalar(OperandType::INT32, axis);
    return m.finish(OperationType::LOG_SOFTMAX, {in, beta, a}, OperandType::TENSOR_FLOAT16, {4});
  };
  check_model_valid(model(-1));
  check_model_invalid(model(1), {"operation 0 (LOG_SOFTMAX)", "input 2 (axis) is 1, outside [-1, 1)"});
}

TEST_CASE("malformed model: L2_NORMALIZATION and LOCAL_RESPONSE_NORMALIZATION axes out of range") {
  auto l2 = [](std::int32_t axis) {
    OneOp m;
    const auto in = m.tensor(OperandType::TENSOR_QUANT8_ASYMM, {2, 3, 4}, 0.1f, 128);
    const auto a = m.scalar(OperandType::INT32, axis);
    return m.finish(OperationType::L2_NORMALIZATION, {in, a}, OperandType::TENSOR_QUANT8_ASYMM, {2, 3, 4},
                    1.0f / 128, 128);
  };
  check_model_valid(l2(-3));
  check_model_invalid(l2(3), {"operation 0 (L2_NORMALIZATION)", "input 1 (axis) is 3, outside [-3, 3)"});
  check_model_invalid(l2(-4), {"operation 0 (L2_NORMALIZATION)", "input 1 (axis) is -4"});

  auto lrn = [](std::int32_t axis) {
    OneOp m;
    const auto in = m.tensor(F32, {1, 2, 2, 3});
    const auto radius = m.scalar(OperandType::INT32, std::int32_t{1});
    const auto bias = m.scalar(OperandType::FLOAT32, 1.0f);
    const auto alpha = m.scalar(OperandType::FLOAT32, 0.5f);
    const auto beta = m.scalar(OperandType::FLOAT32, 0.75f);
    const auto a = m.scalar(OperandType::INT32, axis);
    return m.finish(OperationType::LOCAL_RESPONSE_NORMALIZATION, {in, radius, bias, alpha, beta, a}, F32,
                    {1, 2, 2, 3});
  };
  check_model_valid(lrn(0));
  check_model_invalid(lrn(4), {"operation 0 (LOCAL_RESPONSE_NORMALIZATION)", "input 5 (axis) is 4, outside [-4, 4)"});
}

TEST_CASE("malformed model: INSTANCE_NORMALIZATION input of rank other than 4") {
  auto model = [](nnhal::Vector<std::uint32_t> dims) {
    OneOp m;
    const auto in = m.tensor(F32, dims);
    const auto gamma = m.scalar(OperandType::FLOAT32, 1.0f);
    const auto beta = m.scalar(OperandType::FLOAT32, 0.0f);
    const auto epsilon = m.scalar(OperandType::FLOAT32, 1e-3f);
    const auto layout = m.scalar(OperandType::BOOL, std::uint8_t{0});
    return m.finish(OperationType::INSTANCE_NORMALIZATION, {in, gamma, beta, epsilon, layout}, F32, dims);
  };
  check_model_valid(model({1, 2, 2, 3}));
  check_model_invalid(model({2, 2, 3}), {"operation 0 (INSTANCE_NORMALIZATION)", "input 0 has rank 3, it must be 4"});
  check_model_invalid(model({1, 1, 2, 2, 3}), {"operation 0 (INSTANCE_NORMALIZATION)", "input 0 has rank 5"});
}

TEST_CASE("malformed model: FILL with a dims tensor of rank other than 1") {
  auto model = [](nnhal::Vector<std::uint32_t> dims) {
    OneOp m;
    const auto d = m.tensor(OperandType::TENSOR_INT32, dims);
    const auto value = m.scalar(OperandType::FLOAT32, 2.0f);
    return m.finish(OperationType::FILL, {d, value}, F32, {});
  };
  check_model_valid(model({3}));
  check_model_invalid(model({1, 3}), {"operation 0 (FILL)", "input 0 (dims) has rank 2, it must be 1"});
}

TEST_CASE("prepare refuses quantized outputs whose quantization the operation fixes") {
  auto prepare_error = [](const Model& model) {
    REQUIRE(validate_model(model).has_value());
    auto p = PreparedModel::prepare(model);
    REQUIRE_FALSE(p.has_value());
    CHECK(p.error().status() == ErrorStatus::GENERAL_FAILURE);
    return std::string(p.error().message());
  };
  {
    OneOp m;
    const auto in = m.tensor(OperandType::TENSOR_QUANT8_ASYMM, {4}, 0.5f, 0);
    const std::string e = prepare_error(
        m.finish(OperationType::LOGISTIC, {in}, OperandType::TENSOR_QUANT8_ASYMM, {4}, 1.0f / 128, 0));
    CHECK(e.find("operation 0 (LOGISTIC)") != std::string::npos);
    CHECK(e.find("scale 0.00390625 and zeroPoint 0") != std::string::npos);
  }
  {
    OneOp m;
    const auto in = m.tensor(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {4}, 0.5f, 3);
    const std::string e = prepare_error(
        m.finish(OperationType::RELU6, {in}, OperandType::TENSOR_QUANT8_ASYMM_SIGNED, {4}, 0.5f, 4));
    CHECK(e.find("operation 0 (RELU6)") != std::string::npos);
  }
}

}  // namespace nnhal::test::malformed::activation_norm_suite
