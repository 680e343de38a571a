// The info log (info_log.h): lines land in LOG, an older LOG is kept as LOG.old.*, and a file
// system that refuses appends (a full disk) costs the lines, not the process.

#include "engine/info_log.h"

#include <gtest/gtest.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

namespace basalt::engine {
namespace {

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Every file it opens for writing refuses appends, as on a full disk.
class FullFileSystem : public rocksdb::FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "FullFileSystem"; }
  rocksdb::IOStatus NewWritableFile(const std::string& fname, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    std::unique_ptr<rocksdb::FSWritableFile> file;
    rocksdb::IOStatus s = target()->NewWritableFile(fname, options, &file, dbg);
    if (s.ok()) result->reset(new FullFile(std::move(file)));
    return s;
  }

 private:
  class FullFile : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    using FSWritableFileOwnerWrapper::FSWritableFileOwnerWrapper;
    rocksdb::IOStatus Append(const rocksdb::Slice&, const rocksdb::IOOptions&,
                             rocksdb::IODebugContext*) override {
      return rocksdb::IOStatus::NoSpace("test: no space left on device");
    }
    rocksdb::IOStatus Append(const rocksdb::Slice&, const rocksdb::IOOptions&,
                             const rocksdb::DataVerificationInfo&,
                             rocksdb::IODebugContext*) override {
      return rocksdb::IOStatus::NoSpace("test: no space left on device");
    }
  };
};

class InfoLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("basalt-info-log-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(InfoLogTest, LinesLandInLogAndAnOlderLogIsKept) {
  {
    auto log =
        OpenInfoLog(rocksdb::Env::Default(), dir_.string(), rocksdb::InfoLogLevel::INFO_LEVEL);
    rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, log, "first open, line %d", 1);
    ASSERT_TRUE(log->Close().ok());
  }
  EXPECT_NE(ReadFile(dir_ / "LOG").find("first open, line 1\n"), std::string::npos);
  auto log = OpenInfoLog(rocksdb::Env::Default(), dir_.string(), rocksdb::InfoLogLevel::INFO_LEVEL);
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, log, "second open");
  rocksdb::Log(rocksdb::InfoLogLevel::DEBUG_LEVEL, log, "below the level");
  log->Flush();
  const std::string now = ReadFile(dir_ / "LOG");
  EXPECT_NE(now.find("second open\n"), std::string::npos) << now;
  EXPECT_EQ(now.find("first open"), std::string::npos) << now;
  EXPECT_EQ(now.find("below the level"), std::string::npos) << now;
  int old_logs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir_)) {
    if (e.path().filename().string().rfind("LOG.old.", 0) == 0) {
      ++old_logs;
      EXPECT_NE(ReadFile(e.path()).find("first open, line 1"), std::string::npos);
    }
  }
  EXPECT_EQ(old_logs, 1);
}

TEST_F(InfoLogTest, AFullDiskDropsLinesAndNeverAborts) {
  // RocksDB's own logger asserts on the append after a failed one (an abort with Debian's
  // librocksdb); this one must go on logging, and dropping, as long as the disk is full.
  auto env =
      rocksdb::NewCompositeEnv(std::make_shared<FullFileSystem>(rocksdb::FileSystem::Default()));
  auto log = OpenInfoLog(env.get(), dir_.string(), rocksdb::InfoLogLevel::INFO_LEVEL);
  for (int i = 0; i < 10; ++i) rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, log, "line %d", i);
  log->Flush();
  EXPECT_TRUE(log->Close().ok());
  EXPECT_EQ(ReadFile(dir_ / "LOG"), "");
}

}  // namespace
}  // namespace basalt::engine
