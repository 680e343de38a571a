// The `basalt` command: one subcommand per operation, each a thin layer over the public API.
//
// Errors print one line, `error: <what>`, and exit 1; usage errors exit 2.

#include "cli/cli.h"

#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/admin_client.h"
#include "app/api_v1/app_services.h"
#include "app/serve.h"
#include "basalt/backup.h"
#include "basalt/basalt.h"
#include "basalt/recipes/demo.h"
#include "cli/copy_commands.h"
#include "cli/import.h"
#include "cli/operation_verbs.h"
#include "cli/output.h"
#include "cli/sync_commands.h"
#include "shell/repl.h"

namespace basalt::cli {
namespace {

// What the subcommands were given on the command line (the verbs of the operations the shell
// shares hold their own: operation_verbs.h).
struct Args {
  std::string data_dir;
  bool json = false;
  std::string table;
  std::string import_file;
  std::string import_format;
  std::string backup_dir;
  std::string restore_dir;
  uint32_t backup_id = 0;  // 0: the latest
};

class Cli {
 public:
  Cli(const Args& args, Output& out) : args_(args), out_(out) {}

  Status Open() {
    BASALT_ASSIGN_OR_RETURN(conn_, Connection::Open(args_.data_dir));
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

 private:
  Admin& admin() { return conn_->admin(); }

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

  // The operations the shell shares (shell/operations.h): their verbs, summaries, arguments and
  // options come from the table the shell's commands come from too.
  OperationVerbs operation_verbs;
  operation_verbs.Register(app);

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
  operation_verbs.Register(*snapshot, "snapshot");

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
  if (auto rc = operation_verbs.RunIfParsed(args.data_dir, args.json)) return *rc;

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
