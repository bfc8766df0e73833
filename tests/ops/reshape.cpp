// RESHAPE kernel: shape inference from the shape tensor (-1 inference, error cases) and the
// byte copy for every element type, including an output sharing the input's buffer.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "nnhal/ops/reshape.hpp"
#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/reshape.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::test::KernelNode;
namespace reshape = nnhal::kernels::reshape;

namespace {

template <OperandType T>
struct ReshapeTag {
  static constexpr OperandType type = T;
};

/// Infers the output shape of reshaping a float tensor of `in` to `shape`.
nnhal::Expected<Dims> reshape_dims(const Dims& in, const std::vector<std::int32_t>& shape) {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>(in, std::vector<float>(in.element_count()));
  node.tensor<OperandType::TENSOR_INT32>({static_cast<std::uint32_t>(shape.size())}, shape);
  node.output(OperandType::TENSOR_FLOAT32);
  if (auto s = node.infer(nnhal::test::kernels_of<nnhal::OperationType::RESHAPE>()); !s) return std::move(s.error());
  CHECK(node.out(0).rank_known);
  return node.out(0).dims;
}

}  // namespace

TEST_CASE("RESHAPE infers the output shape, with and without -1") {
  auto check = [](const Dims& in, const std::vector<std::int32_t>& shape, const Dims& want) {
    auto got = reshape_dims(in, shape);
    REQUIRE(got);
    CHECK(*got == want);
  };
  check({2, 3, 4}, {6, 4}, {6, 4});
  check({2, 3, 4}, {-1, 4}, {6, 4});
  check({2, 3, 4}, {4, -1, 2}, {4, 3, 2});
  check({2, 3, 4}, {-1}, {24});
  check({2, 3, 4}, {1, 1, 24, 1}, {1, 1, 24, 1});
  check({24}, {2, 3, 2, 2}, {2, 3, 2, 2});
  check({1}, {}, {});  // a one-element tensor to a scalar-shaped tensor
  check({7}, {1, -1, 1}, {1, 7, 1});
}

TEST_CASE("RESHAPE rejects bad target shapes at run time") {
  CHECK_FALSE(reshape_dims({2, 3, 4}, {5, 5}));          // 25 != 24
  CHECK_FALSE(reshape_dims({2, 3, 4}, {-1, -1}));        // two -1
  CHECK_FALSE(reshape_dims({2, 3, 4}, {-1, 5}));         // 24 not divisible by 5
  CHECK_FALSE(reshape_dims({2, 3, 4}, {-2, -12}));       // entries below -1
  CHECK_FALSE(reshape_dims({2, 3, 4}, {0, -1}));         // -1 next to 0
  CHECK_FALSE(reshape_dims({2, 3, 4}, {24, 0}));         // 0 elements
  CHECK_FALSE(reshape_dims({1}, {1, 1, 1, 1, 1, 1, 1, 1, 1}));  // more entries than kMaxRank
  CHECK_FALSE(reshape_dims({4}, {65536, 65536, 65536, 65536}));  // huge product: no wrap
  const auto e = reshape_dims({2, 3, 4}, {5, 5});
  REQUIRE_FALSE(e);
  CHECK(e.error().status() == nnhal::ErrorStatus::GENERAL_FAILURE);
}

TEST_CASE_TEMPLATE("RESHAPE copies the elements unchanged", Tag, ReshapeTag<OperandType::TENSOR_FLOAT32>,
                   ReshapeTag<OperandType::TENSOR_FLOAT16>, ReshapeTag<OperandType::TENSOR_QUANT8_ASYMM>,
                   ReshapeTag<OperandType::TENSOR_QUANT8_ASYMM_SIGNED>) {
  constexpr OperandType T = Tag::type;
  using E = nnhal::element_t<T>;
  std::vector<E> data;
  for (int i = 0; i < 12; ++i) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      data.push_back(Half(static_cast<float>(i) - 5.5f));
    else
      data.push_back(static_cast<E>(i * 7 - 40));
  }
  KernelNode node;
  node.tensor<T>({3, 4}, data, 0.5f, 3);
  node.tensor<OperandType::TENSOR_INT32>({3}, {2, -1, 3});
  node.output(T, 0.5f, 3);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::RESHAPE>()));
  CHECK(node.out(0).dims == Dims{2, 2, 3});
  const auto got = node.values<T>(0);
  REQUIRE(got.size() == data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    if constexpr (T == OperandType::TENSOR_FLOAT16)
      CHECK(got[i].bits == data[i].bits);
    else
      CHECK(got[i] == data[i]);
  }
}

TEST_CASE("RESHAPE with the output sharing the input buffer leaves the data in place") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_FLOAT32>({2, 2}, {1, 2, 3, 4});
  node.tensor<OperandType::TENSOR_INT32>({1}, {4});
  node.output(OperandType::TENSOR_FLOAT32);
  REQUIRE(node.infer(nnhal::test::kernels_of<nnhal::OperationType::RESHAPE>()));
  auto kernel = node.select(nnhal::test::kernels_of<nnhal::OperationType::RESHAPE>());
  REQUIRE(kernel);
  node.out(0).data = node.in(0).data;  // the executor may alias them
  node.out(0).length = node.in(0).length;
  REQUIRE((*kernel)(node.io()));
  CHECK(node.values<OperandType::TENSOR_FLOAT32>(0) == std::vector<float>{1, 2, 3, 4});
}

TEST_CASE("RESHAPE declares that its shape depends on the value of input 1") {
  CHECK(nnhal::operation_info<nnhal::OperationType::RESHAPE>().value_inputs == (std::uint64_t{1} << 1));
}
