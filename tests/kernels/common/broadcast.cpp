#include <doctest/doctest.h>

#include <vector>

#include "nnhal/kernels/common/broadcast.hpp"

using nnhal::Dims;

TEST_CASE("broadcast_shape: right-aligned, 1 stretches, 0 pairs with 0 or 1") {
  CHECK(*nnhal::broadcast_shape(Dims{2, 3}, Dims{3}) == Dims{2, 3});
  CHECK(*nnhal::broadcast_shape(Dims{4, 1, 3}, Dims{2, 1}) == Dims{4, 2, 3});
  CHECK(*nnhal::broadcast_shape(Dims{1}, Dims{}) == Dims{1});
  CHECK(*nnhal::broadcast_shape(Dims{0, 3}, Dims{1, 3}) == Dims{0, 3});
  CHECK(*nnhal::broadcast_shape(Dims{0}, Dims{0}) == Dims{0});
  auto bad = nnhal::broadcast_shape(Dims{2, 3}, Dims{4});
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().message().find("axis 1") != std::string_view::npos);
  CHECK_FALSE(nnhal::broadcast_shape(Dims{0}, Dims{2}).has_value());
}

TEST_CASE("broadcast_for_each visits every output element with the right input indexes") {
  // Compare against index arithmetic written out for a [2, 3, 4] output.
  const Dims out{2, 3, 4};
  struct Case {
    Dims a, b;
  };
  for (const Case& c : {Case{Dims{2, 3, 4}, Dims{2, 3, 4}}, Case{Dims{2, 3, 4}, Dims{1}},
                        Case{Dims{1}, Dims{2, 3, 4}}, Case{Dims{2, 1, 4}, Dims{3, 1}},
                        Case{Dims{4}, Dims{2, 3, 1}}, Case{Dims{1, 3, 1}, Dims{2, 1, 4}}}) {
    std::vector<int> seen(24, 0);
    nnhal::broadcast_for_each(out, c.a, c.b, [&](std::size_t o, std::size_t ia, std::size_t ib) {
      const std::size_t i0 = o / 12, i1 = (o / 4) % 3, i2 = o % 4;
      auto flat = [&](const Dims& d) {
        const std::size_t pad = 3 - d.rank();
        std::size_t idx = 0;
        const std::size_t coord[3] = {i0, i1, i2};
        for (std::size_t k = 0; k < d.rank(); ++k) idx = idx * d[k] + (d[k] == 1 ? 0 : coord[k + pad]);
        return idx;
      };
      CHECK(ia == flat(c.a));
      CHECK(ib == flat(c.b));
      ++seen[o];
    });
    for (int s : seen) CHECK(s == 1);
  }
}
