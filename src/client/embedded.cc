#include "client/embedded.h"

#include <atomic>

#include "engine/engine.h"

namespace basalt::client {
namespace {

using engine::Engine;
using engine::MutationRef;
using engine::TableState;

class EmbeddedAdmin : public Admin {
 public:
  explicit EmbeddedAdmin(std::shared_ptr<Engine> engine) : engine_(std::move(engine)) {}

  Status CreateNamespace(const NamespaceDescriptor& ns) override {
    return engine_->CreateNamespace(ns);
  }
  Status DeleteNamespace(const std::string& name) override {
    return engine_->DeleteNamespace(name);
  }
  Result<NamespaceDescriptor> GetNamespace(const std::string& name) override {
    return engine_->GetNamespace(name);
  }
  Result<std::vector<NamespaceDescriptor>> ListNamespaces() override {
    return engine_->ListNamespaces();
  }
  Status CreateTable(const TableDescriptor& desc,
                     const std::vector<std::string>& split_keys) override {
    return engine_->CreateTable(desc, split_keys);
  }
  Result<bool> TableExists(const TableName& name) override {
    auto t = engine_->FindTable(name);
    if (t.ok()) return true;
    if (t.status().IsNotFound()) return false;
    return t.status();
  }
  Result<std::vector<TableName>> ListTables(const std::string& ns) override {
    return engine_->ListTables(ns);
  }
  Result<TableInfo> DescribeTable(const TableName& name) override {
    return engine_->DescribeTable(name);
  }
  Status AddFamily(const TableName& table, const FamilyDescriptor& family) override {
    return engine_->AddFamily(table, family);
  }
  Status ModifyFamily(const TableName& table, const FamilyDescriptor& family) override {
    return engine_->ModifyFamily(table, family);
  }
  Status DeleteFamily(const TableName& table, const std::string& family) override {
    return engine_->DeleteFamily(table, family);
  }
  Status SetDurability(const TableName& table, Durability durability) override {
    return engine_->SetDurability(table, durability);
  }
  Status DisableTable(const TableName& name) override { return engine_->SetEnabled(name, false); }
  Status EnableTable(const TableName& name) override { return engine_->SetEnabled(name, true); }
  Result<bool> IsTableEnabled(const TableName& name) override {
    BASALT_ASSIGN_OR_RETURN(auto t, engine_->FindTable(name));
    return t->record.enabled;
  }
  Status TruncateTable(const TableName& name, bool preserve_splits) override {
    return engine_->TruncateTable(name, preserve_splits);
  }
  Status DeleteTable(const TableName& name) override { return engine_->DeleteTable(name); }
  Status Flush(const TableName& name) override { return engine_->Flush(name); }
  Status MajorCompact(const TableName& name) override { return engine_->MajorCompact(name); }
  Result<StoreStats> GetStoreStats() override { return engine_->GetStoreStats(); }
  Result<std::string> ClusterId() override { return engine_->StoreId(); }
  Result<BackupInfo> CreateBackup(const std::string& backup_dir) override {
    return engine_->CreateBackup(backup_dir);
  }
  Status Snapshot(const TableName& table, const std::string& name) override {
    return engine_->CreateSnapshot(table, name);
  }
  Result<std::vector<SnapshotInfo>> ListSnapshots() override { return engine_->ListSnapshots(); }
  Status CloneSnapshot(const std::string& name, const TableName& new_table) override {
    return engine_->CloneSnapshot(name, new_table);
  }
  Status RestoreSnapshot(const std::string& name) override {
    return engine_->RestoreSnapshot(name);
  }
  Status DeleteSnapshot(const std::string& name) override { return engine_->DeleteSnapshot(name); }
  Result<std::unique_ptr<BulkLoader>> NewBulkLoader(const TableName& table,
                                                    const BulkLoadOptions& options) override {
    return engine_->NewBulkLoader(table, options);
  }

 private:
  std::shared_ptr<Engine> engine_;
};

// What Engine::Write applies: references to the caller's mutations, so no value is copied.
MutationRef RefTo(const Mutation& m) {
  return std::visit([](const auto& x) { return MutationRef(&x); }, m);
}

template <typename M>
std::vector<MutationRef> RefsTo(const std::vector<M>& mutations) {
  std::vector<MutationRef> refs;
  refs.reserve(mutations.size());
  for (const M& m : mutations) refs.push_back(RefTo(m));
  return refs;
}

class EmbeddedTable : public Table {
 public:
  EmbeddedTable(std::shared_ptr<Engine> engine, std::shared_ptr<const TableState> state)
      : engine_(std::move(engine)), name_(state->name()), current_(state.get()) {
    states_.push_back(std::move(state));
  }

  const TableName& name() const override { return name_; }

  Status Put(const basalt::Put& put) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    return engine_->WritePuts(*state, {&put, 1});
  }

  Status Put(const std::vector<basalt::Put>& puts) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    return engine_->WritePuts(*state, puts);
  }

  Status Delete(const basalt::Delete& del) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    MutationRef m(&del);
    return engine_->Write(*state, {&m, 1}, nullptr);
  }

  Result<RowResult> Get(const basalt::Get& get) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    return engine_->Get(*state, get);
  }

  Status GetInto(const basalt::Get& get, RowResult* out) override {
    // State() inline: a point read without a Result to build and destroy (0.4% of one).
    const TableState* state = current_.load(std::memory_order_acquire);
    if (state->stale.load(std::memory_order_acquire)) {
      auto fresh = SharedState();
      if (!fresh.ok()) {
        *out = RowResult();
        return fresh.status();
      }
      state = fresh->get();
    }
    return engine_->GetInto(*state, get, out);
  }

  Result<std::vector<RowResult>> Get(const std::vector<basalt::Get>& gets) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    return engine_->MultiGet(*state, gets);
  }

  Result<std::vector<std::optional<std::string>>> GetColumnValues(
      std::string_view family, std::string_view qualifier,
      const std::vector<std::string>& rows) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    return engine_->GetColumnValues(*state, family, qualifier, rows);
  }

  Result<bool> Exists(const basalt::Get& get) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    BASALT_ASSIGN_OR_RETURN(RowResult r, engine_->Get(*state, get));
    return !r.empty();
  }

  Result<std::unique_ptr<ResultScanner>> GetScanner(const basalt::Scan& scan) override {
    BASALT_ASSIGN_OR_RETURN(auto state, SharedState());
    return engine_->NewScanner(state, scan);
  }

  Result<RowResult> Increment(const basalt::Increment& inc) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    MutationRef m(&inc);
    std::vector<RowResult> results;
    BASALT_RETURN_IF_ERROR(engine_->Write(*state, {&m, 1}, &results));
    return std::move(results[0]);
  }

  Result<RowResult> Append(const basalt::Append& app) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    MutationRef m(&app);
    std::vector<RowResult> results;
    BASALT_RETURN_IF_ERROR(engine_->Write(*state, {&m, 1}, &results));
    return std::move(results[0]);
  }

  Result<bool> CheckAndMutate(const basalt::CheckAndMutate& cam) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    return engine_->CheckAndMutate(*state, cam);
  }

  Status MutateRow(const RowMutations& mutations) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    MutationRef m(&mutations);
    return engine_->Write(*state, {&m, 1}, nullptr);
  }

  Result<std::vector<RowResult>> Batch(const std::vector<Mutation>& mutations) override {
    BASALT_ASSIGN_OR_RETURN(auto state, State());
    std::vector<RowResult> results;
    BASALT_RETURN_IF_ERROR(engine_->Write(*state, RefsTo(mutations), &results));
    return results;
  }

 private:
  // The table's current schema; refreshed after a schema change. A plain pointer, valid for the
  // handle's life: every schema the handle has used stays in states_, so a call takes no
  // reference (copying the shared_ptr out of an atomic one, a lock and two atomic operations,
  // was about 1% of a point read).
  Result<const TableState*> State() {
    const TableState* s = current_.load(std::memory_order_acquire);
    if (!s->stale.load(std::memory_order_acquire)) return s;
    BASALT_ASSIGN_OR_RETURN(auto fresh, SharedState());
    return fresh.get();
  }

  // The same, owned: for a scanner, which may outlive the handle.
  Result<std::shared_ptr<const TableState>> SharedState() {
    util::FutexMutexLock l(states_mu_);
    if (!states_.back()->stale.load(std::memory_order_acquire)) return states_.back();
    BASALT_ASSIGN_OR_RETURN(auto s, engine_->FindTable(name_));
    states_.push_back(s);
    current_.store(s.get(), std::memory_order_release);
    return s;
  }

  std::shared_ptr<Engine> engine_;
  const TableName name_;
  // One schema per schema change the handle has seen, oldest first: a short list, since
  // schema changes are rare. Never shrinks, so that current_ (the last) and every pointer State
  // returned stay valid.
  util::FutexMutex states_mu_;
  std::vector<std::shared_ptr<const TableState>> states_ BASALT_GUARDED_BY(states_mu_);
  std::atomic<const TableState*> current_;
};

class EmbeddedConnection : public Connection {
 public:
  explicit EmbeddedConnection(std::shared_ptr<Engine> engine)
      : engine_(std::move(engine)), admin_(engine_) {}
  ~EmbeddedConnection() override { Close().PermitUncheckedError(); }

  Admin& admin() override { return admin_; }

  Result<std::unique_ptr<Table>> GetTable(const TableName& name) override {
    BASALT_ASSIGN_OR_RETURN(auto state, engine_->FindTable(name));
    return std::unique_ptr<Table>(new EmbeddedTable(engine_, std::move(state)));
  }

  Result<bool> MutateRows(const MultiRowMutation& m) override {
    // Each table named is looked up once per call; a call names one or two as a rule.
    std::vector<std::shared_ptr<const TableState>> tables;
    auto resolve = [&](const TableName& name) -> Result<const TableState*> {
      for (const auto& t : tables) {
        if (t->name() == name) return t.get();
      }
      BASALT_ASSIGN_OR_RETURN(auto state, engine_->FindTable(name));
      tables.push_back(std::move(state));
      return tables.back().get();
    };
    std::vector<engine::RowCondition> conditions;
    conditions.reserve(m.conditions().size());
    for (const MultiRowMutation::Condition& c : m.conditions()) {
      BASALT_ASSIGN_OR_RETURN(const TableState* table, resolve(c.table));
      conditions.push_back({table, &c});
    }
    std::vector<engine::TableMutationRef> mutations;
    mutations.reserve(m.items().size());
    for (const MultiRowMutation::Item& item : m.items()) {
      BASALT_ASSIGN_OR_RETURN(const TableState* table, resolve(item.table));
      mutations.push_back({table, RefTo(item.mutation)});
    }
    return engine_->MutateRows(conditions, mutations);
  }

  std::string target() const override {
    return engine_->options().in_memory ? "mem:" : "embedded:" + engine_->path();
  }

  Status Close() override { return engine_->Close(); }

 private:
  std::shared_ptr<Engine> engine_;
  EmbeddedAdmin admin_;
};

}  // namespace

Result<std::unique_ptr<Connection>> OpenEmbedded(const std::string& path,
                                                 const ConnectionOptions& options,
                                                 const engine::EngineOptions& engine_options) {
  BASALT_ASSIGN_OR_RETURN(auto engine, Engine::Open(path, options, engine_options));
  return std::unique_ptr<Connection>(new EmbeddedConnection(std::move(engine)));
}

}  // namespace basalt::client
