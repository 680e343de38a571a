#include "basalt/mutation.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace basalt {
namespace {

std::vector<std::string> Qualifiers(const Put& p) {
  std::vector<std::string> out;
  for (const auto& e : p.entries()) out.push_back(e.qualifier + "=" + e.value);
  return out;
}

TEST(PutTest, HasNoCellsUntilOneIsAdded) {
  Put p("r");
  EXPECT_TRUE(p.entries().empty());
}

TEST(PutTest, KeepsCellsInTheOrderAddedAsTheyGrowFromOneToMany) {
  Put p("r");
  p.Add("f", "a", "1");
  EXPECT_EQ(Qualifiers(p), (std::vector<std::string>{"a=1"}));
  p.Add("f", "b", 7, "2");
  EXPECT_EQ(Qualifiers(p), (std::vector<std::string>{"a=1", "b=2"}));
  p.Add("g", "c", "3").Add("g", "d", "4").Add("g", "e", "5");
  EXPECT_EQ(Qualifiers(p), (std::vector<std::string>{"a=1", "b=2", "c=3", "d=4", "e=5"}));
  EXPECT_EQ(p.entries()[1].timestamp, 7);
  EXPECT_EQ(p.entries()[2].family, "g");
}

TEST(PutTest, CopiesAndMovesCarryEveryCell) {
  Put one("r");
  one.Add("f", "a", "1");
  Put many("s");
  many.Add("f", "a", "1").Add("f", "b", "2");

  Put one_copy = one;
  Put many_copy = many;
  EXPECT_EQ(Qualifiers(one_copy), Qualifiers(one));
  EXPECT_EQ(Qualifiers(many_copy), Qualifiers(many));

  Put one_moved = std::move(one_copy);
  Put many_moved = std::move(many_copy);
  EXPECT_EQ(Qualifiers(one_moved), (std::vector<std::string>{"a=1"}));
  EXPECT_EQ(Qualifiers(many_moved), (std::vector<std::string>{"a=1", "b=2"}));

  // Assigning one shape over the other leaves exactly the assigned cells.
  one_moved = many;
  EXPECT_EQ(Qualifiers(one_moved), (std::vector<std::string>{"a=1", "b=2"}));
  many_moved = one;
  EXPECT_EQ(Qualifiers(many_moved), (std::vector<std::string>{"a=1"}));
}

TEST(PutTest, ChainingOnATemporaryMovesTheValue) {
  std::string big(4096, 'v');
  const char* data = big.data();
  std::vector<Mutation> batch;
  batch.emplace_back(Put("r").Add("f", "q", std::move(big)));
  const auto& put = std::get<Put>(batch.front());
  ASSERT_EQ(put.entries().size(), 1u);
  // The buffer handed in is the one the batch holds: no copy on the way.
  EXPECT_EQ(put.entries()[0].value.data(), data);
}

TEST(PutTest, TakesCellsFromLiteralsViewsAndStringsAlikeAndMovesAValueHandedOver) {
  const std::string family = "f";
  std::string_view qualifier = "q";
  std::string value(4096, 'v');
  const char* data = value.data();
  Put p("r");
  p.Add(family, qualifier, std::move(value)).Add("g", std::string("w"), 5, std::string_view("x"));
  ASSERT_EQ(p.entries().size(), 2u);
  EXPECT_EQ(p.entries()[0].family, "f");
  EXPECT_EQ(p.entries()[0].qualifier, "q");
  EXPECT_EQ(p.entries()[0].value.data(), data);  // built in place from the moved string
  EXPECT_EQ(p.entries()[1].family, "g");
  EXPECT_EQ(p.entries()[1].qualifier, "w");
  EXPECT_EQ(p.entries()[1].timestamp, 5);
  EXPECT_EQ(p.entries()[1].value, "x");
}

}  // namespace
}  // namespace basalt
