// CONCATENATION's kernels (include/nnhal/kernels/concatenation.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "nnhal/builder/builder.hpp"
#include "nnhal/exec/prepared_model.hpp"
#include "nnhal/kernels/concatenation.hpp"
#include "nnhal/kernels/resolve.hpp"
#include "support/run_model.hpp"

// Regression (found by validate_fuzz): requantizing an input whose scale is 1e32 times the
// output's took the rounded value past the int range, and the cast to int was undefined
// behaviour. The value saturates to the storage range now, as every in-range value is clamped.
TEST_CASE("concatenation: requantizing with an extreme ratio of scales saturates") {
  using nnhal::OperandType;
  using nnhal::OperationType;
  constexpr auto Q8 = OperandType::TENSOR_QUANT8_ASYMM;
  using Concat = nnhal::KernelSet<nnhal::Use<OperationType::CONCATENATION, Q8>>;
  nnhal::ModelBuilder b;
  const auto a = b.input<Q8>({{2}, 1e30f, 0});      // requantized: 1e30 / 1e-2 = 1e32 per step
  const auto c = b.input<Q8>({{2}, 1e-2f, 10});     // the output's parameters: copied
  b.output(b.operation<OperationType::CONCATENATION, Q8>({{4}, 1e-2f, 10}, a, c, b.scalar<OperandType::INT32>(0)));
  const nnhal::Model model = std::move(b).model();
  const auto r = nnhal::test::run_model<Concat>(
      model, {nnhal::test::arg_of<std::uint8_t>({0, 200}), nnhal::test::arg_of<std::uint8_t>({3, 4})},
      {nnhal::test::output_of(4)});
  REQUIRE(r.status.has_value());
  // 0 stays the zero point (0 * 1e32 + 10); 200 * 1e32 saturates at 255.
  CHECK(r.output<std::uint8_t>(0) == std::vector<std::uint8_t>{10, 255, 3, 4});
}
