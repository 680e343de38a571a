#include "support/test_store.h"

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <random>

namespace basalt::testing {

std::string StoreKindName(StoreKind kind) {
  switch (kind) {
    case StoreKind::kMem:
      return "mem";
    case StoreKind::kDisk:
      return "disk";
    case StoreKind::kReopen:
      return "reopen";
    case StoreKind::kTiny:
      return "tiny";
    case StoreKind::kThrift:
      return "thrift";
    case StoreKind::kThriftTarget:
      return "thrift_target";
  }
  return "unknown";
}

std::vector<StoreKind> AllStoreKinds() {
  std::vector<StoreKind> kinds = {StoreKind::kMem, StoreKind::kDisk, StoreKind::kReopen,
                                  StoreKind::kTiny, StoreKind::kThrift};
  const char* target = std::getenv("BASALT_TEST_THRIFT_TARGET");
  if (target != nullptr && *target != '\0') kinds.push_back(StoreKind::kThriftTarget);
  return kinds;
}

bool IsRemote(StoreKind kind) {
  return kind == StoreKind::kThrift || kind == StoreKind::kThriftTarget;
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  auto base = std::filesystem::temp_directory_path();
  path_ = (base /
           ("basalt-test-" + std::to_string(getpid()) + "-" + std::to_string(counter.fetch_add(1))))
              .string();
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

TestStore::TestStore(StoreKind kind) : kind_(kind) {
  if (kind != StoreKind::kMem && kind != StoreKind::kThriftTarget) {
    dir_ = std::make_unique<TempDir>();
  }
  Open();
  if (kind == StoreKind::kThriftTarget) {
    auto meta = admin().TableExists(TableName(std::string(kSystemNamespace), "meta"));
    is_hbase_ = meta.ok() && *meta;
    auto tables = admin().ListTables();
    if (tables.ok()) tables_before_ = *tables;
    auto namespaces = admin().ListNamespaces();
    if (namespaces.ok()) {
      for (const auto& ns : *namespaces) namespaces_before_.push_back(ns.name);
    }
  }
}

TestStore::~TestStore() {
  tables_.clear();
  if (kind_ == StoreKind::kThriftTarget) DropCreatedObjects();
  if (conn_) {
    EXPECT_TRUE(conn_->Close().ok());
  }
  conn_.reset();
  if (server_) server_->Stop();
  server_.reset();
  if (backing_) {
    EXPECT_TRUE(backing_->Close().ok());
  }
}

void TestStore::DropCreatedObjects() {
  auto tables = admin().ListTables();
  if (tables.ok()) {
    for (const auto& t : *tables) {
      if (std::find(tables_before_.begin(), tables_before_.end(), t) != tables_before_.end()) {
        continue;
      }
      admin().DisableTable(t).PermitUncheckedError();
      EXPECT_TRUE(admin().DeleteTable(t).ok()) << "dropping " << t.ToString();
    }
  }
  auto namespaces = admin().ListNamespaces();
  if (namespaces.ok()) {
    for (const auto& ns : *namespaces) {
      if (std::find(namespaces_before_.begin(), namespaces_before_.end(), ns.name) ==
          namespaces_before_.end()) {
        admin().DeleteNamespace(ns.name).PermitUncheckedError();
      }
    }
  }
}

void TestStore::Open() {
  if (kind_ == StoreKind::kThrift || kind_ == StoreKind::kThriftTarget) {
    std::string target;
    if (kind_ == StoreKind::kThrift) {
      auto backing = Connection::Open(dir_->path() + "/store");
      if (!backing.ok()) {
        ADD_FAILURE() << "open: " << backing.status().ToString();
        std::abort();
      }
      backing_ = std::move(*backing);
      server::Thrift2ServerOptions options;
      options.bind_address = "127.0.0.1";
      options.port = 0;
      server_ = std::make_unique<server::Thrift2Server>(*backing_, options);
      Status s = server_->Start();
      if (!s.ok()) {
        ADD_FAILURE() << "thrift2 server: " << s.ToString();
        std::abort();
      }
      target = "thrift://127.0.0.1:" + std::to_string(server_->port());
    } else {
      target = std::getenv("BASALT_TEST_THRIFT_TARGET");
    }
    auto conn = Connection::Open(target);
    if (!conn.ok()) {
      ADD_FAILURE() << "open " << target << ": " << conn.status().ToString();
      std::abort();
    }
    conn_ = std::move(*conn);
    return;
  }
  ConnectionOptions options;
  if (kind_ == StoreKind::kTiny) options.write_buffer_bytes = 64 * 1024;
  auto conn = kind_ == StoreKind::kMem ? Connection::Open("mem:", options)
                                       : Connection::Open(dir_->path() + "/store", options);
  if (!conn.ok()) {
    ADD_FAILURE() << "open: " << conn.status().ToString();
    std::abort();
  }
  conn_ = std::move(*conn);
}

void TestStore::Reopen() {
  if (kind_ != StoreKind::kReopen) return;
  std::vector<std::string> names;
  for (auto& [name, t] : tables_) names.push_back(name);
  tables_.clear();
  EXPECT_TRUE(conn_->Close().ok());
  conn_.reset();
  Open();
}

Status TestStore::Flush(const TableName& name) {
  if (kind_ == StoreKind::kThriftTarget) return Status::NotSupported("Thrift2 has no flush");
  return (backing_ ? backing_->admin() : admin()).Flush(name);
}

Status TestStore::MajorCompact(const TableName& name) {
  if (kind_ == StoreKind::kThriftTarget) {
    return Status::NotSupported("Thrift2 has no major compaction");
  }
  return (backing_ ? backing_->admin() : admin()).MajorCompact(name);
}

Table& TestStore::CreateTable(const std::string& name, const std::vector<std::string>& families) {
  auto parsed = TableName::Parse(name);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  TableDescriptor desc(*parsed);
  for (const auto& f : families) desc.AddFamily(FamilyDescriptor(f));
  return CreateTable(desc);
}

Table& TestStore::CreateTable(const TableDescriptor& desc, const std::vector<std::string>& splits) {
  Status s = admin().CreateTable(desc, splits);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return table(desc.name.ToString());
}

Table& TestStore::table(const std::string& name) {
  auto it = tables_.find(name);
  if (it != tables_.end()) return *it->second;
  auto t = conn_->GetTable(name);
  if (!t.ok()) {
    ADD_FAILURE() << "GetTable(" << name << "): " << t.status().ToString();
    std::abort();
  }
  return *(tables_[name] = std::move(*t));
}

std::vector<RowResult> ScanAll(Table& table, const Scan& scan) {
  std::vector<RowResult> out;
  auto scanner = table.GetScanner(scan);
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return out;
  RowResult r;
  while ((*scanner)->Next(&r)) out.push_back(std::move(r));
  EXPECT_TRUE((*scanner)->status().ok()) << (*scanner)->status().ToString();
  return out;
}

std::vector<std::string> ScanRows(Table& table, const Scan& scan) {
  std::vector<std::string> out;
  for (auto& r : ScanAll(table, scan)) out.push_back(r.row());
  return out;
}

Status ScanStatus(Table& table, const Scan& scan) {
  auto scanner = table.GetScanner(scan);
  if (!scanner.ok()) return scanner.status();
  RowResult r;
  while ((*scanner)->Next(&r)) {
  }
  return (*scanner)->status();
}

std::string Describe(const Cell& c) {
  std::string s = c.family + ":" + c.qualifier + "@" + std::to_string(c.timestamp);
  if (c.type != CellType::kPut) return s + "/" + std::string(CellTypeName(c.type));
  return s + "=" + c.value;
}

std::vector<std::string> Describe(const RowResult& r) {
  std::vector<std::string> out;
  for (const auto& c : r.cells()) out.push_back(Describe(c));
  return out;
}

}  // namespace basalt::testing
