#include "recipes/trim_hash.h"

#include <gtest/gtest.h>

namespace basalt::recipes {
namespace {

// The values the activity log's and the feed's trim schedules were computed with before they
// shared TrimHash: a change here moves which writes trim.
TEST(TrimHashTest, KeepsTheValuesTheTrimSchedulesWereBuiltOn) {
  EXPECT_EQ(TrimHash().AddBytes("a").value(), 0x44bd8ad473cd9906ull);
  EXPECT_EQ(TrimHash().AddBytes("alice").MixNumber(1700000000000).MixNumber(42).value(),
            0x5bfb19f467f51ba5ull);
  EXPECT_EQ(TrimHash().AddBytes("bob").EndField().AddBytes("entry").EndField().value(),
            0xa7e36853e465d7faull);
}

TEST(TrimHashTest, FieldsHashApartWhereverTheyAreCut) {
  EXPECT_EQ(TrimHash().AddBytes("ab").EndField().AddBytes("c").EndField().value(),
            0x8f445394c4cd6293ull);
  EXPECT_EQ(TrimHash().AddBytes("a").EndField().AddBytes("bc").EndField().value(),
            0x33b43574e9506a95ull);
  EXPECT_EQ(TrimHash().AddBytes("abc").value(), TrimHash().AddBytes("ab").AddBytes("c").value());
}

TEST(TrimHashTest, NumbersWithTheSameSumHashApart) {
  // An event at t with sequence s and one at t - 1 with sequence s + 1.
  EXPECT_NE(TrimHash().AddBytes("u").MixNumber(1000).MixNumber(7).value(),
            TrimHash().AddBytes("u").MixNumber(999).MixNumber(8).value());
}

}  // namespace
}  // namespace basalt::recipes
