// nnhal::simd::binary_f32 / binary_f32_scalar_first (include/nnhal/simd/elementwise_f32.hpp), through each
// operation's own table (elementwise_f32<BinaryOp>),
// against the FLOAT32 reference formula of ADD/SUB/MUL/DIV: reference_f32<Op> computes
// FloatRange::apply(Op::apply(a, b)) per element, and so does the loop below, with the same
// functors. The SIMD results must be identical (bit for bit; NaN may differ only in payload),
// for the kernels of every compiled target this CPU can run (simd::compiled_targets()).

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nnhal/kernels/common/activation.hpp"
#include "nnhal/kernels/common/arithmetic.hpp"
#include "nnhal/simd/elementwise_f32.hpp"
#include "simd/simd_tester.hpp"

namespace {

namespace ar = nnhal::kernels::arithmetic;
namespace st = nnhal::test::simd;
using nnhal::FloatRange;

enum class Layout { kBoth, kScalarB, kScalarA };

/// The reference, element by element.
template <class Op>
std::vector<float> expected(const std::vector<float>& a, const std::vector<float>& b, Layout layout,
                            std::size_t n, FloatRange r) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = layout == Layout::kScalarA ? a[0] : a[i];
    const float y = layout == Layout::kScalarB ? b[0] : b[i];
    out[i] = r.apply(Op::apply(x, y));
  }
  return out;
}

/// Runs target t's SIMD kernel in `layout` reading a and b and writing out.
template <class Op>
void run(const st::Target& t, Layout layout, const float* a, const float* b, float* out,
         std::size_t n, FloatRange r) {
  const nnhal::simd::ElementwiseF32& k = nnhal::simd::elementwise_f32<Op::simd_op>(t.target);
  if (layout == Layout::kScalarA)
    k.binary_scalar_first(a[0], b, out, n, r.min, r.max);
  else
    k.binary(a, b, layout == Layout::kScalarB, out, n, r.min, r.max);
}

/// Activation ranges: NONE, RELU, RELU1, RELU6.
std::vector<FloatRange> ranges() {
  std::vector<FloatRange> out;
  for (std::int32_t act = 0; act <= 3; ++act) out.push_back(nnhal::float_activation_range(act));
  return out;
}

template <class Op>
void check_out_of_place(const st::Target& t, Layout layout) {
  std::uint32_t seed = 1;
  for (const FloatRange r : ranges()) {
    CAPTURE(r.min);
    CAPTURE(r.max);
    st::for_each_case(st::sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets off) {
      const std::size_t na = layout == Layout::kScalarA ? 1 : n,
                        nb = layout == Layout::kScalarB ? 1 : n;
      const std::vector<float> va = st::special_mix(na, ++seed), vb = st::special_mix(nb, ++seed);
      st::Buffer a(na, off.in), b(nb, (off.in + 1) % 4), out(n, off.out);
      a.assign(va);
      b.assign(vb);
      run<Op>(t, layout, a.data(), b.data(), out.data(), n, r);
      st::check_same(out.span(), expected<Op>(va, vb, layout, n, r));
      st::check_same(a.span(), va);  // inputs untouched
      st::check_same(b.span(), vb);
      CHECK(a.guards_intact());
      CHECK(b.guards_intact());
      CHECK(out.guards_intact());
    });
  }
}

/// out aliases a ("a"), b ("b") or both with a == b ("ab").
template <class Op>
void check_in_place(const st::Target& t, Layout layout, const char* alias) {
  const std::string which = alias;
  std::uint32_t seed = 1000;
  for (const FloatRange r : ranges()) {
    CAPTURE(r.min);
    CAPTURE(r.max);
    st::for_each_case(st::sizes(t.lanes_f32()), [&](std::size_t n, st::Offsets off) {
      if (off.in != off.out) return;                  // one buffer: a single offset
      if (n == 0 && layout != Layout::kBoth) return;  // a scalar side needs one element
      const bool a_full = layout != Layout::kScalarA, b_full = layout != Layout::kScalarB;
      std::vector<float> va = st::special_mix(a_full ? n : 1, ++seed);
      std::vector<float> vb = st::special_mix(b_full ? n : 1, ++seed);
      if (which == "ab") vb = va;
      st::Buffer shared(n, off.out), other(which == "a" ? vb.size() : va.size(), (off.in + 1) % 4);
      const float* a = nullptr;
      const float* b = nullptr;
      if (which == "a") {
        shared.assign(va), other.assign(vb), a = shared.data(), b = other.data();
      } else if (which == "b") {
        shared.assign(vb), other.assign(va), a = other.data(), b = shared.data();
      } else {
        shared.assign(va), a = b = shared.data();
      }
      run<Op>(t, layout, a, b, shared.data(), n, r);
      st::check_same(shared.span(), expected<Op>(va, vb, layout, n, r));
      CHECK(shared.guards_intact());
    });
  }
}

}  // namespace

/// Runs check(target) for every compiled target this CPU can run.
#define FOR_EACH_TARGET(check) st::for_each_target([&](const st::Target& t) { check; })

TEST_CASE_TEMPLATE("simd::binary_f32 equals the reference bit for bit (sizes, tails, offsets)", Op,
                   ar::Add, ar::Sub, ar::Mul, ar::Div) {
  SUBCASE("both operands full") {
    FOR_EACH_TARGET(check_out_of_place<Op>(t, Layout::kBoth));
  }
  SUBCASE("second operand scalar") {
    FOR_EACH_TARGET(check_out_of_place<Op>(t, Layout::kScalarB));
  }
  SUBCASE("first operand scalar (binary_f32_scalar_first)") {
    FOR_EACH_TARGET(check_out_of_place<Op>(t, Layout::kScalarA));
  }
}

TEST_CASE_TEMPLATE("simd::binary_f32 in place: out aliasing an input", Op, ar::Add, ar::Sub,
                   ar::Mul, ar::Div) {
  SUBCASE("out == a") {
    FOR_EACH_TARGET(check_in_place<Op>(t, Layout::kBoth, "a"));
  }
  SUBCASE("out == b") {
    FOR_EACH_TARGET(check_in_place<Op>(t, Layout::kBoth, "b"));
  }
  SUBCASE("out == a == b") {
    FOR_EACH_TARGET(check_in_place<Op>(t, Layout::kBoth, "ab"));
  }
  SUBCASE("out == a, b scalar") {
    FOR_EACH_TARGET(check_in_place<Op>(t, Layout::kScalarB, "a"));
  }
  SUBCASE("out == b, a scalar") {
    FOR_EACH_TARGET(check_in_place<Op>(t, Layout::kScalarA, "b"));
  }
}

TEST_CASE("simd::binary_f32 reads and writes nothing past its buffers (exact-size heap blocks)") {
  // Guarded buffers catch stray writes only; with every array its own exact-size heap block an
  // AddressSanitizer build also reports over-reads.
  st::for_each_target([](const st::Target& t) {
    std::uint32_t seed = 77;
    for (const std::size_t n : st::sizes(t.lanes_f32())) {
      if (n == 0) continue;
      CAPTURE(n);
      const std::vector<float> a = st::special_mix(n, ++seed), b = st::special_mix(n, ++seed);
      const FloatRange relu1 = nnhal::float_activation_range(2);
      std::vector<float> out(n);
      run<ar::Div>(t, Layout::kBoth, a.data(), b.data(), out.data(), n, relu1);
      st::check_same(out, expected<ar::Div>(a, b, Layout::kBoth, n, relu1));
      run<ar::Add>(t, Layout::kScalarB, a.data(), b.data(), out.data(), n, relu1);
      st::check_same(out, expected<ar::Add>(a, b, Layout::kScalarB, n, relu1));
      run<ar::Sub>(t, Layout::kScalarA, a.data(), b.data(), out.data(), n, relu1);
      st::check_same(out, expected<ar::Sub>(a, b, Layout::kScalarA, n, relu1));
    }
  });
}

TEST_CASE("simd::binary_f32 clamp keeps NaN, -0.0 and the bounds exactly as the reference") {
  // Hand-picked cases with known answers (independent of the reference loop above).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> a = {nan, -0.0f, 7.0f, -3.0f, 0.5f, inf, -inf, 1.0f, 6.0f};
  const std::vector<float> b(a.size(), 0.0f);  // x + 0 = x, except -0 + 0 = +0
  // x - 0: -0 - 0 = -0; RELU6 keeps -0 (it is not < 0) and NaN (no compare is true).
  auto check = [&](const std::vector<float>& out) {
    CHECK(std::isnan(out[0]));
    CHECK(std::signbit(out[1]));
    CHECK(out[1] == 0.0f);
    CHECK(out[2] == 6.0f);
    CHECK(out[3] == 0.0f);
    CHECK(out[4] == 0.5f);
    CHECK(out[5] == 6.0f);
    CHECK(out[6] == 0.0f);
    CHECK(out[7] == 1.0f);
    CHECK(out[8] == 6.0f);
  };
  st::for_each_target([&](const st::Target& t) {
    std::vector<float> out(a.size());
    nnhal::simd::elementwise_f32<nnhal::simd::BinaryOp::Sub>(t.target).binary(a.data(), b.data(), false,
                                                                               out.data(), a.size(), 0.0f, 6.0f);
    check(out);
  });
  // The public entry point, through the chosen target.
  std::vector<float> out(a.size());
  nnhal::simd::binary_f32<nnhal::simd::BinaryOp::Sub>(a.data(), b.data(), false, out.data(), a.size(), 0.0f,
                                                      6.0f);
  check(out);
}

TEST_CASE("simd::elementwise_f32: each operation has its own table, its own entry points") {
  using nnhal::simd::BinaryOp;
  using nnhal::simd::elementwise_f32;
  st::for_each_target([](const st::Target& t) {
    const nnhal::simd::ElementwiseF32* tables[] = {&elementwise_f32<BinaryOp::Add>(t.target),
                                                   &elementwise_f32<BinaryOp::Sub>(t.target),
                                                   &elementwise_f32<BinaryOp::Mul>(t.target),
                                                   &elementwise_f32<BinaryOp::Div>(t.target)};
    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j) {
        if (i == j) continue;
        CHECK((tables[i] != tables[j]));
        CHECK((tables[i]->binary != tables[j]->binary));  // (doctest cannot print fn pointers)
        CHECK((tables[i]->binary_scalar_first != tables[j]->binary_scalar_first));
      }
  });
}
