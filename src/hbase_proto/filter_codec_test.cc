// The filter codec against the bytes HBase's own Java client writes (tests/data/hbase_filters/,
// made by tests/java/filter-vectors): each vector decodes to the filter HBase means, behaves on
// a table as HBase's filter does, and encodes back to Java's very bytes; what basalt cannot do is
// refused by name; hostile bytes get errors, not crashes.

#include "hbase_proto/filter_codec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "basalt/basalt.h"
#include "basalt/filter_language.h"
#include "hbase_proto/proto/Filter.pb.h"
#include "util/coding.h"

namespace basalt::hbase_proto {
namespace {

using Strings = std::vector<std::string>;
namespace pb = ::hbase::pb;

// (Not test_store.h's ASSERT_OK: a unit test of a layer includes nothing above it.)
#define ASSERT_RESULT_OK(expr)                                             \
  do {                                                                     \
    const ::basalt::Status codec_test_status_ = ToStatus(expr);            \
    ASSERT_TRUE(codec_test_status_.ok()) << codec_test_status_.ToString(); \
  } while (0)

Status ToStatus(const Status& s) {
  return s;
}
template <class T>
Status ToStatus(const Result<T>& r) {
  return r.status();
}

// An in-memory store with table "t" (families f, keeping 3 versions, and g) and the embedded
// API's scans on it.
class MemTable {
 public:
  MemTable() {
    auto conn = Connection::Open("mem:");
    EXPECT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
    TableDescriptor desc(TableName("default", "t"));
    FamilyDescriptor f("f");
    f.max_versions = 3;
    desc.AddFamily(f).AddFamily(FamilyDescriptor("g"));
    Status created = conn_->admin().CreateTable(desc);
    EXPECT_TRUE(created.ok()) << created.ToString();
    auto table = conn_->GetTable("t");
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    table_ = std::move(*table);
  }

  Table& table() { return *table_; }

  // Each row of the scan, as its key and its cells' "family:qualifier".
  std::vector<std::pair<std::string, Strings>> ScanAll(const Scan& scan) {
    std::vector<std::pair<std::string, Strings>> out;
    auto scanner = table_->GetScanner(scan);
    EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
    if (!scanner.ok()) return out;
    RowResult row;
    while ((*scanner)->Next(&row)) {
      Strings cells;
      for (const Cell& c : row.cells()) cells.push_back(c.family + ":" + c.qualifier);
      out.emplace_back(row.row(), std::move(cells));
    }
    EXPECT_TRUE((*scanner)->status().ok()) << (*scanner)->status().ToString();
    return out;
  }

  Strings ScanRows(const Scan& scan) {
    Strings rows;
    for (auto& [row, cells] : ScanAll(scan)) rows.push_back(row);
    return rows;
  }

 private:
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<Table> table_;
};

const std::filesystem::path kVectors = BASALT_HBASE_FILTER_VECTORS;

std::optional<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The bytes of vector `name` (fails the test when it is missing).
std::string Vector(const std::string& name) {
  auto bytes = ReadFile(kVectors / (name + ".bin"));
  EXPECT_TRUE(bytes.has_value()) << "no vector " << name << " in " << kVectors;
  return bytes.value_or("");
}

FilterPtr Decoded(const std::string& name) {
  auto f = DecodeFilter(Vector(name));
  EXPECT_TRUE(f.ok()) << name << ": " << f.status().ToString();
  return f.ok() ? *f : nullptr;
}

FilterPtr Parsed(std::string_view text) {
  auto f = ParseFilter(text);
  EXPECT_TRUE(f.ok()) << text << ": " << f.status().ToString();
  return f.ok() ? *f : nullptr;
}

template <class T, class... Args>
FilterPtr Make(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}

// The supported vectors that HBase's filter language cannot write, and what each must decode
// to. (The others have NAME.txt, which HBase's ParseFilter reads into the same bytes.)
std::map<std::string, FilterPtr> WithoutLanguageString() {
  using FK = FuzzyRowFilter::FuzzyKey;
  return {
      {"column_range_open", Make<ColumnRangeFilter>("", false, "b", true)},
      // Pattern.CASE_INSENSITIVE without DOTALL.
      {"value_regex_case_insensitive",
       Make<ValueFilter>(CompareOp::kEqual, ByteComparator::RegexString("(?i-s)V[12]"))},
      // Pattern.LITERAL | Pattern.DOTALL.
      {"value_regex_literal",
       Make<ValueFilter>(CompareOp::kEqual, ByteComparator::RegexString("a\\.p"))},
      {"value_long", Make<ValueFilter>(CompareOp::kGreater, ByteComparator::Long(5))},
      {"list_empty", FilterList::And({})},
      // Java zeroes the pattern under the wildcards when it processes the mask.
      {"fuzzy_row_processed", Make<FuzzyRowFilter>(std::vector<FK>{{std::string("ro\0"
                                                                                "1",
                                                                                4),
                                                                    std::string("\0\0\1\0", 4)}})},
      {"fuzzy_row_raw",
       Make<FuzzyRowFilter>(std::vector<FK>{{"ro?1", std::string("\0\0\1\0", 4)}})},
  };
}

// What basalt answers for each vector it refuses.
std::map<std::string, std::string> UnsupportedErrors() {
  const std::string p = "org.apache.hadoop.hbase.filter.";
  return {
      {"unsupported_multi_row_range", "filter " + p + "MultiRowRangeFilter is not supported"},
      {"unsupported_random_row", "filter " + p + "RandomRowFilter is not supported"},
      {"unsupported_column_value", "filter " + p + "ColumnValueFilter is not supported"},
      {"unsupported_first_key_value_matching_qualifiers",
       "filter " + p + "FirstKeyValueMatchingQualifiersFilter is not supported"},
      {"unsupported_null_comparator", "comparator " + p + "NullComparator is not supported"},
      {"unsupported_bit_comparator", "comparator " + p + "BitComparator is not supported"},
      {"unsupported_big_decimal_comparator",
       "comparator " + p + "BigDecimalComparator is not supported"},
      {"unsupported_binary_component_comparator",
       "comparator " + p + "BinaryComponentComparator is not supported"},
      {"unsupported_regex_joni", "RegexStringComparator engine JONI is not supported"},
      {"unsupported_regex_comments",
       "RegexStringComparator pattern flags 4 (COMMENTS) are not supported"},
      {"unsupported_regex_charset",
       "RegexStringComparator charset ISO-8859-1 is not supported (UTF-8 only)"},
      {"unsupported_regex_less",
       "RowFilter: a RegexStringComparator works only with EQUAL and NOT_EQUAL in basalt, not "
       "LESS"},
      {"unsupported_column_pagination_column_offset",
       "ColumnPaginationFilter with a column offset (column_offset) is not supported"},
      {"unsupported_in_list", "filter " + p + "RandomRowFilter is not supported"},
  };
}

// Every vector's name, from the directory.
std::set<std::string> VectorNames() {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kVectors)) {
    if (entry.path().extension() == ".bin") names.insert(entry.path().stem().string());
  }
  return names;
}

bool HasLanguageString(const std::string& name) {
  return std::filesystem::exists(kVectors / (name + ".txt"));
}

TEST(FilterCodecTest, EveryVectorHasAnExpectation) {
  const auto without = WithoutLanguageString();
  const auto unsupported = UnsupportedErrors();
  const std::set<std::string> names = VectorNames();
  ASSERT_GE(names.size(), 40u) << "the vectors of " << kVectors;
  for (const std::string& name : names) {
    const int expectations = int{HasLanguageString(name)} + int{without.count(name) > 0} +
                             int{unsupported.count(name) > 0};
    EXPECT_EQ(expectations, 1) << name;
  }
  for (const auto& [name, filter] : without) EXPECT_TRUE(names.count(name)) << name;
  for (const auto& [name, error] : unsupported) EXPECT_TRUE(names.count(name)) << name;
}

// Java's ParseFilter reads NAME.txt into NAME.bin's bytes (FilterVectors checks that), so
// basalt's decoder must give what basalt's ParseFilter gives.
TEST(FilterCodecTest, EachVectorDecodesAsTheFilterStringHBaseReadsTheSame) {
  int checked = 0;
  for (const std::string& name : VectorNames()) {
    if (!HasLanguageString(name)) continue;
    SCOPED_TRACE(name);
    const std::string text = *ReadFile(kVectors / (name + ".txt"));
    FilterPtr decoded = Decoded(name);
    FilterPtr parsed = Parsed(text);
    ASSERT_NE(decoded, nullptr);
    ASSERT_NE(parsed, nullptr);
    EXPECT_EQ(*decoded, *parsed) << FilterToString(*decoded) << " vs " << text;
    ++checked;
  }
  EXPECT_GE(checked, 28);
}

TEST(FilterCodecTest, VectorsTheLanguageCannotWriteDecodeToTheirFilters) {
  for (const auto& [name, expected] : WithoutLanguageString()) {
    SCOPED_TRACE(name);
    FilterPtr decoded = Decoded(name);
    ASSERT_NE(decoded, nullptr);
    EXPECT_EQ(*decoded, *expected) << FilterToString(*decoded);
  }
}

TEST(FilterCodecTest, UnsupportedFiltersAndComparatorsAreRefusedByName) {
  for (const auto& [name, error] : UnsupportedErrors()) {
    SCOPED_TRACE(name);
    auto f = DecodeFilter(Vector(name));
    ASSERT_FALSE(f.ok());
    EXPECT_TRUE(f.status().IsInvalidArgument()) << f.status().ToString();
    EXPECT_NE(f.status().message().find(error), std::string::npos) << f.status().ToString();
  }
}

// EncodeFilter writes Java's bytes: decoding a vector and encoding it again gives the file back,
// but for the vectors whose form basalt does not keep: a regex's flags become inline flags (the
// bytes decode to the same filter again), and a fuzzy mask as the user gave it comes back in
// the form Java writes when it may process it.
TEST(FilterCodecTest, DecodedVectorsEncodeBackToJavasBytes) {
  const std::set<std::string> regex_flags = {"value_regex_case_insensitive", "value_regex_literal"};
  const auto unsupported = UnsupportedErrors();
  int exact = 0;
  for (const std::string& name : VectorNames()) {
    if (unsupported.count(name)) continue;
    SCOPED_TRACE(name);
    FilterPtr decoded = Decoded(name);
    ASSERT_NE(decoded, nullptr);
    auto bytes = EncodeFilter(*decoded);
    ASSERT_RESULT_OK(bytes);
    if (regex_flags.count(name)) {
      auto again = DecodeFilter(*bytes);
      ASSERT_RESULT_OK(again);
      EXPECT_EQ(**again, *decoded);
    } else if (name == "fuzzy_row_raw") {
      EXPECT_EQ(*bytes, Vector("fuzzy_row_processed"));
    } else {
      EXPECT_EQ(*bytes, Vector(name)) << FilterToString(*decoded);
      ++exact;
    }
  }
  EXPECT_GE(exact, 32);
}

// A few vectors on a table, against what HBase's filters return for it.
class FilterCodecTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Table& t = store_.table();
    std::string five, ten;
    util::PutFixed64BE(&five, 5);
    util::PutFixed64BE(&ten, 10);
    ASSERT_RESULT_OK(
        t.Put(Put("row1").Add("f", "a", 1, "v1").Add("f", "b", 1, "alpha").Add("f", "c", 1, five)));
    // row2: f:a was v1, is v2 now.
    ASSERT_RESULT_OK(t.Put(Put("row2")
                               .Add("f", "a", 1, "v1")
                               .Add("f", "a", 2, "v2")
                               .Add("f", "b", 1, "ALUMINIUM")
                               .Add("f", "c", 1, ten)));
    ASSERT_RESULT_OK(
        t.Put(Put("row3").Add("f", "a", 1, "v1").Add("f", "b", 1, "beta").Add("g", "a", 1, "y")));
    ASSERT_RESULT_OK(t.Put(Put("row4").Add("f", "b", 1, "gamma")));
  }

  Strings Rows(const std::string& vector, Scan scan = Scan()) {
    FilterPtr f = Decoded(vector);
    if (f == nullptr) return {"<no filter>"};
    return store_.ScanRows(scan.SetFilter(f));
  }

  Strings Cells(const std::string& vector) {
    FilterPtr f = Decoded(vector);
    if (f == nullptr) return {"<no filter>"};
    Strings out;
    for (const auto& [row, cells] : store_.ScanAll(Scan().SetFilter(f))) {
      for (const std::string& cell : cells) out.push_back(row + "/" + cell);
    }
    return out;
  }

  MemTable store_;
};

TEST_F(FilterCodecTableTest, PageFilterReturnsItsPageOfRows) {
  EXPECT_EQ(Rows("page"), (Strings{"row1", "row2"}));
}

TEST_F(FilterCodecTableTest, FilterListOrKeepsEitherPrefix) {
  EXPECT_EQ(Rows("list_or"), (Strings{"row1", "row3"}));
}

// latest_version_only (Java's default) tests row2's newest f:a only (v2); without it, the old
// v1 counts too. filter_if_missing drops row4, which has no f:a.
TEST_F(FilterCodecTableTest, SingleColumnValueFilterHonoursItsFlags) {
  EXPECT_EQ(Rows("single_column_value", Scan().ReadVersions(3)), (Strings{"row1", "row3", "row4"}));
  EXPECT_EQ(Rows("single_column_value_flags", Scan().ReadVersions(3)),
            (Strings{"row1", "row2", "row3"}));
}

TEST_F(FilterCodecTableTest, LongComparatorComparesEightByteValues) {
  EXPECT_EQ(Cells("value_long"), (Strings{"row2/f:c"}));
}

TEST_F(FilterCodecTableTest, CaseInsensitiveRegexMatchesAnyCase) {
  EXPECT_EQ(Cells("value_regex_case_insensitive"), (Strings{"row1/f:a", "row2/f:a", "row3/f:a"}));
}

TEST_F(FilterCodecTableTest, SubstringComparatorIgnoresCase) {
  EXPECT_EQ(Cells("value_substring"), (Strings{"row2/f:b"}));
}

TEST_F(FilterCodecTableTest, FuzzyRowFilterMatchesInBothOfJavasForms) {
  EXPECT_EQ(Rows("fuzzy_row_processed"), (Strings{"row1"}));
  EXPECT_EQ(Rows("fuzzy_row_raw"), (Strings{"row1"}));
}

TEST_F(FilterCodecTableTest, WhileMatchEndsTheScanAtTheFirstMiss) {
  EXPECT_EQ(Rows("while_match"), (Strings{"row1", "row2"}));
}

// ---- Bytes no Java client writes ----

std::string FilterBytes(std::string_view name, const std::string& body) {
  pb::Filter f;
  f.set_name("org.apache.hadoop.hbase.filter." + std::string(name));
  f.set_serialized_filter(body);
  return f.SerializeAsString();
}

std::string PageBytes(int64_t size) {
  pb::PageFilter page;
  page.set_page_size(size);
  return FilterBytes("PageFilter", page.SerializeAsString());
}

std::string Wrapped(std::string_view wrapper, const std::string& inner) {
  pb::SkipFilter m;  // SkipFilter and WhileMatchFilter are the same message
  if (!m.mutable_filter()->ParseFromString(inner)) ADD_FAILURE() << "bad inner filter";
  return FilterBytes(wrapper, m.SerializeAsString());
}

void ExpectError(const std::string& bytes, std::string_view error) {
  auto f = DecodeFilter(bytes);
  ASSERT_FALSE(f.ok()) << FilterToString(**f);
  EXPECT_TRUE(f.status().IsInvalidArgument()) << f.status().ToString();
  EXPECT_NE(f.status().message().find(error), std::string::npos) << f.status().ToString();
}

TEST(FilterCodecTest, MalformedBytesAreInvalidArgument) {
  ExpectError("", "hbase.pb.Filter lacks a required field");
  ExpectError("\xff\xff\xff", "bytes that are not a valid hbase.pb.Filter");
  ExpectError(FilterBytes("PageFilter", "\x08"), "bytes that are not a valid hbase.pb.PageFilter");
  ExpectError(FilterBytes("PageFilter", ""), "hbase.pb.PageFilter lacks a required field");
  ExpectError(PageBytes(-1), "PageFilter: the page size must not be negative, not -1");
  // Field 9, which PageFilter does not have.
  ExpectError(FilterBytes("PageFilter", std::string("\x08\x02\x48\x01", 4)),
              "hbase.pb.PageFilter holds a field or an enum value HBase 2.6 does not define");
  pb::Filter custom;
  custom.set_name("com.example.MyFilter");
  ExpectError(custom.SerializeAsString(), "filter com.example.MyFilter is not supported");
}

TEST(FilterCodecTest, EnumValuesOutOfRangeAreRefused) {
  // RowFilter{compare_filter{compare_op: 9}}: an unknown value of a required enum.
  pb::RowFilter row;
  row.mutable_compare_filter()->set_compare_op(pb::EQUAL);
  std::string body = row.SerializeAsString();
  ASSERT_EQ(body, std::string("\x0a\x02\x08\x02", 4));
  body[3] = 9;
  ExpectError(FilterBytes("RowFilter", body), "lacks a required field (or holds an unknown enum");
  // FilterList{operator: 3}.
  ExpectError(FilterBytes("FilterList", std::string("\x08\x03", 2)),
              "hbase.pb.FilterList lacks a required field");
}

TEST(FilterCodecTest, FieldsBasaltCannotHonourAreRefused) {
  pb::PrefixFilter no_prefix;
  ExpectError(FilterBytes("PrefixFilter", no_prefix.SerializeAsString()),
              "PrefixFilter without a prefix is not supported");
  pb::RowFilter no_comparator;
  no_comparator.mutable_compare_filter()->set_compare_op(pb::EQUAL);
  ExpectError(FilterBytes("RowFilter", no_comparator.SerializeAsString()),
              "RowFilter without a comparator is not supported");
  pb::SingleColumnValueFilter no_family;
  no_family.set_column_qualifier("q");
  no_family.set_compare_op(pb::EQUAL);
  no_family.mutable_comparator()->set_name("org.apache.hadoop.hbase.filter.BinaryComparator");
  ExpectError(FilterBytes("SingleColumnValueFilter", no_family.SerializeAsString()),
              "SingleColumnValueFilter without a column family is not supported");
  pb::FuzzyRowFilter no_keys;
  no_keys.set_is_mask_v2(true);
  ExpectError(FilterBytes("FuzzyRowFilter", no_keys.SerializeAsString()),
              "FuzzyRowFilter without fuzzy keys is not supported");
}

TEST(FilterCodecTest, WhatJavasConstructorsRefuseIsRefused) {
  pb::MultipleColumnPrefixFilter twice;
  twice.add_sorted_prefixes("a");
  twice.add_sorted_prefixes("a");
  ExpectError(FilterBytes("MultipleColumnPrefixFilter", twice.SerializeAsString()),
              "prefix a is given twice");
  pb::TimestampsFilter negative;
  negative.add_timestamps(-5);
  ExpectError(FilterBytes("TimestampsFilter", negative.SerializeAsString()),
              "a timestamp must not be negative, not -5");
  pb::FuzzyRowFilter unequal;
  auto* key = unequal.add_fuzzy_keys_data();
  key->set_first("abc");
  key->set_second(std::string("\0\1", 2));
  ExpectError(FilterBytes("FuzzyRowFilter", unequal.SerializeAsString()),
              "FuzzyRowFilter key 1: mask has 2 bytes, its pattern 3");
  key->set_second(std::string("\0\5\1", 3));
  ExpectError(FilterBytes("FuzzyRowFilter", unequal.SerializeAsString()),
              "FuzzyRowFilter key 1: mask byte 1 is 5");
  pb::ValueFilter short_long;
  short_long.mutable_compare_filter()->set_compare_op(pb::EQUAL);
  pb::LongComparator three;
  three.mutable_comparable()->set_value("abc");
  auto* comparator = short_long.mutable_compare_filter()->mutable_comparator();
  comparator->set_name("org.apache.hadoop.hbase.filter.LongComparator");
  comparator->set_serialized_comparator(three.SerializeAsString());
  ExpectError(FilterBytes("ValueFilter", short_long.SerializeAsString()),
              "LongComparator needs an 8-byte value, not 3 bytes");
}

// A v1 client (before HBASE-15676) processes masks to 0xFF fixed and 0 any, without is_mask_v2.
TEST(FilterCodecTest, FuzzyRowFilterReadsVersionOneMasks) {
  pb::FuzzyRowFilter v1;
  auto* key = v1.add_fuzzy_keys_data();
  key->set_first(std::string("ab\0", 3));
  key->set_second(std::string("\xff\xff\0", 3));
  auto f = DecodeFilter(FilterBytes("FuzzyRowFilter", v1.SerializeAsString()));
  ASSERT_RESULT_OK(f);
  EXPECT_EQ(**f, FuzzyRowFilter({{std::string("ab\0", 3), std::string("\0\0\1", 3)}}));
}

// HBase 3.0.0-beta-1 processes masks to 0xFF fixed and 2 any, still without is_mask_v2.
TEST(FilterCodecTest, FuzzyRowFilterReadsVersionTwoMasksWithoutTheFlag) {
  const std::string pattern = std::string(1, '\0') + "1";
  pb::FuzzyRowFilter unflagged;
  auto* key = unflagged.add_fuzzy_keys_data();
  key->set_first(pattern);
  key->set_second(std::string("\x02\xff", 2));
  auto f = DecodeFilter(FilterBytes("FuzzyRowFilter", unflagged.SerializeAsString()));
  ASSERT_RESULT_OK(f);
  EXPECT_EQ(**f, FuzzyRowFilter({{pattern, std::string("\1\0", 2)}}));
}

std::string RegexValueFilter(int flags) {
  pb::RegexStringComparator regex;
  regex.set_pattern("a.b");
  regex.set_pattern_flags(flags);
  regex.set_charset("UTF-8");
  pb::ValueFilter value;
  value.mutable_compare_filter()->set_compare_op(pb::EQUAL);
  auto* comparator = value.mutable_compare_filter()->mutable_comparator();
  comparator->set_name("org.apache.hadoop.hbase.filter.RegexStringComparator");
  comparator->set_serialized_comparator(regex.SerializeAsString());
  return FilterBytes("ValueFilter", value.SerializeAsString());
}

TEST(FilterCodecTest, RegexFlagsBecomeRe2sInlineFlags) {
  auto pattern = [](int flags) -> std::string {
    auto f = DecodeFilter(RegexValueFilter(flags));
    if (!f.ok()) return f.status().ToString();
    return static_cast<const ValueFilter&>(**f).comparator().operand();
  };
  EXPECT_EQ(pattern(0x20), "a.b");               // DOTALL, RegexStringComparator(expr)'s default
  EXPECT_EQ(pattern(0), "(?-s)a.b");             // '.' stops at a line end
  EXPECT_EQ(pattern(0x20 | 0x08), "(?m)a.b");    // MULTILINE
  EXPECT_EQ(pattern(0x02 | 0x40), "(?i-s)a.b");  // CASE_INSENSITIVE | UNICODE_CASE
  EXPECT_EQ(pattern(0x01 | 0x20), "a.b");        // UNIX_LINES: RE2's only line end is \n
  EXPECT_EQ(pattern(0x10 | 0x20), "a\\.b");      // LITERAL
  ExpectError(RegexValueFilter(0x80), "pattern flags 128 (CANON_EQ) are not supported");
  ExpectError(RegexValueFilter(0x100 | 0x4),
              "pattern flags 260 (COMMENTS, UNICODE_CHARACTER_CLASS) are not supported");
  ExpectError(RegexValueFilter(0x200), "(bits Java's Pattern does not define)");
}

// FilterList, SkipFilter and WhileMatchFilter each count as a level, as in the filter language
// and the read path: 100 levels around a filter decode (and read), 101 do not.
TEST(FilterCodecTest, NestingIsCappedAtTheLanguagesDepth) {
  std::string bytes = PageBytes(1);
  for (int i = 0; i < kMaxFilterNesting; ++i)
    bytes = Wrapped(i % 2 ? "SkipFilter" : "WhileMatchFilter", bytes);
  auto deepest = DecodeFilter(bytes);
  ASSERT_RESULT_OK(deepest);
  MemTable store;
  ASSERT_RESULT_OK(store.table().Put(Put("r").Add("f", "q", "v")));
  EXPECT_EQ(store.ScanRows(Scan().SetFilter(*deepest)), (Strings{"r"}));
  ExpectError(Wrapped("SkipFilter", bytes), "filters are nested more than 100 deep");

  pb::FilterList list;
  list.set_operator_(pb::FilterList::MUST_PASS_ONE);
  ASSERT_TRUE(list.add_filters()->ParseFromString(Wrapped("SkipFilter", bytes)));
  ExpectError(FilterBytes("FilterList", list.SerializeAsString()), "nested more than 100 deep");
}

// The kB figure of `field` ("VmRSS", "VmHWM") in /proc/self/status, or -1.
int64_t ProcessStatusKb(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1));
  }
  return -1;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
constexpr bool kAddressSanitizer = __has_feature(address_sanitizer);
#else
constexpr bool kAddressSanitizer = false;
#endif

// 100 SkipFilters around a filter of nearly 1 MiB: a decoder that kept each level's bytes while
// it went down would hold the input once per level, nearly 100 MiB; this one holds it a few
// times at most. CTest runs it as hbase_filter_decode_memory in the release tree too, since the
// unit label runs under ASan in CI.
TEST(FilterCodecTest, DeepInputIsHeldAboutOnce) {
  if (kAddressSanitizer) {
    GTEST_SKIP() << "ASan's quarantine keeps freed memory resident, so the peak RSS counts every "
                    "buffer the decoder freed";
  }
  pb::MultipleColumnPrefixFilter leaf;
  leaf.add_sorted_prefixes(std::string(900 * 1024, 'p'));
  std::string bytes = FilterBytes("MultipleColumnPrefixFilter", leaf.SerializeAsString());
  leaf.Clear();
  for (int i = 0; i < kMaxFilterNesting; ++i) bytes = Wrapped("SkipFilter", bytes);
  ASSERT_LE(bytes.size(), kMaxFilterBytes);
  // Resets VmHWM, the peak resident size, to the current one.
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
  }
  const int64_t before = ProcessStatusKb("VmRSS");
  ASSERT_GT(before, 0);
  auto decoded = DecodeFilter(bytes);
  ASSERT_RESULT_OK(decoded);
  const int64_t peak = ProcessStatusKb("VmHWM");
  EXPECT_LT(peak - before, 24 * 1024) << "decoding held " << peak - before << " KiB more";
}

TEST(FilterCodecTest, InputLongerThanTheCapIsRefused) {
  pb::MultipleColumnPrefixFilter many;
  many.add_sorted_prefixes(std::string(kMaxFilterBytes, 'a'));
  ExpectError(FilterBytes("MultipleColumnPrefixFilter", many.SerializeAsString()), "bytes allowed");
}

TEST(FilterCodecTest, EncodingRefusesWhatHBaseCannotHold) {
  auto null_child = EncodeFilter(FilterList(FilterList::Operator::kMustPassAll, {nullptr}));
  EXPECT_TRUE(null_child.status().IsInvalidArgument()) << null_child.status().ToString();
  FilterPtr deep = Make<PageFilter>(1);
  for (int i = 0; i < 10 * kMaxFilterNesting; ++i) deep = Make<SkipFilter>(deep);
  auto too_deep = EncodeFilter(*deep);
  EXPECT_TRUE(too_deep.status().IsInvalidArgument()) << too_deep.status().ToString();
  auto bad_op = EncodeFilter(RowFilter(static_cast<CompareOp>(42), ByteComparator::Binary("x")));
  EXPECT_TRUE(bad_op.status().IsInvalidArgument()) << bad_op.status().ToString();
}

#undef ASSERT_RESULT_OK

}  // namespace
}  // namespace basalt::hbase_proto
