// LOGICAL_AND, LOGICAL_OR, LOGICAL_NOT kernels: truth tables, any non-zero byte is true, the
// output is 0 or 1, broadcasting.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "nnhal/ops/logical_and.hpp"
#include "nnhal/ops/logical_not.hpp"
#include "nnhal/ops/logical_or.hpp"
#include "ops/kernel_test_util.hpp"
#include "nnhal/kernels/logical_and.hpp"
#include "nnhal/kernels/logical_or.hpp"
#include "nnhal/kernels/logical_not.hpp"

using nnhal::Dims;
using nnhal::OperandType;
using nnhal::test::KernelNode;
namespace ops = nnhal::ops;

namespace {

std::vector<std::uint8_t> run_logical(const nnhal::OpKernel& impl, const Dims& da,
                                      const std::vector<std::uint8_t>& a, const Dims& db,
                                      const std::vector<std::uint8_t>& b, Dims& out_dims) {
  KernelNode node;
  node.tensor<OperandType::TENSOR_BOOL8>(da, a);
  node.tensor<OperandType::TENSOR_BOOL8>(db, b);
  node.output(OperandType::TENSOR_BOOL8);
  const auto s = node.run(impl);
  REQUIRE(s);
  out_dims = node.out(0).dims;
  return node.values<OperandType::TENSOR_BOOL8>(0);
}

}  // namespace

TEST_CASE("LOGICAL_AND and LOGICAL_OR: truth tables with non-canonical true bytes") {
  const std::vector<std::uint8_t> a = {0, 0, 2, 255}, b = {0, 7, 0, 1};
  Dims dims;
  CHECK(run_logical(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_AND>(), {4}, a, {4}, b, dims) == std::vector<std::uint8_t>{0, 0, 0, 1});
  CHECK(dims == Dims{4});
  CHECK(run_logical(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_OR>(), {4}, a, {4}, b, dims) == std::vector<std::uint8_t>{0, 1, 1, 1});
}

TEST_CASE("LOGICAL_AND and LOGICAL_OR broadcast") {
  // a [2, 1] = {0, 3}, b [1, 3] = {1, 0, 9} -> [2, 3]
  Dims dims;
  CHECK(run_logical(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_AND>(), {2, 1}, {0, 3}, {1, 3}, {1, 0, 9}, dims) ==
        std::vector<std::uint8_t>{0, 0, 0, 1, 0, 1});
  CHECK(dims == Dims{2, 3});
  CHECK(run_logical(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_OR>(), {2, 1}, {0, 3}, {1, 3}, {1, 0, 9}, dims) ==
        std::vector<std::uint8_t>{1, 0, 1, 1, 1, 1});
  // a scalar-like [1] against [2, 2]
  CHECK(run_logical(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_OR>(), {1}, {0}, {2, 2}, {0, 4, 0, 1}, dims) ==
        std::vector<std::uint8_t>{0, 1, 0, 1});
  CHECK(dims == Dims{2, 2});
}

TEST_CASE("LOGICAL_AND rejects shapes that do not broadcast") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_BOOL8>({2}, {1, 1});
  node.tensor<OperandType::TENSOR_BOOL8>({3}, {1, 1, 1});
  node.output(OperandType::TENSOR_BOOL8);
  CHECK_FALSE(node.infer(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_AND>()));
}

TEST_CASE("LOGICAL_NOT: 0 -> 1, any non-zero byte -> 0, same shape") {
  KernelNode node;
  node.tensor<OperandType::TENSOR_BOOL8>({2, 3}, {0, 1, 2, 255, 0, 128});
  node.output(OperandType::TENSOR_BOOL8);
  REQUIRE(node.run(nnhal::test::kernels_of<nnhal::OperationType::LOGICAL_NOT>()));
  CHECK(node.out(0).dims == Dims{2, 3});
  CHECK(node.out(0).rank_known);
  CHECK(node.values<OperandType::TENSOR_BOOL8>(0) == std::vector<std::uint8_t>{1, 0, 0, 0, 1, 0});
}
