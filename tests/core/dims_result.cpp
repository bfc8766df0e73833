#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "nnhal/core/dims.hpp"
#include "nnhal/core/result.hpp"

using nnhal::Dims;

TEST_CASE("Dims: element counts, unknown entries and rank limits") {
  const Dims d{2, 3, 4};
  CHECK(d.rank() == 3);
  CHECK(d.element_count() == 24);
  CHECK(d.all_known());
  CHECK(Dims{}.element_count() == 1);
  CHECK_FALSE(Dims{2, 0}.all_known());
  CHECK(Dims{2, 0}.element_count() == 0);
  CHECK(Dims{0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}.element_count() == UINT64_MAX);  // saturates

  Dims e;
  const std::vector<std::uint32_t> too_long(nnhal::kMaxRank + 1, 1);
  CHECK_FALSE(e.assign(too_long));
  CHECK(e.rank() == 0);
  const std::vector<std::uint32_t> ok(nnhal::kMaxRank, 2);
  CHECK(e.assign(ok));
  CHECK(e.element_count() == (1ull << nnhal::kMaxRank));
  CHECK(Dims{1, 2} == Dims{1, 2});
  CHECK_FALSE(Dims{1, 2} == Dims{2, 1});
}

TEST_CASE("Error: formatting, truncation and prefixes never overflow") {
  auto e = NNHAL_INVALID("operand %d: %s", 7, "bad scale");
  CHECK(e.status() == nnhal::ErrorStatus::INVALID_ARGUMENT);
  CHECK(e.message() == "operand 7: bad scale");
  e.prefix("main.operations[%d] (%s)", 2, "ADD");
  CHECK(e.message() == "main.operations[2] (ADD): operand 7: bad scale");

  const std::string long_text(1000, 'x');
  auto big = NNHAL_FAILURE("%s", long_text.c_str());
  CHECK(big.message().size() == NNHAL_ERROR_MESSAGE_CAPACITY - 1);
  big.prefix("%s", long_text.c_str());
  CHECK(big.message().size() == NNHAL_ERROR_MESSAGE_CAPACITY - 1);
}

TEST_CASE("Expected: value or error, and NNHAL_TRY propagation") {
  nnhal::Expected<int> good = 5;
  REQUIRE(good.has_value());
  CHECK(*good == 5);
  nnhal::Expected<int> bad = NNHAL_FAILURE("nope");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().status() == nnhal::ErrorStatus::GENERAL_FAILURE);

  auto inner = [](bool fail) -> nnhal::Status {
    if (fail) return NNHAL_INVALID("inner failed");
    return {};
  };
  auto outer = [&](bool fail) -> nnhal::Status {
    NNHAL_TRY(inner(fail));
    return {};
  };
  CHECK(outer(false).has_value());
  const auto s = outer(true);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().message() == "inner failed");
}
