// The space reserve (space_reserve.h): made at open, deleted on Release, made again by Restore.
// (Its release at open on a nearly full disk is in tests/http/test_disk_full.py, on a tmpfs.)

#include "engine/space_reserve.h"

#include <gtest/gtest.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace basalt::engine {
namespace {

class SpaceReserveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("basalt-space-reserve-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path file() const { return dir_ / SpaceReserve::kFileName; }
  std::filesystem::path dir_;
};

TEST_F(SpaceReserveTest, MadeAtOpenReleasedAndRestored) {
  struct statvfs st;
  ASSERT_EQ(statvfs(dir_.c_str(), &st), 0);
  const uint64_t total = static_cast<uint64_t>(st.f_blocks) * st.f_frsize;
  const uint64_t expected = std::clamp<uint64_t>(total / 64, 1 << 20, 64 << 20);
  auto free = SpaceReserve::FreeBytes(dir_.string());
  ASSERT_TRUE(free.has_value());
  if (*free < 3 * expected) GTEST_SKIP() << "too little free space here for the reserve";

  SpaceReserve reserve(dir_.string());
  reserve.PrepareForOpen();
  EXPECT_EQ(reserve.size(), expected);
  ASSERT_TRUE(reserve.held());
  ASSERT_TRUE(std::filesystem::exists(file()));
  EXPECT_EQ(std::filesystem::file_size(file()), expected);

  reserve.Release();
  EXPECT_FALSE(reserve.held());
  EXPECT_FALSE(std::filesystem::exists(file()));
  reserve.Release();  // idempotent

  reserve.Restore();
  EXPECT_TRUE(reserve.held());
  EXPECT_EQ(std::filesystem::file_size(file()), expected);

  // The next open finds it and keeps it.
  SpaceReserve again(dir_.string());
  again.PrepareForOpen();
  EXPECT_TRUE(again.held());
  EXPECT_TRUE(std::filesystem::exists(file()));
}

}  // namespace
}  // namespace basalt::engine
