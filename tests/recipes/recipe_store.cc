#include "recipes/recipe_store.h"

#include <algorithm>

namespace basalt::testing {

std::vector<std::string> SplitKeysForRecipeTables() {
  std::vector<std::string> keys = {
      std::string("\x01") + "b",
      "\x05",
      KeyBuilder().AddBytes("a").AddReverseTimestamp(1020).Build(),
      "b",
  };
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Forwards every call to the store's current Admin; CreateTable without split keys adds them.
class RecipeConnection::PresplitAdmin : public Admin {
 public:
  explicit PresplitAdmin(TestStore& store) : store_(store) {}

  Status CreateNamespace(const NamespaceDescriptor& ns) override {
    return inner().CreateNamespace(ns);
  }
  Status DeleteNamespace(const std::string& name) override { return inner().DeleteNamespace(name); }
  Result<NamespaceDescriptor> GetNamespace(const std::string& name) override {
    return inner().GetNamespace(name);
  }
  Result<std::vector<NamespaceDescriptor>> ListNamespaces() override {
    return inner().ListNamespaces();
  }
  Status CreateTable(const TableDescriptor& desc,
                     const std::vector<std::string>& split_keys) override {
    return inner().CreateTable(desc, split_keys.empty() ? SplitKeysForRecipeTables() : split_keys);
  }
  Result<bool> TableExists(const TableName& name) override { return inner().TableExists(name); }
  Result<std::vector<TableName>> ListTables(const std::string& ns) override {
    return inner().ListTables(ns);
  }
  Result<TableInfo> DescribeTable(const TableName& name) override {
    return inner().DescribeTable(name);
  }
  Status AddFamily(const TableName& table, const FamilyDescriptor& family) override {
    return inner().AddFamily(table, family);
  }
  Status ModifyFamily(const TableName& table, const FamilyDescriptor& family) override {
    return inner().ModifyFamily(table, family);
  }
  Status DeleteFamily(const TableName& table, const std::string& family) override {
    return inner().DeleteFamily(table, family);
  }
  Status SetDurability(const TableName& table, Durability durability) override {
    return inner().SetDurability(table, durability);
  }
  Status DisableTable(const TableName& name) override { return inner().DisableTable(name); }
  Status EnableTable(const TableName& name) override { return inner().EnableTable(name); }
  Result<bool> IsTableEnabled(const TableName& name) override {
    return inner().IsTableEnabled(name);
  }
  Status TruncateTable(const TableName& name, bool preserve_splits) override {
    return inner().TruncateTable(name, preserve_splits);
  }
  Status DeleteTable(const TableName& name) override { return inner().DeleteTable(name); }
  Status Flush(const TableName& name) override { return inner().Flush(name); }
  Status MajorCompact(const TableName& name) override { return inner().MajorCompact(name); }
  Result<std::string> ClusterId() override { return inner().ClusterId(); }
  Result<StoreStats> GetStoreStats() override { return inner().GetStoreStats(); }
  Result<std::unique_ptr<BulkLoader>> NewBulkLoader(const TableName& table,
                                                    const BulkLoadOptions& options) override {
    return inner().NewBulkLoader(table, options);
  }

 private:
  Admin& inner() { return store_.admin(); }
  TestStore& store_;
};

RecipeConnection::RecipeConnection(TestStore& store)
    : store_(store), admin_(std::make_unique<PresplitAdmin>(store)) {}

RecipeConnection::~RecipeConnection() = default;

Admin& RecipeConnection::admin() {
  return *admin_;
}

Result<std::unique_ptr<Table>> RecipeConnection::GetTable(const TableName& name) {
  return store_.conn().GetTable(name);
}

Result<bool> RecipeConnection::MutateRows(const MultiRowMutation& m) {
  return store_.conn().MutateRows(m);
}

std::string RecipeConnection::target() const {
  return store_.conn().target();
}

}  // namespace basalt::testing
