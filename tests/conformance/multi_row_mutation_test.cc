// Connection::MutateRows: conditional mutations of several rows in several tables, all or none,
// through the public API on every store configuration. The remote backend has no such call
// (NotSupported); the embedded kinds apply it atomically.

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "support/test_store.h"

namespace basalt::testing {
namespace {

class MultiRowMutationTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    store().CreateTable("a", {"f", "c"});
    store().CreateTable("b", {"f", "c"});
  }

  static TableName A() { return TableName("default", "a"); }
  static TableName B() { return TableName("default", "b"); }
  Table& a() { return store().table("a"); }
  Table& b() { return store().table("b"); }

  // The newest value of family:qualifier, or "<none>".
  static std::string Value(Table& table, const std::string& row, const std::string& family,
                           const std::string& qualifier) {
    auto r = table.Get(Get(row).AddColumn(family, qualifier));
    EXPECT_OK(r);
    if (!r.ok()) return "<error>";
    auto v = r->Value(family, qualifier);
    return v.has_value() ? std::string(*v) : "<none>";
  }

  static int64_t Counter(Table& table, const std::string& row) {
    std::string v = Value(table, row, "c", "n");
    if (v == "<none>") return 0;
    auto n = DecodeCounter(v);
    EXPECT_OK(n);
    return n.ok() ? *n : -999;
  }

  // The follow-graph shape: an edge in each table and a counter beside each, only when the
  // first edge is absent.
  static MultiRowMutation Link(const std::string& from, const std::string& to) {
    MultiRowMutation m;
    m.IfNotExists(A(), from + ">" + to, "f", "u")
        .Add(A(), Put(from + ">" + to).Add("f", "u", to))
        .Add(B(), Put(to + "<" + from).Add("f", "u", from))
        .Add(A(), Increment(from).AddColumn("c", "n", 1))
        .Add(B(), Increment(to).AddColumn("c", "n", 1));
    return m;
  }

  bool Embedded() const { return !IsRemote(GetParam()); }
};

TEST_P(MultiRowMutationTest, RemoteBackendsSayNotSupportedAndWriteNothing) {
  if (Embedded()) GTEST_SKIP() << "the embedded store supports MutateRows";
  auto r = store().conn().MutateRows(Link("alice", "bob"));
  EXPECT_TRUE(r.status().IsNotSupported()) << r.status().ToString();
  EXPECT_EQ(Value(a(), "alice>bob", "f", "u"), "<none>");
  EXPECT_EQ(Counter(b(), "bob"), 0);
}

TEST_P(MultiRowMutationTest, AppliesEveryMutationAcrossTablesWhenTheConditionsHold) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  auto r = store().conn().MutateRows(Link("alice", "bob"));
  ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ(Value(a(), "alice>bob", "f", "u"), "bob");
  EXPECT_EQ(Value(b(), "bob<alice", "f", "u"), "alice");
  EXPECT_EQ(Counter(a(), "alice"), 1);
  EXPECT_EQ(Counter(b(), "bob"), 1);
  store().Reopen();
  EXPECT_EQ(Value(b(), "bob<alice", "f", "u"), "alice");
  EXPECT_EQ(Counter(a(), "alice"), 1);
}

TEST_P(MultiRowMutationTest, AFailedConditionWritesNothing) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  ASSERT_TRUE(*store().conn().MutateRows(Link("alice", "bob")));
  // The edge exists now: the same call again changes nothing, counters included.
  auto r = store().conn().MutateRows(Link("alice", "bob"));
  ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_EQ(Counter(a(), "alice"), 1);
  EXPECT_EQ(Counter(b(), "bob"), 1);

  // Several conditions: all must hold; the one that fails can be anywhere.
  MultiRowMutation m;
  m.IfNotExists(A(), "x", "f", "u")
      .IfEquals(B(), "bob<alice", "f", "u", "alice")
      .IfExists(A(), "nothing-here", "f", "u")
      .Add(A(), Put("x").Add("f", "u", "1"))
      .Add(B(), Delete("bob<alice"));
  r = store().conn().MutateRows(m);
  ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_EQ(Value(a(), "x", "f", "u"), "<none>");
  EXPECT_EQ(Value(b(), "bob<alice", "f", "u"), "alice");
}

TEST_P(MultiRowMutationTest, ConditionsFollowCheckAndMutatesRules) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  ASSERT_OK(a().Put(Put("r").Add("f", "v", "b").Add("f", "empty", "")));
  auto run = [&](MultiRowMutation::Condition c) {
    MultiRowMutation m;
    m.If(std::move(c)).Add(B(), Increment("hits").AddColumn("c", "n", 1));
    auto r = store().conn().MutateRows(m);
    EXPECT_OK(r);
    return r.ok() && *r;
  };
  auto cond = [](std::string q, CompareOp op, std::optional<std::string> expected) {
    return MultiRowMutation::Condition{A(), "r", "f", std::move(q), op, std::move(expected), {}};
  };
  EXPECT_TRUE(run(cond("v", CompareOp::kEqual, "b")));
  EXPECT_FALSE(run(cond("v", CompareOp::kEqual, "c")));
  EXPECT_TRUE(run(cond("v", CompareOp::kLess, "a")));  // expected < stored, HBase's order
  EXPECT_FALSE(run(cond("missing", CompareOp::kEqual, "b")));
  EXPECT_TRUE(run(cond("missing", CompareOp::kEqual, std::nullopt)));  // absent
  EXPECT_TRUE(run(cond("empty", CompareOp::kEqual, std::nullopt)));    // empty counts as absent
  EXPECT_FALSE(run(cond("empty", CompareOp::kNotEqual, std::nullopt)));
  EXPECT_TRUE(run(cond("v", CompareOp::kNotEqual, std::nullopt)));  // exists
  EXPECT_EQ(Counter(b(), "hits"), 5);
}

TEST_P(MultiRowMutationTest, MutationsSeeEarlierOnesAndDeletesApply) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  ASSERT_OK(a().Put(Put("gone").Add("f", "u", "x")));
  MultiRowMutation m;
  m.Add(A(), Put("r").Add("c", "n", EncodeCounter(40)))
      .Add(A(), Increment("r").AddColumn("c", "n", 2))
      .Add(A(), Delete("gone").AddColumns("f", "u"))
      .Add(B(), Append("s").Add("f", "u", "ab"))
      .Add(B(), Append("s").Add("f", "u", "cd"));
  auto r = store().conn().MutateRows(m);  // no conditions: always applied
  ASSERT_OK(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ(Counter(a(), "r"), 42);
  EXPECT_EQ(Value(a(), "gone", "f", "u"), "<none>");
  EXPECT_EQ(Value(b(), "s", "f", "u"), "abcd");
}

TEST_P(MultiRowMutationTest, InvalidInputIsRejectedAndWritesNothing) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  auto expect_rejected = [&](const MultiRowMutation& m, bool not_found = false) {
    auto r = store().conn().MutateRows(m);
    EXPECT_FALSE(r.ok());
    if (not_found) {
      EXPECT_TRUE(r.status().IsNotFound()) << r.status().ToString();
    } else {
      EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
    }
    EXPECT_EQ(Value(a(), "ok", "f", "u"), "<none>");
    EXPECT_EQ(Counter(b(), "n"), 0);
  };
  auto good = [] {
    MultiRowMutation m;
    m.IfNotExists(A(), "ok", "f", "u")
        .Add(A(), Put("ok").Add("f", "u", "1"))
        .Add(B(), Increment("n").AddColumn("c", "n", 1));
    return m;
  };
  expect_rejected(MultiRowMutation());  // no mutations
  expect_rejected(MultiRowMutation().IfNotExists(A(), "ok", "f", "u"));
  expect_rejected(good().Add(A(), Put("x").Add("nofamily", "q", "v")),  // the last one is bad
                  /*not_found=*/true);
  expect_rejected(good().Add(B(), Put("")));  // empty row, no cells
  expect_rejected(good().IfNotExists(A(), "ok", "nofamily", "u"), /*not_found=*/true);
  expect_rejected(good().IfNotExists(A(), "", "f", "u"));
  expect_rejected(good().Add(A(), Increment("x")));  // no columns
  expect_rejected(good().Add(TableName("default", "nosuchtable"), Put("x").Add("f", "u", "v")),
                  /*not_found=*/true);
  ASSERT_TRUE(*store().conn().MutateRows(good()));
  EXPECT_EQ(Counter(b(), "n"), 1);
}

TEST_P(MultiRowMutationTest, ADisabledTableIsFailedPrecondition) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  ASSERT_OK(store().admin().DisableTable(B()));
  auto r = store().conn().MutateRows(Link("alice", "bob"));
  EXPECT_TRUE(r.status().IsFailedPrecondition()) << r.status().ToString();
  ASSERT_OK(store().admin().EnableTable(B()));
  EXPECT_EQ(Value(a(), "alice>bob", "f", "u"), "<none>");
}

// Threads link overlapping pairs in both directions (so their row sets overlap in opposite
// orders): no deadlock, each edge is made once, and every counter equals its edges.
TEST_P(MultiRowMutationTest, RacingCallsOnSharedRowsGiveExactCounts) {
  if (!Embedded()) GTEST_SKIP() << "NotSupported over Thrift2";
  constexpr int kThreads = 4;
  constexpr int kUsers = 12;
  std::atomic<int> applied{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < kUsers; ++i) {
          for (int j = 0; j < kUsers; ++j) {
            if (i == j) continue;
            int from = (t % 2 == 0) ? i : kUsers - 1 - i;
            int to = (t % 2 == 0) ? j : kUsers - 1 - j;
            auto r = store().conn().MutateRows(
                Link("u" + std::to_string(from), "u" + std::to_string(to)));
            if (!r.ok()) {
              ++errors;
            } else if (*r) {
              ++applied;
            }
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(applied.load(), kUsers * (kUsers - 1));
  for (int i = 0; i < kUsers; ++i) {
    EXPECT_EQ(Counter(a(), "u" + std::to_string(i)), kUsers - 1);
    EXPECT_EQ(Counter(b(), "u" + std::to_string(i)), kUsers - 1);
  }
}

BASALT_INSTANTIATE_STORE_TEST(MultiRowMutationTest);

}  // namespace
}  // namespace basalt::testing
