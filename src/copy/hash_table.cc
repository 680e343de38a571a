#include "copy/hash_table.h"

#include <unistd.h>
#include <xxhash.h>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace basalt::copy {
namespace {

constexpr std::string_view kFormat = "basalt-hash-table 1";
constexpr char kManifest[] = "manifest";
constexpr char kHashes[] = "hashes";

// The digest of one range, fed cell by cell. Every field carries its length so that no two cell
// sequences share an encoding ("ab","c" and "a","bc" differ).
class RangeDigest {
 public:
  RangeDigest() : state_(XXH3_createState()) { XXH3_128bits_reset(state_); }
  ~RangeDigest() { XXH3_freeState(state_); }
  RangeDigest(const RangeDigest&) = delete;
  RangeDigest& operator=(const RangeDigest&) = delete;

  void Add(const Cell& c) {
    Field(c.row);
    Field(c.family);
    Field(c.qualifier);
    unsigned char ts[8];
    for (int i = 0; i < 8; ++i) {
      ts[i] = static_cast<unsigned char>(static_cast<uint64_t>(c.timestamp) >> (56 - 8 * i));
    }
    XXH3_128bits_update(state_, ts, sizeof ts);
    const auto type = static_cast<unsigned char>(c.type);
    XXH3_128bits_update(state_, &type, 1);
    Field(c.value);
  }

  std::string Hex() const {
    XXH128_hash_t h = XXH3_128bits_digest(state_);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return buf;
  }

 private:
  void Field(const std::string& s) {
    unsigned char len[4];
    const auto n = static_cast<uint32_t>(s.size());
    for (int i = 0; i < 4; ++i) len[i] = static_cast<unsigned char>(n >> (24 - 8 * i));
    XXH3_128bits_update(state_, len, sizeof len);
    XXH3_128bits_update(state_, s.data(), s.size());
  }

  XXH3_state_t* state_;
};

int64_t CellBytes(const Cell& c) {
  return static_cast<int64_t>(c.row.size() + c.family.size() + c.qualifier.size() + c.value.size() +
                              9);
}

Result<int64_t> ParseInt(std::string_view text, std::string_view what) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument("hash manifest: " + std::string(what) + " is not an integer");
  }
  return v;
}

Status WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) return Status::IOError("cannot write " + path.string());
  return Status::OK();
}

}  // namespace

std::string EscapeRow(std::string_view row) {
  if (row.empty()) return "\"\"";
  std::string out;
  for (unsigned char c : row) {
    if (c >= 0x21 && c <= 0x7e && c != '\\' && c != '"') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  }
  return out;
}

Result<std::string> UnescapeRow(std::string_view text) {
  if (text == "\"\"") return std::string();
  if (text.empty()) return Status::InvalidArgument("empty row field in hash output");
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out.push_back(text[i]);
      continue;
    }
    unsigned v = 0;
    if (i + 3 >= text.size() || text[i + 1] != 'x' ||
        std::from_chars(text.data() + i + 2, text.data() + i + 4, v, 16).ptr !=
            text.data() + i + 4) {
      return Status::InvalidArgument("bad escape in hash output row '" + std::string(text) + "'");
    }
    out.push_back(static_cast<char>(v));
    i += 3;
  }
  return out;
}

Scan HashScan(const HashTableOptions& options, const std::string& start_row,
              const std::string& stop_row) {
  Scan scan;
  scan.WithStartRow(start_row);
  if (!stop_row.empty()) scan.WithStopRow(stop_row);
  scan.SetTimeRange(options.start_time, options.end_time.value_or(kLatestTimestamp));
  scan.ReadVersions(options.versions);
  for (const auto& f : options.families) scan.AddFamily(f);
  scan.SetCaching(500);
  return scan;
}

Result<TableHash> HashTable(Connection& conn, const HashTableOptions& options) {
  if (options.versions < 1) return Status::InvalidArgument("--versions must be at least 1");
  if (options.batch_size < 1) return Status::InvalidArgument("--batchsize must be at least 1");
  if (!options.stop_row.empty() && options.stop_row <= options.start_row) {
    return Status::InvalidArgument("--stoprow must be after --startrow");
  }
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(options.table));
  BASALT_ASSIGN_OR_RETURN(
      auto scanner, table->GetScanner(HashScan(options, options.start_row, options.stop_row)));
  TableHash out;
  out.options = options;
  auto digest = std::make_unique<RangeDigest>();
  std::string range_start = options.start_row;
  int64_t bytes = 0;
  RowResult row;
  while (scanner->Next(&row)) {
    if (row.cells().empty()) continue;
    if (bytes >= options.batch_size) {
      out.ranges.push_back({range_start, row.row(), digest->Hex()});
      digest = std::make_unique<RangeDigest>();
      range_start = row.row();
      bytes = 0;
    }
    for (const Cell& c : row.cells()) {
      digest->Add(c);
      bytes += CellBytes(c);
      ++out.cells;
    }
    ++out.rows;
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  out.ranges.push_back({range_start, options.stop_row, digest->Hex()});
  return out;
}

Result<std::vector<std::string>> DigestRanges(Connection& conn, const std::string& table_name,
                                              const HashTableOptions& options,
                                              const std::vector<HashRange>& ranges) {
  if (ranges.empty()) return std::vector<std::string>();
  for (size_t i = 0; i + 1 < ranges.size(); ++i) {
    if (ranges[i].stop_row != ranges[i + 1].start_row || ranges[i].stop_row.empty()) {
      return Status::InvalidArgument("hash ranges are not contiguous at range " +
                                     std::to_string(i));
    }
  }
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(table_name));
  BASALT_ASSIGN_OR_RETURN(
      auto scanner,
      table->GetScanner(HashScan(options, ranges.front().start_row, ranges.back().stop_row)));
  std::vector<std::unique_ptr<RangeDigest>> digests;
  for (size_t i = 0; i < ranges.size(); ++i) digests.push_back(std::make_unique<RangeDigest>());
  size_t at = 0;
  RowResult row;
  while (scanner->Next(&row)) {
    while (at + 1 < ranges.size() && row.row() >= ranges[at].stop_row) ++at;
    for (const Cell& c : row.cells()) digests[at]->Add(c);
  }
  BASALT_RETURN_IF_ERROR(scanner->status());
  std::vector<std::string> out;
  for (const auto& d : digests) out.push_back(d->Hex());
  return out;
}

Status WriteTableHash(const TableHash& hash, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(dir, ec)) return Status::AlreadyExists("hash output exists: " + dir);
  const fs::path tmp = dir + ".tmp-" + std::to_string(getpid());
  fs::remove_all(tmp, ec);
  if (!fs::create_directories(tmp, ec)) {
    return Status::IOError("cannot create " + tmp.string() + ": " + ec.message());
  }
  const HashTableOptions& o = hash.options;
  std::ostringstream m;
  m << "format=" << kFormat << "\n"
    << "table=" << o.table << "\n"
    << "startrow=" << EscapeRow(o.start_row) << "\n"
    << "stoprow=" << EscapeRow(o.stop_row) << "\n"
    << "starttime=" << o.start_time << "\n";
  if (o.end_time) m << "endtime=" << *o.end_time << "\n";
  m << "versions=" << o.versions << "\n";
  for (const auto& f : o.families) m << "family=" << EscapeRow(f) << "\n";
  m << "batchsize=" << o.batch_size << "\n"
    << "ranges=" << hash.ranges.size() << "\n";
  std::ostringstream h;
  for (const auto& r : hash.ranges) {
    h << EscapeRow(r.start_row) << ' ' << EscapeRow(r.stop_row) << ' ' << r.digest << '\n';
  }
  Status s = WriteFile(tmp / kHashes, h.str());
  // The manifest last: a directory with a manifest is complete even before the rename.
  if (s.ok()) s = WriteFile(tmp / kManifest, m.str());
  if (s.ok() && std::rename(tmp.c_str(), dir.c_str()) != 0) {
    s = Status::IOError("cannot rename " + tmp.string() + " to " + dir);
  }
  if (!s.ok()) fs::remove_all(tmp, ec);
  return s;
}

Result<TableHash> ReadTableHash(const std::string& dir) {
  namespace fs = std::filesystem;
  std::ifstream mf(fs::path(dir) / kManifest, std::ios::binary);
  if (!mf) return Status::NotFound("no hash manifest in " + dir);
  TableHash out;
  HashTableOptions& o = out.options;
  std::map<std::string, std::string> seen;
  int64_t ranges = -1;
  std::string line;
  while (std::getline(mf, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) {
      return Status::InvalidArgument("hash manifest: bad line '" + line + "'");
    }
    std::string key = line.substr(0, eq);
    std::string value = line.substr(eq + 1);
    if (key != "family" && !seen.emplace(key, value).second) {
      return Status::InvalidArgument("hash manifest: " + key + " given twice");
    }
    if (key == "format") {
      if (value != kFormat) {
        return Status::InvalidArgument("hash manifest: unknown format '" + value + "'");
      }
    } else if (key == "table") {
      o.table = value;
    } else if (key == "startrow") {
      BASALT_ASSIGN_OR_RETURN(o.start_row, UnescapeRow(value));
    } else if (key == "stoprow") {
      BASALT_ASSIGN_OR_RETURN(o.stop_row, UnescapeRow(value));
    } else if (key == "starttime") {
      BASALT_ASSIGN_OR_RETURN(o.start_time, ParseInt(value, key));
    } else if (key == "endtime") {
      BASALT_ASSIGN_OR_RETURN(int64_t end, ParseInt(value, key));
      o.end_time = end;
    } else if (key == "versions") {
      BASALT_ASSIGN_OR_RETURN(int64_t v, ParseInt(value, key));
      if (v < 1 || v > INT32_MAX) return Status::InvalidArgument("hash manifest: bad versions");
      o.versions = static_cast<int32_t>(v);
    } else if (key == "family") {
      BASALT_ASSIGN_OR_RETURN(std::string f, UnescapeRow(value));
      o.families.push_back(std::move(f));
    } else if (key == "batchsize") {
      BASALT_ASSIGN_OR_RETURN(o.batch_size, ParseInt(value, key));
    } else if (key == "ranges") {
      BASALT_ASSIGN_OR_RETURN(ranges, ParseInt(value, key));
    } else {
      return Status::InvalidArgument("hash manifest: unknown key '" + key + "'");
    }
  }
  if (!seen.count("format") || o.table.empty() || ranges < 1) {
    return Status::InvalidArgument("hash manifest in " + dir + " is incomplete");
  }
  std::ifstream hf(fs::path(dir) / kHashes, std::ios::binary);
  if (!hf) return Status::NotFound("no hashes in " + dir);
  while (std::getline(hf, line)) {
    std::istringstream fields(line);
    std::string start, stop, digest, extra;
    if (!(fields >> start >> stop >> digest) || (fields >> extra) || digest.size() != 32) {
      return Status::InvalidArgument("hashes: bad line '" + line + "'");
    }
    HashRange r;
    BASALT_ASSIGN_OR_RETURN(r.start_row, UnescapeRow(start));
    BASALT_ASSIGN_OR_RETURN(r.stop_row, UnescapeRow(stop));
    r.digest = digest;
    out.ranges.push_back(std::move(r));
  }
  if (static_cast<int64_t>(out.ranges.size()) != ranges) {
    return Status::InvalidArgument("hashes in " + dir + " hold " +
                                   std::to_string(out.ranges.size()) + " range(s), the manifest " +
                                   std::to_string(ranges));
  }
  if (out.ranges.front().start_row != o.start_row || out.ranges.back().stop_row != o.stop_row) {
    return Status::InvalidArgument("hashes in " + dir + " do not cover the manifest's rows");
  }
  for (size_t i = 0; i + 1 < out.ranges.size(); ++i) {
    if (out.ranges[i].stop_row != out.ranges[i + 1].start_row ||
        out.ranges[i].stop_row <= out.ranges[i].start_row) {
      return Status::InvalidArgument("hashes in " + dir + " are not contiguous");
    }
  }
  return out;
}

}  // namespace basalt::copy
