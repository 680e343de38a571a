#include "shell/family_options.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "shell/arguments.h"

namespace basalt::shell {
namespace {

bool IsForever(const Value& v) {
  if (v.kind != Value::Kind::kString && v.kind != Value::Kind::kConstant) return false;
  std::string upper = v.text;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper == "FOREVER";
}

// The command line's lower-case names and the HBase names they stand for.
struct CommandLineName {
  std::string_view name;
  std::string_view option;
};
constexpr CommandLineName kCommandLineNames[] = {
    {"versions", "VERSIONS"},
    {"min_versions", "MIN_VERSIONS"},
    {"ttl", "TTL"},
    {"keep_deleted_cells", "KEEP_DELETED_CELLS"},
    {"compression", "COMPRESSION"},
    {"bloom", "BLOOMFILTER"},
    {"blocksize", "BLOCKSIZE"},
};

}  // namespace

const std::vector<std::string_view>& ActedOnFamilyOptions() {
  static const std::vector<std::string_view> options = {
      "VERSIONS",    "MIN_VERSIONS", "TTL",      "KEEP_DELETED_CELLS",
      "COMPRESSION", "BLOOMFILTER",  "BLOCKSIZE"};
  return options;
}

const std::vector<std::string_view>& KeptFamilyAttributes() {
  // Other names are refused, so that a misspelt option is an error rather than an attribute.
  static const std::vector<std::string_view> attributes = {"IN_MEMORY",
                                                           "BLOCKCACHE",
                                                           "REPLICATION_SCOPE",
                                                           "DATA_BLOCK_ENCODING",
                                                           "CACHE_DATA_ON_WRITE",
                                                           "CACHE_INDEX_ON_WRITE",
                                                           "CACHE_BLOOMS_ON_WRITE",
                                                           "EVICT_BLOCKS_ON_CLOSE",
                                                           "PREFETCH_BLOCKS_ON_OPEN",
                                                           "COMPRESS_TAGS",
                                                           "COMPACTION_COMPRESSION",
                                                           "IS_MOB",
                                                           "MOB_THRESHOLD",
                                                           "DFS_REPLICATION",
                                                           "STORAGE_POLICY",
                                                           "NEW_VERSION_BEHAVIOR"};
  return attributes;
}

Status ApplyFamilyOption(std::string_view name, std::string_view what, const Value& value,
                         FamilyDescriptor* f) {
  if (name == "VERSIONS") {
    BASALT_ASSIGN_OR_RETURN(f->max_versions, AsInt32(value, what, 1));
  } else if (name == "MIN_VERSIONS") {
    BASALT_ASSIGN_OR_RETURN(f->min_versions, AsInt32(value, what, 0));
  } else if (name == "TTL") {
    if (IsForever(value)) {
      f->ttl_seconds = kForeverTtl;
    } else {
      BASALT_ASSIGN_OR_RETURN(f->ttl_seconds, AsInt32(value, std::string(what) + " (seconds)", 1));
    }
  } else if (name == "KEEP_DELETED_CELLS") {
    if (value.kind == Value::Kind::kBoolean) {
      f->keep_deleted_cells = value.boolean ? KeepDeletedCells::kTrue : KeepDeletedCells::kFalse;
    } else {
      BASALT_ASSIGN_OR_RETURN(std::string text, AsWord(value, what));
      BASALT_ASSIGN_OR_RETURN(f->keep_deleted_cells, ParseKeepDeletedCells(text));
    }
  } else if (name == "COMPRESSION") {
    BASALT_ASSIGN_OR_RETURN(std::string text, AsWord(value, what));
    BASALT_ASSIGN_OR_RETURN(f->compression, ParseCompression(text));
  } else if (name == "BLOOMFILTER") {
    BASALT_ASSIGN_OR_RETURN(std::string text, AsWord(value, what));
    BASALT_ASSIGN_OR_RETURN(f->bloom_filter, ParseBloomFilter(text));
  } else if (name == "BLOCKSIZE") {
    BASALT_ASSIGN_OR_RETURN(f->block_size, AsInt32(value, what, 1));
  } else {
    const auto& kept = KeptFamilyAttributes();
    if (std::find(kept.begin(), kept.end(), name) == kept.end()) {
      return Status::InvalidArgument("unknown family option '" + std::string(what) + "'");
    }
    std::string& attribute = f->attributes[std::string(name)];
    switch (value.kind) {
      case Value::Kind::kString:
      case Value::Kind::kConstant:
        attribute = value.text;
        break;
      case Value::Kind::kInteger:
        attribute = std::to_string(value.integer);
        break;
      case Value::Kind::kBoolean:
        attribute = value.boolean ? "true" : "false";
        break;
      default:
        return Status::InvalidArgument(std::string(what) +
                                       " must be a string, a number or a boolean, not " +
                                       std::string(value.KindName()));
    }
  }
  return Status::OK();
}

namespace {

// The entry of a command-line option name, or nullptr.
const CommandLineName* FindCommandLineName(std::string_view name) {
  for (const CommandLineName& n : kCommandLineNames) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

struct ListedOption {
  const CommandLineName* name;
  std::string value;
};

// The command line's "versions=3,ttl=86400" as known names and their values, unchecked.
Result<std::vector<ListedOption>> ParseOptionList(std::string_view options) {
  std::vector<ListedOption> listed;
  size_t pos = 0;
  while (pos < options.size()) {
    size_t end = options.find(',', pos);
    if (end == std::string_view::npos) end = options.size();
    std::string_view item = options.substr(pos, end - pos);
    pos = end + 1;
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return Status::InvalidArgument("family option must be NAME=VALUE, not '" + std::string(item) +
                                     "'");
    }
    std::string_view name = item.substr(0, eq);
    const CommandLineName* known = FindCommandLineName(name);
    if (known == nullptr) {
      return Status::InvalidArgument(
          "unknown family option '" + std::string(name) +
          "' (versions, min_versions, ttl, keep_deleted_cells, compression, bloom, blocksize)");
    }
    listed.push_back({known, std::string(item.substr(eq + 1))});
  }
  return listed;
}

}  // namespace

Status ApplyFamilyOptionList(std::string_view options, FamilyDescriptor* f) {
  BASALT_ASSIGN_OR_RETURN(std::vector<ListedOption> listed, ParseOptionList(options));
  for (const ListedOption& o : listed) {
    BASALT_RETURN_IF_ERROR(
        ApplyFamilyOption(o.name->option, o.name->name, StringValue(o.value), f));
  }
  return Status::OK();
}

const std::vector<std::string_view>& FamilyHashKeys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> all = {"NAME"};
    all.insert(all.end(), ActedOnFamilyOptions().begin(), ActedOnFamilyOptions().end());
    all.push_back("METHOD");
    all.insert(all.end(), KeptFamilyAttributes().begin(), KeptFamilyAttributes().end());
    return all;
  }();
  return keys;
}

Status ApplyFamilyHash(Options& options, FamilyDescriptor* f) {
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

Result<Value> FamilyHashFromList(std::string_view spec) {
  size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return StringValue(std::string(spec));
  std::string_view options = spec.substr(colon + 1);
  FamilyDescriptor scratch("f");
  BASALT_RETURN_IF_ERROR(ApplyFamilyOptionList(options, &scratch));
  BASALT_ASSIGN_OR_RETURN(std::vector<ListedOption> listed, ParseOptionList(options));
  Value hash;
  hash.kind = Value::Kind::kHash;
  hash.entries.push_back({StringValue("NAME"), StringValue(std::string(spec.substr(0, colon)))});
  for (ListedOption& o : listed) {
    hash.entries.push_back(
        {StringValue(std::string(o.name->option)), StringValue(std::move(o.value))});
  }
  return hash;
}

}  // namespace basalt::shell
