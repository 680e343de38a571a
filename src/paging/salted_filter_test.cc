#include "paging/salted_filter.h"

#include <gtest/gtest.h>

#include <memory>

namespace basalt::paging {
namespace {

FilterPtr Salt(const FilterPtr& f, SaltedRead read = SaltedRead::kScan) {
  auto r = SaltFilter(f, '\x07', read);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : nullptr;
}

TEST(SaltedFilterTest, RowKeyFiltersGetTheSaltByte) {
  EXPECT_EQ(*Salt(std::make_shared<PrefixFilter>("ab")), PrefixFilter("\x07"
                                                                      "ab"));
  EXPECT_EQ(*Salt(std::make_shared<InclusiveStopFilter>("z")), InclusiveStopFilter("\x07z"));
  EXPECT_EQ(*Salt(std::make_shared<RowFilter>(CompareOp::kLess, ByteComparator::Binary("m"))),
            RowFilter(CompareOp::kLess, ByteComparator::Binary("\x07m")));
  EXPECT_EQ(
      *Salt(std::make_shared<RowFilter>(CompareOp::kEqual, ByteComparator::BinaryPrefix("u1"))),
      RowFilter(CompareOp::kEqual, ByteComparator::BinaryPrefix("\x07u1")));
  EXPECT_EQ(*Salt(std::make_shared<FuzzyRowFilter>(
                std::vector<FuzzyRowFilter::FuzzyKey>{{"a?c", std::string("\0\1\0", 3)}})),
            FuzzyRowFilter({{"\x07"
                             "a?c",
                             std::string("\0\0\1\0", 4)}}));
}

TEST(SaltedFilterTest, RewritesInsideListsAndWrappers) {
  FilterPtr f = FilterList::Or({std::make_shared<PrefixFilter>("a"),
                                std::make_shared<SkipFilter>(std::make_shared<PrefixFilter>("b")),
                                std::make_shared<KeyOnlyFilter>()});
  FilterPtr expected =
      FilterList::Or({std::make_shared<PrefixFilter>("\x07"
                                                     "a"),
                      std::make_shared<SkipFilter>(std::make_shared<PrefixFilter>("\x07"
                                                                                  "b")),
                      std::make_shared<KeyOnlyFilter>()});
  EXPECT_EQ(*Salt(f), *expected);
}

TEST(SaltedFilterTest, CellFiltersAreSharedUnchanged) {
  FilterPtr f = std::make_shared<ColumnRangeFilter>("a", true, "b", false);
  EXPECT_EQ(Salt(f), f);
  EXPECT_EQ(Salt(nullptr), nullptr);
}

TEST(SaltedFilterTest, RowFiltersThatLookInsideTheKeyAreRejected) {
  for (const auto& c : {ByteComparator::RegexString("^a"), ByteComparator::Substring("a"),
                        ByteComparator::Long(1)}) {
    auto r = SaltFilter(std::make_shared<RowFilter>(CompareOp::kEqual, c), 'x', SaltedRead::kGet);
    EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
  }
}

TEST(SaltedFilterTest, ScanEndingFiltersAreRejectedInScansOnly) {
  for (const FilterPtr& f :
       {FilterPtr(std::make_shared<PageFilter>(3)),
        FilterPtr(std::make_shared<ColumnCountGetFilter>(3)),
        FilterPtr(std::make_shared<WhileMatchFilter>(std::make_shared<PrefixFilter>("a"))),
        FilterList::And({std::make_shared<PageFilter>(3)})}) {
    auto r = SaltFilter(f, 'x', SaltedRead::kScan);
    EXPECT_TRUE(r.status().IsInvalidArgument()) << Filter::TypeName(f->type());
    EXPECT_NE(r.status().message().find("SetLimit"), std::string::npos);
    EXPECT_TRUE(SaltFilter(f, 'x', SaltedRead::kGet).ok());
  }
}

}  // namespace
}  // namespace basalt::paging
