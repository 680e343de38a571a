// Single-row operations are linearizable: client threads run random Put / Get / Increment /
// CheckAndMutate calls on a few hot registers (one cell each), recording when each call was
// invoked and when it returned, and every register's history is checked with the Wing-Gong /
// Lowe checker (support/linearizability.h). Runs on the in-memory store, on a store that flushes
// and compacts constantly (tiny write buffer, plus a thread forcing flushes and compactions), and
// over Thrift2 through basalt's own server; also under ThreadSanitizer.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/linearizability.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

constexpr int kClients = 4;
constexpr int kRegisters = 3;
constexpr int kOpsPerClient = 36;  // ~48 operations per register per round
constexpr int kRounds = 6;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string RegisterRow(int round, int r) {
  return "round" + std::to_string(round) + "-reg" + std::to_string(r);
}

// The register's value in a row read, kAbsent when the cell is missing.
int64_t ReadValue(const RowResult& row) {
  auto v = row.Value("c", "v");
  if (!v) return kAbsent;
  auto n = DecodeCounter(*v);
  return n.ok() ? *n : kAbsent + 1;  // never a legal value: the checker will reject it
}

class RegisterLinearizabilityTest : public StoreTest {};

// Runs one client's random operations; appends each completed one to histories[register].
void RunClient(Table& t, int round, int client, std::vector<std::vector<RegisterOp>>* histories,
               std::atomic<int>* failures) {
  std::mt19937 rng(1000 * round + client);
  int64_t last_seen = kAbsent;
  int64_t next_value = 1000 * (client + 1);
  for (int i = 0; i < kOpsPerClient; ++i) {
    const int r = static_cast<int>(rng() % kRegisters);
    const std::string row = RegisterRow(round, r);
    RegisterOp op;
    op.client = client;
    bool ok = true;
    switch (rng() % 4) {
      case 0: {
        op.kind = RegisterOp::Kind::kPut;
        op.arg = next_value++;
        op.invoke_ns = NowNs();
        ok = t.Put(Put(row).Add("c", "v", EncodeCounter(op.arg))).ok();
        break;
      }
      case 1: {
        op.kind = RegisterOp::Kind::kGet;
        op.invoke_ns = NowNs();
        auto got = t.Get(Get(row).AddColumn("c", "v"));
        ok = got.ok();
        if (ok) op.output = last_seen = ReadValue(*got);
        break;
      }
      case 2: {
        op.kind = RegisterOp::Kind::kIncrement;
        op.arg = 1 + static_cast<int64_t>(rng() % 3);
        op.invoke_ns = NowNs();
        auto got = t.Increment(Increment(row).AddColumn("c", "v", op.arg));
        ok = got.ok();
        if (ok) op.output = last_seen = ReadValue(*got);
        break;
      }
      default: {
        op.kind = RegisterOp::Kind::kCheckAndPut;
        op.expected = rng() % 3 == 0 ? kAbsent : last_seen;
        op.arg = next_value++;
        CheckAndMutate cam(row);
        if (op.expected == kAbsent) {
          cam.IfNotExists("c", "v");
        } else {
          cam.IfEquals("c", "v", EncodeCounter(op.expected));
        }
        cam.Then(Put(row).Add("c", "v", EncodeCounter(op.arg)));
        op.invoke_ns = NowNs();
        auto applied = t.CheckAndMutate(cam);
        ok = applied.ok();
        if (ok) op.output = *applied ? 1 : 0;
        break;
      }
    }
    op.response_ns = NowNs();
    if (!ok) {
      // A failed call's effect is unknown; these tests expect none.
      ++*failures;
      continue;
    }
    (*histories)[r].push_back(op);
  }
}

TEST_P(RegisterLinearizabilityTest, SingleRowOperationsOnHotRegistersAreLinearizable) {
  Table& t = store().CreateTable("registers", {"c"});
  const TableName name = t.name();
  std::atomic<bool> stop{false};
  // On the stores that keep data on disk, flushes and compactions run during the clients' calls.
  std::thread maintenance;
  if (GetParam() != StoreKind::kMem) {
    maintenance = std::thread([&] {
      while (!stop.load()) {
        EXPECT_OK(store().Flush(name));
        EXPECT_OK(store().MajorCompact(name));
      }
    });
  }
  int histories_checked = 0;
  size_t ops_checked = 0;
  uint64_t steps = 0;
  for (int round = 0; round < kRounds; ++round) {
    // Per client, then merged: no lock on the recording path (it would order the calls).
    std::vector<std::vector<std::vector<RegisterOp>>> per_client(
        kClients, std::vector<std::vector<RegisterOp>>(kRegisters));
    std::atomic<int> failures{0};
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
      clients.emplace_back([&, c] { RunClient(t, round, c, &per_client[c], &failures); });
    }
    for (auto& th : clients) th.join();
    EXPECT_EQ(failures.load(), 0);
    for (int r = 0; r < kRegisters; ++r) {
      std::vector<RegisterOp> history;
      for (int c = 0; c < kClients; ++c) {
        history.insert(history.end(), per_client[c][r].begin(), per_client[c][r].end());
      }
      LinearizabilityResult result = CheckLinearizable(history);
      ASSERT_TRUE(result.linearizable) << "register " << RegisterRow(round, r) << ":\n"
                                       << result.explanation;
      ++histories_checked;
      ops_checked += history.size();
      steps += result.steps;
    }
  }
  stop = true;
  if (maintenance.joinable()) maintenance.join();
  std::cout << "[ linearizability ] " << StoreKindName(GetParam()) << ": " << histories_checked
            << " histories, " << ops_checked << " operations, " << steps << " search steps\n";
}

INSTANTIATE_TEST_SUITE_P(Stores, RegisterLinearizabilityTest,
                         ::testing::Values(StoreKind::kMem, StoreKind::kTiny, StoreKind::kThrift),
                         [](const auto& info) { return StoreKindName(info.param); });

}  // namespace
}  // namespace basalt::testing
