#include "util/coding.h"

#include <string>

#include <gtest/gtest.h>

namespace basalt::util {
namespace {

// Keys sort by these bytes, so the most significant byte must come first whatever the host.
TEST(CodingTest, FixedWidthIntegersAreBigEndian) {
  std::string out;
  PutFixed64BE(&out, 0x0102030405060708ULL);
  PutFixed32BE(&out, 0xA1B2C3D4U);
  EXPECT_EQ(out, std::string("\x01\x02\x03\x04\x05\x06\x07\x08\xA1\xB2\xC3\xD4", 12));
  EXPECT_EQ(DecodeFixed64BE(out.data()), 0x0102030405060708ULL);
  EXPECT_EQ(DecodeFixed32BE(out.data() + 8), 0xA1B2C3D4U);
}

TEST(CodingTest, FixedWidthIntegersSortAsTheirBytes) {
  const uint64_t values[] = {0,    1, 0xFF, 0x100, 0x7FFFFFFFFFFFFFFFULL, 0x8000000000000000ULL,
                             ~0ULL};
  for (uint64_t a : values) {
    for (uint64_t b : values) {
      std::string ea, eb;
      PutFixed64BE(&ea, a);
      PutFixed64BE(&eb, b);
      EXPECT_EQ(a < b, ea < eb) << a << " " << b;
      EXPECT_EQ(DecodeFixed64BE(ea.data()), a);
    }
  }
}

// Every length up to a few words, with the one differing byte at every position: the word loop,
// its overlapping last word and the short paths each see a difference wherever it is.
TEST(CodingTest, BytesEqualFindsADifferenceAtEveryPosition) {
  for (size_t n = 0; n <= 40; ++n) {
    std::string a(n, '\0');
    for (size_t i = 0; i < n; ++i) a[i] = static_cast<char>(i * 37 + 11);
    EXPECT_TRUE(BytesEqual(a.data(), a.data(), n));
    const std::string same = a;
    EXPECT_TRUE(BytesEqual(a.data(), same.data(), n)) << n;
    for (size_t at = 0; at < n; ++at) {
      std::string b = a;
      b[at] = static_cast<char>(b[at] ^ 0x80);
      EXPECT_FALSE(BytesEqual(a.data(), b.data(), n)) << n << " " << at;
    }
  }
}

}  // namespace
}  // namespace basalt::util
