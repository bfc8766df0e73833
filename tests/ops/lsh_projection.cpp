// Kernels of LSH_PROJECTION (nnhal/kernels/lsh_projection.hpp): the FarmHash Fingerprint64
// against values printed by Google's farmhash.cc (util::Fingerprint64) for one pseudo-random
// byte string cut at every length class (0-16, 17-32, 33-64, the 64-byte block loop), read
// through keys split at every position; then the projections (sparse, deprecated sparse,
// dense) on every hash type and input type, with and without weights, against a plain
// reference written here from the definition; and the runtime errors.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "nnhal/kernels/lsh_projection.hpp"
#include "ops/kernel_test_util.hpp"

using nnhal::Dims;
using nnhal::Half;
using nnhal::OperandType;
using nnhal::OperationType;
using nnhal::element_t;
using nnhal::test::KernelNode;
using nnhal::test::kernels_of;
namespace farm = nnhal::kernels::lsh_projection::farm;

namespace {

/// The test string: an LCG's bytes (x = x * 1103515245 + 12345 from 12345, byte = x >> 16).
std::vector<unsigned char> test_bytes() {
  std::vector<unsigned char> b(400);
  unsigned x = 12345;
  for (auto& c : b) {
    x = x * 1103515245u + 12345u;
    c = static_cast<unsigned char>(x >> 16);
  }
  return b;
}

struct Vector {
  std::size_t len;
  std::uint64_t fingerprint;
};

// util::Fingerprint64(bytes, len) from github.com/google/farmhash src/farmhash.cc.
const Vector kVectors[] = {
    {0, 0x9ae16a3b2f90404fULL},   {1, 0x1032417b210a5a46ULL},   {2, 0xc56b2322c029e856ULL},
    {3, 0x1a4c70cf237614daULL},   {4, 0x6566a3d4486e777aULL},   {5, 0x362f9d43735ed00dULL},
    {7, 0xcd6452948d74f843ULL},   {8, 0xe344aaf7aaf141caULL},   {9, 0x0ffbdb79208b2aa0ULL},
    {12, 0xd65e302c605543a6ULL},  {15, 0xa59e8bc25c77b14dULL},  {16, 0x96e8984dec122a76ULL},
    {17, 0xf37241559f59a08cULL},  {20, 0x20130b419863ac8eULL},  {31, 0x4d6c6e612e0069d8ULL},
    {32, 0x9d7c84c8d58b352bULL},  {33, 0xf6922e4f7a34272fULL},  {40, 0xe8210eaa3d2bf806ULL},
    {63, 0x569e8dd90198b48dULL},  {64, 0xbc3047bfbcbd2ff0ULL},  {65, 0x07521b9a48cbc10aULL},
    {100, 0x36a01f1294b88419ULL}, {127, 0x16123f0ded112552ULL}, {128, 0xf4dd7b2f0f29cab7ULL},
    {129, 0xd2b5189f8e4cfbeeULL}, {200, 0x778565020bf44061ULL}, {300, 0x8905bdbed64d0bc4ULL},
    {399, 0x6e2d7a32dc456185ULL},
};

std::uint64_t fingerprint(const unsigned char* p, std::size_t len) {
  return farm::fingerprint64(farm::Key{p, len, p + len, len});
}

}  // namespace

TEST_CASE("LSH_PROJECTION: Fingerprint64 matches FarmHash at every length class and key split") {
  const std::vector<unsigned char> b = test_bytes();
  for (const Vector& v : kVectors) {
    CAPTURE(v.len);
    CHECK(fingerprint(b.data(), v.len) == v.fingerprint);
    // The same bytes as a head and a tail, split anywhere (the kernel splits after the seed).
    for (std::size_t split = 0; split <= v.len; split += (v.len < 20 ? 1 : 7)) {
      CAPTURE(split);
      CHECK(farm::fingerprint64(farm::Key{b.data(), split, b.data() + split, v.len}) == v.fingerprint);
    }
  }
}

namespace {

constexpr std::int32_t kSparseDeprecated = 1, kDense = 2, kSparse = 3;

/// Plain LSH: bit (i, j) = sign of sum_r weight[r] * double(int64(fp(seed bytes ++ row r bytes))).
std::vector<std::int32_t> lsh_ref(const std::vector<float>& hash, std::size_t num_hash, std::size_t num_bits,
                                  const std::vector<unsigned char>& input, std::size_t rows,
                                  const std::vector<float>* weight, std::int32_t type) {
  const std::size_t row_bytes = input.size() / rows;
  std::vector<std::int32_t> out;
  for (std::size_t i = 0; i < num_hash; ++i) {
    std::uint32_t sig = 0;
    for (std::size_t j = 0; j < num_bits; ++j) {
      const float seed = hash[i * num_bits + j];
      double score = 0;
      for (std::size_t r = 0; r < rows; ++r) {
        std::vector<unsigned char> key(sizeof seed + row_bytes);
        std::memcpy(key.data(), &seed, sizeof seed);
        if (row_bytes != 0) std::memcpy(key.data() + sizeof seed, input.data() + r * row_bytes, row_bytes);
        const double v = static_cast<double>(static_cast<std::int64_t>(fingerprint(key.data(), key.size())));
        score += (weight != nullptr ? static_cast<double>((*weight)[r]) : 1.0) * v;
      }
      const int bit = score > 0 ? 1 : 0;
      if (type == kDense) out.push_back(bit);
      sig = (sig << 1) | static_cast<std::uint32_t>(bit);
    }
    if (type == kSparse) out.push_back(static_cast<std::int32_t>(sig + (static_cast<std::uint32_t>(i) << num_bits)));
    if (type == kSparseDeprecated) out.push_back(static_cast<std::int32_t>(sig));
  }
  return out;
}

template <class E>
std::vector<unsigned char> bytes_of(const std::vector<E>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(E));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/// One random case with hash type H and input type I.
template <OperandType H, OperandType I>
void check_random(std::mt19937& rng, std::int32_t type, bool weighted) {
  using HE = element_t<H>;
  using IE = element_t<I>;
  const std::size_t num_hash = std::uniform_int_distribution<std::size_t>(1, 4)(rng);
  const std::size_t num_bits = std::uniform_int_distribution<std::size_t>(1, 6)(rng);
  const std::size_t rows = std::uniform_int_distribution<std::size_t>(1, 4)(rng);
  const std::size_t cols = std::uniform_int_distribution<std::size_t>(1, 20)(rng);  // keys of 5 to 84 bytes
  std::uniform_real_distribution<float> real(-2.0f, 2.0f);
  std::vector<HE> hash(num_hash * num_bits), weight(rows);
  std::vector<float> hash_f, weight_f;
  for (auto& h : hash) h = static_cast<HE>(real(rng)), hash_f.push_back(static_cast<float>(h));
  for (auto& w : weight) w = static_cast<HE>(real(rng)), weight_f.push_back(static_cast<float>(w));
  std::vector<IE> input(rows * cols);
  for (auto& v : input) {
    if constexpr (I == OperandType::TENSOR_FLOAT32 || I == OperandType::TENSOR_FLOAT16)
      v = static_cast<IE>(real(rng));
    else
      v = static_cast<IE>(std::uniform_int_distribution<int>(0, 255)(rng));
  }
  KernelNode n;
  n.tensor<H>(Dims{static_cast<std::uint32_t>(num_hash), static_cast<std::uint32_t>(num_bits)}, hash);
  n.tensor<I>(Dims{static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols)}, input, 1.0f, 0);
  n.tensor<H>(Dims{static_cast<std::uint32_t>(rows)}, weight);
  if (!weighted) {
    n.in(2).lifetime = nnhal::OperandLifeTime::NO_VALUE;
    n.in(2).data = nullptr;
  }
  n.scalar<OperandType::INT32>(type);
  n.output(OperandType::TENSOR_INT32);
  REQUIRE(n.run(kernels_of<OperationType::LSH_PROJECTION>()));
  const auto want = lsh_ref(hash_f, num_hash, num_bits, bytes_of(input), rows, weighted ? &weight_f : nullptr, type);
  CHECK(n.out(0).dims == Dims{static_cast<std::uint32_t>(want.size())});
  CHECK(n.values<OperandType::TENSOR_INT32>(0) == want);
}

}  // namespace

TEST_CASE("LSH_PROJECTION: sparse, deprecated sparse and dense on every hash and input type") {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 6; ++iter) {
    for (std::int32_t type : {kSparseDeprecated, kDense, kSparse}) {
      for (bool weighted : {false, true}) {
        CAPTURE(iter);
        CAPTURE(type);
        CAPTURE(weighted);
        check_random<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT32>(rng, type, weighted);
        check_random<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32>(rng, type, weighted);
        check_random<OperandType::TENSOR_FLOAT32, OperandType::TENSOR_QUANT8_ASYMM>(rng, type, weighted);
        check_random<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT16>(rng, type, weighted);
        check_random<OperandType::TENSOR_FLOAT16, OperandType::TENSOR_INT32>(rng, type, weighted);
      }
    }
  }
}

TEST_CASE("LSH_PROJECTION: a sparse output adds the hash function's index above its bits") {
  // Two identical hash functions give identical bits; the sparse outputs differ by 1 << num_bits.
  KernelNode n;
  n.tensor<OperandType::TENSOR_FLOAT32>(Dims{2, 3}, {0.5f, -1.0f, 2.0f, 0.5f, -1.0f, 2.0f});
  n.tensor<OperandType::TENSOR_INT32>(Dims{2, 2}, {1, 2, 3, 4});
  n.tensor<OperandType::TENSOR_FLOAT32>(Dims{2}, {1.0f, 1.0f});
  n.scalar<OperandType::INT32>(kSparse);
  n.output(OperandType::TENSOR_INT32);
  REQUIRE(n.run(kernels_of<OperationType::LSH_PROJECTION>()));
  const auto v = n.values<OperandType::TENSOR_INT32>(0);
  REQUIRE(v.size() == 2);
  CHECK(v[0] >= 0);
  CHECK(v[0] < 8);
  CHECK(v[1] == v[0] + 8);
}

TEST_CASE("LSH_PROJECTION: bad runtime values are refused") {
  auto make = [](Dims hash, Dims input, Dims weight, std::int32_t type) {
    KernelNode n;
    n.tensor<OperandType::TENSOR_FLOAT32>(hash, std::vector<float>(hash.element_count(), 1.0f));
    n.tensor<OperandType::TENSOR_INT32>(input, std::vector<std::int32_t>(input.element_count(), 3));
    n.tensor<OperandType::TENSOR_FLOAT32>(weight, std::vector<float>(weight.element_count(), 1.0f));
    n.scalar<OperandType::INT32>(type);
    n.output(OperandType::TENSOR_INT32);
    return n;
  };
  const auto& impl = kernels_of<OperationType::LSH_PROJECTION>();
  CHECK(make(Dims{2, 3}, Dims{2, 2}, Dims{2}, kDense).run(impl));
  for (std::int32_t type : {0, 4, -1}) {
    auto n = make(Dims{2, 3}, Dims{2, 2}, Dims{2}, type);
    CHECK(n.run(impl).error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  }
  auto bits = make(Dims{2, 33}, Dims{2, 2}, Dims{2}, kSparse);
  CHECK(bits.run(impl).error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  auto rank = make(Dims{6}, Dims{2, 2}, Dims{2}, kSparse);
  CHECK(rank.run(impl).error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  auto weight = make(Dims{2, 3}, Dims{2, 2}, Dims{3}, kDense);
  CHECK(weight.run(impl).error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  auto empty = make(Dims{2, 3}, Dims{0, 2}, Dims{0}, kDense);
  CHECK(empty.run(impl).error().status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
}
