#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "basalt/keys.h"
#include "basalt/scan.h"

namespace basalt {
namespace {

constexpr KeyOrder kDesc = KeyOrder::kDescending;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

TEST(ReverseTimestampTest, IsLongMaxMinusTsAndItsOwnInverse) {
  static_assert(ReverseTimestamp(0) == INT64_MAX);
  static_assert(ReverseTimestamp(INT64_MAX) == 0);
  static_assert(ReverseTimestamp(1700000000000) == INT64_MAX - 1700000000000);
  // Java wraps for negative stamps; so does this, without undefined behaviour.
  static_assert(ReverseTimestamp(-1) == INT64_MIN);
  static_assert(ReverseTimestamp(INT64_MIN) == -1);
  for (int64_t ts : {int64_t{0}, int64_t{-1}, INT64_MIN, INT64_MAX, int64_t{1700000000000}}) {
    EXPECT_EQ(TimestampFromReverse(ReverseTimestamp(ts)), ts);
  }
}

TEST(ReverseTimestampTest, NewerStampsSortFirstForEveryInt64) {
  const int64_t stamps[] = {INT64_MIN, -2, -1, 0, 1, 1700000000000, INT64_MAX - 1, INT64_MAX};
  for (size_t i = 0; i + 1 < std::size(stamps); ++i) {
    EXPECT_GT(KeyBuilder().AddReverseTimestamp(stamps[i]).Build(),
              KeyBuilder().AddReverseTimestamp(stamps[i + 1]).Build())
        << stamps[i];
  }
}

TEST(ReverseTimestampTest, IsTheSameBytesAsADescendingInt64) {
  for (int64_t ts : {INT64_MIN, int64_t{-7}, int64_t{0}, int64_t{1700000000000}, INT64_MAX}) {
    EXPECT_EQ(KeyBuilder().AddReverseTimestamp(ts).Build(),
              KeyBuilder().AddInt64(ts, kDesc).Build());
    int64_t back = 0;
    const std::string key = KeyBuilder().AddInt64(ts, kDesc).Build();
    KeyParser parser(key);
    ASSERT_TRUE(parser.ReadReverseTimestamp(&back).ok());
    EXPECT_EQ(back, ts);
  }
}

TEST(KeyParserTest, ReadsBackWhatTheBuilderWrote) {
  const std::string key = KeyBuilder()
                              .AddUint8(200)
                              .AddUint16(65535, kDesc)
                              .AddUint32(42)
                              .AddUint64(UINT64_MAX)
                              .AddInt8(-128)
                              .AddInt16(-300, kDesc)
                              .AddInt32(INT32_MIN)
                              .AddInt64(-1, kDesc)
                              .AddBytes(std::string("a\0\xff", 3))
                              .AddBytes("", kDesc)
                              .AddFixedBytes("hash", kDesc)
                              .AddReverseTimestamp(1700000000000)
                              .Build();
  KeyParser p(key);
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64, ts;
  std::string b1, b2, fixed;
  ASSERT_TRUE(p.ReadUint8(&u8).ok());
  ASSERT_TRUE(p.ReadUint16(&u16, kDesc).ok());
  ASSERT_TRUE(p.ReadUint32(&u32).ok());
  ASSERT_TRUE(p.ReadUint64(&u64).ok());
  ASSERT_TRUE(p.ReadInt8(&i8).ok());
  ASSERT_TRUE(p.ReadInt16(&i16, kDesc).ok());
  ASSERT_TRUE(p.ReadInt32(&i32).ok());
  ASSERT_TRUE(p.ReadInt64(&i64, kDesc).ok());
  ASSERT_TRUE(p.ReadBytes(&b1).ok());
  ASSERT_TRUE(p.ReadBytes(&b2, kDesc).ok());
  ASSERT_TRUE(p.ReadFixedBytes(4, &fixed, kDesc).ok());
  ASSERT_TRUE(p.ReadReverseTimestamp(&ts).ok());
  EXPECT_TRUE(p.Finish().ok());
  EXPECT_TRUE(p.done());
  EXPECT_EQ(p.fields_read(), 12u);
  EXPECT_EQ(u8, 200);
  EXPECT_EQ(u16, 65535);
  EXPECT_EQ(u32, 42u);
  EXPECT_EQ(u64, UINT64_MAX);
  EXPECT_EQ(i8, -128);
  EXPECT_EQ(i16, -300);
  EXPECT_EQ(i32, INT32_MIN);
  EXPECT_EQ(i64, -1);
  EXPECT_EQ(b1, std::string("a\0\xff", 3));
  EXPECT_EQ(b2, "");
  EXPECT_EQ(fixed, "hash");
  EXPECT_EQ(ts, 1700000000000);
}

TEST(KeyParserTest, ErrorsNameTheFieldAndStayPut) {
  const std::string key = KeyBuilder().AddUint32(1).AddBytes("ab").Build();
  const std::string cut = key.substr(0, key.size() - 1);  // ends inside the terminator
  KeyParser p(cut);
  uint32_t u = 0;
  ASSERT_TRUE(p.ReadUint32(&u).ok());
  std::string s = "untouched";
  Status st = p.ReadBytes(&s);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.message(), "key field 1 (bytes) at byte 4: the key ends inside an escape at byte 2");
  EXPECT_EQ(s, "untouched");
  EXPECT_EQ(p.offset(), 4u);
  EXPECT_EQ(p.fields_read(), 1u);
  // The parser can still read the field another way.
  EXPECT_TRUE(p.ReadFixedBytes(3, &s).ok());
  EXPECT_TRUE(p.done());
}

TEST(KeyParserTest, TruncatedIntegerNamesWidthAndOrder) {
  KeyParser p("\x01\x02");
  int64_t v = 0;
  Status st = p.ReadInt64(&v, kDesc);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.message(), "key field 0 (int64 desc) at byte 0: needs 8 bytes, the key has 2 left");
}

TEST(KeyParserTest, FinishRefusesBytesAfterTheLastField) {
  const std::string key = KeyBuilder().AddUint16(5).Build() + "zz";
  KeyParser p(key);
  uint16_t v = 0;
  ASSERT_TRUE(p.ReadUint16(&v).ok());
  EXPECT_EQ(p.rest(), "zz");
  Status st = p.Finish();
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_EQ(st.message(), "2 bytes left at byte 2, after key field 0, the last one");
}

KeySchema ActivitySchema() {
  return KeySchema().Add(KeyFieldType::kUint32).AddReverseTimestamp().Add(KeyFieldType::kUint32);
}

TEST(KeySchemaTest, EncodesLikeTheBuilderAndDecodesBack) {
  const KeySchema schema = ActivitySchema();
  EXPECT_EQ(schema.ToString(), "(uint32, int64 desc, uint32)");
  Result<std::string> key = schema.Encode({uint64_t{42}, int64_t{1700000000000}, uint64_t{7}});
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(*key,
            KeyBuilder().AddUint32(42).AddReverseTimestamp(1700000000000).AddUint32(7).Build());
  Result<KeyTuple> fields = schema.Decode(*key);
  ASSERT_TRUE(fields.ok()) << fields.status().ToString();
  EXPECT_EQ(*fields, (KeyTuple{uint64_t{42}, int64_t{1700000000000}, uint64_t{7}}));
}

TEST(KeySchemaTest, AcceptsEitherIntegerAlternativeThatFits) {
  const KeySchema schema = KeySchema().Add(KeyFieldType::kUint8).Add(KeyFieldType::kInt16);
  Result<std::string> key = schema.Encode({int64_t{255}, uint64_t{32767}});
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*schema.Decode(*key), (KeyTuple{uint64_t{255}, int64_t{32767}}));
}

void ExpectInvalid(const Result<std::string>& r, std::string_view message) {
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
  EXPECT_EQ(r.status().message(), message);
}

TEST(KeySchemaTest, EncodeRefusesValuesThatDoNotFit) {
  const KeySchema schema = KeySchema()
                               .Add(KeyFieldType::kUint8)
                               .Add(KeyFieldType::kInt8, kDesc)
                               .AddFixedBytes(4)
                               .Add(KeyFieldType::kBytes);
  const std::string ok4 = "abcd";
  ExpectInvalid(schema.Encode({uint64_t{300}, int64_t{0}, ok4, std::string()}),
                "key field 0 (uint8): 300 does not fit in 1 bytes");
  ExpectInvalid(schema.Encode({int64_t{-1}, int64_t{0}, ok4, std::string()}),
                "key field 0 (uint8): -1 is negative");
  ExpectInvalid(schema.Encode({uint64_t{1}, int64_t{-129}, ok4, std::string()}),
                "key field 1 (int8 desc): -129 does not fit in 1 bytes signed");
  ExpectInvalid(schema.Encode({uint64_t{1}, UINT64_MAX, ok4, std::string()}),
                "key field 1 (int8 desc): 18446744073709551615 does not fit in 8 bytes signed");
  ExpectInvalid(schema.Encode({uint64_t{1}, int64_t{0}, std::string("abc"), std::string()}),
                "key field 2 (fixed(4)): needs exactly 4 bytes, got 3");
  ExpectInvalid(schema.Encode({uint64_t{1}, int64_t{0}, ok4, int64_t{5}}),
                "key field 3 (bytes): expects a string, got an integer");
  ExpectInvalid(schema.Encode({std::string("x"), int64_t{0}, ok4, std::string()}),
                "key field 0 (uint8): expects an integer, got a string");
  ExpectInvalid(schema.Encode({uint64_t{1}}),
                "1 values for a schema of 4 fields (uint8, int8 desc, fixed(4), bytes) "
                "(EncodePrefix builds a prefix)");
  ExpectInvalid(schema.EncodePrefix({uint64_t{1}, int64_t{0}, ok4, std::string(), uint64_t{1}}),
                "5 values for a schema of 4 fields (uint8, int8 desc, fixed(4), bytes)");
}

TEST(KeySchemaTest, FixedBytesNeedASize) {
  const KeySchema bad = KeySchema().Add(KeyFieldType::kUint8).Add(KeyFieldType::kFixedBytes);
  ExpectInvalid(bad.Encode({uint64_t{1}, std::string()}),
                "schema field 1: a fixed-bytes field needs a size (use AddFixedBytes)");
  Result<KeyTuple> decoded = bad.Decode("\x01");
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsInvalidArgument());
  EXPECT_TRUE(KeySchema().AddFixedBytes(0).Decode("").status().IsInvalidArgument());
}

TEST(KeySchemaTest, DecodeRefusesMalformedKeys) {
  const KeySchema schema = ActivitySchema();
  const std::string key = KeyBuilder().AddUint32(1).AddReverseTimestamp(2).AddUint32(3).Build();
  Result<KeyTuple> r = schema.Decode(key.substr(0, 10));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_EQ(r.status().message(),
            "key field 1 (int64 desc) at byte 4: needs 8 bytes, the key has 6 left");
  r = schema.Decode(key + "!");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "1 bytes left at byte 16, after key field 2, the last one");
  EXPECT_TRUE(schema.Decode("").status().IsCorruption());
  EXPECT_TRUE(KeySchema().Decode("").ok());
  EXPECT_EQ(KeySchema().Decode("x").status().message(),
            "1 bytes left at byte 0, after a key of no fields");
}

// A prefix of k fields matches exactly the keys whose first k fields are equal, even when a
// string field is a prefix of another ("al" vs "alice") or holds 00 bytes.
TEST(KeyPrefixTest, MatchesExactlyTheKeysWithThoseFirstFields) {
  const KeySchema schema =
      KeySchema().Add(KeyFieldType::kBytes).Add(KeyFieldType::kBytes, kDesc).AddReverseTimestamp();
  const std::string names[] = {"",     "al", "alice", std::string("al\0", 3), std::string("\0", 1),
                               "\xff", "bob"};
  std::vector<KeyTuple> tuples;
  for (const std::string& a : names) {
    for (const std::string& b : names) {
      for (int64_t ts : {int64_t{-1}, int64_t{0}, int64_t{5}}) tuples.push_back({a, b, ts});
    }
  }
  for (const KeyTuple& probe : tuples) {
    for (size_t k = 0; k <= 3; ++k) {
      const KeyTuple head(probe.begin(), probe.begin() + k);
      const std::string prefix = *schema.EncodePrefix(head);
      for (const KeyTuple& t : tuples) {
        const bool fields_match = std::equal(head.begin(), head.end(), t.begin());
        const std::string key = *schema.Encode(t);
        EXPECT_EQ(StartsWith(key, prefix), fields_match);
        // The scan bounds a prefix scan uses agree.
        const std::string stop = PrefixStopRow(prefix);
        EXPECT_EQ(key >= prefix && (stop.empty() || key < stop), fields_match);
      }
    }
  }
}

TEST(KeyPrefixTest, BuilderPrefixIsTheSchemaPrefix) {
  EXPECT_EQ(KeyBuilder().AddUint32(42).Build(), *ActivitySchema().EncodePrefix({uint64_t{42}}));
  EXPECT_EQ(*ActivitySchema().EncodePrefix({}), "");
}

}  // namespace
}  // namespace basalt
