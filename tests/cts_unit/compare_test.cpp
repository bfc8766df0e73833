// The conformance runner's output checks (tests/cts/compare.hpp) against SCHEMA.md "How outputs
// are compared": the tolerance table, the element rule at its boundary, the shape check and the
// multinomial statistics.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cts/compare.hpp"

namespace {

using namespace nnhal;
using namespace nnhal::cts;

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TestOperand operand_of(OperandType type) {
  TestOperand t;
  t.operand.type = type;
  return t;
}

}  // namespace

TEST_CASE("cts compare: float32 tolerance is strict unless relaxed or any subgraph has fp16") {
  TestModel m;
  m.main.operands.push_back(operand_of(OperandType::TENSOR_FLOAT32));
  CHECK_FALSE(uses_relaxed_float32_tolerance(m));

  const Tolerance strict = *output_tolerance(OperandType::TENSOR_FLOAT32, false, false);
  CHECK(strict.atol == static_cast<double>(1e-5f));
  CHECK(strict.atol == 9.99999974737875163555145263671875e-6);
  CHECK(strict.rtol == 5.9604644775390625e-7);

  m.relaxed = true;
  CHECK(uses_relaxed_float32_tolerance(m));
  m.relaxed = false;
  m.referenced.emplace_back();
  m.referenced[0].operands.push_back(operand_of(OperandType::TENSOR_FLOAT16));
  CHECK(uses_relaxed_float32_tolerance(m));
  // A scalar FLOAT16 operand does not count: the rule names TENSOR_FLOAT16.
  m.referenced[0].operands[0].operand.type = OperandType::FLOAT16;
  CHECK_FALSE(uses_relaxed_float32_tolerance(m));

  const Tolerance relaxed = *output_tolerance(OperandType::TENSOR_FLOAT32, true, false);
  CHECK(relaxed.atol == 0.0048828125);
  CHECK(relaxed.rtol == 0.0048828125);
  const Tolerance fp16 = *output_tolerance(OperandType::TENSOR_FLOAT16, false, false);
  CHECK(fp16.atol == 0.0048828125);
  CHECK(fp16.rtol == 0.0048828125);
}

TEST_CASE("cts compare: integer, quantized and boolean tolerances, mobilenet quant8 rule") {
  for (OperandType t : {OperandType::TENSOR_INT32, OperandType::INT32, OperandType::TENSOR_QUANT16_ASYMM,
                        OperandType::TENSOR_QUANT16_SYMM}) {
    const Tolerance tol = *output_tolerance(t, false, true);
    CHECK(tol.atol == 1.0);  // the mobilenet rule is for 8-bit types only
    CHECK(tol.rtol == 0.0);
  }
  for (OperandType t : {OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED,
                        OperandType::TENSOR_QUANT8_SYMM}) {
    CHECK(output_tolerance(t, false, false)->atol == 1.0);
    CHECK(output_tolerance(t, false, true)->atol == 3.0);
  }
  CHECK(is_mobilenet("mobilenet_quantized"));
  CHECK(is_mobilenet("test_mobilenet_224_gender_basic_fixed_relaxed"));
  CHECK_FALSE(is_mobilenet("add_quant8"));
  CHECK(output_tolerance(OperandType::TENSOR_BOOL8, false, false)->exact);
  // The harness cannot compare these; the runner reports them instead of guessing.
  CHECK_FALSE(output_tolerance(OperandType::FLOAT32, false, false));
  CHECK_FALSE(output_tolerance(OperandType::BOOL, false, false));
  CHECK_FALSE(output_tolerance(OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL, false, false));
}

TEST_CASE("cts compare: element rule |a - e| <= atol + rtol * |e| at its boundary") {
  const Tolerance tol{0.5, 0.25, false};
  CHECK(element_matches(13.0, 10.0, tol));    // 3 <= 0.5 + 2.5
  CHECK_FALSE(element_matches(13.0001, 10.0, tol));
  CHECK(element_matches(-13.0, -10.0, tol));  // |expected| scales rtol
  CHECK(element_matches(0.5, 0.0, tol));
  CHECK_FALSE(element_matches(0.50001, 0.0, tol));

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_FALSE(element_matches(nan, nan, tol));  // an expected NaN always fails
  CHECK_FALSE(element_matches(1.0, nan, tol));
  CHECK_FALSE(element_matches(nan, 1.0, tol));  // so does a NaN result
  CHECK(element_matches(inf, inf, tol));
  // With rtol > 0 an infinite expected value tolerates any finite or infinite result, as in
  // the harness; with rtol = 0 it does not.
  CHECK(element_matches(1e30, inf, tol));
  const Tolerance absolute{0.5, 0.0, false};
  CHECK(element_matches(-inf, -inf, absolute));
  CHECK_FALSE(element_matches(inf, -inf, absolute));
  CHECK_FALSE(element_matches(1e30, inf, absolute));

  const Tolerance exact{0.0, 0.0, true};
  CHECK(element_matches(1.0, 1.0, exact));
  CHECK_FALSE(element_matches(0.0, 1.0, exact));
}

TEST_CASE("cts compare: quantized values compare as raw stored integers") {
  const Tolerance one = *output_tolerance(OperandType::TENSOR_QUANT8_ASYMM, false, false);
  const auto expected = bytes_of(std::vector<std::uint8_t>{255, 0, 128});
  CHECK_FALSE(compare_values(OperandType::TENSOR_QUANT8_ASYMM, one,
                             bytes_of(std::vector<std::uint8_t>{254, 1, 127}).data(), expected.data(), 3));
  const auto off_by_two = bytes_of(std::vector<std::uint8_t>{253, 0, 128});
  const auto problem = compare_values(OperandType::TENSOR_QUANT8_ASYMM, one, off_by_two.data(), expected.data(), 3);
  REQUIRE(problem);
  CHECK(problem->find("1 of 3 elements differ") != std::string::npos);
  CHECK(problem->find("[0]") != std::string::npos);
  const Tolerance three = *output_tolerance(OperandType::TENSOR_QUANT8_ASYMM, false, true);
  CHECK_FALSE(compare_values(OperandType::TENSOR_QUANT8_ASYMM, three, off_by_two.data(), expected.data(), 3));

  // Signed 8-bit: -128 vs 127 is a difference of 255, not a wrap-around of 1.
  const auto s_expected = bytes_of(std::vector<std::int8_t>{-128});
  const auto s_actual = bytes_of(std::vector<std::int8_t>{127});
  CHECK(compare_values(OperandType::TENSOR_QUANT8_ASYMM_SIGNED, one, s_actual.data(), s_expected.data(), 1));

  // Only `count` elements are compared (product of the listed dimensions).
  CHECK_FALSE(compare_values(OperandType::TENSOR_QUANT8_ASYMM, one, off_by_two.data() + 1, expected.data() + 1, 2));
  CHECK_FALSE(compare_values(OperandType::TENSOR_QUANT8_ASYMM, one, nullptr, nullptr, 0));
}

TEST_CASE("cts compare: float16 and bool8 buffers") {
  const Tolerance fp16 = *output_tolerance(OperandType::TENSOR_FLOAT16, false, false);
  const auto expected = bytes_of(std::vector<std::uint16_t>{Half(1.0f).bits});
  // At 1.0 the tolerance is 2 * 5 * 2^-10 = 10 fp16 ULP: 8 ULP pass, 16 do not.
  const auto near = bytes_of(std::vector<std::uint16_t>{Half(1.0078125f).bits});
  const auto far = bytes_of(std::vector<std::uint16_t>{Half(1.015625f).bits});
  CHECK_FALSE(compare_values(OperandType::TENSOR_FLOAT16, fp16, near.data(), expected.data(), 1));
  CHECK(compare_values(OperandType::TENSOR_FLOAT16, fp16, far.data(), expected.data(), 1));
  // The 0xFF output sentinel is a float16 NaN: an unwritten output never passes.
  const auto sentinel = bytes_of(std::vector<std::uint16_t>{0xFFFF});
  CHECK(compare_values(OperandType::TENSOR_FLOAT16, fp16, sentinel.data(), expected.data(), 1));

  const Tolerance exact = *output_tolerance(OperandType::TENSOR_BOOL8, false, false);
  const auto b_expected = bytes_of(std::vector<std::uint8_t>{1, 0, 1});
  CHECK_FALSE(compare_values(OperandType::TENSOR_BOOL8, exact, bytes_of(std::vector<std::uint8_t>{1, 0, 1}).data(),
                             b_expected.data(), 3));
  // Any non-zero byte is true, as the harness casts each byte to bool.
  CHECK_FALSE(compare_values(OperandType::TENSOR_BOOL8, exact, bytes_of(std::vector<std::uint8_t>{7, 0, 255}).data(),
                             b_expected.data(), 3));
  CHECK(compare_values(OperandType::TENSOR_BOOL8, exact, bytes_of(std::vector<std::uint8_t>{1, 1, 1}).data(),
                       b_expected.data(), 3));
}

TEST_CASE("cts compare: reported shape must equal the listed one") {
  const std::vector<std::uint32_t> listed{2, 0, 3};
  CHECK_FALSE(compare_shape(listed, std::vector<std::uint32_t>{2, 0, 3}));
  CHECK(compare_shape(listed, std::vector<std::uint32_t>{2, 1, 3}));
  CHECK(compare_shape(listed, std::vector<std::uint32_t>{2, 0}));
  CHECK_FALSE(compare_shape({}, {}));  // scalars
  const auto p = compare_shape(listed, std::vector<std::uint32_t>{6});
  REQUIRE(p);
  CHECK(*p == "reported shape [6], expected [2,0,3]");
}

TEST_CASE("cts compare: multinomial frequencies against softmax of the logits") {
  // Four classes; logits log(1), log(1), log(2), log(4) give probabilities 1/8, 1/8, 2/8, 4/8.
  const std::vector<float> logits{0.0f, 0.0f, std::log(2.0f), std::log(4.0f)};
  const auto l = bytes_of(logits);
  const std::vector<std::uint32_t> l_dims{1, 4}, s_dims{1, 8};
  const auto exact = bytes_of(std::vector<std::int32_t>{0, 1, 2, 2, 3, 3, 3, 3});
  CHECK_FALSE(check_multinomial(OperandType::TENSOR_FLOAT32, l.data(), l_dims, exact.data(), s_dims, 0.025));
  const auto skewed = bytes_of(std::vector<std::int32_t>{0, 0, 2, 2, 3, 3, 3, 3});
  CHECK(check_multinomial(OperandType::TENSOR_FLOAT32, l.data(), l_dims, skewed.data(), s_dims, 0.025));
  CHECK_FALSE(check_multinomial(OperandType::TENSOR_FLOAT32, l.data(), l_dims, skewed.data(), s_dims, 0.2));
  const auto out_of_range = bytes_of(std::vector<std::int32_t>{0, 1, 2, 2, 3, 3, 3, 4});
  CHECK(check_multinomial(OperandType::TENSOR_FLOAT32, l.data(), l_dims, out_of_range.data(), s_dims, 1.0));

  // fp16 logits are widened first.
  std::vector<std::uint16_t> half_logits;
  for (float v : logits) half_logits.push_back(Half(v).bits);
  const auto h = bytes_of(half_logits);
  CHECK_FALSE(check_multinomial(OperandType::TENSOR_FLOAT16, h.data(), l_dims, exact.data(), s_dims, 0.025));

  CHECK(check_multinomial(OperandType::TENSOR_FLOAT32, l.data(), std::vector<std::uint32_t>{4}, exact.data(), s_dims,
                          0.025));
}
