// Table commands: create, alter, describe, list, exists, enable/disable, drop, truncate.

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <regex>
#include <string>

#include "shell/arguments.h"
#include "shell/commands.h"
#include "shell/family_options.h"
#include "shell/formatter.h"
#include "shell/operations.h"
#include "util/bytes_format.h"

namespace basalt::shell {
namespace {

using util::ToStringBinary;

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Result<Durability> ParseDurability(const Value& v) {
  BASALT_ASSIGN_OR_RETURN(std::string text, AsWord(v, "DURABILITY"));
  for (Durability d : {Durability::kUseDefault, Durability::kSkipWal, Durability::kAsyncWal,
                       Durability::kSyncWal, Durability::kFsyncWal}) {
    if (Upper(text) == DurabilityName(d)) return d;
  }
  return Status::InvalidArgument("unknown DURABILITY '" + ToStringBinary(text) +
                                 "' (USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL)");
}

const std::vector<std::string_view> kFamilyOptions = [] {
  std::vector<std::string_view> options = {"NAME"};
  const auto& acted_on = ActedOnFamilyOptions();
  options.insert(options.end(), acted_on.begin(), acted_on.end());
  options.push_back("METHOD");
  const auto& kept = KeptFamilyAttributes();
  options.insert(options.end(), kept.begin(), kept.end());
  return options;
}();

// Applies a family hash's options to `f` (NAME and METHOD are read by the caller).
Status ApplyFamilyOptions(Options& options, FamilyDescriptor* f) {
  for (const auto* names : {&ActedOnFamilyOptions(), &KeptFamilyAttributes()}) {
    for (std::string_view name : *names) {
      if (const Value* v = options.Take(name)) {
        BASALT_RETURN_IF_ERROR(ApplyFamilyOption(name, name, *v, f));
      }
    }
  }
  BASALT_RETURN_IF_ERROR(options.Finish());
  return f->Validate();
}

// HBase's HexStringSplit: n regions over the 8-digit hex keys 00000000..ffffffff.
std::vector<std::string> HexStringSplits(int32_t regions) {
  std::vector<std::string> splits;
  const uint64_t step = 0xFFFFFFFFull / static_cast<uint64_t>(regions);
  for (int32_t i = 1; i < regions; ++i) {
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%08llx",
                  static_cast<unsigned long long>(step * static_cast<uint64_t>(i)));
    splits.emplace_back(buf);
  }
  return splits;
}

Status Create(CommandContext& ctx, const std::vector<Value>& args) {
  if (args.size() < 2) {
    return Status::InvalidArgument("create needs a table name and at least one column family");
  }
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  TableDescriptor desc(name);
  std::vector<std::string> splits;
  for (size_t i = 1; i < args.size(); ++i) {
    const Value& arg = args[i];
    if (!arg.is_hash()) {
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(arg, "a column family"));
      FamilyDescriptor f(family);
      BASALT_RETURN_IF_ERROR(f.Validate());
      desc.AddFamily(std::move(f));
      continue;
    }
    Options options(&arg, "create", {});
    if (options.Has("NAME")) {
      Options family_options(&arg, "a column family", kFamilyOptions);
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(*family_options.Take("NAME"), "NAME"));
      if (family_options.Has("METHOD")) {
        return Status::InvalidArgument("METHOD belongs to alter, not create");
      }
      FamilyDescriptor f(family);
      BASALT_RETURN_IF_ERROR(ApplyFamilyOptions(family_options, &f));
      desc.AddFamily(std::move(f));
      continue;
    }
    Options table_options(&arg, "create",
                          {"NAME", "SPLITS", "NUMREGIONS", "SPLITALGO", "DURABILITY"});
    if (const Value* v = table_options.Take("SPLITS")) {
      BASALT_ASSIGN_OR_RETURN(splits, AsStringList(*v, "SPLITS"));
    }
    const Value* numregions = table_options.Take("NUMREGIONS");
    const Value* splitalgo = table_options.Take("SPLITALGO");
    if ((numregions == nullptr) != (splitalgo == nullptr)) {
      return Status::InvalidArgument("NUMREGIONS and SPLITALGO go together");
    }
    if (numregions != nullptr) {
      BASALT_ASSIGN_OR_RETURN(int32_t regions, AsInt32(*numregions, "NUMREGIONS", 2));
      BASALT_ASSIGN_OR_RETURN(std::string algo, AsWord(*splitalgo, "SPLITALGO"));
      if (algo != "HexStringSplit") {
        return Status::NotSupported("SPLITALGO '" + ToStringBinary(algo) +
                                    "': basalt computes only HexStringSplit; give SPLITS => "
                                    "[...] for other boundaries");
      }
      splits = HexStringSplits(regions);
    }
    if (const Value* v = table_options.Take("DURABILITY")) {
      BASALT_ASSIGN_OR_RETURN(desc.durability, ParseDurability(*v));
    }
    BASALT_RETURN_IF_ERROR(table_options.Finish());
  }
  if (desc.families.empty()) {
    return Status::InvalidArgument("create needs at least one column family");
  }
  BASALT_RETURN_IF_ERROR(ctx.conn.admin().CreateTable(desc, splits));
  ctx.out << "Created table " << name.ToString() << "\n";
  return Status::OK();
}

// One change of an alter, checked before any is applied.
struct FamilyChange {
  enum class Kind { kAddOrModify, kDelete } kind;
  FamilyDescriptor family;
};

Status Alter(CommandContext& ctx, const std::vector<Value>& args) {
  if (args.size() < 2) {
    return Status::InvalidArgument(
        "alter needs a table and a change, e.g. alter 't1', NAME => 'f1', VERSIONS => 5");
  }
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, ctx.conn.admin().DescribeTable(name));
  TableDescriptor planned = info.descriptor;
  std::vector<FamilyChange> changes;
  std::optional<Durability> durability;

  auto plan_delete = [&](const std::string& family) -> Status {
    auto it = std::find_if(planned.families.begin(), planned.families.end(),
                           [&](const FamilyDescriptor& f) { return f.name == family; });
    if (it == planned.families.end()) {
      return Status::NotFound("table " + name.ToString() + " has no column family '" +
                              ToStringBinary(family) + "'");
    }
    planned.families.erase(it);
    changes.push_back({FamilyChange::Kind::kDelete, FamilyDescriptor(family)});
    return Status::OK();
  };
  auto plan_family = [&](FamilyDescriptor f) {
    auto it = std::find_if(planned.families.begin(), planned.families.end(),
                           [&](const FamilyDescriptor& g) { return g.name == f.name; });
    if (it == planned.families.end()) {
      planned.families.push_back(f);
    } else {
      *it = f;
    }
    changes.push_back({FamilyChange::Kind::kAddOrModify, std::move(f)});
  };
  auto existing_or_new = [&](const std::string& family) {
    const FamilyDescriptor* f = planned.FindFamily(family);
    return f != nullptr ? *f : FamilyDescriptor(family);
  };

  for (size_t i = 1; i < args.size(); ++i) {
    const Value& arg = args[i];
    if (!arg.is_hash()) {
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(arg, "a column family"));
      FamilyDescriptor f = existing_or_new(family);
      BASALT_RETURN_IF_ERROR(f.Validate());
      plan_family(std::move(f));
      continue;
    }
    Options probe(&arg, "alter", {});
    if (probe.Has("delete")) {
      Options options(&arg, "alter", {"delete"});
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(*options.Take("delete"), "'delete'"));
      BASALT_RETURN_IF_ERROR(options.Finish());
      BASALT_RETURN_IF_ERROR(plan_delete(family));
      continue;
    }
    if (probe.Has("NAME")) {
      Options options(&arg, "alter", kFamilyOptions);
      BASALT_ASSIGN_OR_RETURN(std::string family, AsBytes(*options.Take("NAME"), "NAME"));
      if (const Value* method = options.Take("METHOD")) {
        BASALT_ASSIGN_OR_RETURN(std::string m, AsBytes(*method, "METHOD"));
        if (m != "delete") {
          return Status::InvalidArgument("METHOD with NAME must be 'delete', not '" +
                                         ToStringBinary(m) + "'");
        }
        BASALT_RETURN_IF_ERROR(options.Finish());
        BASALT_RETURN_IF_ERROR(plan_delete(family));
        continue;
      }
      FamilyDescriptor f = existing_or_new(family);
      BASALT_RETURN_IF_ERROR(ApplyFamilyOptions(options, &f));
      plan_family(std::move(f));
      continue;
    }
    Options options(&arg, "alter", {"DURABILITY", "METHOD"});
    if (const Value* method = options.Take("METHOD")) {
      BASALT_ASSIGN_OR_RETURN(std::string m, AsBytes(*method, "METHOD"));
      if (m != "table_att") {
        return Status::InvalidArgument("METHOD without NAME must be 'table_att', not '" +
                                       ToStringBinary(m) + "'");
      }
    }
    if (const Value* v = options.Take("DURABILITY")) {
      BASALT_ASSIGN_OR_RETURN(durability, ParseDurability(*v));
    }
    BASALT_RETURN_IF_ERROR(options.Finish());
  }
  if (planned.families.empty()) {
    return Status::FailedPrecondition("alter would delete every column family of " +
                                      name.ToString() + "; a table needs at least one");
  }
  Admin& admin = ctx.conn.admin();
  for (const FamilyChange& change : changes) {
    if (change.kind == FamilyChange::Kind::kDelete) {
      BASALT_RETURN_IF_ERROR(admin.DeleteFamily(name, change.family.name));
    } else if (info.descriptor.FindFamily(change.family.name) != nullptr) {
      BASALT_RETURN_IF_ERROR(admin.ModifyFamily(name, change.family));
    } else {
      BASALT_RETURN_IF_ERROR(admin.AddFamily(name, change.family));
      info.descriptor.AddFamily(change.family);
    }
  }
  if (durability) BASALT_RETURN_IF_ERROR(admin.SetDurability(name, *durability));
  return Status::OK();
}

Status Describe(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "describe"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, ctx.conn.admin().DescribeTable(name));
  PrintTableDescription(ctx.out, info);
  // Where HBase's describe says whether quotas are on: how many snapshots the table has, on the
  // backends that have snapshots (not Thrift2).
  auto snapshots = ctx.conn.admin().ListSnapshots();
  if (snapshots.status().IsNotSupported()) return Status::OK();
  BASALT_RETURN_IF_ERROR(snapshots.status());
  size_t count = 0;
  for (const SnapshotInfo& s : *snapshots) count += s.table == name ? 1 : 0;
  ctx.out << "Snapshots: " << count << "\n";
  return Status::OK();
}

Status List(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 0, 1, "list"));
  BASALT_ASSIGN_OR_RETURN(std::optional<std::regex> pattern, NamePatternArg(args));
  BASALT_ASSIGN_OR_RETURN(auto tables, ctx.conn.admin().ListTables());
  std::vector<std::string> names;
  for (const auto& t : tables) {
    std::string n = t.ToString();
    if (!pattern || std::regex_match(n, *pattern)) names.push_back(std::move(n));
  }
  PrintNameList(ctx.out, "TABLE", names);
  return Status::OK();
}

Status Exists(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "exists"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool exists, ctx.conn.admin().TableExists(name));
  ctx.out << "Table " << name.ToString() << (exists ? " does exist\n" : " does not exist\n");
  return Status::OK();
}

Status IsEnabled(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "is_enabled"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool enabled, ctx.conn.admin().IsTableEnabled(name));
  ctx.out << (enabled ? "true" : "false") << "\n";
  return Status::OK();
}

Status IsDisabled(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "is_disabled"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool enabled, ctx.conn.admin().IsTableEnabled(name));
  ctx.out << (enabled ? "false" : "true") << "\n";
  return Status::OK();
}

// As HBase: the table must be disabled first.
Status Drop(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "drop"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(bool enabled, ctx.conn.admin().IsTableEnabled(name));
  if (enabled) {
    return Status::FailedPrecondition("Table " + name.ToString() +
                                      " is enabled. Disable it first: disable '" + name.ToString() +
                                      "'");
  }
  return ctx.conn.admin().DeleteTable(name);
}

Status TruncateWith(CommandContext& ctx, const std::vector<Value>& args, bool preserve_splits,
                    std::string_view command) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, command));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  Admin& admin = ctx.conn.admin();
  BASALT_ASSIGN_OR_RETURN(bool enabled, admin.IsTableEnabled(name));
  ctx.out << "Truncating '" << name.ToString() << "' table (it may take a while):\n";
  if (enabled) {
    ctx.out << "Disabling table...\n";
    BASALT_RETURN_IF_ERROR(admin.DisableTable(name));
  }
  ctx.out << "Truncating table...\n";
  return admin.TruncateTable(name, preserve_splits);  // which leaves it enabled
}

Status Truncate(CommandContext& ctx, const std::vector<Value>& args) {
  return TruncateWith(ctx, args, /*preserve_splits=*/false, "truncate");
}

Status TruncatePreserve(CommandContext& ctx, const std::vector<Value>& args) {
  return TruncateWith(ctx, args, /*preserve_splits=*/true, "truncate_preserve");
}

// As HBase: the number of regions, then each split key.
Status GetSplits(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "get_splits"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  BASALT_ASSIGN_OR_RETURN(TableInfo info, ctx.conn.admin().DescribeTable(name));
  ctx.out << "Total number of splits = " << info.split_keys.size() + 1 << "\n";
  for (const auto& key : info.split_keys) ctx.out << ToStringBinary(key) << "\n";
  return Status::OK();
}

Status Flush(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "flush"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  return ctx.conn.admin().Flush(name);
}

Status MajorCompact(CommandContext& ctx, const std::vector<Value>& args) {
  BASALT_RETURN_IF_ERROR(CheckArgCount(args, 1, 1, "major_compact"));
  BASALT_ASSIGN_OR_RETURN(TableName name, AsTableName(args[0]));
  return ctx.conn.admin().MajorCompact(name);
}

}  // namespace

std::vector<CommandSpec> DdlCommands() {
  return {
      {"create", "ddl", "create a table",
       "create 't1', 'f1', 'f2'\n"
       "create 'ns1:t1', {NAME => 'f1', VERSIONS => 5, TTL => 86400, MIN_VERSIONS => 1,\n"
       "  KEEP_DELETED_CELLS => true, COMPRESSION => 'SNAPPY', BLOOMFILTER => 'ROW',\n"
       "  BLOCKSIZE => 65536, IN_MEMORY => true}   # other attributes are kept, not acted on\n"
       "create 't1', 'f1', SPLITS => ['10', '20', '30']\n"
       "create 't1', 'f1', {NUMREGIONS => 16, SPLITALGO => 'HexStringSplit'}\n"
       "create 't1', 'f1', DURABILITY => 'ASYNC_WAL'",
       &Create},
      {"alter", "ddl", "add, change or delete column families; set the durability",
       "alter 't1', NAME => 'f1', VERSIONS => 5     # change f1, or add it\n"
       "alter 't1', 'f2'                            # add f2 with the defaults\n"
       "alter 't1', 'delete' => 'f1'                # or: NAME => 'f1', METHOD => 'delete'\n"
       "alter 't1', DURABILITY => 'SKIP_WAL'\n"
       "alter 't1', {NAME => 'f1', TTL => 3600}, {NAME => 'f2', METHOD => 'delete'}",
       &Alter},
      {"describe", "ddl", "show a table's state and column families", "describe 't1'", &Describe},
      {"desc", "ddl", "same as describe", "desc 't1'", &Describe},
      {"list", "ddl", "list tables, optionally those matching a regular expression",
       "list\nlist 'abc.*'\nlist 'ns1:.*'", &List},
      {"exists", "ddl", "whether a table exists", "exists 't1'", &Exists},
      {"is_enabled", "ddl", "whether a table is enabled", "is_enabled 't1'", &IsEnabled},
      {"is_disabled", "ddl", "whether a table is disabled", "is_disabled 't1'", &IsDisabled},
      ShellCommandFor(OperationNamed("enable")),
      ShellCommandFor(OperationNamed("disable")),
      {"drop", "ddl", "delete a disabled table and its data", "disable 't1'\ndrop 't1'", &Drop},
      {"truncate", "ddl", "remove every row (disables and re-enables the table)", "truncate 't1'",
       &Truncate},
      {"truncate_preserve", "ddl", "truncate, keeping the table's split keys",
       "truncate_preserve 't1'", &TruncatePreserve},
      {"get_splits", "ddl", "the number of regions and the split keys", "get_splits 't1'",
       &GetSplits},
      {"flush", "tools", "write a table's in-memory data to disk", "flush 't1'", &Flush},
      {"major_compact", "tools",
       "rewrite a table's data, dropping deleted, expired and excess versions (synchronous)",
       "major_compact 't1'", &MajorCompact},
  };
}

}  // namespace basalt::shell
