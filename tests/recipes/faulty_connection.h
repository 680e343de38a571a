// Test support: a Connection whose tables fail chosen writes, to show what a recipe leaves behind
// when a backend without atomic multi-table writes fails half-way (and that Repair fixes it).

#ifndef BASALT_TESTS_RECIPES_FAULTY_CONNECTION_H_
#define BASALT_TESTS_RECIPES_FAULTY_CONNECTION_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/basalt.h"

namespace basalt::testing {

// Which writes fail, and a hook run before a write. Shared by every table of a FaultyConnection;
// safe to change from the test thread between calls.
struct FaultPlan {
  enum class Op : uint8_t { kAnyWrite, kIncrement };
  // Table qualifiers whose writes fail ("" = none).
  std::string table;
  Op op = Op::kAnyWrite;
  // Writes that failed so far.
  std::atomic<int> failures{0};
  // When >= 0: that many more writes (to any table) succeed, then every write fails, as when
  // the process or the server dies in the middle of a call. Default: -1 (off).
  std::atomic<int> writes_left{-1};
  // Apply a Batch one mutation at a time, each a write of its own, as a backend without atomic
  // multi-row batches may (HBase over Thrift2): a failure can leave the earlier ones applied.
  bool split_batches = false;
  // Runs once, just before the next write to table `hook_table`, to force an interleaving.
  std::string hook_table;
  std::function<void()> hook;

  void RunHook(const TableName& name) {
    if (!hook || name.qualifier != hook_table) return;
    std::function<void()> once = std::move(hook);
    hook = nullptr;
    once();
  }

  bool Fails(const TableName& name, Op kind) {
    if (Crashed()) {
      ++failures;
      return true;
    }
    if (table.empty() || name.qualifier != table) return false;
    if (op == Op::kIncrement && kind != Op::kIncrement) return false;
    ++failures;
    return true;
  }

  // True once the writes_left budget is spent; spends one write otherwise.
  bool Crashed() {
    int left = writes_left.load();
    while (left > 0 && !writes_left.compare_exchange_weak(left, left - 1)) {
    }
    return left == 0;
  }
};

class FaultyTable : public Table {
 public:
  FaultyTable(std::unique_ptr<Table> inner, FaultPlan* plan)
      : inner_(std::move(inner)), plan_(plan) {}

  const TableName& name() const override { return inner_->name(); }
  Status Put(const basalt::Put& put) override {
    if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
    return inner_->Put(put);
  }
  Status Delete(const basalt::Delete& del) override {
    if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
    return inner_->Delete(del);
  }
  Result<RowResult> Get(const basalt::Get& get) override { return inner_->Get(get); }
  Result<std::vector<RowResult>> Get(const std::vector<basalt::Get>& gets) override {
    return inner_->Get(gets);
  }
  Result<bool> Exists(const basalt::Get& get) override { return inner_->Exists(get); }
  Result<std::unique_ptr<ResultScanner>> GetScanner(const basalt::Scan& scan) override {
    return inner_->GetScanner(scan);
  }
  Result<RowResult> Increment(const basalt::Increment& inc) override {
    if (Fails(FaultPlan::Op::kIncrement)) return Injected();
    return inner_->Increment(inc);
  }
  Result<RowResult> Append(const basalt::Append& app) override {
    if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
    return inner_->Append(app);
  }
  Result<bool> CheckAndMutate(const basalt::CheckAndMutate& cam) override {
    if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
    return inner_->CheckAndMutate(cam);
  }
  Status MutateRow(const RowMutations& mutations) override {
    if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
    return inner_->MutateRow(mutations);
  }
  Result<std::vector<RowResult>> Batch(const std::vector<Mutation>& mutations) override {
    if (!plan_->split_batches) {
      if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
      return inner_->Batch(mutations);
    }
    std::vector<RowResult> results;
    for (const Mutation& m : mutations) {
      if (Fails(FaultPlan::Op::kAnyWrite)) return Injected();
      BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> one, inner_->Batch({m}));
      results.push_back(std::move(one.front()));
    }
    return results;
  }

 private:
  bool Fails(FaultPlan::Op kind) {
    plan_->RunHook(inner_->name());
    return plan_->Fails(inner_->name(), kind);
  }
  static Status Injected() { return Status::IOError("injected failure"); }

  std::unique_ptr<Table> inner_;
  FaultPlan* plan_;
};

// Wraps `inner` (which must outlive it); tables it hands out consult `plan`.
class FaultyConnection : public Connection {
 public:
  FaultyConnection(Connection& inner, FaultPlan* plan) : inner_(inner), plan_(plan) {}

  using Connection::GetTable;
  Admin& admin() override { return inner_.admin(); }
  Result<std::unique_ptr<Table>> GetTable(const TableName& name) override {
    BASALT_ASSIGN_OR_RETURN(std::unique_ptr<Table> table, inner_.GetTable(name));
    return std::unique_ptr<Table>(new FaultyTable(std::move(table), plan_));
  }
  std::string target() const override { return inner_.target(); }
  Status Close() override { return Status::OK(); }

 private:
  Connection& inner_;
  FaultPlan* plan_;
};

}  // namespace basalt::testing

#endif  // BASALT_TESTS_RECIPES_FAULTY_CONNECTION_H_
