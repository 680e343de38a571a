// The operations `basalt shell` and the `basalt` command both offer, each stated once: its name
// in each front end, its summary (the shell's `help` and `basalt --help`), its parameters and how
// each front end takes them, and what it does on the store. The shell registers a command for
// each (operation_command.cc), the command line a subcommand (cli/operation_verbs.h); what differs
// is only how the arguments arrive (the shell's quoted values and hashes, the command line's words
// and flags) and how the results print (OperationOutput).

#ifndef BASALT_SHELL_OPERATIONS_H_
#define BASALT_SHELL_OPERATIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/row_result.h"
#include "basalt/schema.h"
#include "basalt/snapshot.h"
#include "basalt/status.h"
#include "shell/commands.h"
#include "shell/parser.h"

namespace basalt::shell {

// One parameter of an operation and how each front end takes it.
struct Parameter {
  enum class Kind {
    kTable,       // NAME or NAMESPACE:NAME
    kNamespace,   //
    kSnapshot,    // a snapshot name, checked before the operation runs
    kBytes,       // a row, a value, a prefix: the command line decodes \xHH escapes
    kColumn,      // FAMILY or FAMILY:QUALIFIER (the command line decodes the qualifier's escapes)
    kInteger,     //
    kFlag,        // true when given
    kFamily,      // a family and its options: the shell's 'f' or {NAME => 'f', ...}, the command
                  // line's FAMILY[:versions=N,...] (family_options.h)
    kText,        // a word (DURABILITY), a time range, a pattern: as written
    kProperties,  // the shell's hash of properties (create_namespace's)
  };
  // How the command line takes it.
  enum class Cli {
    kNone,               // not offered
    kArgument,           // a required positional
    kOptionalArgument,   //
    kArguments,          // one or more positionals (the last parameter of its kind)
    kOptionalArguments,  // zero or more
    kOption,             // --name VALUE
    kOptions,            // --name VALUE, repeatable
    kList,               // --name A,B,C
    kFlag,               // --name
  };
  // How the shell takes it.
  enum class Shell {
    kNone,              // not offered
    kArgument,          // a positional value (shell_count of them)
    kOptionalArgument,  //
    kArguments,         // every further value (a column array is its columns): the last
    kKey,               // only a key of an option hash (shell_keys)
  };

  std::string_view name;  // the command line's positional or option name ("row", "start")
  std::string_view help;  // for `basalt <verb> --help`
  Kind kind = Kind::kText;
  Cli cli = Cli::kNone;
  Shell shell = Shell::kNone;
  // The keys of an option hash that give it ("STARTROW"), whatever its shell form.
  std::vector<std::string_view> shell_keys = {};
  int shell_count = 1;  // the values a shell kArgument takes
  // What each front end passes when the parameter is not given, if anything ("" for nothing).
  std::string_view cli_default = {};
  std::string_view shell_default = {};
};

// The arguments of one run, by parameter name, as the front end converted them: each a Value
// (strings for what the command line gave; the shell's own values otherwise), with how the front
// end spells the parameter for error messages ("--limit", "LIMIT", "the row").
class OperationArgs {
 public:
  void Add(std::string_view name, std::string_view what, Value value);

  bool Has(std::string_view name) const { return Find(name) != nullptr; }
  // The first value, or nullptr.
  const Value* Get(std::string_view name) const;
  // Every value given, in order.
  const std::vector<Value>& All(std::string_view name) const;
  // How the front end names the parameter ("" when it was not given).
  std::string What(std::string_view name) const;

 private:
  struct Given {
    std::string what;
    std::vector<Value> values;
  };
  const Given* Find(std::string_view name) const;
  std::map<std::string, Given, std::less<>> given_;
};

// Where an operation's results go; each front end prints them its own way.
class OperationOutput {
 public:
  virtual ~OperationOutput() = default;
  virtual void Row(const RowResult& row) = 0;  // get
  virtual void BeginRows() = 0;                // scan: Begin, a row at a time, End
  virtual void NextRow(const RowResult& row) = 0;
  virtual void EndRows(int64_t rows) = 0;
  virtual void Tables(const std::vector<TableName>& tables) = 0;
  virtual void Namespaces(const std::vector<NamespaceDescriptor>& namespaces) = 0;
  // describe; `snapshots` is the table's snapshot count where the backend has snapshots and
  // ShowsSnapshotCount().
  virtual void Table(const TableInfo& info, std::optional<size_t> snapshots) = 0;
  // Whether Table prints the snapshot count (describe lists the snapshots only then).
  virtual bool ShowsSnapshotCount() const { return false; }
  virtual void Snapshots(const std::vector<SnapshotInfo>& snapshots) = 0;
  virtual void Counter(int64_t value) = 0;
  virtual void Count(int64_t rows) = 0;
  // A step of a long operation ("Disabling table..."), which the shell prints as HBase's does.
  virtual void Progress(const std::string& line) = 0;
  // What the operation did ("enabled table t1").
  virtual void Done(const std::string& what) = 0;
  // Aborted once the user interrupted (Ctrl-C in the shell).
  virtual Status CheckInterrupted() { return Status::OK(); }
};

struct Operation {
  std::string_view shell_name;  // "enable"; empty: not in the shell
  std::string_view cli_name;    // "enable"; "snapshot create" is `create` under `snapshot`;
                                // empty: not on the command line
  std::string_view group;       // the shell's help group
  std::string_view summary;
  std::string_view shell_usage;  // the shell's syntax and examples, for `help 'name'`
  std::vector<Parameter> parameters;
  Status (*run)(Connection& conn, const OperationArgs& args, OperationOutput& out);
  bool shell_prints_done = false;  // the shell prints Done's message too (create's)
  bool shell_option_hash = false;  // the shell takes a (last) option hash with no keys (put's)
};

// Every shared operation.
const std::vector<Operation>& Operations();

// The operation the shell calls `shell_name`. REQUIRES: it is one of Operations().
const Operation& OperationNamed(std::string_view shell_name);

// Checks the arguments of the kinds checked up front (snapshot names) and runs `op`.
Status RunOperation(const Operation& op, Connection& conn, const OperationArgs& args,
                    OperationOutput& out);

// The shell's command for `op`: its quoted values become the operation's arguments
// (operation_command.cc).
CommandSpec ShellCommandFor(const Operation& op);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_OPERATIONS_H_
