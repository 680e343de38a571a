// How the CLI prints results: readable tables by default (HBase shell's layout), JSON with
// --json. Binary bytes are printed in HBase's printable form (\xHH) in both.
//
// JSON shapes:
//   row       {"row": R, "cells": [{"family": F, "qualifier": Q, "timestamp": T, "value": V}]}
//             (raw scans add "type": "Put" | "Delete" | "DeleteColumn" | ...)
//   scan      a JSON array of rows, streamed as they are read
//   list      [{"namespace": NS, "table": T}]
//   describe  {"name", "enabled", "durability", "split_keys": [...], "families": [{...}]}
//   snapshots [{"name", "table", "creation_time_ms", "shared_bytes", "exclusive_bytes"}]
//   others    {"ok": true, ...} with what the command did

#ifndef BASALT_CLI_OUTPUT_H_
#define BASALT_CLI_OUTPUT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/schema.h"
#include "basalt/snapshot.h"

namespace basalt::cli {

class Output {
 public:
  Output(std::ostream& out, bool json) : out_(out), json_(json) {}

  bool json() const { return json_; }

  // One row of a get.
  void Row(const RowResult& row);

  // A scan: Begin, then each row as it comes, then End with the number of rows.
  void BeginRows();
  void NextRow(const RowResult& row);
  void EndRows(int64_t count);

  void Tables(const std::vector<TableName>& tables);
  void Namespaces(const std::vector<NamespaceDescriptor>& namespaces);
  void Table(const TableInfo& info);
  void Snapshots(const std::vector<SnapshotInfo>& snapshots);
  void Counter(int64_t value);
  void Count(int64_t rows);
  // A command that returns nothing: `what` says what it did ("created table t").
  void Done(const std::string& what);

 private:
  std::ostream& out_;
  bool json_;
  bool first_row_ = true;
};

}  // namespace basalt::cli

#endif  // BASALT_CLI_OUTPUT_H_
