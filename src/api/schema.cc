#include "basalt/schema.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace basalt {
namespace {

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Status ValidateNamespaceName(std::string_view name) {
  if (name.empty() || name.size() > 128) {
    return Status::InvalidArgument("namespace name must be 1-128 characters: '" +
                                   std::string(name) + "'");
  }
  for (char c : name) {
    if (!IsWordChar(c)) {
      return Status::InvalidArgument("illegal character in namespace name '" + std::string(name) +
                                     "': only [A-Za-z0-9_] are allowed");
    }
  }
  return Status::OK();
}

Status ValidateTableQualifier(std::string_view name) {
  if (name.empty() || name.size() > 128) {
    return Status::InvalidArgument("table name must be 1-128 characters: '" + std::string(name) +
                                   "'");
  }
  if (name[0] == '.' || name[0] == '-') {
    return Status::InvalidArgument("table name must not start with '.' or '-': '" +
                                   std::string(name) + "'");
  }
  for (char c : name) {
    if (!IsWordChar(c) && c != '.' && c != '-') {
      return Status::InvalidArgument("illegal character in table name '" + std::string(name) +
                                     "': only [A-Za-z0-9_.-] are allowed");
    }
  }
  return Status::OK();
}

Status ValidateFamilyName(std::string_view name) {
  if (name.empty() || name.size() > 127) {
    return Status::InvalidArgument("family name must be 1-127 characters: '" + std::string(name) +
                                   "'");
  }
  if (name[0] == '.') {
    return Status::InvalidArgument("family name must not start with '.': '" + std::string(name) +
                                   "'");
  }
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e || c == ':') {
      return Status::InvalidArgument("illegal character in family name '" + std::string(name) +
                                     "': printable ASCII other than ':' only");
    }
  }
  return Status::OK();
}

Result<TableName> TableName::Parse(std::string_view text) {
  TableName name;
  auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    name.ns = std::string(kDefaultNamespace);
    name.qualifier = std::string(text);
  } else {
    name.ns = std::string(text.substr(0, colon));
    name.qualifier = std::string(text.substr(colon + 1));
    BASALT_RETURN_IF_ERROR(ValidateNamespaceName(name.ns));
  }
  BASALT_RETURN_IF_ERROR(ValidateTableQualifier(name.qualifier));
  return name;
}

std::string TableName::ToString() const {
  if (ns == kDefaultNamespace) return qualifier;
  return ns + ":" + qualifier;
}

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "NONE";
    case Compression::kSnappy:
      return "SNAPPY";
    case Compression::kLz4:
      return "LZ4";
    case Compression::kZstd:
      return "ZSTD";
    case Compression::kGz:
      return "GZ";
  }
  return "NONE";
}

Result<Compression> ParseCompression(std::string_view name) {
  std::string u = Upper(name);
  for (Compression c : {Compression::kNone, Compression::kSnappy, Compression::kLz4,
                        Compression::kZstd, Compression::kGz}) {
    if (u == CompressionName(c)) return c;
  }
  return Status::InvalidArgument("unknown compression '" + std::string(name) +
                                 "': expected NONE, SNAPPY, LZ4, ZSTD or GZ");
}

std::string_view BloomFilterName(BloomFilter b) {
  switch (b) {
    case BloomFilter::kNone:
      return "NONE";
    case BloomFilter::kRow:
      return "ROW";
    case BloomFilter::kRowCol:
      return "ROWCOL";
  }
  return "NONE";
}

Result<BloomFilter> ParseBloomFilter(std::string_view name) {
  std::string u = Upper(name);
  for (BloomFilter b : {BloomFilter::kNone, BloomFilter::kRow, BloomFilter::kRowCol}) {
    if (u == BloomFilterName(b)) return b;
  }
  return Status::InvalidArgument("unknown bloom filter '" + std::string(name) +
                                 "': expected NONE, ROW or ROWCOL");
}

std::string_view KeepDeletedCellsName(KeepDeletedCells k) {
  switch (k) {
    case KeepDeletedCells::kFalse:
      return "FALSE";
    case KeepDeletedCells::kTrue:
      return "TRUE";
    case KeepDeletedCells::kTtl:
      return "TTL";
  }
  return "FALSE";
}

Result<KeepDeletedCells> ParseKeepDeletedCells(std::string_view name) {
  std::string u = Upper(name);
  for (KeepDeletedCells k :
       {KeepDeletedCells::kFalse, KeepDeletedCells::kTrue, KeepDeletedCells::kTtl}) {
    if (u == KeepDeletedCellsName(k)) return k;
  }
  return Status::InvalidArgument("unknown KEEP_DELETED_CELLS '" + std::string(name) +
                                 "': expected FALSE, TRUE or TTL");
}

Status FamilyDescriptor::Validate() const {
  BASALT_RETURN_IF_ERROR(ValidateFamilyName(name));
  if (max_versions < 1) {
    return Status::InvalidArgument("family '" + name + "': VERSIONS must be at least 1");
  }
  if (min_versions < 0 || min_versions > max_versions) {
    return Status::InvalidArgument("family '" + name +
                                   "': MIN_VERSIONS must be between 0 and VERSIONS");
  }
  if (ttl_seconds < 1) {
    return Status::InvalidArgument("family '" + name + "': TTL must be at least 1 second");
  }
  if (block_size < 1024 || block_size > 16 * 1024 * 1024) {
    return Status::InvalidArgument("family '" + name +
                                   "': BLOCKSIZE must be between 1 KiB and 16 MiB");
  }
  if (attributes.size() > 32) {
    return Status::InvalidArgument("family '" + name + "': at most 32 attributes");
  }
  static constexpr std::string_view kSettings[] = {
      "NAME",        "VERSIONS",    "MIN_VERSIONS", "TTL", "KEEP_DELETED_CELLS",
      "COMPRESSION", "BLOOMFILTER", "BLOCKSIZE"};
  for (const auto& [key, value] : attributes) {
    bool name_ok = !key.empty() && key.size() <= 64;
    for (char c : key) {
      name_ok =
          name_ok && ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.');
    }
    if (!name_ok) {
      return Status::InvalidArgument("family '" + name + "': attribute name '" + key +
                                     "' is not 1..64 of A-Z, 0-9, '_' and '.'");
    }
    for (std::string_view setting : kSettings) {
      if (key == setting) {
        return Status::InvalidArgument("family '" + name + "': " + key +
                                       " is a setting of its own, not an attribute");
      }
    }
    if (value.size() > 1024) {
      return Status::InvalidArgument("family '" + name + "': attribute " + key +
                                     " is longer than 1024 bytes");
    }
  }
  return Status::OK();
}

const FamilyDescriptor* TableDescriptor::FindFamily(std::string_view family) const {
  for (const auto& f : families) {
    if (f.name == family) return &f;
  }
  return nullptr;
}

Status TableDescriptor::Validate() const {
  BASALT_RETURN_IF_ERROR(ValidateNamespaceName(name.ns));
  BASALT_RETURN_IF_ERROR(ValidateTableQualifier(name.qualifier));
  if (families.empty()) {
    return Status::InvalidArgument("table '" + name.ToString() +
                                   "' needs at least one column family");
  }
  std::set<std::string> seen;
  for (const auto& f : families) {
    BASALT_RETURN_IF_ERROR(f.Validate());
    if (!seen.insert(f.name).second) {
      return Status::InvalidArgument("family '" + f.name + "' is listed twice");
    }
  }
  return Status::OK();
}

}  // namespace basalt
