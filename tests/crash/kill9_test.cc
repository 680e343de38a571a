// Acknowledged writes survive kill -9.
//
// A child process (child_process.h) writes to an embedded store and reports, through a pipe, each
// write the store acknowledged. The parent kills it with SIGKILL at a random moment, reopens the
// store and checks that every acknowledged write is there, that the write in flight is all there or
// not at all, and that nothing later exists. Several rounds run on the same directory, so recovery
// also follows a recovery. The default durability (SYNC_WAL) is what is tested: the write-ahead log
// reaches the operating system before a write is acknowledged, so a process crash loses nothing.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "child_process.h"
#include "support/test_store.h"

namespace basalt {
namespace {

using testing::TempDir;

constexpr int kRounds = 5;

std::string RowKey(int round, uint64_t i) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "k%d-%08llu", round, static_cast<unsigned long long>(i));
  return buf;
}

std::string CounterRow(int round) {
  return "counter-" + std::to_string(round);
}

// Iteration i of a round: one Put of three cells across two families, an Increment, and every
// seventh iteration a Delete of the row written three iterations before. Returns the iteration
// that deletes row i, or 0 when none does.
uint64_t DeletedBy(uint64_t i) {
  return (i + 3) % 7 == 0 ? i + 3 : 0;
}

// The child: writes to the store `args[0]` in round `args[1]` until killed, writing each
// acknowledged iteration to descriptor `args[2]`. Never returns.
[[noreturn]] void WriterChild(const std::vector<std::string>& args) {
  const std::string& dir = args[0];
  const int round = std::stoi(args[1]);
  const int ack_fd = std::stoi(args[2]);
  auto conn = Connection::Open(dir);
  if (!conn.ok()) {
    std::fprintf(stderr, "child: %s\n", conn.status().ToString().c_str());
    _exit(2);
  }
  auto table = (*conn)->GetTable("crash");
  if (!table.ok()) _exit(3);
  for (uint64_t i = 0;; ++i) {
    std::string v = std::to_string(i);
    Status s =
        (*table)->Put(Put(RowKey(round, i)).Add("f", "a", v).Add("f", "b", v).Add("g", "c", v));
    if (!s.ok()) _exit(4);
    if (!(*table)->IncrementColumnValue(CounterRow(round), "f", "n", 1).ok()) _exit(5);
    if (i >= 3 && DeletedBy(i - 3) == i) {
      if (!(*table)->Delete(Delete(RowKey(round, i - 3))).ok()) _exit(6);
    }
    if (write(ack_fd, &i, sizeof(i)) != sizeof(i)) _exit(7);
  }
}

const bool kWriterRegistered = crash::RegisterChildRole("kill9-writer", &WriterChild);

// Runs the writer for `run_ms` after its first acknowledgement and returns the last iteration it
// acknowledged (-1: none).
int64_t RunAndKill(const std::string& dir, int round, int run_ms) {
  const std::string acks =
      crash::RunUntilKilled("kill9-writer", {dir, std::to_string(round)}, run_ms);
  uint64_t last = 0;
  if (acks.size() < sizeof(last)) return -1;
  std::memcpy(&last, acks.data() + (acks.size() / sizeof(last) - 1) * sizeof(last), sizeof(last));
  return static_cast<int64_t>(last);
}

void VerifyRound(Table& table, int round, int64_t last) {
  SCOPED_TRACE("round " + std::to_string(round) + ", last acknowledged " + std::to_string(last));
  const uint64_t done = static_cast<uint64_t>(last + 1);  // iterations acknowledged
  // Iteration `done` was in flight: each of its writes may or may not have happened.
  for (uint64_t i = 0; i <= done; ++i) {
    auto row = table.Get(Get(RowKey(round, i)));
    ASSERT_TRUE(row.ok()) << row.status().ToString();
    const uint64_t deleted_by = DeletedBy(i);
    const bool must_be_absent = deleted_by != 0 && deleted_by < done;
    const bool may_be_absent = i == done || (deleted_by != 0 && deleted_by == done);
    if (must_be_absent) {
      EXPECT_TRUE(row->empty()) << "acknowledged delete of " << RowKey(round, i) << " was lost";
      continue;
    }
    if (row->empty()) {
      EXPECT_TRUE(may_be_absent) << "acknowledged put of " << RowKey(round, i) << " was lost";
      continue;
    }
    ASSERT_EQ(row->cells().size(), 3u) << "half a put survived for " << RowKey(round, i);
    for (const Cell& c : row->cells()) EXPECT_EQ(c.value, std::to_string(i));
  }
  // Nothing beyond the write in flight.
  auto later = table.Get(Get(RowKey(round, done + 1)));
  ASSERT_TRUE(later.ok());
  EXPECT_TRUE(later->empty());
  // Every acknowledged increment counted, at most one more (the one in flight).
  auto counter = table.Get(Get(CounterRow(round)).AddColumn("f", "n"));
  ASSERT_TRUE(counter.ok());
  int64_t value = 0;
  if (!counter->empty()) {
    auto decoded = DecodeCounter(counter->cells()[0].value);
    ASSERT_TRUE(decoded.ok());
    value = *decoded;
  }
  EXPECT_GE(value, last + 1);
  EXPECT_LE(value, last + 2);
}

TEST(Kill9Test, AcknowledgedWritesSurviveKillNine) {
  TempDir dir;
  {
    auto conn = Connection::Open(dir.path());
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    TableDescriptor desc(TableName("default", "crash"));
    desc.AddFamily(FamilyDescriptor("f"));
    desc.AddFamily(FamilyDescriptor("g"));
    ASSERT_TRUE((*conn)->admin().CreateTable(desc).ok());
    ASSERT_TRUE((*conn)->Close().ok());
  }
  std::mt19937 rng(std::random_device{}());
  std::vector<int64_t> last(kRounds, -1);
  for (int round = 0; round < kRounds; ++round) {
    last[round] = RunAndKill(dir.path(), round, 150 + static_cast<int>(rng() % 350));
    EXPECT_GE(last[round], 0) << "the writer acknowledged nothing in round " << round;
    auto conn = Connection::Open(dir.path());
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    auto table = (*conn)->GetTable("crash");
    ASSERT_TRUE(table.ok());
    // Every earlier round too: recovery must not lose what an earlier recovery kept.
    for (int r = 0; r <= round; ++r) VerifyRound(**table, r, last[r]);
    table->reset();
    ASSERT_TRUE((*conn)->Close().ok());
  }
}

}  // namespace
}  // namespace basalt
