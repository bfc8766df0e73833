// Scalar parameters with a closed set of values, given as constants, are refused by model
// validation (nnhal/validate/slot_values.hpp): fused activation codes, implicit padding schemes,
// BOOL flags (layout and others), the LSTM family's activation, LSH_PROJECTION's type,
// BOX_WITH_NMS_LIMIT's kernel and UNIDIRECTIONAL_SEQUENCE_RNN's INT32 time_major. Each case
// checks INVALID_ARGUMENT and a message naming the operation, the input position and slot, the
// operand index and the value; the neighbour with an accepted value validates, so the value is
// what is refused. A value given at run time (a model input) passes validation.
// Validation only: no kernel is compiled here.

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "nnhal/validate/model.hpp"
#include "validate/one_op_fixture.hpp"

namespace nnhal::test::malformed_parameters {

namespace {

using enum OperandType;

using malformed::OneOp;

/// `op` validates.
void valid(const OneOp& op) {
  auto v = validate_model(op.model());
  CHECK_MESSAGE(v.has_value(), (v ? std::string() : std::string(v.error().message())));
}

/// `op` is refused with INVALID_ARGUMENT naming the operation, input `pos` with slot `slot`, its
/// operand and the value `value`.
void refused(const OneOp& op, std::string_view name, std::size_t pos, std::string_view slot, std::int64_t value) {
  auto v = validate_model(op.model());
  REQUIRE_FALSE(v.has_value());
  CHECK(v.error().status() == ErrorStatus::INVALID_ARGUMENT);
  const std::string msg(v.error().message());
  CAPTURE(msg);
  CHECK(msg.find("(" + std::string(name) + ")") != std::string::npos);
  const std::string where = "input " + std::to_string(pos) + " (" + std::string(slot) + ", operand " +
                            std::to_string(op.operand_of(pos)) + ") is " + std::to_string(value);
  CHECK(msg.find(where) != std::string::npos);
  CHECK(msg.find("must be one of {") != std::string::npos);
}

/// Binary arithmetic on [2, 3] float tensors with activation `act`.
OneOp binary(OperationType type, std::int32_t act) {
  OneOp m(type);
  m.tensor(TENSOR_FLOAT32, {2, 3}).tensor(TENSOR_FLOAT32, {2, 3}).ints({act}).output(TENSOR_FLOAT32);
  return m;
}

OneOp fully_connected(std::int32_t act) {
  OneOp m(OperationType::FULLY_CONNECTED);
  m.tensor(TENSOR_FLOAT32, {2, 3}).tensor(TENSOR_FLOAT32, {4, 3}).tensor(TENSOR_FLOAT32, {4}).ints({act});
  m.output(TENSOR_FLOAT32);
  return m;
}

/// CONV_2D (or DEPTHWISE_CONV_2D with `depthwise`) input, filter and bias.
OneOp conv_head(bool depthwise = false) {
  OneOp m(depthwise ? OperationType::DEPTHWISE_CONV_2D : OperationType::CONV_2D);
  m.tensor(TENSOR_FLOAT32, {1, 4, 4, 2});
  m.tensor(TENSOR_FLOAT32, depthwise ? nnhal::Vector<std::uint32_t>{1, 2, 2, 2} : nnhal::Vector<std::uint32_t>{3, 2, 2, 2});
  m.tensor(TENSOR_FLOAT32, {depthwise ? 2u : 3u});
  return m;
}

/// AVERAGE_POOL_2D / MAX_POOL_2D / L2_POOL_2D with the given INT32 scalars.
OneOp pool(OperationType type, std::initializer_list<std::int32_t> scalars) {
  OneOp m(type);
  m.tensor(TENSOR_FLOAT32, {1, 4, 4, 2}).ints(scalars).output(TENSOR_FLOAT32);
  return m;
}

constexpr std::int32_t kBadActivations[] = {7, -1, 4};
constexpr std::int32_t kBadSchemes[] = {3, -1, 7};

}  // namespace

TEST_CASE("fused activation: ADD, SUB, MUL, DIV and FULLY_CONNECTED refuse a constant outside NONE..RELU6") {
  const std::pair<OperationType, const char*> ops[] = {{OperationType::ADD, "ADD"},
                                                      {OperationType::SUB, "SUB"},
                                                      {OperationType::MUL, "MUL"},
                                                      {OperationType::DIV, "DIV"}};
  for (const auto& entry : ops) {
    const OperationType type = entry.first;
    const char* name = entry.second;
    CAPTURE(name);
    for (std::int32_t act : {0, 1, 2, 3}) valid(binary(type, act));
    for (std::int32_t act : kBadActivations) refused(binary(type, act), name, 2, "activation", act);
  }
  for (std::int32_t act : {0, 3}) valid(fully_connected(act));
  for (std::int32_t act : kBadActivations) refused(fully_connected(act), "FULLY_CONNECTED", 3, "activation", act);
}

TEST_CASE("fused activation given at run time passes validation (the kernel checks it)") {
  OneOp m(OperationType::ADD);
  m.tensor(TENSOR_FLOAT32, {2, 3}).tensor(TENSOR_FLOAT32, {2, 3}).runtime_int().output(TENSOR_FLOAT32);
  valid(m);
}

TEST_CASE("CONV_2D: activation and padding scheme in every form; the form follows the type of input 7") {
  // Explicit (10 inputs): activation is input 9.
  valid(conv_head().ints({0, 0, 0, 0, 1, 1, 3}).output(TENSOR_FLOAT32));
  for (std::int32_t act : kBadActivations)
    refused(conv_head().ints({0, 0, 0, 0, 1, 1, act}).output(TENSOR_FLOAT32), "CONV_2D", 9, "activation", act);
  // Explicit with layout and dilation (13 inputs): a layout byte of 2 is refused.
  valid(conv_head().ints({0, 0, 0, 0, 1, 1, 0}).flag_byte(1).ints({1, 1}).output(TENSOR_FLOAT32));
  refused(conv_head().ints({0, 0, 0, 0, 1, 1, 0}).flag_byte(2).ints({1, 1}).output(TENSOR_FLOAT32), "CONV_2D", 10, "layout",
          2);
  // Implicit (7 inputs): scheme is input 3, activation input 6.
  // 0 runs as VALID, as in the reference (kPaddingCodes).
  for (std::int32_t scheme : {0, 1, 2}) valid(conv_head().ints({scheme, 1, 1, 0}).output(TENSOR_FLOAT32));
  for (std::int32_t scheme : kBadSchemes)
    refused(conv_head().ints({scheme, 1, 1, 0}).output(TENSOR_FLOAT32), "CONV_2D", 3, "padding_scheme", scheme);
  refused(conv_head().ints({1, 1, 1, 7}).output(TENSOR_FLOAT32), "CONV_2D", 6, "activation", 7);
  // Implicit with layout and dilation: 10 inputs like the explicit form, told apart by input 7
  // (BOOL). A dilation of 7 at position 9 is not an activation; the activation is input 6.
  valid(conv_head().ints({1, 1, 1, 0}).flag_byte(0).ints({1, 7}).output(TENSOR_FLOAT32));
  refused(conv_head().ints({1, 1, 1, 7}).flag_byte(0).ints({1, 1}).output(TENSOR_FLOAT32), "CONV_2D", 6, "activation", 7);
  refused(conv_head().ints({3, 1, 1, 0}).flag_byte(0).ints({1, 1}).output(TENSOR_FLOAT32), "CONV_2D", 3, "padding_scheme",
          3);
}

TEST_CASE("DEPTHWISE_CONV_2D: activation and padding scheme in both forms") {
  valid(conv_head(true).ints({0, 0, 0, 0, 1, 1, 1, 2}).output(TENSOR_FLOAT32));
  refused(conv_head(true).ints({0, 0, 0, 0, 1, 1, 1, 7}).output(TENSOR_FLOAT32), "DEPTHWISE_CONV_2D", 10, "activation",
          7);
  valid(conv_head(true).ints({2, 1, 1, 1, 0}).flag_byte(1).ints({1, 1}).output(TENSOR_FLOAT32));
  refused(conv_head(true).ints({2, 1, 1, 1, -1}).flag_byte(1).ints({1, 1}).output(TENSOR_FLOAT32), "DEPTHWISE_CONV_2D", 7,
          "activation", -1);
  for (std::int32_t scheme : kBadSchemes)
    refused(conv_head(true).ints({scheme, 1, 1, 1, 0}).output(TENSOR_FLOAT32), "DEPTHWISE_CONV_2D", 3,
            "padding_scheme", scheme);
}

TEST_CASE("pools: activation, padding scheme and layout in both forms") {
  const std::pair<OperationType, const char*> ops[] = {{OperationType::AVERAGE_POOL_2D, "AVERAGE_POOL_2D"},
                                                      {OperationType::MAX_POOL_2D, "MAX_POOL_2D"},
                                                      {OperationType::L2_POOL_2D, "L2_POOL_2D"}};
  for (const auto& entry : ops) {
    const OperationType type = entry.first;
    const char* name = entry.second;
    CAPTURE(name);
    valid(pool(type, {0, 0, 0, 0, 1, 1, 2, 2, 1}));
    refused(pool(type, {0, 0, 0, 0, 1, 1, 2, 2, 7}), name, 9, "activation", 7);
    valid(pool(type, {1, 1, 1, 2, 2, 3}));
    refused(pool(type, {1, 1, 1, 2, 2, -1}), name, 6, "activation", -1);
    for (std::int32_t scheme : kBadSchemes) refused(pool(type, {scheme, 1, 1, 2, 2, 0}), name, 1, "padding_scheme", scheme);
    OneOp layout = pool(type, {1, 1, 1, 2, 2, 0});
    layout.flag_byte(3);
    refused(layout, name, 7, "layout", 3);
  }
}

TEST_CASE("TRANSPOSE_CONV_2D and GROUPED_CONV_2D: activation and padding scheme in both forms") {
  auto transpose = [] {
    OneOp m(OperationType::TRANSPOSE_CONV_2D);
    m.tensor(TENSOR_FLOAT32, {1, 4, 4, 2}).tensor(TENSOR_FLOAT32, {3, 2, 2, 2}).tensor(TENSOR_FLOAT32, {3});
    return m;
  };
  valid(transpose().ints({0, 0, 0, 0, 1, 1, 1}).flag_byte(0).output(TENSOR_FLOAT32));
  refused(transpose().ints({0, 0, 0, 0, 1, 1, 7}).flag_byte(0).output(TENSOR_FLOAT32), "TRANSPOSE_CONV_2D", 9, "activation",
          7);
  auto implicit = [&](std::int32_t scheme, std::int32_t act) {
    OneOp m = transpose();
    m.tensor(TENSOR_INT32, {4}).ints({scheme, 1, 1, act}).flag_byte(0).output(TENSOR_FLOAT32);
    return m;
  };
  valid(implicit(1, 0));
  for (std::int32_t scheme : kBadSchemes)
    refused(implicit(scheme, 0), "TRANSPOSE_CONV_2D", 4, "padding_scheme", scheme);
  refused(implicit(2, 7), "TRANSPOSE_CONV_2D", 7, "activation", 7);

  auto grouped = [] {
    OneOp m(OperationType::GROUPED_CONV_2D);
    m.tensor(TENSOR_FLOAT32, {1, 4, 4, 4}).tensor(TENSOR_FLOAT32, {2, 2, 2, 2}).tensor(TENSOR_FLOAT32, {2});
    return m;
  };
  valid(grouped().ints({0, 0, 0, 0, 1, 1, 2, 3}).flag_byte(0).output(TENSOR_FLOAT32));
  refused(grouped().ints({0, 0, 0, 0, 1, 1, 2, 4}).flag_byte(0).output(TENSOR_FLOAT32), "GROUPED_CONV_2D", 10, "activation",
          4);
  valid(grouped().ints({2, 1, 1, 2, 0}).flag_byte(1).output(TENSOR_FLOAT32));
  valid(grouped().ints({0, 1, 1, 2, 0}).flag_byte(1).output(TENSOR_FLOAT32));
  refused(grouped().ints({3, 1, 1, 2, 0}).flag_byte(1).output(TENSOR_FLOAT32), "GROUPED_CONV_2D", 3, "padding_scheme", 3);
  refused(grouped().ints({2, 1, 1, 2, 0}).flag_byte(2).output(TENSOR_FLOAT32), "GROUPED_CONV_2D", 8, "layout", 2);
}

TEST_CASE("BOOL flags other than layout: RESIZE_BILINEAR align_corners") {
  auto resize = [](std::uint8_t align) {
    OneOp m(OperationType::RESIZE_BILINEAR);
    m.tensor(TENSOR_FLOAT32, {1, 2, 2, 1}).ints({4, 4}).flag_byte(0).flag_byte(align).flag_byte(0).output(TENSOR_FLOAT32);
    return m;
  };
  valid(resize(1));
  refused(resize(255), "RESIZE_BILINEAR", 4, "align_corners", 255);
}

TEST_CASE("recurrent families: RNN takes NONE..RELU6, the LSTM family NONE, RELU, RELU6, TANH, SIGMOID") {
  auto rnn = [](std::int32_t act) {
    OneOp m(OperationType::RNN);
    m.tensor(TENSOR_FLOAT32, {2, 3}).tensor(TENSOR_FLOAT32, {4, 3}).tensor(TENSOR_FLOAT32, {4, 4});
    m.tensor(TENSOR_FLOAT32, {4}).tensor(TENSOR_FLOAT32, {2, 4}).ints({act});
    m.output(TENSOR_FLOAT32).output(TENSOR_FLOAT32);
    return m;
  };
  valid(rnn(2));
  // nnhal's RNN kernels (like its fused activations) take 0..3; TANH = 4 is not one of them.
  refused(rnn(4), "RNN", 5, "activation", 4);

  // LSTM, 23 inputs: CIFG (no input gate, no peephole, no projection).
  auto lstm = [](std::int32_t act) {
    OneOp m(OperationType::LSTM);
    const std::uint32_t batch = 1, in = 2, units = 3, out = 3;
    m.tensor(TENSOR_FLOAT32, {batch, in}).omitted(TENSOR_FLOAT32);
    for (int g = 0; g < 3; ++g) m.tensor(TENSOR_FLOAT32, {units, in});
    m.omitted(TENSOR_FLOAT32);
    for (int g = 0; g < 3; ++g) m.tensor(TENSOR_FLOAT32, {units, out});
    for (int g = 0; g < 3; ++g) m.omitted(TENSOR_FLOAT32);  // peepholes
    m.omitted(TENSOR_FLOAT32);                             // input gate bias
    for (int g = 0; g < 3; ++g) m.tensor(TENSOR_FLOAT32, {units});
    m.omitted(TENSOR_FLOAT32).omitted(TENSOR_FLOAT32);  // projection
    m.tensor(TENSOR_FLOAT32, {batch, out}).tensor(TENSOR_FLOAT32, {batch, units});
    m.ints({act}).f32(0.0f).f32(0.0f);
    for (int o = 0; o < 4; ++o) m.output(TENSOR_FLOAT32);
    return m;
  };
  for (std::int32_t act : {0, 1, 3, 4, 6}) valid(lstm(act));
  for (std::int32_t act : {2, 5, 7, -1}) refused(lstm(act), "LSTM", 20, "activation", act);
}

TEST_CASE("enumerated INT32 parameters: LSH_PROJECTION type, BOX_WITH_NMS_LIMIT kernel, RNN time_major") {
  auto lsh = [](std::int32_t type) {
    OneOp m(OperationType::LSH_PROJECTION);
    m.tensor(TENSOR_FLOAT32, {4, 2}).tensor(TENSOR_FLOAT32, {3, 2}).tensor(TENSOR_FLOAT32, {3}).ints({type});
    m.output(TENSOR_INT32);
    return m;
  };
  for (std::int32_t type : {1, 2, 3}) valid(lsh(type));
  for (std::int32_t type : {0, 4}) refused(lsh(type), "LSH_PROJECTION", 3, "type", type);

  auto nms = [](std::int32_t kernel) {
    OneOp m(OperationType::BOX_WITH_NMS_LIMIT);
    m.tensor(TENSOR_FLOAT32, {2, 3}).tensor(TENSOR_FLOAT32, {2, 12}).tensor(TENSOR_INT32, {2});
    m.f32(0.1f).ints({-1, kernel}).f32(0.5f).f32(0.5f).f32(0.1f);
    m.output(TENSOR_FLOAT32).output(TENSOR_FLOAT32).output(TENSOR_INT32).output(TENSOR_INT32);
    return m;
  };
  for (std::int32_t kernel : {0, 1, 2}) valid(nms(kernel));
  refused(nms(3), "BOX_WITH_NMS_LIMIT", 5, "nms_kernel", 3);

  auto uni = [](std::int32_t time_major) {
    OneOp m(OperationType::UNIDIRECTIONAL_SEQUENCE_RNN);
    m.tensor(TENSOR_FLOAT32, {2, 5, 3}).tensor(TENSOR_FLOAT32, {4, 3}).tensor(TENSOR_FLOAT32, {4, 4});
    m.tensor(TENSOR_FLOAT32, {4}).tensor(TENSOR_FLOAT32, {2, 4}).ints({1, time_major}).output(TENSOR_FLOAT32);
    return m;
  };
  valid(uni(0));
  valid(uni(1));
  refused(uni(2), "UNIDIRECTIONAL_SEQUENCE_RNN", 6, "time_major", 2);
}

}  // namespace nnhal::test::malformed_parameters
