#include "server/rest/filter_json.h"

#include <gtest/gtest.h>

#include "basalt/filter_language.h"

namespace basalt::server::rest {
namespace {

// The JSON model and the filter language must give the same filter.
void ExpectSame(const std::string& json, const std::string& language) {
  auto a = ParseJsonFilter(json);
  ASSERT_TRUE(a.ok()) << json << ": " << a.status().ToString();
  auto b = ParseFilter(language);
  ASSERT_TRUE(b.ok()) << language << ": " << b.status().ToString();
  EXPECT_TRUE(**a == **b) << json << " vs " << FilterToString(**a);
}

TEST(FilterJsonTest, EveryTypeMatchesItsFilterLanguageForm) {
  // "cm93" = "row", "Y2Y=" = "cf", "YQ==" = "a", "eg==" = "z".
  ExpectSame(R"({"type":"ColumnCountGetFilter","limit":3})", "ColumnCountGetFilter(3)");
  ExpectSame(R"({"type":"ColumnPaginationFilter","limit":2,"offset":5})",
             "ColumnPaginationFilter(2, 5)");
  ExpectSame(R"({"type":"ColumnPrefixFilter","value":"cm93"})", "ColumnPrefixFilter('row')");
  ExpectSame(R"({"type":"ColumnRangeFilter","minColumn":"YQ==","minColumnInclusive":true,
                 "maxColumn":"eg==","maxColumnInclusive":false})",
             "ColumnRangeFilter('a', true, 'z', false)");
  ExpectSame(R"({"type":"DependentColumnFilter","family":"Y2Y=","qualifier":"YQ==",
                 "dropDependentColumn":true,"op":"EQUAL",
                 "comparator":{"type":"BinaryComparator","value":"cm93"}})",
             "DependentColumnFilter('cf', 'a', true, =, 'binary:row')");
  ExpectSame(R"({"type":"FamilyFilter","op":"NOT_EQUAL",
                 "comparator":{"type":"BinaryPrefixComparator","value":"Y2Y="}})",
             "FamilyFilter(!=, 'binaryprefix:cf')");
  ExpectSame(R"({"type":"QualifierFilter","op":"GREATER_OR_EQUAL",
                 "comparator":{"type":"BinaryComparator","value":"YQ=="}})",
             "QualifierFilter(>=, 'binary:a')");
  ExpectSame(R"({"type":"RowFilter","op":"EQUAL",
                 "comparator":{"type":"RegexStringComparator","value":"^r.*"}})",
             "RowFilter(=, 'regexstring:^r.*')");
  ExpectSame(R"({"type":"ValueFilter","op":"EQUAL",
                 "comparator":{"type":"SubstringComparator","value":"err"}})",
             "ValueFilter(=, 'substring:err')");
  ExpectSame(R"({"type":"FirstKeyOnlyFilter"})", "FirstKeyOnlyFilter()");
  ExpectSame(R"({"type":"KeyOnlyFilter"})", "KeyOnlyFilter()");
  ExpectSame(R"({"type":"InclusiveStopFilter","value":"cm93"})", "InclusiveStopFilter('row')");
  ExpectSame(R"({"type":"MultipleColumnPrefixFilter","prefixes":["YQ==","eg=="]})",
             "MultipleColumnPrefixFilter('a', 'z')");
  ExpectSame(R"({"type":"PageFilter","value":"10"})", "PageFilter(10)");
  ExpectSame(R"({"type":"PrefixFilter","value":"cm93"})", "PrefixFilter('row')");
  ExpectSame(R"({"type":"SingleColumnValueFilter","family":"Y2Y=","qualifier":"YQ==",
                 "op":"EQUAL","comparator":{"type":"BinaryComparator","value":"cm93"},
                 "ifMissing":true,"latestVersion":false})",
             "SingleColumnValueFilter('cf', 'a', =, 'binary:row', true, false)");
  ExpectSame(R"({"type":"SingleColumnValueExcludeFilter","family":"Y2Y=","qualifier":"YQ==",
                 "op":"EQUAL","comparator":{"type":"BinaryComparator","value":"cm93"}})",
             "SingleColumnValueExcludeFilter('cf', 'a', =, 'binary:row')");
  ExpectSame(R"({"type":"TimestampsFilter","timestamps":[5,1,3]})", "TimestampsFilter(1, 3, 5)");
  ExpectSame(R"({"type":"SkipFilter","filters":[{"type":"ValueFilter","op":"NOT_EQUAL",
                 "comparator":{"type":"BinaryComparator","value":"YQ=="}}]})",
             "SKIP ValueFilter(!=, 'binary:a')");
  ExpectSame(R"({"type":"WhileMatchFilter","filters":[{"type":"PrefixFilter","value":"cm93"}]})",
             "WHILE PrefixFilter('row')");
  ExpectSame(R"({"type":"FilterList","op":"MUST_PASS_ONE","filters":[
                 {"type":"PrefixFilter","value":"cm93"},{"type":"KeyOnlyFilter"}]})",
             "PrefixFilter('row') OR KeyOnlyFilter()");
  ExpectSame(R"({"type":"FilterList","op":"MUST_PASS_ALL","filters":[
                 {"type":"PrefixFilter","value":"cm93"},{"type":"PageFilter","value":"1"}]})",
             "PrefixFilter('row') AND PageFilter(1)");
}

TEST(FilterJsonTest, FuzzyRowFilterKeysAndMasks) {
  // key "ab?" with mask 0,0,1.
  auto f =
      ParseJsonFilter(R"({"type":"FuzzyRowFilter","fuzzyKeys":[{"key":"YWI/","mask":"AAAB"}]})");
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  const auto& fuzzy = static_cast<const FuzzyRowFilter&>(**f);
  ASSERT_EQ(fuzzy.keys().size(), 1u);
  EXPECT_EQ(fuzzy.keys()[0].pattern, "ab?");
  EXPECT_EQ(fuzzy.keys()[0].mask, std::string("\0\0\1", 3));
}

TEST(FilterJsonTest, UnknownTypesAndMalformedModelsAreInvalidArgument) {
  for (
      const char* bad : {
          R"({"type":"RandomRowFilter","chance":0.5})",
          R"({"type":"MultiRowRangeFilter","ranges":[]})",
          R"({"type":"NoSuchFilter"})",
          R"({"op":"EQUAL"})",
          R"([1,2])",
          R"({"type":"PrefixFilter","value":"not base64"})",
          R"({"type":"PrefixFilter"})",
          R"({"type":"RowFilter","op":"SIMILAR","comparator":{"type":"BinaryComparator","value":""}})",
          R"({"type":"RowFilter","op":"EQUAL","comparator":{"type":"BitComparator","value":""}})",
          R"({"type":"RowFilter","op":"EQUAL","comparator":{"type":"NullComparator"}})",
          R"({"type":"PageFilter","value":"ten"})",
          R"({"type":"PageFilter","value":"-1"})",
          R"({"type":"FilterList","op":"SOMETIMES","filters":[]})",
          R"({"type":"SkipFilter","filters":[]})",
          R"({"type":"TimestampsFilter","timestamps":[-1]})",
          R"({"type":"FuzzyRowFilter","fuzzyKeys":[{"key":"YWI=","mask":"AAAB"}]})",
          R"({"type":"ColumnCountGetFilter","limit":"3"})",
          "{not json",
      }) {
    auto f = ParseJsonFilter(bad);
    EXPECT_TRUE(f.status().IsInvalidArgument()) << bad;
  }
}

TEST(FilterJsonTest, ScannerFilterTakesJsonOrFilterLanguage) {
  auto a = ParseScannerFilter(R"( {"type":"PrefixFilter","value":"cm93"})");
  auto b = ParseScannerFilter("PrefixFilter('row')");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(**a == **b);
  EXPECT_TRUE(ParseScannerFilter("PrefixFilter(").status().IsInvalidArgument());
}

}  // namespace
}  // namespace basalt::server::rest
