#include "recipes/recipe_format.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "basalt/admin.h"
#include "basalt/connection.h"

namespace basalt::recipes {
namespace {

class RecipeFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor("m"));
    ASSERT_TRUE(conn_->admin().CreateTable(desc).ok());
    auto table = conn_->GetTable(TableName("default", "t"));
    ASSERT_TRUE(table.ok());
    table_ = std::move(*table);
  }

  // A recipe at version 3 that still reads version 2.
  static RecipeFormat Format() { return RecipeFormat{"demo", 3, 2, "meta", "m"}; }

  std::string Stored() {
    auto row = table_->Get(Get("meta").AddColumn("m", "v"));
    EXPECT_TRUE(row.ok());
    return std::string(row->Value("m", "v").value_or("(none)"));
  }
  void Store(std::string version) {
    ASSERT_TRUE(table_->Put(Put("meta").Add("m", "v", std::move(version))).ok());
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<Table> table_;
};

TEST_F(RecipeFormatTest, AFreshTableGetsTheCurrentVersion) {
  ASSERT_TRUE(CheckRecipeFormat(*table_, Format()).ok());
  EXPECT_EQ(Stored(), "3");
  ASSERT_TRUE(CheckRecipeFormat(*table_, Format()).ok());
  EXPECT_EQ(Stored(), "3");
}

TEST_F(RecipeFormatTest, AnOlderReadableVersionIsAcceptedAndRecordedAsTheCurrentOne) {
  Store("2");
  ASSERT_TRUE(CheckRecipeFormat(*table_, Format()).ok());
  EXPECT_EQ(Stored(), "3");
}

TEST_F(RecipeFormatTest, VersionsOutsideTheReadableRangeAreRefusedAndLeftAsTheyAre) {
  struct Case {
    std::string stored;
    std::string shown;
  };
  for (const Case& c :
       {Case{"4", "'4'"}, Case{"1", "'1'"}, Case{"0", "'0'"}, Case{"03x", "'03x'"},
        Case{"-3", "'-3'"}, Case{"", "'' (empty)"}, Case{std::string("\x00\x03", 2), "0x0003"}}) {
    SCOPED_TRACE(c.shown);
    Store(c.stored);
    Status s = CheckRecipeFormat(*table_, Format());
    EXPECT_TRUE(s.IsFailedPrecondition()) << s.ToString();
    EXPECT_EQ(s.message(), "demo: table t holds format version " + c.shown +
                               " of the demo layout (m:v of its meta row); this basalt reads "
                               "versions 2 to 3");
    EXPECT_EQ(Stored(), c.stored);
  }
}

TEST_F(RecipeFormatTest, AMissingFamilyIsAnErrorNamingTheRecipeAndTheTable) {
  RecipeFormat format = Format();
  format.family = "nope";
  Status s = CheckRecipeFormat(*table_, format);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("demo: reading the format version in table t"), std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace basalt::recipes
