// `basalt import` holds at most one record of the largest valid size (cli/import.h): a line that
// never ends or a CSV quote never closed fails as soon as it passes that size, with the line and
// the limit, and the process's peak RSS stays far below the input; a record of exactly that size
// still imports. Runs the real binary on its stdin, measuring its peak RSS (getrusage of the
// child).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "support/test_store.h"

namespace basalt {
namespace {

// The parts of a cell at their limits (basalt/types.h, basalt/bulk_load.h, basalt/schema.h,
// ConnectionOptions::max_value_bytes), and the 20 characters the import allows a timestamp.
constexpr size_t kRow = kMaxRowKeyLength;
constexpr size_t kFamily = 127;
constexpr size_t kQualifier = 65535;
const size_t kValue = ConnectionOptions().max_value_bytes;
constexpr size_t kTimestamp = 20;
// Every byte written \xHH, three tabs and a CR.
const size_t kTsvLimit = 4 * (kRow + kFamily + 1 + kQualifier + kValue + kTimestamp) + 3 + 1;
// Every byte a doubled quote but the colon and the timestamp, four quoted fields, three commas
// and a CR.
const size_t kCsvLimit = 2 * (kRow + kFamily + kQualifier + kValue) + 1 + kTimestamp + 8 + 3 + 1;
constexpr size_t kMiB = 1024 * 1024;
// Well above the binary's own footprint with a store open, far below the inputs.
constexpr size_t kPeakRssLimit = 100 * kMiB;

struct Outcome {
  int status = -1;
  std::string out, err;
  size_t peak_rss = 0;  // bytes
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `basalt --data DIR args...` with `feed` writing its stdin; writing stops when basalt
// closes it.
Outcome RunBasalt(const std::string& dir, const std::vector<std::string>& args,
                  const std::function<void(const std::function<bool(const std::string&)>&)>& feed) {
  Outcome run;
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return run;
  const std::string out_file = dir + "/stdout";
  const std::string err_file = dir + "/stderr";
  // Everything the child needs is made before the fork: it only calls async-signal-safe
  // functions (the test's process has RocksDB's threads).
  std::vector<std::string> argv_s{BASALT_BINARY, "--data", dir + "/data"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int out_fd = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err_fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[0], 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    ::execv(BASALT_BINARY, argv.data());
    ::_exit(127);
  }
  ::close(out_fd);
  ::close(err_fd);
  ::close(pipe_fds[0]);
  // A write after basalt stopped reading fails with EPIPE instead of killing the test.
  auto old_handler = std::signal(SIGPIPE, SIG_IGN);
  bool open = true;
  feed([&](const std::string& bytes) {
    size_t done = 0;
    while (open && done < bytes.size()) {
      const ssize_t n = ::write(pipe_fds[1], bytes.data() + done, bytes.size() - done);
      if (n <= 0) {
        open = false;
        break;
      }
      done += static_cast<size_t>(n);
    }
    return open;
  });
  ::close(pipe_fds[1]);
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  std::signal(SIGPIPE, old_handler);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.peak_rss = static_cast<size_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
  run.out = ReadFile(out_file);
  run.err = ReadFile(err_file);
  return run;
}

// `count` bytes of `byte`, fed in 1 MiB pieces.
void FeedRepeated(const std::function<bool(const std::string&)>& write, char byte, size_t count) {
  const std::string piece(kMiB, byte);
  for (size_t sent = 0; sent < count; sent += piece.size()) {
    if (!write(piece.substr(0, std::min(piece.size(), count - sent)))) return;
  }
}

// `n` bytes of `byte`, each written \xHH.
std::string Escaped(char byte, size_t n) {
  char one[5];
  std::snprintf(one, sizeof(one), "\\x%02X", static_cast<unsigned char>(byte));
  std::string out;
  out.reserve(4 * n);
  for (size_t i = 0; i < n; ++i) out.append(one, 4);
  return out;
}

class ImportLimitsTest : public ::testing::Test {
 protected:
  // A table of the one family `family`.
  void CreateTable(const std::string& family) {
    family_ = family;
    auto conn = Connection::Open(dir_.path() + "/data");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    TableDescriptor desc(TableName("default", "t"));
    desc.AddFamily(FamilyDescriptor(family_));
    Status s = (*conn)->admin().CreateTable(desc, {});
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_TRUE((*conn)->Close().ok());
  }

  Outcome Import(const std::string& format,
                 const std::function<void(const std::function<bool(const std::string&)>&)>& feed) {
    return RunBasalt(dir_.path(), {"import", "t", "-", "--format", format}, feed);
  }

  testing::TempDir dir_;
  std::string family_;
};

TEST_F(ImportLimitsTest, LineThatNeverEndsFailsAtTheLimitWithBoundedMemory) {
  CreateTable("f");
  const size_t input = 300 * kMiB;
  Outcome run = Import("tsv", [&](const auto& write) {
    if (write("row\tf:q\t")) FeedRepeated(write, 'v', input);
  });
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(run.err, "error: InvalidArgument: line 1: record longer than " +
                         std::to_string(kTsvLimit) +
                         " bytes, the most a valid one can take (a row, column and value at "
                         "their limits, every byte escaped); reading stopped there\n");
  EXPECT_LT(run.peak_rss, kPeakRssLimit) << "peak RSS " << run.peak_rss / kMiB << " MiB";
}

TEST_F(ImportLimitsTest, QuoteThatNeverClosesFailsAtTheLimitWithBoundedMemory) {
  CreateTable("f");
  const size_t input = 300 * kMiB;
  // A good record, then a quoted value whose lines go on without its closing quote.
  Outcome run = Import("csv", [&](const auto& write) {
    if (!write("a,f:q,1\nb,f:q,\"")) return;
    const std::string line = std::string(1023, 'x') + "\n";
    for (size_t sent = 0; sent < input; sent += line.size()) {
      if (!write(line)) return;
    }
  });
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(run.err, "error: InvalidArgument: line 2: record longer than " +
                         std::to_string(kCsvLimit) +
                         " bytes, the most a valid one can take (a row, column and value at "
                         "their limits, every byte escaped); reading stopped there\n");
  EXPECT_LT(run.peak_rss, kPeakRssLimit) << "peak RSS " << run.peak_rss / kMiB << " MiB";
}

// The largest valid tsv record: every part at its limit, every byte escaped.
std::string LargestTsvRecord(char family_byte, const std::string& extra_value) {
  std::string r = Escaped('r', kRow) + "\t" + Escaped(family_byte, kFamily) + Escaped(':', 1) +
                  Escaped('q', kQualifier) + "\t" + extra_value + Escaped('v', kValue) + "\t" +
                  Escaped('0', kTimestamp - 1) + Escaped('7', 1) + "\r";
  return r;
}

TEST_F(ImportLimitsTest, TsvRecordOfTheLargestValidSizeImports) {
  CreateTable(std::string(kFamily, 'F'));  // a name of the most bytes
  const std::string record = LargestTsvRecord('F', "");
  ASSERT_EQ(record.size(), kTsvLimit);
  Outcome run = Import("tsv", [&](const auto& write) { write(record + "\n"); });
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "imported 1 cell(s) into t\n");
  // One byte more is past the limit.
  run = Import("tsv", [&](const auto& write) { write(LargestTsvRecord('F', "v") + "\n"); });
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("line 1: record longer than " + std::to_string(kTsvLimit) + " bytes"),
            std::string::npos)
      << run.err;
}

// The largest valid csv record: every part at its limit and made of quotes, written twice.
std::string LargestCsvRecord(const std::string& extra_value) {
  auto quotes = [](size_t n) { return std::string(2 * n, '"'); };
  return "\"" + quotes(kRow) + "\",\"" + quotes(kFamily) + ":" + quotes(kQualifier) + "\",\"" +
         extra_value + quotes(kValue) + "\",\"" + std::string(kTimestamp - 1, '0') + "7\"\r";
}

TEST_F(ImportLimitsTest, CsvRecordOfTheLargestValidSizeImports) {
  CreateTable(std::string(kFamily, '"'));
  const std::string record = LargestCsvRecord("");
  ASSERT_EQ(record.size(), kCsvLimit);
  Outcome run = Import("csv", [&](const auto& write) { write(record + "\n"); });
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "imported 1 cell(s) into t\n");
  run = Import("csv", [&](const auto& write) { write(LargestCsvRecord("x") + "\n"); });
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("line 1: record longer than " + std::to_string(kCsvLimit) + " bytes"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace basalt
