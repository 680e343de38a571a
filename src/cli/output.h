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
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/schema.h"
#include "basalt/snapshot.h"
#include "shell/operations.h"

namespace basalt::cli {

// Also where the operations the command line shares with the shell write their results
// (shell/operations.h).
class Output : public shell::OperationOutput {
 public:
  Output(std::ostream& out, bool json) : out_(out), json_(json) {}

  bool json() const { return json_; }

  // One row of a get.
  void Row(const RowResult& row) override;

  // A scan: Begin, then each row as it comes, then End with the number of rows.
  void BeginRows() override;
  void NextRow(const RowResult& row) override;
  void EndRows(int64_t count) override;

  void Tables(const std::vector<TableName>& tables) override;
  void Namespaces(const std::vector<NamespaceDescriptor>& namespaces) override;
  // describe (the snapshot count is the shell's).
  void Table(const TableInfo& info, std::optional<size_t> snapshots) override;
  void Snapshots(const std::vector<SnapshotInfo>& snapshots) override;
  void Counter(int64_t value) override;
  void Count(int64_t rows) override;
  // The steps of a long operation are the shell's.
  void Progress(const std::string&) override {}
  // A command that returns nothing: `what` says what it did ("created table t").
  void Done(const std::string& what) override;

 private:
  std::ostream& out_;
  bool json_;
  bool first_row_ = true;
};

}  // namespace basalt::cli

#endif  // BASALT_CLI_OUTPUT_H_
