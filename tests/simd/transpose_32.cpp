// simd::transpose_32 (include/nnhal/simd/transpose_32.hpp) on every compiled target this CPU
// runs: blocks of every size around the 4 x 4 and 8 x 8 steps and the 64 x 64 tile (partial blocks and
// tiles on both axes), with row strides larger than the block, misaligned, with guards around
// both buffers; the result must be the element-by-element transpose bit for bit (NaN payloads
// included: the kernel only moves bits).
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnhal/simd/transpose_32.hpp"
#include "simd/simd_tester.hpp"

namespace st = nnhal::test::simd;

TEST_CASE("simd::transpose_32: the element-by-element transpose, bit for bit, nothing outside the blocks touched") {
  st::for_each_target([](const st::Target& t) {
    const auto& k = nnhal::simd::transpose_32(t.target);
    std::uint32_t seed = 3;
    const std::size_t sizes[] = {0, 1, 3, 4, 5, 8, 12, 13, 16, 64, 65, 131};
    for (const std::size_t rows : sizes)
      for (const std::size_t cols : sizes)
        for (const std::size_t pad : {std::size_t{0}, std::size_t{3}})
          for (const std::size_t off : st::kOffsets) {
            CAPTURE(rows);
            CAPTURE(cols);
            CAPTURE(pad);
            CAPTURE(off);
            const std::size_t ss = cols + pad, ds = rows + 2 * pad;  // row strides of src and dst
            const std::size_t in_n = rows == 0 ? 0 : (rows - 1) * ss + cols;
            const std::size_t out_n = cols == 0 ? 0 : (cols - 1) * ds + rows;
            const std::vector<float> values = st::special_mix(in_n, ++seed);  // NaN and all
            st::Buffer in(in_n, off), out(out_n, (off + 1) % 4);
            in.assign(values);
            // Gaps between the destination rows keep their guard-like marker.
            for (std::size_t i = 0; i < out_n; ++i) out[i] = -7.0f;
            k.transpose(in.data(), out.data(), rows, cols, static_cast<std::ptrdiff_t>(ss),
                        static_cast<std::ptrdiff_t>(ds));
            std::size_t bad = 0;
            for (std::size_t j = 0; j < cols; ++j)
              for (std::size_t i = 0; i < rows; ++i)
                bad += std::memcmp(&out[j * ds + i], &values[i * ss + j], sizeof(float)) != 0;
            for (std::size_t j = 0; j + 1 < cols; ++j)
              for (std::size_t i = rows; i < ds; ++i) bad += out[j * ds + i] != -7.0f;
            CHECK(bad == 0);
            CHECK(in.guards_intact());
            CHECK(out.guards_intact());
            CHECK((in_n == 0 || std::memcmp(in.data(), values.data(), in_n * sizeof(float)) == 0));
          }
  });
}
