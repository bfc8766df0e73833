// Malformed CONV_2D and GROUPED_CONV_2D models that pass the per-signature validation but break
// the reference's runtime rules (Conv2D.cpp prepare, groupedConvPrepare): a stride of 0, a
// padding not smaller than the effective filter, an input depth that differs from the filter's,
// a bias of the wrong length, a bias scale that is not input scale * filter scale, groups that
// do not divide the depths, per-channel scales of the wrong count. Each is refused before
// anything runs, with a message naming the operation (the per-channel scale count is caught
// earlier, by operand validation, naming the operand); the valid neighbour of each case prepares
// and runs. A filter given at run time with the wrong depth is refused by the execution.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/validate/model.hpp"
#include "support/run_model.hpp"
#include "validate/model_fixtures.hpp"

namespace nnhal::test::malformed::conv_suite {

namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto QA8 = OperandType::TENSOR_QUANT8_ASYMM;

/// What a convolution model is built from.
struct ConvCase {
  OperationType op = OperationType::CONV_2D;
  OperandType type = F32;
  nnhal::Vector<std::uint32_t> input{1, 4, 4, 2}, filter{3, 2, 2, 2}, bias{3}, output{1, 4, 4, 3};
  std::vector<std::int32_t> scalars{1, 1, 1, 0};  ///< after the bias (INT32), then `layout` if set
  bool layout = false;
  float in_scale = 0.5f, filter_scale = 0.25f, bias_scale = 0.125f;
  nnhal::Vector<float> channel_scales;  ///< non-empty: per-channel filter
  bool filter_input = false;          ///< filter and bias are model inputs instead of constants
};

Model build(const ConvCase& c) {
  ModelFixture f;
  Model& m = f.model;
  const bool quant = c.type != F32;
  auto tensor_constant = [&](OperandType type, const nnhal::Vector<std::uint32_t>& dims, std::size_t elem) {
    std::size_t n = 1;
    for (std::uint32_t d : dims) n *= d;
    while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
    const auto at = static_cast<std::uint32_t>(m.operandValues.size());
    m.operandValues.resize(at + n * elem, 1);
    return copy_constant(type, dims, at, static_cast<std::uint32_t>(n * elem));
  };
  nnhal::Vector<Operand> ops;
  Operand in = make_operand(c.type, c.input, kInput);
  Operand filter = c.filter_input ? make_operand(c.type, c.filter, kInput) : tensor_constant(c.type, c.filter, quant ? 1 : 4);
  const OperandType bias_type = quant ? OperandType::TENSOR_INT32 : F32;
  Operand bias = c.filter_input ? make_operand(bias_type, c.bias, kInput) : tensor_constant(bias_type, c.bias, 4);
  if (quant) {
    in.scale = c.in_scale, in.zeroPoint = 128;
    filter.scale = c.filter_scale, filter.zeroPoint = 128;
    bias.scale = c.bias_scale;
    if (!c.channel_scales.empty()) {
      filter.type = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
      filter.scale = 0.0f, filter.zeroPoint = 0, bias.scale = 0.0f;
      filter.channelQuant = SymmPerChannelQuantParams{c.channel_scales, 0};
    }
  }
  ops = {in, filter, bias};
  for (std::int32_t v : c.scalars) {
    while (m.operandValues.size() % 4 != 0) m.operandValues.push_back(0);
    ops.push_back(copy_constant(OperandType::INT32, {}, append_value(m, v), 4));
  }
  if (c.layout) ops.push_back(copy_constant(OperandType::BOOL, {}, append_value(m, std::uint8_t{0}), 1));
  Operand out = make_operand(c.type, c.output, kOutput);
  if (quant) out.scale = 1.0f, out.zeroPoint = 100;
  ops.push_back(out);
  m.main.operands = ops;
  nnhal::Vector<std::uint32_t> ins;
  for (std::uint32_t i = 0; i + 1 < ops.size(); ++i) ins.push_back(i);
  const auto o = static_cast<std::uint32_t>(ops.size() - 1);
  m.main.operations = {Operation{c.op, ins, {o}}};
  m.main.inputIndexes = c.filter_input ? nnhal::Vector<std::uint32_t>{0, 1, 2} : nnhal::Vector<std::uint32_t>{0};
  m.main.outputIndexes = {o};
  fix_consumers(m);
  return m;
}

/// The model validates and prepares.
void check_prepares(const ConvCase& c) {
  const Model m = build(c);
  REQUIRE(validate_model(m).has_value());
  auto p = PreparedModel::prepare(m);
  const std::string error = p.has_value() ? std::string() : std::string(p.error().message());
  INFO(error);
  CHECK(p.has_value());
}

/// The model is refused (by validation or prepare) with a message holding every fragment.
void check_refused(const ConvCase& c, std::initializer_list<const char*> fragments) {
  const Model m = build(c);
  auto p = PreparedModel::prepare(m);
  REQUIRE_FALSE(p.has_value());
  const std::string message(p.error().message());
  INFO("message: " << message);
  CHECK(p.error().status() != ErrorStatus::NONE);
  for (const char* f : fragments) CHECK(message.find(f) != std::string::npos);
}

ConvCase explicit_case() {
  ConvCase c;
  c.scalars = {0, 1, 0, 1, 1, 1, 0};  // pad l r t b, stride w h, activation: out 4x4
  return c;
}

ConvCase grouped_case() {
  ConvCase c;
  c.op = OperationType::GROUPED_CONV_2D;
  c.input = {1, 4, 4, 4}, c.filter = {6, 2, 2, 2}, c.bias = {6}, c.output = {1, 4, 4, 6};
  c.scalars = {1, 1, 1, 2, 0};  // SAME, stride 1 x 1, 2 groups, activation
  c.layout = true;
  return c;
}

}  // namespace

TEST_CASE("malformed CONV_2D: stride 0 and padding not smaller than the effective filter") {
  check_prepares(explicit_case());
  ConvCase c = explicit_case();
  c.scalars = {0, 1, 0, 1, 0, 1, 0};
  check_refused(c, {"CONV_2D", "stride"});
  c = explicit_case();
  c.scalars = {2, 1, 0, 1, 1, 1, 0};  // pad_left 2 with a 2-wide filter
  c.output = {1, 4, 5, 3};
  check_refused(c, {"CONV_2D", "padding"});
}

TEST_CASE("malformed CONV_2D: filter depth, bias length, bias scale, per-channel scales") {
  ConvCase c;
  c.filter = {3, 2, 2, 3};  // depth 3, input depth 2
  check_refused(c, {"CONV_2D", "depth"});
  c = ConvCase{};
  c.bias = {4};
  check_refused(c, {"CONV_2D", "bias"});

  ConvCase q;
  q.type = QA8;
  q.bias_scale = 0.5f * 0.25f;
  check_prepares(q);
  q.bias_scale = 0.13f;
  check_refused(q, {"CONV_2D", "bias scale"});

  ConvCase pc;
  pc.type = QA8;
  pc.channel_scales = {0.5f, 0.25f, 0.125f};
  check_prepares(pc);
  pc.channel_scales = {0.5f, 0.25f};  // caught by operand validation already
  check_refused(pc, {"channelQuant has 2 scales for 3 channels"});
}

TEST_CASE("malformed GROUPED_CONV_2D: groups that do not divide the depths, padding, bias") {
  check_prepares(grouped_case());
  ConvCase c = grouped_case();
  c.scalars = {1, 1, 1, 3, 0};  // 3 groups: 4 input channels are not 3 x 2
  check_refused(c, {"GROUPED_CONV_2D"});
  c = grouped_case();
  c.filter = {5, 2, 2, 2}, c.bias = {5}, c.output = {1, 4, 4, 5};  // 5 outputs, 2 groups
  check_refused(c, {"GROUPED_CONV_2D", "multiple"});
  c = grouped_case();
  c.scalars = {1, 1, 0, 2, 0};  // stride_h 0
  check_refused(c, {"GROUPED_CONV_2D", "stride"});
  c = grouped_case();
  c.bias = {4};
  check_refused(c, {"GROUPED_CONV_2D", "bias"});
}

TEST_CASE("CONV_2D with a runtime filter: a valid run, and the shapes it was prepared for") {
  ConvCase c;
  c.filter_input = true;
  const Model m = build(c);
  const std::vector<float> x(32, 1.0f), w(24, 0.5f), bias(3, 0.25f);
  const auto r = run_model(m, {arg_of(x), arg_of(w), arg_of(bias)}, {output_of(48 * 4)});
  REQUIRE(r.status.has_value());
  CHECK(r.guards_intact);
  const auto out = r.output<float>(0);
  // SAME 2x2 on 4x4: the top-left tap window is whole (4 taps x 2 channels x 0.5) at (0, 0) and
  // cut to one column and one row at (3, 3).
  CHECK(out[0] == 4.25f);
  CHECK(out[47] == 1.25f);
}

}  // namespace nnhal::test::malformed::conv_suite
