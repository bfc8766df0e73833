// SHA-256 against the example messages of FIPS 180-4 (one block, two blocks, empty, a million
// 'a'), and incremental hashing in pieces of every split against hashing in one call.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nnhal/device/sha256.hpp"

namespace nnhal::test::sha {

std::span<const std::byte> bytes_of(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

std::string hex(const Sha256Digest& d) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : d) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

TEST_CASE("SHA-256 of the FIPS 180-4 example messages") {
  CHECK(hex(sha256(bytes_of("abc"))) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(sha256(bytes_of(""))) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // 448 bits: the padding needs a second block.
  CHECK(hex(sha256(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // 896 bits: two message blocks plus padding.
  CHECK(
      hex(sha256(bytes_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                          "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"))) ==
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  const std::string million(1000000, 'a');
  CHECK(hex(sha256(bytes_of(million))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 in pieces equals SHA-256 in one call, at every split and length") {
  // Lengths around the block (64) and padding (56) boundaries.
  std::vector<std::byte> msg(200);
  for (std::size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<std::byte>(i * 37 + 11);
  for (std::size_t len : {0u, 1u, 55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u, 200u}) {
    CAPTURE(len);
    const std::span<const std::byte> m(msg.data(), len);
    const Sha256Digest whole = sha256(m);
    for (std::size_t split = 0; split <= len; ++split) {
      Sha256 h;
      h.update(m.first(split)).update(m.subspan(split));
      CHECK(h.finish() == whole);
    }
    Sha256 with_empty_pieces;  // empty spans (null data) change nothing
    with_empty_pieces.update({}).update(m).update({});
    CHECK(with_empty_pieces.finish() == whole);
    Sha256 bytewise;
    for (std::size_t i = 0; i < len; ++i) bytewise.update(m.subspan(i, 1));
    CHECK(bytewise.finish() == whole);
  }
}

TEST_CASE("SHA-256 tells apart messages that differ in one bit or in length") {
  std::vector<std::byte> a(100, std::byte{0x5A});
  const Sha256Digest base = sha256(a);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] ^= std::byte{1};
    CHECK(sha256(a) != base);
    a[i] ^= std::byte{1};
  }
  CHECK(sha256(std::span<const std::byte>(a).first(99)) != base);
}

}  // namespace nnhal::test::sha
