// Hash prefixes end up in stored keys: the golden bytes here pin them.

#include "basalt/key_spread.h"

#include <gtest/gtest.h>

#include <string>

namespace basalt {
namespace {

std::string Hex(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    out.push_back(kHex[u >> 4]);
    out.push_back(kHex[u & 0xf]);
  }
  return out;
}

TEST(HashPrefixTest, GoldenMd5Prefixes) {
  EXPECT_EQ(HashSize(HashKind::kMd5), 16u);
  EXPECT_EQ(Hex(*HashPrefix("", 16, HashKind::kMd5)), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex(*HashPrefix("user42", 4, HashKind::kMd5)), "fd8689cb");
  EXPECT_EQ(Hex(*HashPrefix("row-key", 1, HashKind::kMd5)), "74");
  EXPECT_EQ(*HashPrefix("row-key", 0, HashKind::kMd5), "");
}

// XXH3_64bits, seed 0, big-endian (xxHash's canonical form). The empty-input value is the one
// xxHash documents.
TEST(HashPrefixTest, GoldenXxh3Prefixes) {
  EXPECT_EQ(HashSize(HashKind::kXxh3), 8u);
  EXPECT_EQ(Hex(*HashPrefix("", 8, HashKind::kXxh3)), "2d06800538d394c2");
  EXPECT_EQ(Hex(*HashPrefix("abc", 8, HashKind::kXxh3)), "78af5f94892f3950");
  EXPECT_EQ(Hex(*HashPrefix("user42", 2, HashKind::kXxh3)), "9fdc");
  EXPECT_EQ(Hex(*HashPrefix(std::string_view(), 3, HashKind::kXxh3)), "2d0680");
}

TEST(HashPrefixTest, RefusesPrefixesLongerThanTheHash) {
  Result<std::string> r = HashPrefix("k", 17, HashKind::kMd5);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument());
  EXPECT_EQ(r.status().message(), "a hash prefix of 17 bytes is longer than the 16-byte hash");
  EXPECT_TRUE(HashPrefix("k", 9, HashKind::kXxh3).status().IsInvalidArgument());
  EXPECT_TRUE(HashPrefix("k", 1, static_cast<HashKind>(0)).status().IsInvalidArgument());
}

TEST(SaltTest, PrependsTheHashPrefixAndUnsaltStripsIt) {
  Result<std::string> salted = Salt("row-key", 2, HashKind::kMd5);
  ASSERT_TRUE(salted.ok());
  EXPECT_EQ(Hex(*salted), "74a5" + Hex("row-key"));
  Result<std::string> key = Unsalt(*salted, 2, HashKind::kMd5);
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, "row-key");

  const std::string binary("\0\xff\0", 3);
  for (HashKind kind : {HashKind::kMd5, HashKind::kXxh3}) {
    for (size_t n = 0; n <= HashSize(kind); ++n) {
      Result<std::string> s = Salt(binary, n, kind);
      ASSERT_TRUE(s.ok());
      EXPECT_EQ(s->size(), n + binary.size());
      EXPECT_EQ(*Unsalt(*s, n, kind), binary);
    }
  }
}

TEST(SaltTest, UnsaltRefusesKeysThatWereNotSaltedThatWay) {
  Result<std::string> r = Unsalt("ab", 4, HashKind::kXxh3);
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_EQ(r.status().message(), "a salted key of 2 bytes is shorter than its 4-byte hash prefix");
  const std::string salted = *Salt("row-key", 4, HashKind::kMd5);
  r = Unsalt(salted, 4, HashKind::kXxh3);
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_EQ(r.status().message(),
            "the first 4 bytes are not the hash prefix of the rest of the key");
  std::string tampered = salted;
  tampered.back() = 'X';
  EXPECT_TRUE(Unsalt(tampered, 4, HashKind::kMd5).status().IsCorruption());
  EXPECT_TRUE(Unsalt(salted, 20, HashKind::kMd5).status().IsInvalidArgument());
}

TEST(ReverseTest, ReverseBytesIsItsOwnInverse) {
  EXPECT_EQ(ReverseBytes(""), "");
  EXPECT_EQ(ReverseBytes("abc"), "cba");
  const std::string binary("\x01\0\xff", 3);
  EXPECT_EQ(ReverseBytes(binary), std::string("\xff\0\x01", 3));
  EXPECT_EQ(ReverseBytes(ReverseBytes(binary)), binary);
}

TEST(ReverseTest, ReverseDigitsPutsTheFastDigitsFirst) {
  EXPECT_EQ(*ReverseDigits("13800138000"), "00083100831");
  EXPECT_EQ(*ReverseDigits(*ReverseDigits("13800138000")), "13800138000");
  EXPECT_EQ(*ReverseDigits("0012"), "2100");
  EXPECT_EQ(*ReverseDigits("7"), "7");
}

TEST(ReverseTest, ReverseDigitsRefusesNonDigits) {
  Result<std::string> r = ReverseDigits("+86 138");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument());
  EXPECT_EQ(r.status().message(), "the number has a non-digit at position 0");
  EXPECT_EQ(ReverseDigits("12a").status().message(), "the number has a non-digit at position 2");
  EXPECT_EQ(ReverseDigits("").status().message(), "the number is empty");
}

TEST(ReverseTest, ReverseDecimalRoundTrips) {
  EXPECT_EQ(ReverseDecimal(1700000000123), "3210000000071");
  EXPECT_EQ(ReverseDecimal(42, 5), "24000");
  EXPECT_EQ(ReverseDecimal(0), "0");
  EXPECT_EQ(ReverseDecimal(12345, 3), "54321");
  EXPECT_EQ(ReverseDecimal(UINT64_MAX), "51615590737044764481");
  for (uint64_t v :
       {uint64_t{0}, uint64_t{9}, uint64_t{10}, uint64_t{1700000000123}, uint64_t{UINT64_MAX}}) {
    for (size_t width : {0, 1, 13, 25}) {
      Result<uint64_t> back = ParseReverseDecimal(ReverseDecimal(v, width));
      ASSERT_TRUE(back.ok()) << back.status().ToString();
      EXPECT_EQ(*back, v);
    }
  }
}

TEST(ReverseTest, ParseReverseDecimalRefusesBadInput) {
  EXPECT_TRUE(ParseReverseDecimal("").status().IsInvalidArgument());
  EXPECT_EQ(ParseReverseDecimal("1-2").status().message(),
            "the reversed number has a non-digit at position 1");
  // UINT64_MAX + 1 = 18446744073709551616, reversed.
  EXPECT_EQ(ParseReverseDecimal("61615590737044764481").status().message(),
            "the reversed number 61615590737044764481 is larger than 2^64 - 1");
  EXPECT_EQ(*ParseReverseDecimal("51615590737044764481"), UINT64_MAX);
  EXPECT_EQ(*ParseReverseDecimal("100000000000000000000000000"), 1u);
}

}  // namespace
}  // namespace basalt
