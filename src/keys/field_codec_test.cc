// Golden bytes of every key field encoding. These pin a persistent format (users store the keys):
// a failure here means the format changed, which it must not. docs/keys.md shows the same bytes.

#include "keys/field_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "basalt/keys.h"

namespace basalt::keys {
namespace {

constexpr KeyOrder kAsc = KeyOrder::kAscending;
constexpr KeyOrder kDesc = KeyOrder::kDescending;

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

std::string Bytes(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

TEST(FieldCodecTest, GoldenUnsignedIsBigEndian) {
  EXPECT_EQ(Hex(KeyBuilder().AddUint8(0x7f).Build()), "7f");
  EXPECT_EQ(Hex(KeyBuilder().AddUint16(0x0102).Build()), "0102");
  EXPECT_EQ(Hex(KeyBuilder().AddUint32(1).Build()), "00000001");
  EXPECT_EQ(Hex(KeyBuilder().AddUint64(0x0102030405060708).Build()), "0102030405060708");
  EXPECT_EQ(Hex(KeyBuilder().AddUint64(UINT64_MAX).Build()), "ffffffffffffffff");
}

TEST(FieldCodecTest, GoldenSignedFlipsTheSignBit) {
  EXPECT_EQ(Hex(KeyBuilder().AddInt8(-128).Build()), "00");
  EXPECT_EQ(Hex(KeyBuilder().AddInt8(-1).Build()), "7f");
  EXPECT_EQ(Hex(KeyBuilder().AddInt8(0).Build()), "80");
  EXPECT_EQ(Hex(KeyBuilder().AddInt8(127).Build()), "ff");
  EXPECT_EQ(Hex(KeyBuilder().AddInt16(-2).Build()), "7ffe");
  EXPECT_EQ(Hex(KeyBuilder().AddInt32(0).Build()), "80000000");
  EXPECT_EQ(Hex(KeyBuilder().AddInt32(-1).Build()), "7fffffff");
  EXPECT_EQ(Hex(KeyBuilder().AddInt64(std::numeric_limits<int64_t>::min()).Build()),
            "0000000000000000");
  EXPECT_EQ(Hex(KeyBuilder().AddInt64(1).Build()), "8000000000000001");
}

TEST(FieldCodecTest, GoldenDescendingIntegersAreComplemented) {
  EXPECT_EQ(Hex(KeyBuilder().AddUint8(0x7f, kDesc).Build()), "80");
  EXPECT_EQ(Hex(KeyBuilder().AddUint16(0x0102, kDesc).Build()), "fefd");
  EXPECT_EQ(Hex(KeyBuilder().AddUint32(1, kDesc).Build()), "fffffffe");
  EXPECT_EQ(Hex(KeyBuilder().AddInt8(-1, kDesc).Build()), "80");
  EXPECT_EQ(Hex(KeyBuilder().AddInt64(INT64_MAX, kDesc).Build()), "0000000000000000");
  EXPECT_EQ(Hex(KeyBuilder().AddInt64(0, kDesc).Build()), "7fffffffffffffff");
}

TEST(FieldCodecTest, GoldenBytesEscapeZeroAndTerminate) {
  EXPECT_EQ(Hex(KeyBuilder().AddBytes("").Build()), "0001");
  EXPECT_EQ(Hex(KeyBuilder().AddBytes("a").Build()), "610001");
  EXPECT_EQ(Hex(KeyBuilder().AddBytes(std::string("a\0b", 3)).Build()), "6100ff620001");
  EXPECT_EQ(Hex(KeyBuilder().AddBytes(std::string("\0\0", 2)).Build()), "00ff00ff0001");
  EXPECT_EQ(Hex(KeyBuilder().AddBytes("\xff\x01").Build()), "ff010001");
}

TEST(FieldCodecTest, GoldenDescendingBytesAreComplemented) {
  EXPECT_EQ(Hex(KeyBuilder().AddBytes("", kDesc).Build()), "fffe");
  EXPECT_EQ(Hex(KeyBuilder().AddBytes(std::string("a\0", 2), kDesc).Build()), "9eff00fffe");
  EXPECT_EQ(Hex(KeyBuilder().AddBytes("\xff", kDesc).Build()), "00fffe");
}

TEST(FieldCodecTest, GoldenFixedBytesAreCopied) {
  EXPECT_EQ(Hex(KeyBuilder().AddFixedBytes(std::string("a\0b", 3)).Build()), "610062");
  EXPECT_EQ(Hex(KeyBuilder().AddFixedBytes("ab", kDesc).Build()), "9e9d");
  EXPECT_EQ(Hex(KeyBuilder().AddFixedBytes("").Build()), "");
}

// The notes' key: userid (4 B) + (Long.MAX - stamp) (8 B) + actionid; the bytes HBase's
// Bytes.toBytes(int) + Bytes.toBytes(Long.MAX_VALUE - ts) + Bytes.toBytes(int) give.
TEST(FieldCodecTest, GoldenActivityKeyMatchesHBaseBytes) {
  EXPECT_EQ(Hex(KeyBuilder().AddUint32(42).AddReverseTimestamp(1700000000000).AddUint32(7).Build()),
            "0000002a"
            "7ffffe74301a97ff"
            "00000007");
  EXPECT_EQ(Hex(KeyBuilder().AddReverseTimestamp(0).Build()), "7fffffffffffffff");
  EXPECT_EQ(Hex(KeyBuilder().AddReverseTimestamp(-1).Build()), "8000000000000000");
}

TEST(FieldCodecTest, DecodersInvertEncoders) {
  std::string buf;
  AppendInt(&buf, -5, 2, kDesc);
  AppendBytes(&buf, std::string("x\0y", 3), kDesc);
  AppendUint(&buf, 9, 8, kAsc);
  AppendFixedBytes(&buf, "zz", kDesc);
  std::string_view in = buf;
  int64_t i = 0;
  uint64_t u = 0;
  std::string s, f;
  ASSERT_TRUE(ReadInt(&in, 2, kDesc, &i).ok());
  ASSERT_TRUE(ReadBytes(&in, kDesc, &s).ok());
  ASSERT_TRUE(ReadUint(&in, 8, kAsc, &u).ok());
  ASSERT_TRUE(ReadFixedBytes(&in, 2, kDesc, &f).ok());
  EXPECT_EQ(i, -5);
  EXPECT_EQ(s, std::string("x\0y", 3));
  EXPECT_EQ(u, 9u);
  EXPECT_EQ(f, "zz");
  EXPECT_TRUE(in.empty());
}

// Each malformed field: Corruption with a message that says what was wrong, and the input left
// where it was.
void ExpectBytesCorruption(std::string_view bytes, KeyOrder order, std::string_view message) {
  std::string_view in = bytes;
  std::string out = "untouched";
  Status s = ReadBytes(&in, order, &out);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.message().find(message), std::string::npos) << s.ToString();
  EXPECT_EQ(in.size(), bytes.size());
  EXPECT_EQ(out, "untouched");
}

TEST(FieldCodecTest, MalformedBytesAreCorruption) {
  ExpectBytesCorruption("", kAsc, "no terminator (00 01) in the 0 bytes left");
  ExpectBytesCorruption("abc", kAsc, "no terminator");
  ExpectBytesCorruption(Bytes("6100"), kAsc, "ends inside an escape at byte 1");
  ExpectBytesCorruption(Bytes("610002"), kAsc,
                        "byte 1 is 00 followed by 02; expected FF (an escaped 00) or 01");
  ExpectBytesCorruption(Bytes("6100ff"), kAsc, "no terminator");
  ExpectBytesCorruption(Bytes("9eff"), kDesc, "ends inside an escape at byte 1");
  ExpectBytesCorruption(Bytes("9eff01"), kDesc,
                        "byte 1 is FF followed by 01; expected 00 (an escaped 00) or FE");
  ExpectBytesCorruption(Bytes("0001"), kDesc, "no terminator (FF FE)");
}

TEST(FieldCodecTest, TruncatedFixedFieldsAreCorruption) {
  std::string_view in = "abc";
  uint64_t u = 0;
  std::string f;
  Status s = ReadUint(&in, 4, kAsc, &u);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(), "needs 4 bytes, the key has 3 left");
  s = ReadFixedBytes(&in, 5, kDesc, &f);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(), "needs 5 bytes, the key has 3 left");
  EXPECT_EQ(in, "abc");
}

}  // namespace
}  // namespace basalt::keys
