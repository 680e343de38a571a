#include "engine/key_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace basalt::engine {
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

// Golden bytes: these pin the on-disk format. A failure here means the format changed.
TEST(KeyFormatTest, GoldenCellKey) {
  EXPECT_EQ(Hex(CellKey("r", "q", 1, CellType::kPut)),
            "72"
            "0001"
            "71"
            "0001"
            "7ffffffffffffffe"
            "fb");
  EXPECT_EQ(Hex(CellKey(std::string("a\0b", 3), "", 0, CellType::kDeleteColumn)),
            "6100ff62"
            "0001"
            "0001"
            "7fffffffffffffff"
            "f3");
}

TEST(KeyFormatTest, GoldenFamilyMarkerKeyAndValue) {
  EXPECT_EQ(Hex(FamilyMarkerKey("r", 5, CellType::kDeleteFamily)),
            "72"
            "0001"
            "0000"
            "7ffffffffffffffa"
            "f1");
  // varint(0x0102 + 1) = 83 02, then the payload.
  EXPECT_EQ(Hex(EncodeValue(0x0102, "v")),
            "8302"
            "76");
  EXPECT_EQ(Hex(EncodeValue(0, "")), "01");
}

TEST(KeyFormatTest, ValueHeaderRoundTripsAcrossVarintLengths) {
  for (uint64_t seq : {0ull, 126ull, 127ull, 16383ull, 1ull << 35, (1ull << 63) - 1}) {
    const std::string encoded = EncodeValue(seq, "payload");
    ParsedValue v;
    ASSERT_TRUE(ParseValue(encoded, &v)) << seq;
    EXPECT_EQ(v.seq, seq);
    EXPECT_EQ(v.payload, "payload");
  }
}

TEST(KeyFormatTest, Format1ValuesStillParse) {
  std::string v1("\0\0\0\0\0\0\0\x01\x02v", 10);
  ParsedValue v;
  ASSERT_TRUE(ParseValue(v1, &v));
  EXPECT_EQ(v.seq, 0x0102u);
  EXPECT_EQ(v.payload, "v");
}

TEST(KeyFormatTest, MalformedValuesAreRejected) {
  ParsedValue v;
  EXPECT_FALSE(ParseValue("", &v));
  EXPECT_FALSE(ParseValue(std::string("\0\0\0", 3), &v));  // format 1, truncated seq
  EXPECT_FALSE(ParseValue("\x83", &v));                    // varint cut off
  EXPECT_FALSE(ParseValue(std::string(11, '\xff'), &v));   // varint over 10 bytes
}

TEST(KeyFormatTest, GoldenFormatVersionAndMetaKeys) {
  EXPECT_EQ(kFormatVersion, 2);
  EXPECT_EQ(kOldestReadableFormatVersion, 1);
  EXPECT_EQ(Hex(MetaFormatVersionKey()), Hex("\x01"
                                             "format_version"));
  EXPECT_EQ(CatalogTableKey("ns", "t"),
            "\x03"
            "ns:t");
}

TEST(KeyFormatTest, ParseKeyRoundTrips) {
  std::string row("r\0\0x", 4);
  std::string qual("\0q\0", 3);
  std::string key = CellKey(row, qual, 1234567, CellType::kDelete);
  ParsedKey pk;
  ASSERT_TRUE(ParseKey(key, &pk));
  EXPECT_FALSE(pk.family_marker);
  EXPECT_EQ(pk.timestamp, 1234567);
  EXPECT_EQ(pk.type, CellType::kDelete);
  EXPECT_EQ(RowFromPrefix(pk.row_prefix), row);
  EXPECT_EQ(QualifierFromColumnPrefix(pk.column_prefix, pk.row_prefix.size()), qual);

  std::string marker = FamilyMarkerKey(row, 7, CellType::kDeleteFamilyVersion);
  ASSERT_TRUE(ParseKey(marker, &pk));
  EXPECT_TRUE(pk.family_marker);
  EXPECT_EQ(pk.type, CellType::kDeleteFamilyVersion);
  EXPECT_EQ(RowFromPrefix(pk.row_prefix), row);
}

// Rows and qualifiers without a zero byte take a one-copy path both ways; the others are
// escaped byte by byte. Every shape must come back as it went in, into a reused buffer too.
// The tail shortcut agrees with RowPrefixLength on every key it answers, and answers exactly the
// cells of the empty qualifier: rows and qualifiers with zero bytes and 01 bytes where a tail
// could be mistaken for two terminators, and family markers.
TEST(KeyFormatTest, EmptyQualifierRowPrefixLengthAnswersOnlyEmptyQualifierCells) {
  const std::vector<std::string> rows = {"r", std::string("\0", 1), std::string("r\0\x01", 3),
                                         std::string("\x01\0", 2), std::string("\0\x01\0\x01", 4)};
  const std::vector<std::string> qualifiers = {"",
                                               "q",
                                               std::string("\0", 1),
                                               std::string("\x01", 1),
                                               std::string("\0\x01", 2),
                                               std::string("\x01\0\x01", 3)};
  for (const auto& row : rows) {
    for (const auto& qualifier : qualifiers) {
      for (CellType type : {CellType::kPut, CellType::kDeleteColumn}) {
        const std::string key = CellKey(row, qualifier, 1700000000000, type);
        const size_t fast = EmptyQualifierRowPrefixLength(key);
        if (qualifier.empty()) {
          EXPECT_EQ(fast, RowPrefixLength(key));
          EXPECT_EQ(fast, RowPrefix(row).size());
        } else {
          EXPECT_EQ(fast, 0u) << row.size() << " " << qualifier.size();
        }
      }
    }
    EXPECT_EQ(EmptyQualifierRowPrefixLength(FamilyMarkerKey(row, 5, CellType::kDeleteFamily)), 0u);
  }
}

TEST(KeyFormatTest, EscapeAndUnescapeRoundTripWithAndWithoutZeroBytes) {
  const std::vector<std::string> inputs = {"",
                                           "plain",
                                           std::string("\0", 1),
                                           std::string("\0\0", 2),
                                           std::string("a\0", 2),
                                           std::string("\0a", 2),
                                           std::string("a\0b\0\0c\0", 7),
                                           std::string("\xff\x01\0\x01", 4)};
  std::string reused = "left over from an earlier, longer row";
  for (const auto& in : inputs) {
    std::string escaped = "prefix";
    AppendEscaped(&escaped, in);
    const std::string_view own = std::string_view(escaped).substr(6);
    EXPECT_EQ(own.size(),
              in.size() + 2 + static_cast<size_t>(std::count(in.begin(), in.end(), '\0')));
    EXPECT_EQ(own.substr(own.size() - 2), std::string_view("\0\x01", 2));
    UnescapeInto(own, &reused);
    EXPECT_EQ(reused, in);
    EXPECT_EQ(Unescape(own), in);
    std::string appended_to = "row ";
    UnescapeAppend(own, &appended_to);
    EXPECT_EQ(appended_to, "row " + in);
    // The write path's buffer form writes the same bytes, within the room it is promised.
    std::string buffer(2 * in.size() + 2, '?');
    char* end = WriteEscaped(buffer.data(), in);
    EXPECT_EQ(std::string_view(buffer.data(), static_cast<size_t>(end - buffer.data())), own);
  }
  char suffix[kKeySuffixSize];
  std::string appended;
  AppendKeySuffix(&appended, 1700000000123, CellType::kDeleteColumn);
  EXPECT_EQ(WriteKeySuffix(suffix, 1700000000123, CellType::kDeleteColumn),
            suffix + kKeySuffixSize);
  EXPECT_EQ(std::string_view(suffix, kKeySuffixSize), appended);
  UnescapeInto(std::string_view(), &reused);  // no terminator at all: nothing, and no crash
  EXPECT_EQ(reused, "");
}

TEST(KeyFormatTest, ParseKeyRejectsMalformedKeys) {
  ParsedKey pk;
  EXPECT_FALSE(ParseKey("", &pk));
  EXPECT_FALSE(ParseKey("abc", &pk));
  std::string key = CellKey("r", "q", 1, CellType::kPut);
  EXPECT_FALSE(ParseKey(key.substr(0, key.size() - 1), &pk));
  std::string bad_type = key;
  bad_type.back() = static_cast<char>(0xff - 3);
  EXPECT_FALSE(ParseKey(bad_type, &pk));
  // A column-only type in the family-marker section.
  std::string marker = FamilyMarkerKey("r", 1, CellType::kDeleteFamily);
  marker.back() = static_cast<char>(0xff - 4);
  EXPECT_FALSE(ParseKey(marker, &pk));
}

using CellTuple = std::tuple<std::string, std::string, int64_t, int>;

// HBase order: row asc, qualifier asc, timestamp desc, type desc.
bool HBaseLess(const CellTuple& a, const CellTuple& b) {
  if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
  if (std::get<1>(a) != std::get<1>(b)) return std::get<1>(a) < std::get<1>(b);
  if (std::get<2>(a) != std::get<2>(b)) return std::get<2>(a) > std::get<2>(b);
  return std::get<3>(a) > std::get<3>(b);
}

std::string RandomBytes(std::mt19937_64& rng) {
  // Small alphabet with 0x00, 0x01, 0x02 and 0xFF to stress the escaping.
  static constexpr char kAlphabet[] = {'\0', '\1', '\2', 'a', 'b', '\xff'};
  std::string s(rng() % 4, '\0');
  for (char& c : s) c = kAlphabet[rng() % sizeof(kAlphabet)];
  return s;
}

TEST(KeyFormatTest, ByteOrderIsHBaseCellOrder) {
  std::mt19937_64 rng(42);
  const CellType types[] = {CellType::kPut, CellType::kDelete, CellType::kDeleteColumn};
  std::vector<CellTuple> cells;
  for (int i = 0; i < 20000; ++i) {
    int64_t ts = static_cast<int64_t>(rng() % 4 == 0 ? rng() >> 1 : rng() % 5);
    cells.emplace_back(RandomBytes(rng), RandomBytes(rng), ts, static_cast<int>(types[rng() % 3]));
  }
  std::vector<CellTuple> by_tuple = cells;
  std::sort(by_tuple.begin(), by_tuple.end(), HBaseLess);
  std::vector<CellTuple> by_key = cells;
  std::sort(by_key.begin(), by_key.end(), [](const CellTuple& a, const CellTuple& b) {
    return CellKey(std::get<0>(a), std::get<1>(a), std::get<2>(a),
                   static_cast<CellType>(std::get<3>(a))) <
           CellKey(std::get<0>(b), std::get<1>(b), std::get<2>(b),
                   static_cast<CellType>(std::get<3>(b)));
  });
  ASSERT_EQ(by_tuple.size(), by_key.size());
  for (size_t i = 0; i < by_tuple.size(); ++i) {
    // Equal tuples may come in either order; compare the sorted sequences element by element.
    ASSERT_EQ(by_tuple[i], by_key[i]) << "at " << i;
  }
}

TEST(KeyFormatTest, FamilyMarkersSortBeforeEveryColumnOfTheirRow) {
  std::string marker = FamilyMarkerKey("row", 0, CellType::kDeleteFamily);
  EXPECT_LT(marker, CellKey("row", "", INT64_MAX - 1, CellType::kDeleteColumn));
  EXPECT_LT(marker, CellKey("row", std::string("\0", 1), 5, CellType::kPut));
  EXPECT_GT(marker, CellKey("ro", "\xff\xff", 0, CellType::kPut));
  EXPECT_LT(marker,
            FamilyMarkerKey(std::string("row\0", 4), INT64_MAX - 1, CellType::kDeleteFamily));
}

TEST(KeyFormatTest, RowAndColumnBoundsEncloseExactlyTheirKeys) {
  std::string row("ab", 2);
  std::string start = RowPrefix(row);
  std::string end = RowEndKey(row);
  for (const std::string& q : {std::string(), std::string("\0", 1), std::string("\xff\xff")}) {
    std::string k = CellKey(row, q, 0, CellType::kPut);
    EXPECT_LE(start, k);
    EXPECT_LT(k, end);
    std::string col = ColumnPrefix(row, q);
    EXPECT_LT(CellKey(row, q, 0, CellType::kPut), ColumnEnd(col));
    EXPECT_LT(ColumnEnd(col),
              CellKey(row, q + std::string("\0", 1), INT64_MAX - 1, CellType::kDeleteColumn));
  }
  EXPECT_GE(CellKey(std::string("ab\0", 3), "", 0, CellType::kPut), end);
  EXPECT_GE(CellKey("abc", "", 0, CellType::kPut), end);
}

}  // namespace
}  // namespace basalt::engine
