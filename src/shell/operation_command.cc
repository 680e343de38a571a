// The shell's side of the shared operations (operations.h): the quoted values and option hashes
// of a command become the operation's arguments, by the table's parameters, and its results print
// through the shell's formatter.

#include <cctype>
#include <ctime>
#include <string>

#include "basalt/cell.h"
#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/formatter.h"
#include "shell/operations.h"

namespace basalt::shell {
namespace {

using Kind = Parameter::Kind;
using ShellForm = Parameter::Shell;

// How the shell names a positional parameter in its error messages.
std::string ShellWhat(const Parameter& p) {
  switch (p.kind) {
    case Kind::kTable:
      return "the table name";
    case Kind::kNamespace:
      return "the namespace";
    case Kind::kSnapshot:
      return "snapshot name";
    default:
      return p.name == "ts" ? "the timestamp" : "the " + std::string(p.name);
  }
}

// A read's column, 'f:q:toLong': the format (when the text after the last ':' names one) goes to
// `formats`, the column to the arguments.
Status AddColumns(const Parameter& p, std::string_view what, const Value& v, OperationArgs* args,
                  ColumnFormats* formats) {
  BASALT_ASSIGN_OR_RETURN(auto columns, AsStringList(v, "a column"));
  for (std::string& text : columns) {
    ColumnName c = ParseColumnName(text);
    if (c.qualifier) {
      size_t last = c.qualifier->rfind(':');
      if (last != std::string::npos) {
        Result<ValueFormat> format =
            ParseValueFormat(std::string_view(*c.qualifier).substr(last + 1));
        if (format.ok()) {
          c.qualifier->resize(last);
          (*formats)[{c.family, *c.qualifier}] = *format;
          text = c.family + ":" + *c.qualifier;
        }
      }
    }
    args->Add(p.name, what, StringValue(std::move(text)));
  }
  return Status::OK();
}

Status AddValue(const Parameter& p, std::string_view what, const Value& v, OperationArgs* args,
                ColumnFormats* formats) {
  if (p.kind == Kind::kColumn) return AddColumns(p, what, v, args, formats);
  args->Add(p.name, what, v);
  return Status::OK();
}

// Whether the hash `v` is a value of `p` rather than an option hash: a family ({NAME => ...},
// or alter's {'delete' => ...}) or a hash of properties.
bool IsHashValue(const Parameter* p, const Value& v) {
  if (p == nullptr) return false;
  if (p->kind == Kind::kProperties) return true;
  if (p->kind != Kind::kFamily) return false;
  Options probe(&v, "", {});
  return probe.Has("NAME") || probe.Has("delete");
}

// The operation's arguments from the shell's values.
Result<OperationArgs> ShellArgs(const Operation& op, std::string_view command,
                                const std::vector<Value>& values, ColumnFormats* formats) {
  std::vector<const Parameter*> positional;  // one entry per value taken
  std::vector<bool> optional;
  const Parameter* rest = nullptr;
  size_t min = 0;
  std::vector<std::string_view> keys;
  for (const Parameter& p : op.parameters) {
    switch (p.shell) {
      case ShellForm::kArgument:
      case ShellForm::kOptionalArgument:
        for (int i = 0; i < p.shell_count; ++i) {
          positional.push_back(&p);
          optional.push_back(p.shell == ShellForm::kOptionalArgument);
        }
        if (p.shell == ShellForm::kArgument) min += static_cast<size_t>(p.shell_count);
        break;
      case ShellForm::kArguments:
        rest = &p;
        if (p.cli == Parameter::Cli::kArguments) ++min;
        break;
      case ShellForm::kKey:
      case ShellForm::kNone:
        break;
    }
    keys.insert(keys.end(), p.shell_keys.begin(), p.shell_keys.end());
  }
  if (rest != nullptr) {
    if (values.size() < min) {
      return Status::InvalidArgument(std::string(command) + " takes at least " +
                                     std::to_string(min) + " argument(s), got " +
                                     std::to_string(values.size()));
    }
  } else {
    const bool hash = !keys.empty() || op.shell_option_hash;
    BASALT_RETURN_IF_ERROR(CheckArgCount(values, min, positional.size() + (hash ? 1 : 0), command));
  }

  OperationArgs args;
  std::vector<const Value*> hashes;
  size_t slot = 0;
  for (const Value& v : values) {
    const Parameter* p = slot < positional.size() ? positional[slot] : rest;
    if (v.is_hash() && !IsHashValue(p, v)) {
      hashes.push_back(&v);
      if (slot < positional.size() && optional[slot]) ++slot;  // the hash takes its place
      continue;
    }
    if (p == nullptr) {
      return Status::InvalidArgument(std::string(command) + " takes at most " +
                                     std::to_string(positional.size()) +
                                     " argument(s) before its options");
    }
    BASALT_RETURN_IF_ERROR(AddValue(*p, ShellWhat(*p), v, &args, formats));
    if (slot < positional.size()) ++slot;
  }
  for (const Value* hash : hashes) {
    Options options(hash, command, keys);
    for (const Parameter& p : op.parameters) {
      for (std::string_view key : p.shell_keys) {
        if (const Value* v = options.Take(key)) {
          BASALT_RETURN_IF_ERROR(AddValue(p, key, *v, &args, formats));
        }
      }
    }
    BASALT_RETURN_IF_ERROR(options.Finish());
  }
  for (const Parameter& p : op.parameters) {
    if (p.shell == ShellForm::kArgument && !args.Has(p.name)) {
      return Status::InvalidArgument(std::string(command) + " needs " + ShellWhat(p));
    }
    if (!p.shell_default.empty() && !args.Has(p.name)) {
      args.Add(p.name, p.name, StringValue(std::string(p.shell_default)));
    }
  }
  return args;
}

// As HBase's shell prints a snapshot's creation time (Ruby's Time#to_s), in UTC.
std::string FormatCreationTime(int64_t millis) {
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S +0000", &tm);
  return buf;
}

// The results, as HBase's shell prints them.
class ShellOutput : public OperationOutput {
 public:
  ShellOutput(CommandContext& ctx, const Operation& op) : ctx_(ctx), op_(op) {}

  ColumnFormats* formats() { return &formats_; }

  void Row(const RowResult& row) override { PrintGetResult(ctx_.out, row, formats_); }
  void BeginRows() override { PrintScanHeader(ctx_.out); }
  void NextRow(const RowResult& row) override { PrintScanRow(ctx_.out, row, formats_); }
  void EndRows(int64_t rows) override { PrintRowCount(ctx_.out, rows); }
  void Tables(const std::vector<TableName>& tables) override {
    std::vector<std::string> names;
    for (const TableName& t : tables) names.push_back(t.ToString());
    PrintNameList(ctx_.out, "TABLE", names);
  }
  void Namespaces(const std::vector<NamespaceDescriptor>& namespaces) override {
    std::vector<std::string> names;
    for (const NamespaceDescriptor& ns : namespaces) names.push_back(ns.name);
    PrintNameList(ctx_.out, "NAMESPACE", names);
  }
  void Table(const TableInfo& info, std::optional<size_t> snapshots) override {
    PrintTableDescription(ctx_.out, info);
    if (snapshots) ctx_.out << "Snapshots: " << *snapshots << "\n";
  }
  bool ShowsSnapshotCount() const override { return true; }
  // HBase's two columns, SNAPSHOT and TABLE + CREATION TIME, with what the snapshot costs on
  // disk after the time.
  void Snapshots(const std::vector<SnapshotInfo>& snapshots) override {
    constexpr size_t kWidth = 30;
    auto pad = [](std::string s) {
      if (s.size() < kWidth) s.resize(kWidth, ' ');
      return s + " ";
    };
    ctx_.out << pad("SNAPSHOT") << "TABLE + CREATION TIME\n";
    for (const SnapshotInfo& s : snapshots) {
      ctx_.out << " " << pad(s.name) << s.table.ToString() << " ("
               << FormatCreationTime(s.creation_time_ms) << "), shared " << s.shared_bytes
               << " bytes, exclusive " << s.exclusive_bytes << " bytes\n";
    }
    ctx_.out << snapshots.size() << " row(s)\n";
  }
  void Counter(int64_t value) override { ctx_.out << "COUNTER VALUE = " << value << "\n"; }
  void Count(int64_t rows) override { PrintRowCount(ctx_.out, rows); }
  void Progress(const std::string& line) override { ctx_.out << line << "\n"; }
  // The shell prints its timing line after a command, and only some commands' messages.
  void Done(const std::string& what) override {
    if (!op_.shell_prints_done || what.empty()) return;
    ctx_.out << static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])))
             << what.substr(1) << "\n";
  }
  Status CheckInterrupted() override { return ctx_.CheckInterrupted(); }

 private:
  CommandContext& ctx_;
  const Operation& op_;
  ColumnFormats formats_;
};

}  // namespace

CommandSpec ShellCommandFor(const Operation& op) {
  return {op.shell_name, op.group, op.summary, op.shell_usage, nullptr, &op};
}

Status RunShellCommand(const CommandSpec& spec, CommandContext& ctx,
                       const std::vector<Value>& values) {
  if (spec.operation == nullptr) return spec.run(ctx, values);
  const Operation& op = *spec.operation;
  ShellOutput out(ctx, op);
  BASALT_ASSIGN_OR_RETURN(OperationArgs args, ShellArgs(op, spec.name, values, out.formats()));
  return RunOperation(op, ctx.conn, args, out);
}

}  // namespace basalt::shell
