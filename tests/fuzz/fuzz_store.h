// The store the server fuzzers run on: an in-memory basalt store with one table "t" (families
// "cf" and "f2"), kept across inputs so that one input's writes can be read by a later one, and
// trimmed after each input so that fuzzed schema calls cannot grow it without bound (each table
// is RocksDB column families, which cost memory).

#ifndef BASALT_TESTS_FUZZ_FUZZ_STORE_H_
#define BASALT_TESTS_FUZZ_FUZZ_STORE_H_

#include <cstdlib>
#include <memory>

#include "basalt/connection.h"

namespace basalt::fuzz {

inline constexpr size_t kMaxTables = 6;
inline constexpr size_t kMaxNamespaces = 6;

inline TableName FuzzTableName() {
  return TableName::Parse("t").value();
}

// Creates table "t" when it is missing (a fuzzed request may have deleted it).
inline void EnsureFuzzTable(Connection& conn) {
  auto exists = conn.admin().TableExists(FuzzTableName());
  if (exists.ok() && *exists) {
    conn.admin().EnableTable(FuzzTableName()).PermitUncheckedError();
    return;
  }
  TableDescriptor desc(FuzzTableName());
  desc.AddFamily(FamilyDescriptor("cf")).AddFamily(FamilyDescriptor("f2"));
  conn.admin().CreateTable(desc).PermitUncheckedError();
}

inline std::unique_ptr<Connection> OpenFuzzStore() {
  auto conn = Connection::Open("mem:");
  if (!conn.ok()) std::abort();
  EnsureFuzzTable(**conn);
  return std::move(*conn);
}

// Drops tables and namespaces beyond the limits, then restores "t".
inline void TrimFuzzStore(Connection& conn) {
  auto tables = conn.admin().ListTables("");
  if (tables.ok() && tables->size() > kMaxTables) {
    for (const TableName& name : *tables) {
      if (name == FuzzTableName()) continue;
      conn.admin().DisableTable(name).PermitUncheckedError();
      conn.admin().DeleteTable(name).PermitUncheckedError();
    }
  }
  auto namespaces = conn.admin().ListNamespaces();
  if (namespaces.ok() && namespaces->size() > kMaxNamespaces) {
    for (const auto& ns : *namespaces) {
      if (ns.name == "default" || ns.name == "hbase") continue;
      auto in_ns = conn.admin().ListTables(ns.name);
      if (in_ns.ok()) {
        for (const TableName& name : *in_ns) {
          conn.admin().DisableTable(name).PermitUncheckedError();
          conn.admin().DeleteTable(name).PermitUncheckedError();
        }
      }
      conn.admin().DeleteNamespace(ns.name).PermitUncheckedError();
    }
  }
  EnsureFuzzTable(conn);
}

}  // namespace basalt::fuzz

#endif  // BASALT_TESTS_FUZZ_FUZZ_STORE_H_
