#include "util/secure_random.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace basalt::util {
namespace {

TEST(SecureRandomTest, FillsEveryByteAndDrawsDiffer) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string buf(4096, '\0');
    ASSERT_TRUE(FillSecureRandom(buf.data(), buf.size()).ok());
    // 4,096 random bytes are never all zero, nor equal to an earlier draw.
    EXPECT_NE(buf, std::string(4096, '\0'));
    EXPECT_TRUE(seen.insert(buf).second);
  }
}

}  // namespace
}  // namespace basalt::util
