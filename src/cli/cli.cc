// The `basalt` command: one subcommand per operation, each a thin layer over the public API.
//
// Errors print one line, `error: <what>`, and exit 1; usage errors exit 2.

#include "cli/cli.h"

#include <unistd.h>
#include <CLI/CLI.hpp>
#include <charconv>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/admin_client.h"
#include "app/api_v1/app_services.h"
#include "app/serve.h"
#include "basalt/backup.h"
#include "basalt/basalt.h"
#include "basalt/filter_language.h"
#include "basalt/recipes/demo.h"
#include "cli/copy_commands.h"
#include "cli/import.h"
#include "cli/output.h"
#include "cli/sync_commands.h"
#include "shell/family_options.h"
#include "shell/operations.h"
#include "shell/repl.h"
#include "util/bytes_format.h"

namespace basalt::cli {
namespace {

using util::FromStringBinary;

Result<int64_t> ParseInt(std::string_view text, std::string_view what) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument(std::string(what) + " must be an integer, not '" +
                                   std::string(text) + "'");
  }
  return v;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Result<Durability> ParseDurability(const std::string& text) {
  for (Durability d : {Durability::kUseDefault, Durability::kSkipWal, Durability::kAsyncWal,
                       Durability::kSyncWal, Durability::kFsyncWal}) {
    if (Upper(text) == DurabilityName(d)) return d;
  }
  return Status::InvalidArgument("unknown durability '" + text +
                                 "' (USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL)");
}

// "MIN,MAX" -> [MIN, MAX).
Result<TimeRange> ParseTimeRange(const std::string& text) {
  auto comma = text.find(',');
  if (comma == std::string::npos) {
    return Status::InvalidArgument("time range must be MIN,MAX, not '" + text + "'");
  }
  TimeRange r;
  BASALT_ASSIGN_OR_RETURN(r.min, ParseInt(text.substr(0, comma), "time range start"));
  BASALT_ASSIGN_OR_RETURN(r.max, ParseInt(text.substr(comma + 1), "time range end"));
  return r;
}

// "family" or "family:qualifier"; the qualifier may hold \xHH escapes (and ':' after the first).
ColumnName ParseColumn(const std::string& text) {
  ColumnName column = ParseColumnName(text);
  if (column.qualifier) column.qualifier = FromStringBinary(*column.qualifier);
  return column;
}

// "name[:options]" split into the family name and its options.
std::pair<std::string, std::string> SplitFamilySpec(const std::string& spec) {
  auto colon = spec.find(':');
  if (colon == std::string::npos) return {spec, ""};
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

// --filter: the filter language, after HBase's \xHH escapes are decoded as in every other byte
// argument (so a filter can hold any byte); error positions count the decoded bytes.
Result<FilterPtr> ParseFilterOption(const std::optional<std::string>& text) {
  if (!text) return FilterPtr();
  return ParseFilter(FromStringBinary(*text));
}

// Everything the subcommands were given on the command line.
struct Args {
  std::string data_dir;
  bool json = false;
  std::string table;
  std::string row;
  std::string ns;
  std::vector<std::string> positional;  // command-specific
  std::vector<std::string> splits;
  std::vector<std::string> drop_families;
  std::string durability;
  std::optional<int64_t> ts;
  std::optional<int64_t> version;
  std::optional<int32_t> versions;
  std::string time_range;
  std::string start, stop, prefix, columns;
  bool reverse = false;
  bool raw = false;
  int64_t limit = 0;
  int32_t batch = 0;
  std::optional<std::string> filter;
  std::string import_file;
  std::string import_format;
  std::string backup_dir;
  std::string restore_dir;
  uint32_t backup_id = 0;                       // 0: the latest
  const shell::Operation* operation = nullptr;  // a shared operation's verb, with its arguments
  std::vector<std::string> operation_args;
};

class Cli {
 public:
  Cli(const Args& args, Output& out) : args_(args), out_(out) {}

  Status Open() {
    BASALT_ASSIGN_OR_RETURN(conn_, Connection::Open(args_.data_dir));
    return Status::OK();
  }

  Status Create() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    TableDescriptor desc(name);
    for (const auto& spec : args_.positional) {
      auto [family, options] = SplitFamilySpec(spec);
      FamilyDescriptor f(family);
      BASALT_RETURN_IF_ERROR(shell::ApplyFamilyOptionList(options, &f));
      desc.AddFamily(f);
    }
    std::vector<std::string> splits;
    for (const auto& s : args_.splits) splits.push_back(FromStringBinary(s));
    BASALT_RETURN_IF_ERROR(admin().CreateTable(desc, splits));
    out_.Done("created table " + name.ToString());
    return Status::OK();
  }

  Status CreateNamespace() {
    BASALT_RETURN_IF_ERROR(admin().CreateNamespace({args_.ns, {}}));
    out_.Done("created namespace " + args_.ns);
    return Status::OK();
  }

  Status Namespaces() {
    BASALT_ASSIGN_OR_RETURN(auto namespaces, admin().ListNamespaces());
    out_.Namespaces(namespaces);
    return Status::OK();
  }

  Status List() {
    BASALT_ASSIGN_OR_RETURN(auto tables, admin().ListTables(args_.ns));
    out_.Tables(tables);
    return Status::OK();
  }

  Status Describe() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    BASALT_ASSIGN_OR_RETURN(TableInfo info, admin().DescribeTable(name));
    out_.Table(info);
    return Status::OK();
  }

  // Modifies each named family that exists (only the options given change), adds the others.
  Status Alter() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    BASALT_ASSIGN_OR_RETURN(TableInfo info, admin().DescribeTable(name));
    if (args_.positional.empty() && args_.drop_families.empty() && args_.durability.empty()) {
      return Status::InvalidArgument(
          "nothing to alter: give FAMILY[:options], --drop-family or "
          "--durability");
    }
    for (const auto& spec : args_.positional) {
      auto [family, options] = SplitFamilySpec(spec);
      const FamilyDescriptor* existing = info.descriptor.FindFamily(family);
      FamilyDescriptor f = existing ? *existing : FamilyDescriptor(family);
      BASALT_RETURN_IF_ERROR(shell::ApplyFamilyOptionList(options, &f));
      if (existing) {
        BASALT_RETURN_IF_ERROR(admin().ModifyFamily(name, f));
      } else {
        BASALT_RETURN_IF_ERROR(admin().AddFamily(name, f));
      }
    }
    for (const auto& family : args_.drop_families) {
      BASALT_RETURN_IF_ERROR(admin().DeleteFamily(name, family));
    }
    if (!args_.durability.empty()) {
      BASALT_ASSIGN_OR_RETURN(Durability d, ParseDurability(args_.durability));
      BASALT_RETURN_IF_ERROR(admin().SetDurability(name, d));
    }
    out_.Done("altered table " + name.ToString());
    return Status::OK();
  }

  // As the HBase shell's truncate: disables, then truncates (which enables it again).
  Status Truncate() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    BASALT_ASSIGN_OR_RETURN(bool enabled, admin().IsTableEnabled(name));
    if (enabled) BASALT_RETURN_IF_ERROR(admin().DisableTable(name));
    BASALT_RETURN_IF_ERROR(admin().TruncateTable(name, /*preserve_splits=*/true));
    out_.Done("truncated table " + name.ToString());
    return Status::OK();
  }

  // Disables the table first when needed: one command, not HBase shell's two.
  Status Drop() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    BASALT_ASSIGN_OR_RETURN(bool enabled, admin().IsTableEnabled(name));
    if (enabled) BASALT_RETURN_IF_ERROR(admin().DisableTable(name));
    BASALT_RETURN_IF_ERROR(admin().DeleteTable(name));
    out_.Done("dropped table " + name.ToString());
    return Status::OK();
  }

  // put TABLE ROW F:Q VALUE [F:Q VALUE]...: one atomic Put.
  Status PutCells() {
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable());
    if (args_.positional.empty() || args_.positional.size() % 2 != 0) {
      return Status::InvalidArgument("put needs FAMILY:QUALIFIER VALUE pairs");
    }
    basalt::Put put(FromStringBinary(args_.row), args_.ts.value_or(kLatestTimestamp));
    for (size_t i = 0; i < args_.positional.size(); i += 2) {
      ColumnName col = ParseColumn(args_.positional[i]);
      if (!col.qualifier) {
        return Status::InvalidArgument("put needs FAMILY:QUALIFIER, not '" + args_.positional[i] +
                                       "'");
      }
      put.Add(col.family, *col.qualifier, FromStringBinary(args_.positional[i + 1]));
    }
    BASALT_RETURN_IF_ERROR(table->Put(put));
    out_.Done("put " + std::to_string(args_.positional.size() / 2) + " cell(s)");
    return Status::OK();
  }

  Status GetRow() {
    BASALT_ASSIGN_OR_RETURN(FilterPtr filter, ParseFilterOption(args_.filter));
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable());
    basalt::Get get(FromStringBinary(args_.row));
    if (filter) get.SetFilter(std::move(filter));
    for (const auto& c : args_.positional) {
      ColumnName col = ParseColumn(c);
      if (col.qualifier) {
        get.AddColumn(col.family, *col.qualifier);
      } else {
        get.AddFamily(col.family);
      }
    }
    if (args_.versions) get.ReadVersions(*args_.versions);
    BASALT_RETURN_IF_ERROR(ApplyTime([&](int64_t a, int64_t b) { get.SetTimeRange(a, b); }));
    BASALT_ASSIGN_OR_RETURN(RowResult row, table->Get(get));
    out_.Row(row);
    return Status::OK();
  }

  Status ScanRows() {
    BASALT_ASSIGN_OR_RETURN(FilterPtr filter, ParseFilterOption(args_.filter));
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable());
    basalt::Scan scan;
    if (filter) scan.SetFilter(std::move(filter));
    if (!args_.start.empty()) scan.WithStartRow(FromStringBinary(args_.start));
    if (!args_.stop.empty()) scan.WithStopRow(FromStringBinary(args_.stop));
    if (!args_.prefix.empty()) scan.SetRowPrefix(FromStringBinary(args_.prefix));
    scan.SetReversed(args_.reverse).SetRaw(args_.raw);
    if (args_.limit > 0) scan.SetLimit(args_.limit);
    if (args_.batch > 0) scan.SetBatch(args_.batch);
    if (args_.versions) scan.ReadVersions(*args_.versions);
    BASALT_RETURN_IF_ERROR(ApplyTime([&](int64_t a, int64_t b) { scan.SetTimeRange(a, b); }));
    size_t pos = 0;
    while (pos < args_.columns.size()) {
      size_t end = args_.columns.find(',', pos);
      if (end == std::string::npos) end = args_.columns.size();
      ColumnName col = ParseColumn(args_.columns.substr(pos, end - pos));
      if (col.qualifier) {
        scan.AddColumn(col.family, *col.qualifier);
      } else {
        scan.AddFamily(col.family);
      }
      pos = end + 1;
    }
    BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
    out_.BeginRows();
    RowResult row;
    int64_t rows = 0;
    bool continuing = false;  // the previous piece was part of this row (batch)
    while (scanner->Next(&row)) {
      if (!continuing) ++rows;
      continuing = row.partial();
      out_.NextRow(row);
    }
    // The rows printed so far stay printed; the error line follows them.
    BASALT_RETURN_IF_ERROR(scanner->status());
    out_.EndRows(rows);
    return Status::OK();
  }

  Status DeleteCells() {
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable());
    const int64_t ts = args_.ts.value_or(kLatestTimestamp);
    basalt::Delete del(FromStringBinary(args_.row), ts);
    if (args_.positional.size() > 1) {
      return Status::InvalidArgument("delete takes at most one FAMILY[:QUALIFIER]");
    }
    if (!args_.positional.empty()) {
      ColumnName col = ParseColumn(args_.positional[0]);
      if (!col.qualifier) {
        if (args_.version) return Status::InvalidArgument("--version needs FAMILY:QUALIFIER");
        del.AddFamily(col.family, ts);
      } else if (args_.version) {
        del.AddColumn(col.family, *col.qualifier, *args_.version);
      } else {
        del.AddColumns(col.family, *col.qualifier, ts);
      }
    } else if (args_.version) {
      return Status::InvalidArgument("--version needs FAMILY:QUALIFIER");
    }
    BASALT_RETURN_IF_ERROR(table->Delete(del));
    out_.Done("deleted");
    return Status::OK();
  }

  Status Incr() {
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable());
    if (args_.positional.empty() || args_.positional.size() > 2) {
      return Status::InvalidArgument("incr needs FAMILY:QUALIFIER [AMOUNT]");
    }
    ColumnName col = ParseColumn(args_.positional[0]);
    if (!col.qualifier) return Status::InvalidArgument("incr needs FAMILY:QUALIFIER");
    int64_t amount = 1;
    if (args_.positional.size() == 2) {
      BASALT_ASSIGN_OR_RETURN(amount, ParseInt(args_.positional[1], "amount"));
    }
    BASALT_ASSIGN_OR_RETURN(int64_t value,
                            table->IncrementColumnValue(FromStringBinary(args_.row), col.family,
                                                        *col.qualifier, amount));
    out_.Counter(value);
    return Status::OK();
  }

  // import TABLE FILE: a bulk load of a TSV or CSV file (cli/import.h), all or nothing.
  Status ImportFile() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    ImportFormat format = FormatOfPath(args_.import_file);
    if (!args_.import_format.empty()) {
      BASALT_ASSIGN_OR_RETURN(format, ParseImportFormat(args_.import_format));
    }
    std::ifstream file;
    std::istream* in = &std::cin;
    if (args_.import_file != "-") {
      file.open(args_.import_file, std::ios::binary);
      if (!file) {
        return Status::NotFound("cannot open '" + args_.import_file + "': " + std::strerror(errno));
      }
      in = &file;
    }
    // Open() uses the default options, and so their value size limit.
    BASALT_ASSIGN_OR_RETURN(BulkLoadStats stats, Import(admin(), name, *in, format,
                                                        ConnectionOptions().max_value_bytes));
    out_.Done("imported " + std::to_string(stats.cells) + " cell(s) into " + name.ToString());
    return Status::OK();
  }

  Status Backup() {
    BASALT_ASSIGN_OR_RETURN(BackupInfo info, admin().CreateBackup(args_.backup_dir));
    out_.Done("backup " + std::to_string(info.id) + " in " + args_.backup_dir + ": " +
              std::to_string(info.files) + " file(s), " + std::to_string(info.size_bytes) +
              " bytes");
    return Status::OK();
  }

  // snapshot list (basalt/snapshot.h); the other snapshot verbs are shared operations.
  Status SnapshotList() {
    BASALT_ASSIGN_OR_RETURN(auto snapshots, admin().ListSnapshots());
    out_.Snapshots(snapshots);
    return Status::OK();
  }

  // An operation the shell shares (shell/operations.h), on its command-line arguments.
  Status SharedOperation() {
    BASALT_ASSIGN_OR_RETURN(std::string done,
                            shell::RunOperation(*args_.operation, admin(), args_.operation_args));
    out_.Done(done);
    return Status::OK();
  }

  Status Count() {
    BASALT_ASSIGN_OR_RETURN(auto table, OpenTable());
    basalt::Scan scan;
    if (!args_.prefix.empty()) scan.SetRowPrefix(FromStringBinary(args_.prefix));
    scan.SetBatch(1);  // a row's first cell is enough to count it
    BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(scan));
    RowResult row;
    int64_t rows = 0;
    bool continuing = false;
    while (scanner->Next(&row)) {
      if (!continuing) ++rows;
      continuing = row.partial();
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    out_.Count(rows);
    return Status::OK();
  }

 private:
  Admin& admin() { return conn_->admin(); }

  Result<std::unique_ptr<basalt::Table>> OpenTable() {
    BASALT_ASSIGN_OR_RETURN(TableName name, TableName::Parse(args_.table));
    return conn_->GetTable(name);
  }

  // --ts and --time-range select versions by time; at most one of them.
  template <class Set>
  Status ApplyTime(Set set) {
    if (args_.ts && !args_.time_range.empty()) {
      return Status::InvalidArgument("give --ts or --time-range, not both");
    }
    if (args_.ts) {
      TimeRange r = TimeRange::At(*args_.ts);
      set(r.min, r.max);
    } else if (!args_.time_range.empty()) {
      BASALT_ASSIGN_OR_RETURN(TimeRange r, ParseTimeRange(args_.time_range));
      set(r.min, r.max);
    }
    return Status::OK();
  }

  const Args& args_;
  Output& out_;
  std::unique_ptr<Connection> conn_;
};

// backup verify, backup list and restore: on a backup directory, no store open.
Status RunBackupDirCommand(const Args& args, bool verify, bool list, Output& out) {
  if (verify) {
    BASALT_RETURN_IF_ERROR(VerifyBackup(args.backup_dir, args.backup_id));
    out.Done("backup " +
             (args.backup_id == 0 ? std::string("(latest)") : std::to_string(args.backup_id)) +
             " in " + args.backup_dir + " verified");
    return Status::OK();
  }
  if (list) {
    BASALT_ASSIGN_OR_RETURN(auto backups, ListBackups(args.backup_dir));
    for (const auto& b : backups) {
      out.Done("backup " + std::to_string(b.id) + ": " + std::to_string(b.files) + " file(s), " +
               std::to_string(b.size_bytes) + " bytes, taken at " + std::to_string(b.timestamp));
    }
    return Status::OK();
  }
  BASALT_RETURN_IF_ERROR(RestoreBackup(args.backup_dir, args.backup_id, args.restore_dir));
  out.Done("restored " + args.backup_dir + " into " + args.restore_dir);
  return Status::OK();
}

// `basalt demo load`: a progress bar per stage on stderr (when it is a terminal, else a line
// per stage), a summary on stdout.
Status LoadDemoData(const Args& args, const recipes::DemoOptions& options) {
  BASALT_ASSIGN_OR_RETURN(auto conn, Connection::Open(args.data_dir));
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::string last_stage;
  auto progress = [&](std::string_view stage, int64_t done, int64_t total) {
    if (tty) {
      int64_t percent = total > 0 ? done * 100 / total : 100;
      if (stage != last_stage || done == total || done % 64 == 0) {
        int bars = static_cast<int>(percent / 4);
        std::fprintf(stderr, "\r%-8.*s [%-25s] %3lld%% %lld/%lld", static_cast<int>(stage.size()),
                     stage.data(), std::string(static_cast<size_t>(bars), '#').c_str(),
                     static_cast<long long>(percent), static_cast<long long>(done),
                     static_cast<long long>(total));
        if (done == total) std::fputc('\n', stderr);
      }
    } else if (stage != last_stage) {
      std::fprintf(stderr, "loading %.*s...\n", static_cast<int>(stage.size()), stage.data());
    }
    last_stage = std::string(stage);
  };
  BASALT_ASSIGN_OR_RETURN(recipes::DemoSummary sum, recipes::LoadDemo(*conn, options, progress));
  std::cout << "demo data loaded: " << sum.users << " users, " << sum.follows << " follows, "
            << sum.posts << " posts, " << sum.actions << " actions, " << sum.clicks
            << " clicks (password '" << recipes::kDemoPassword << "')\n";
  return conn->Close();
}

// `basalt create-app-tables`: the tables of the app's recipes, created on the backend in --data
// as `serve` creates them on its first start (the recipes' own schemas), so that a copy to an
// HBase cluster finds them there, the hash-keyed ones pre-split. Tables that exist are kept.
Status CreateAppTables(const Args& args, const std::string& name_space, int presplit_regions,
                       Output& out) {
  BASALT_ASSIGN_OR_RETURN(auto conn, Connection::Open(args.data_dir));
  app::api_v1::AppServicesOptions options;
  options.name_space = name_space;
  options.presplit_regions = presplit_regions;
  options.start_background_work = false;
  Result<std::unique_ptr<app::api_v1::AppServices>> services =
      app::api_v1::AppServices::Open(*conn, options);
  Status st = services.status();
  if (services.ok()) services->reset();
  Result<std::vector<TableName>> tables =
      st.ok() ? conn->admin().ListTables(name_space) : Result<std::vector<TableName>>(st);
  Status closed = conn->Close();
  BASALT_RETURN_IF_ERROR(tables.status());
  for (const TableName& t : *tables) out.Done(t.ToString());
  return closed;
}

std::string DefaultDataDir() {
  const char* env = std::getenv("BASALT_DATA");
  return env != nullptr && *env != '\0' ? env : "./data";
}

}  // namespace

int Main(int argc, char** argv) {
  Args args;
  args.data_dir = DefaultDataDir();
  CLI::App app{"basalt: a wide-column store with HBase's data model, embedded on RocksDB"};
  app.name("basalt");
  app.fallthrough();  // global options may also follow the subcommand
  app.require_subcommand(1);
  // help2man builds the man page from --help and --version (cmake/basalt_package.cmake).
  app.set_version_flag("--version", std::string("basalt ") + BASALT_VERSION,
                       "print the version and exit");
  app.add_option("--data", args.data_dir,
                 "data directory, or a backend target such as thrift://HOST:PORT (default: "
                 "$BASALT_DATA or ./data)");
  std::string server_address;
  app.add_option("--server", server_address,
                 "a basalt server or HBase Thrift2 gateway at HOST:PORT (same as --data "
                 "thrift://HOST:PORT)")
      ->excludes("--data");
  app.add_flag("--json", args.json, "print JSON instead of tables");

  using Command = Status (Cli::*)();
  Command command = nullptr;
  auto sub = [&](const char* name, const char* help, Command c) {
    CLI::App* s = app.add_subcommand(name, help);
    s->callback([&command, c] { command = c; });
    return s;
  };
  auto table_arg = [&](CLI::App* s) {
    s->add_option("table", args.table, "table, as NAME or NAMESPACE:NAME")->required();
  };
  auto time_opts = [&](CLI::App* s) {
    s->add_option("--ts", args.ts, "only the version at this timestamp (ms)");
    s->add_option("--time-range", args.time_range, "only versions with MIN <= ts < MAX")
        ->type_name("MIN,MAX");
    s->add_option("--versions", args.versions, "versions per column (default 1)");
  };
  auto filter_opt = [&](CLI::App* s) {
    s->add_option("--filter", args.filter,
                  "keep what this filter keeps, in HBase's filter language (docs/filters.md); "
                  "\\xHH escapes are decoded first")
        ->type_name("FILTER");
  };

  // A shared operation (shell/operations.h): its verb's name, summary and arguments come from the
  // table the shell's commands come from too. Each operation's arguments have their own strings.
  std::map<std::string_view, std::vector<std::string>> operation_values;
  auto add_operation = [&](CLI::App* parent, std::string_view shell_name) {
    const shell::Operation& op = shell::OperationNamed(shell_name);
    std::string_view verb = op.cli_name.substr(op.cli_name.rfind(' ') + 1);
    CLI::App* s = parent->add_subcommand(std::string(verb), std::string(op.summary));
    std::vector<std::string>& values = operation_values[op.shell_name];
    values.resize(op.arguments.size());
    for (size_t i = 0; i < op.arguments.size(); ++i) {
      s->add_option(std::string(op.arguments[i].name), values[i], std::string(op.arguments[i].help))
          ->required();
    }
    s->callback([&command, &args, &op, &values] {
      command = &Cli::SharedOperation;
      args.operation = &op;
      args.operation_args = values;
    });
  };

  CLI::App* create = sub("create", "create a table", &Cli::Create);
  table_arg(create);
  create
      ->add_option("families", args.positional,
                   "FAMILY[:versions=N,min_versions=N,ttl=SECONDS|FOREVER,"
                   "keep_deleted_cells=false|true|ttl,compression=none|snappy|lz4|zstd|gz,"
                   "bloom=none|row|rowcol,blocksize=BYTES]")
      ->required();
  create->add_option("--split", args.splits, "a split key (repeatable)");

  CLI::App* create_ns = sub("create-namespace", "create a namespace", &Cli::CreateNamespace);
  create_ns->add_option("namespace", args.ns)->required();
  add_operation(&app, "drop_namespace");
  sub("namespaces", "list namespaces", &Cli::Namespaces);

  CLI::App* list = sub("list", "list tables", &Cli::List);
  list->add_option("namespace", args.ns, "only this namespace");
  table_arg(sub("describe", "show a table's schema", &Cli::Describe));

  CLI::App* alter = sub("alter", "change families or durability", &Cli::Alter);
  table_arg(alter);
  alter->add_option("families", args.positional,
                    "FAMILY[:options]: modify the family if it exists, add it if not");
  alter->add_option("--drop-family", args.drop_families, "delete a family and its data");
  alter->add_option("--durability", args.durability,
                    "table default: USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL, FSYNC_WAL");

  add_operation(&app, "disable");
  add_operation(&app, "enable");
  table_arg(sub("truncate", "remove every row, keep the schema", &Cli::Truncate));
  table_arg(sub("drop", "delete a table (disabling it first)", &Cli::Drop));

  CLI::App* put = sub("put", "write cells to one row, atomically", &Cli::PutCells);
  table_arg(put);
  put->add_option("row", args.row)->required();
  put->add_option("cells", args.positional, "FAMILY:QUALIFIER VALUE pairs")->required();
  put->add_option("--ts", args.ts, "timestamp of the cells (ms; default now)");

  CLI::App* get = sub("get", "read one row", &Cli::GetRow);
  table_arg(get);
  get->add_option("row", args.row)->required();
  get->add_option("columns", args.positional, "FAMILY or FAMILY:QUALIFIER (default: all)");
  time_opts(get);
  filter_opt(get);

  CLI::App* scan = sub("scan", "read rows in key order", &Cli::ScanRows);
  table_arg(scan);
  scan->add_option("--start", args.start, "first row (inclusive)");
  scan->add_option("--stop", args.stop, "stop before this row");
  scan->add_option("--prefix", args.prefix, "only rows starting with this");
  scan->add_flag("--reverse", args.reverse, "descending row order (start at --start, go down)");
  scan->add_option("--limit", args.limit, "at most this many rows");
  scan->add_option("--columns", args.columns, "F or F:Q, comma-separated (default: all)");
  scan->add_option("--batch", args.batch, "at most this many cells per result");
  scan->add_flag("--raw", args.raw, "every stored cell, delete markers included");
  time_opts(scan);
  filter_opt(scan);

  CLI::App* del =
      sub("delete", "delete a row, a family, or a column's versions", &Cli::DeleteCells);
  table_arg(del);
  del->add_option("row", args.row)->required();
  del->add_option("column", args.positional, "FAMILY or FAMILY:QUALIFIER (default: whole row)");
  del->add_option("--ts", args.ts, "delete versions at or before this timestamp (ms)");
  del->add_option("--version", args.version, "delete only the version at this timestamp");

  CLI::App* incr = sub("incr", "add to a counter and print its new value", &Cli::Incr);
  table_arg(incr);
  incr->add_option("row", args.row)->required();
  incr->add_option("args", args.positional, "FAMILY:QUALIFIER [AMOUNT (default 1)]")->required();

  CLI::App* count = sub("count", "count rows", &Cli::Count);
  table_arg(count);
  count->add_option("--prefix", args.prefix, "only rows starting with this");

  CLI::App* import = sub("import",
                         "bulk load a sorted TSV or CSV file of ROW, FAMILY:QUALIFIER, VALUE[, "
                         "TIMESTAMP] records, all or nothing (docs/bulk-load.md)",
                         &Cli::ImportFile);
  table_arg(import);
  import->add_option("file", args.import_file, "the file; - for stdin")->required();
  import->add_option("--format", args.import_format,
                     "tsv (tab-separated, \\xHH escapes) or csv (RFC 4180); default: csv for a "
                     "name ending in .csv, else tsv");

  // backup: a backup of the store in --data; verify, list and restore work on the backup
  // directory alone (basalt/backup.h).
  CLI::App* backup =
      sub("backup", "back up the store (incremental, checksummed) into DEST", &Cli::Backup);
  backup->require_subcommand(0, 1);
  backup->add_option("dest", args.backup_dir, "the backup directory (created if missing)");
  std::string backup_via;
  backup->add_option("--via", backup_via,
                     "take it through the `basalt serve` at http://HOST:PORT that holds the store "
                     "open, into that server's --backup-dir (no DEST; the admin token from "
                     "$BASALT_ADMIN_TOKEN)");
  CLI::App* backup_verify =
      backup->add_subcommand("verify", "check every file of a backup against its checksum");
  backup_verify->add_option("dest", args.backup_dir, "the backup directory")->required();
  backup_verify->add_option("--id", args.backup_id, "the backup (default: the latest)");
  CLI::App* backup_list = backup->add_subcommand("list", "the backups in a backup directory");
  backup_list->add_option("dest", args.backup_dir, "the backup directory")->required();
  CLI::App* restore = app.add_subcommand(
      "restore", "rebuild a store from a backup into DIR, which must be empty or missing");
  restore->add_option("dest", args.backup_dir, "the backup directory")->required();
  restore->add_option("dir", args.restore_dir, "the store directory to create")->required();
  restore->add_option("--id", args.backup_id, "the backup (default: the latest)");

  // snapshot: HBase's table snapshots on the store in --data (basalt/snapshot.h).
  CLI::App* snapshot = app.add_subcommand(
      "snapshot", "table snapshots, as HBase's: files linked, not copied (docs/operations.md)");
  snapshot->require_subcommand(1);
  add_operation(snapshot, "snapshot");
  CLI::App* snapshot_list =
      snapshot->add_subcommand("list", "list the snapshots and what their files cost");
  snapshot_list->callback([&command] { command = &Cli::SnapshotList; });
  add_operation(snapshot, "clone_snapshot");
  add_operation(snapshot, "restore_snapshot");
  add_operation(snapshot, "delete_snapshot");

  // demo load: fills the store with the demo data set through the recipes.
  recipes::DemoOptions demo_options;
  demo_options.name_space = app::AppConfig{}.app_namespace;  // what `serve` reads
  CLI::App* demo = app.add_subcommand("demo", "demo data for the recipes and the server");
  demo->require_subcommand(1);
  CLI::App* demo_load = demo->add_subcommand(
      "load", "create users (password '" + std::string(recipes::kDemoPassword) +
                  "'), a power-law follow graph, posts with home feeds, activity and clicks");
  demo_load->add_option("--users", demo_options.users, "users (default 200)");
  demo_load->add_option("--follows", demo_options.mean_follows, "follows per user, on average");
  demo_load->add_option("--posts", demo_options.posts, "posts (default 2000)");
  demo_load->add_option("--actions", demo_options.actions, "activity events (default 20000)");
  demo_load->add_option("--items", demo_options.items, "clicked items (default 300)");
  demo_load->add_option("--clicks", demo_options.clicks, "clicks (default 20000)");
  demo_load->add_option("--seed", demo_options.seed, "random seed (default 42)");
  demo_load->add_option("--namespace", demo_options.name_space,
                        "namespace of the recipes' tables (default '" + demo_options.name_space +
                            "', where `serve` looks)");

  // create-app-tables: the recipes' tables on a backend, before copying the app's data there.
  std::string app_tables_namespace = app::AppConfig{}.app_namespace;
  int app_tables_presplit = 0;
  CLI::App* app_tables = app.add_subcommand(
      "create-app-tables",
      "create the app's recipe tables (as `serve` does on a first start) on the backend in "
      "--data, keeping those that exist, and list them");
  app_tables->add_option("--namespace", app_tables_namespace,
                         "namespace of the recipes' tables (default '" + app_tables_namespace +
                             "', where `serve` looks)");
  app_tables->add_option("--presplit-regions", app_tables_presplit,
                         "create the hash-keyed tables (sessions, follow graph) pre-split into "
                         "this many regions, for an HBase cluster (0..256; default 0: one)");

  // shell: HBase's shell commands, interactively or from a script (docs/shell.md).
  std::string shell_script;
  CLI::App* shell = app.add_subcommand(
      "shell",
      "HBase shell commands on the store, interactive (line editing, history) or from "
      "stdin; exits 1 if a scripted command failed");
  shell->add_option("script", shell_script, "run this file instead of reading stdin");

  // serve: runs the HTTP server instead of one command. Flags win over the config file.
  app::ServeConfig serve_config;
  std::string serve_config_file;
  std::optional<std::string> serve_bind, serve_access_log;
  std::optional<uint16_t> serve_port;
  std::optional<uint64_t> serve_max_body;
  CLI::App* serve = app.add_subcommand(
      "serve",
      "serve HBase's REST API (and /metrics) over HTTP, HBase's Thrift2 and HBase's Thrift1 on the "
      "store in --data");
  serve->add_option("--bind", serve_bind, "address to listen on (default 127.0.0.1)");
  serve->add_option("--port", serve_port, "port (default 8080; 0 picks a free one)");
  serve->add_option("--config", serve_config_file, "a JSON file with the same keys");
  serve->add_option("--access-log", serve_access_log, "access log file (default: stderr)");
  serve->add_option("--max-body", serve_max_body, "largest request body, bytes (default 8 MiB)");
  std::optional<uint16_t> serve_thrift_port;
  bool serve_no_thrift = false, serve_thrift_framed = false, serve_thrift_compact = false;
  serve->add_option("--thrift-port", serve_thrift_port,
                    "HBase Thrift2 port (default 9090; 0 picks a free one)");
  serve->add_flag("--no-thrift", serve_no_thrift, "do not serve HBase's Thrift2 protocol");
  serve->add_flag("--thrift-framed", serve_thrift_framed,
                  "Thrift2 over a framed transport (HBase -f)");
  serve->add_flag("--thrift-compact", serve_thrift_compact,
                  "Thrift2 with the compact protocol (HBase -c)");
  std::optional<uint16_t> serve_thrift1_port;
  bool serve_no_thrift1 = false, serve_thrift1_framed = false, serve_thrift1_compact = false;
  serve->add_option("--thrift1-port", serve_thrift1_port,
                    "HBase Thrift1 (happybase's protocol) port (default 9091; 0 picks a free one)");
  serve->add_flag("--no-thrift1", serve_no_thrift1, "do not serve HBase's Thrift1 protocol");
  serve->add_flag("--thrift1-framed", serve_thrift1_framed,
                  "Thrift1 over a framed transport (HBase -f)");
  serve->add_flag("--thrift1-compact", serve_thrift1_compact,
                  "Thrift1 with the compact protocol (HBase -c)");
  std::optional<uint16_t> serve_hbase_rpc_port;
  bool serve_no_hbase_rpc = false;
  serve->add_option("--hbase-rpc-port", serve_hbase_rpc_port,
                    "HBase's native RPC port, for the stock HBase Java client and shell (default "
                    "16020; 0 picks a free one)");
  serve->add_flag("--no-hbase-rpc", serve_no_hbase_rpc, "do not serve HBase's native RPC");
  std::optional<uint32_t> serve_thrift_spin_us;
  serve
      ->add_option("--thrift-spin-us", serve_thrift_spin_us,
                   "microseconds a Thrift connection polls for its next request before sleeping, "
                   "while no other connection is calling (default 50; 0: never)")
      ->check(CLI::Range(0u, server::http::kMaxThriftSpinUs));
  std::optional<uint32_t> serve_thrift_max_connections, serve_thrift_max_connections_per_client;
  serve->add_option("--thrift-max-connections", serve_thrift_max_connections,
                    "connections each Thrift server holds at once; past it a new one takes the "
                    "place of an idle one (default 10000; 0: no cap)");
  serve->add_option("--thrift-max-connections-per-client", serve_thrift_max_connections_per_client,
                    "connections each Thrift server holds from one client address (default 1000; "
                    "0: no cap)");
  std::optional<std::string> serve_admin_token;
  std::optional<uint32_t> serve_session_ttl;
  bool serve_fast_hash = false;
  serve->add_option("--admin-token", serve_admin_token,
                    "token that REST writes and /api/v1/admin need (or $BASALT_ADMIN_TOKEN)");
  serve->add_option("--session-ttl-seconds", serve_session_ttl,
                    "how long an /api/v1 log-in session lives (default 7 days)");
  serve->add_flag("--insecure-fast-password-hash", serve_fast_hash,
                  "TESTS ONLY: the cheapest password hash (trivial to brute-force)");
  bool serve_insecure_no_auth = false;
  serve->add_flag("--insecure-no-auth", serve_insecure_no_auth,
                  "allow --bind beyond loopback without credentials: anyone who can reach the "
                  "ports may read, write and drop every table outside the app's namespace over "
                  "Thrift2 and Thrift1 (which have no credentials) and, without --admin-token, "
                  "over REST");
  std::vector<std::string> serve_allowed_hosts;
  serve
      ->add_option("--allowed-host", serve_allowed_hosts,
                   "a host name the Host header may carry besides IP literals, localhost and "
                   "the bind address (repeatable; '*' for any): others get 403 (DNS rebinding)")
      ->allow_extra_args(false);
  std::optional<std::string> serve_backup_dir;
  serve->add_option("--backup-dir", serve_backup_dir,
                    "where POST /api/v1/admin/backups (and `basalt backup --via`) back up the "
                    "store, online (default: no backups through the server)");
  bool serve_demo = false;
  std::optional<double> serve_demo_scale;
  serve->add_flag("--demo", serve_demo,
                  "load the demo data set (as `demo load`) on the store's first start only");
  serve->add_option("--demo-scale", serve_demo_scale,
                    "with --demo: the demo's default size times this (default 1)");

  CopyCommands copy_commands;
  copy_commands.Register(app);
  SyncCommands sync_commands;
  sync_commands.Register(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  if (serve->parsed()) {
    Status st;
    if (!serve_config_file.empty()) {
      st = app::LoadServeConfigFile(serve_config_file, &serve_config);
    }
    bool data_flag = app.get_option("--data")->count() > 0;
    if (data_flag || serve_config.server.data.empty()) serve_config.server.data = args.data_dir;
    if (serve_bind) serve_config.server.bind = *serve_bind;
    if (serve_port) serve_config.server.port = *serve_port;
    if (serve_access_log) serve_config.server.access_log = *serve_access_log;
    if (serve_max_body) serve_config.server.max_body = *serve_max_body;
    if (serve_thrift_port) serve_config.server.thrift_port = *serve_thrift_port;
    if (serve_no_thrift) serve_config.server.thrift = false;
    if (serve_thrift_framed) serve_config.server.thrift_framed = true;
    if (serve_thrift_compact) serve_config.server.thrift_compact = true;
    if (serve_thrift1_port) serve_config.server.thrift1_port = *serve_thrift1_port;
    if (serve_no_thrift1) serve_config.server.thrift1 = false;
    if (serve_hbase_rpc_port) serve_config.server.hbase_rpc_port = *serve_hbase_rpc_port;
    if (serve_no_hbase_rpc) serve_config.server.hbase_rpc = false;
    if (serve_thrift1_framed) serve_config.server.thrift1_framed = true;
    if (serve_thrift1_compact) serve_config.server.thrift1_compact = true;
    if (serve_thrift_spin_us) serve_config.server.thrift_spin_us = *serve_thrift_spin_us;
    if (serve_thrift_max_connections) {
      serve_config.server.thrift_max_connections = *serve_thrift_max_connections;
    }
    if (serve_thrift_max_connections_per_client) {
      serve_config.server.thrift_max_connections_per_client =
          *serve_thrift_max_connections_per_client;
    }
    // The token: the flag, else the environment, else the config file.
    if (const char* env_token = std::getenv("BASALT_ADMIN_TOKEN");
        env_token != nullptr && *env_token != '\0') {
      serve_config.server.admin_token = env_token;
    }
    if (serve_admin_token) serve_config.server.admin_token = *serve_admin_token;
    // The flags add to the config file's names.
    serve_config.server.allowed_hosts.insert(serve_config.server.allowed_hosts.end(),
                                             serve_allowed_hosts.begin(),
                                             serve_allowed_hosts.end());
    if (serve_insecure_no_auth) serve_config.server.insecure_no_auth = true;
    if (serve_session_ttl) serve_config.app.session_ttl_seconds = *serve_session_ttl;
    if (serve_fast_hash) serve_config.app.password_hash_cost = "minimum";
    if (serve_backup_dir) serve_config.app.backup_dir = *serve_backup_dir;
    if (serve_demo) serve_config.app.demo = true;
    if (serve_demo_scale) serve_config.app.demo_scale = *serve_demo_scale;
    if (st.ok()) st = app::Serve(serve_config);
    if (!st.ok()) {
      std::cerr << "error: " << st.ToString() << "\n";
      return 1;
    }
    return 0;
  }

  if (!server_address.empty()) args.data_dir = "thrift://" + server_address;
  if (auto rc = copy_commands.RunIfParsed(args.data_dir)) return *rc;
  if (auto rc = sync_commands.RunIfParsed(args.data_dir)) return *rc;

  if (shell->parsed()) return shell::RunShell(args.data_dir, shell_script);

  if (app_tables->parsed()) {
    Output out(std::cout, args.json);
    Status st = CreateAppTables(args, app_tables_namespace, app_tables_presplit, out);
    std::cout.flush();
    if (!st.ok()) {
      std::cerr << "error: " << st.ToString() << "\n";
      return 1;
    }
    return 0;
  }

  if (demo_load->parsed()) {
    Status st = LoadDemoData(args, demo_options);
    if (!st.ok()) {
      std::cerr << "error: " << st.ToString() << "\n";
      return 1;
    }
    return 0;
  }

  if (backup_verify->parsed() || backup_list->parsed() || restore->parsed()) {
    Output out(std::cout, args.json);
    Status st = RunBackupDirCommand(args, backup_verify->parsed(), backup_list->parsed(), out);
    std::cout.flush();
    if (!st.ok()) {
      std::cerr << "error: " << st.ToString() << "\n";
      return 1;
    }
    return 0;
  }
  if (backup->parsed() && !backup_via.empty()) {
    if (!args.backup_dir.empty()) {
      std::cerr << "error: backup --via takes no DEST: the server backs up into its "
                   "--backup-dir\n";
      return 2;
    }
    const char* token = std::getenv("BASALT_ADMIN_TOKEN");
    Result<BackupInfo> info = app::TakeBackupThroughServer(backup_via, token ? token : "");
    if (!info.ok()) {
      std::cerr << "error: " << info.status().ToString() << "\n";
      return 1;
    }
    Output out(std::cout, args.json);
    out.Done("backup " + std::to_string(info->id) + " through " + backup_via + ": " +
             std::to_string(info->files) + " file(s), " + std::to_string(info->size_bytes) +
             " bytes");
    std::cout.flush();
    return 0;
  }
  if (backup->parsed() && args.backup_dir.empty()) {
    std::cerr << "error: backup needs the backup directory DEST\n";
    return 2;
  }

  Output out(std::cout, args.json);
  Cli cli(args, out);
  Status s = cli.Open();
  if (s.ok()) s = (cli.*command)();
  std::cout.flush();
  if (!s.ok()) {
    std::string message = s.ToString();
    for (char& c : message) {
      if (c == '\n') c = ' ';
    }
    std::cerr << "error: " << message << "\n";
    return 1;
  }
  return 0;
}

}  // namespace basalt::cli
