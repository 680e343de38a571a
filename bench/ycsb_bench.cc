// YCSB's core workloads A-F (Cooper et al., "Benchmarking Cloud Serving Systems with YCSB",
// SoCC 2010) on basalt and on raw RocksDB, side by side in one run.
//
// The workloads are YCSB's, with its standard parameters: table `usertable`, records of 10
// fields `field0`..`field9` of 100 random printable bytes, keys "user" + the FNV-64 hash of the
// record number (YCSB's hashed insert order), reads of all fields, updates of one field.
//
//   A  50% read, 50% update                        scrambled zipfian (0.99)
//   B  95% read, 5% update                         scrambled zipfian
//   C  100% read                                   scrambled zipfian
//   D  95% read, 5% insert                         latest
//   E  95% scan (1..100 rows, uniform), 5% insert  scrambled zipfian start key
//   F  50% read, 50% read-modify-write             scrambled zipfian
//
// As YCSB's documentation prescribes, one load of --records records serves A, B, C, F and D, in
// that order (D's inserts grow the table); E runs on a fresh load.
//
// basalt: one family `family` (VERSIONS 1), one cell per field, through the public API only, as
// YCSB's HBase binding does: a read is Get(row).AddFamily, an update a Put of one cell, an insert
// a Put of ten, a scan Scan(start).AddFamily with limit and caching set to the scan length, and a
// read-modify-write a Get then a Put. --url thrift://HOST:PORT runs this side against a server;
// without it, on an embedded store under --dir.
//
// Raw RocksDB: the record as YCSB's RocksDB binding stores it, every field in one value under the
// key (per field: 4-byte big-endian name length, name, 4-byte big-endian value length, value). A
// read is a Get and a parse; an update reads the record, replaces the field and writes the record
// back; a read-modify-write does that with one Get (the binding's read() then update() would do
// two); a scan is an iterator Seek and Nexts, each value copied out and parsed. The options are
// basalt's family options (bench/raw_rocksdb.h), in this process even when basalt is remote.
// --raw-layout cells stores basalt's layout instead, one entry per field (see RawCellsStore).
//
// Durability is the same on both sides and is both YCSB bindings' default: every write goes to
// the WAL, handed to the OS, never fsynced (basalt's SYNC_WAL; RocksDB's default WriteOptions).
//
// Both sides run the same sequence of operations (same seeds) with one client thread in a closed
// loop. They take turns in slices of --slice-ops operations, the side going first alternating, so
// that a burst of load elsewhere on the machine lands on both. Throughput is operations over the
// time of a side's slices; latency is of each call, in microseconds. After each load both sides
// flush and wait for their compactions, untimed; a remote basalt cannot be asked to (Thrift2 has
// no flush), so then the bench waits --settle-seconds instead.
//
// Usage: basalt_ycsb_bench [--records N] [--operations N] [--workloads ABCDEF] [--url URL]
//                          [--dir DIR] [--slice-ops N] [--settle-seconds S] [--label TEXT]
//                          [--markdown FILE] [--json FILE] [--profile-side basalt|raw]
//                          [--raw-layout record|cells]
//
// The defaults are scaled to a 2-core machine: 500,000 records (about 0.5 GB of values a side,
// twice the 256 MiB block cache) and 100,000 operations per workload, in slices of 1,000.
// scripts/ycsb.sh runs it embedded and then over thrift:// against a private `basalt serve`.

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "basalt/basalt.h"
#include "harness.h"
#include "raw_rocksdb.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kFieldCount = 10;
constexpr size_t kFieldLength = 100;
constexpr int kMaxScanLength = 100;
constexpr double kZipfianConstant = 0.99;
constexpr char kTable[] = "usertable";
constexpr char kFamily[] = "family";

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "ycsb_bench: %s\n", what.c_str());
  std::exit(1);
}

void Check(const basalt::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

void Check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

// ---- YCSB's generators, rewritten from their definitions ----

// YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of `v`, low byte first, then the absolute value
// of the result read as a signed 64-bit integer (Java's Math.abs, which leaves INT64_MIN as is).
int64_t Fnv64(int64_t v) {
  uint64_t x = static_cast<uint64_t>(v);
  uint64_t h = 0xCBF29CE484222325ULL;
  for (int i = 0; i < 8; ++i) {
    h ^= x & 0xff;
    x >>= 8;
    h *= 1099511628211ULL;
  }
  const int64_t s = static_cast<int64_t>(h);
  return s < 0 ? static_cast<int64_t>(0 - h) : s;
}

// A record's key: "user" + the decimal hash of its number (zeropadding 1: no padding).
std::string KeyName(int64_t keynum) {
  return "user" + std::to_string(Fnv64(keynum));
}

// Java's Random.nextDouble's range: [0, 1).
double NextDouble(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Zipfian over [0, items) by Gray et al.'s method ("Quickly Generating Billion-Record Synthetic
// Databases", SIGMOD 1994), as YCSB's ZipfianGenerator: item 0 is the most popular. Next() may be
// asked for more items than before (the `latest` distribution grows with the inserts); zeta is
// then extended from where it was, not recomputed.
class Zipfian {
 public:
  // `zetan`: zeta(items, theta) when known (it takes `items` pow() calls otherwise).
  Zipfian(int64_t items, double theta, double zetan = -1)
      : theta_(theta),
        alpha_(1.0 / (1.0 - theta)),
        zeta2theta_(Zeta(0, 2, theta, 0)),
        counted_(items),
        zetan_(zetan >= 0 ? zetan : Zeta(0, items, theta, 0)) {
    eta_ = Eta(items);
  }

  int64_t Next(std::mt19937_64& rng, int64_t items) {
    if (items > counted_) {
      zetan_ = Zeta(counted_, items, theta_, zetan_);
      counted_ = items;
      eta_ = Eta(items);
    }
    const double u = NextDouble(rng);
    const double uz = u * zetan_;
    if (uz < 1.0) return 0;
    if (uz < 1.0 + std::pow(0.5, theta_)) return 1;
    return static_cast<int64_t>(static_cast<double>(items) * std::pow(eta_ * u - eta_ + 1, alpha_));
  }

 private:
  // zeta(n) = sum over i in [1, n] of 1 / i^theta, extended from `sum` = zeta(from).
  static double Zeta(int64_t from, int64_t n, double theta, double sum) {
    for (int64_t i = from; i < n; ++i) sum += 1.0 / std::pow(static_cast<double>(i + 1), theta);
    return sum;
  }
  double Eta(int64_t items) const {
    return (1 - std::pow(2.0 / static_cast<double>(items), 1 - theta_)) /
           (1 - zeta2theta_ / zetan_);
  }

  double theta_, alpha_, zeta2theta_;
  int64_t counted_;
  double zetan_;
  double eta_ = 0;
};

// YCSB's ScrambledZipfianGenerator: a zipfian rank over a fixed space of 10^10 items (whose zeta
// for 0.99 YCSB precomputes as below), hashed with FNV-64 onto [0, items), so that the popular
// records are spread over the key space instead of being the first ones inserted.
class ScrambledZipfian {
 public:
  explicit ScrambledZipfian(int64_t items)
      : items_(items), zipf_(kSpace + 1, kZipfianConstant, kSpaceZeta) {}
  int64_t Next(std::mt19937_64& rng) { return Fnv64(zipf_.Next(rng, kSpace + 1)) % items_; }

 private:
  static constexpr int64_t kSpace = 10000000000LL;
  static constexpr double kSpaceZeta = 26.46902820178302;
  int64_t items_;
  Zipfian zipf_;
};

// ---- The workloads ----

enum Op { kRead, kUpdate, kInsert, kScan, kReadModifyWrite, kOpCount };
const char* const kOpNames[kOpCount] = {"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"};

struct WorkloadSpec {
  char name;
  double proportion[kOpCount];
  bool latest;  // the `latest` request distribution, else scrambled zipfian
  const char* what;
};

const WorkloadSpec kWorkloads[] = {
    {'A', {0.5, 0.5, 0, 0, 0}, false, "50% read, 50% update"},
    {'B', {0.95, 0.05, 0, 0, 0}, false, "95% read, 5% update"},
    {'C', {1.0, 0, 0, 0, 0}, false, "100% read"},
    {'F', {0.5, 0, 0, 0, 0.5}, false, "50% read, 50% read-modify-write"},
    {'D', {0.95, 0, 0.05, 0, 0}, true, "95% read (latest), 5% insert"},
    {'E', {0, 0, 0.05, 0.95, 0}, false, "95% scan (1-100 rows), 5% insert"},
};

struct Request {
  Op op;
  int64_t keynum;
  int field;     // the field an update writes
  int scan_len;  // rows a scan asks for
};

// One side's stream of requests for one workload run. Both sides build theirs with the same seed,
// so they make the same requests. `inserted` is the table's record count, which inserts grow.
class RequestStream {
 public:
  RequestStream(const WorkloadSpec& spec, int64_t inserted, int64_t operations, uint64_t seed)
      : rng_(seed), next_insert_(inserted) {
    double total = 0;
    for (double p : spec.proportion) total += p;
    for (int op = 0; op < kOpCount; ++op) weight_[op] = spec.proportion[op] / total;
    if (spec.latest) {
      latest_ = std::make_unique<Zipfian>(inserted - 1, kZipfianConstant);
    } else {
      // YCSB sizes the key space for the inserts to come (twice the expected count), so that the
      // popular keys do not move as the table grows; a key not inserted yet is drawn again.
      const auto expected_new =
          static_cast<int64_t>(static_cast<double>(operations) * spec.proportion[kInsert] * 2.0);
      zipf_ = std::make_unique<ScrambledZipfian>(inserted + expected_new + 1);
    }
  }

  Request Next() {
    Request r{ChooseOp(), 0, 0, 0};
    if (r.op == kInsert) {
      r.keynum = next_insert_++;
    } else {
      r.keynum = ChooseKey();
    }
    if (r.op == kScan) r.scan_len = 1 + static_cast<int>(NextDouble(rng_) * kMaxScanLength);
    if (r.op == kUpdate || r.op == kReadModifyWrite) {
      r.field = static_cast<int>(NextDouble(rng_) * kFieldCount);
    }
    return r;
  }

  std::mt19937_64& rng() { return rng_; }
  int64_t inserted() const { return next_insert_; }

 private:
  Op ChooseOp() {
    double u = NextDouble(rng_);
    for (int op = 0; op < kOpCount; ++op) {
      if (weight_[op] > 0 && u < weight_[op]) return static_cast<Op>(op);
      u -= weight_[op];
    }
    return kRead;  // rounding: the proportions summed to a hair under 1
  }

  int64_t ChooseKey() {
    const int64_t last = next_insert_ - 1;  // one client: every insert is acknowledged at once
    if (latest_) return last - latest_->Next(rng_, last);
    int64_t k;
    do {
      k = zipf_->Next(rng_);
    } while (k > last);
    return k;
  }

  std::mt19937_64 rng_;
  double weight_[kOpCount];
  int64_t next_insert_;
  std::unique_ptr<ScrambledZipfian> zipf_;
  std::unique_ptr<Zipfian> latest_;
};

// YCSB's RandomByteIterator writes printable ASCII; so does this, from `rng`.
void FillValue(std::mt19937_64& rng, std::string* value) {
  value->resize(kFieldLength);
  for (size_t i = 0; i < kFieldLength; i += 8) {
    uint64_t bits = rng();
    for (size_t j = i; j < std::min(kFieldLength, i + 8); ++j, bits >>= 8) {
      (*value)[j] = static_cast<char>(' ' + (bits & 0xff) % 95);
    }
  }
}

const std::array<std::string, kFieldCount> kFieldNames = [] {
  std::array<std::string, kFieldCount> names;
  for (int i = 0; i < kFieldCount; ++i) names[i] = "field" + std::to_string(i);
  return names;
}();

// ---- The two stores, behind one interface ----

using Fields = std::array<std::string, kFieldCount>;

class Store {
 public:
  virtual ~Store() = default;
  virtual void Insert(const std::string& key, const Fields& fields) = 0;
  // Dies when the record is missing: every key read was inserted.
  virtual void Read(const std::string& key) = 0;
  virtual void Update(const std::string& key, int field, const std::string& value) = 0;
  virtual void ReadModifyWrite(const std::string& key, int field, const std::string& value) = 0;
  // Returns the rows found (fewer than `len` at the end of the table).
  virtual int Scan(const std::string& start, int len) = 0;
  // Drops every record and starts afresh (before E's load).
  virtual void Reset() = 0;
  // Flushes and waits for compactions; false when the store cannot be asked.
  virtual bool Settle() = 0;
};

void WaitUntil(const std::function<bool()>& done) {
  while (!done()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

class BasaltStore : public Store {
 public:
  explicit BasaltStore(const std::string& target) {
    auto conn = basalt::Connection::Open(target);
    Check(conn.status(), "opening basalt");
    conn_ = std::move(*conn);
    remote_ = target.starts_with("thrift://");
    CreateTable();
  }
  ~BasaltStore() override {
    table_.reset();
    Check(conn_->Close(), "closing basalt");
  }

  void Insert(const std::string& key, const Fields& fields) override {
    basalt::Put put(key);
    for (int i = 0; i < kFieldCount; ++i) put.Add(kFamily, kFieldNames[i], fields[i]);
    Check(table_->Put(put), "basalt insert");
  }

  void Read(const std::string& key) override { ReadInto(key); }

  void Update(const std::string& key, int field, const std::string& value) override {
    // A blind write of one cell: the other nine stay as they are.
    Check(table_->Put(basalt::Put(key).Add(kFamily, kFieldNames[field], value)), "basalt update");
  }

  void ReadModifyWrite(const std::string& key, int field, const std::string& value) override {
    ReadInto(key);
    Update(key, field, value);
  }

  int Scan(const std::string& start, int len) override {
    basalt::Scan scan;
    scan.WithStartRow(start).AddFamily(kFamily).SetLimit(len).SetCaching(len);
    auto scanner = table_->GetScanner(scan);
    Check(scanner.status(), "basalt scan");
    int rows = 0;
    while ((*scanner)->Next(&row_)) ++rows;
    Check((*scanner)->status(), "basalt scan");
    return rows;
  }

  void Reset() override {
    basalt::Admin& admin = conn_->admin();
    Check(admin.DisableTable(table_->name()), "disabling the table");
    Check(admin.DeleteTable(table_->name()), "deleting the table");
    CreateTable();
  }

  bool Settle() override {
    if (remote_) return false;
    basalt::Admin& admin = conn_->admin();
    Check(admin.Flush(table_->name()), "basalt flush");
    WaitUntil([&] {
      auto stats = admin.GetStoreStats();
      Check(stats.status(), "basalt stats");
      uint64_t pending = 0;
      for (const auto& f : stats->families) pending += f.pending_compaction_bytes;
      return stats->running_flushes == 0 && stats->running_compactions == 0 && pending == 0;
    });
    return true;
  }

 private:
  void CreateTable() {
    basalt::Admin& admin = conn_->admin();
    const basalt::TableName name("default", kTable);
    auto exists = admin.TableExists(name);
    Check(exists.status(), "looking for the table");
    if (*exists) {
      Check(admin.DisableTable(name), "disabling the old table");
      Check(admin.DeleteTable(name), "deleting the old table");
    }
    basalt::TableDescriptor desc(name);
    desc.AddFamily(basalt::FamilyDescriptor(kFamily));
    Check(admin.CreateTable(desc), "creating the table");
    auto table = conn_->GetTable(kTable);
    Check(table.status(), "opening the table");
    table_ = std::move(*table);
  }

  // Reads the whole record into one RowResult reused call after call (Table::GetInto).
  void ReadInto(const std::string& key) {
    basalt::Get get(key);
    get.AddFamily(kFamily);
    Check(table_->GetInto(get, &row_), "basalt read");
    if (row_.cells().size() != kFieldCount) Die("basalt read missed " + key);
  }

  std::unique_ptr<basalt::Connection> conn_;
  std::unique_ptr<basalt::Table> table_;
  basalt::RowResult row_;
  bool remote_ = false;
};

// What both raw layouts share: the database, its options, starting afresh and settling.
class RawBase : public Store {
 public:
  explicit RawBase(std::string path) : path_(std::move(path)) { db_ = Open(); }

  void Reset() override {
    db_.reset();
    db_ = Open();
  }

  bool Settle() override {
    basalt::bench::QuiesceRocksDb(*db_);
    return true;
  }

 protected:
  std::unique_ptr<rocksdb::DB> db_;
  rocksdb::WriteOptions write_options_;  // WAL on, no fsync: RocksDB's default
  rocksdb::ReadOptions read_options_;

 private:
  std::unique_ptr<rocksdb::DB> Open() { return basalt::bench::OpenRawRocksDb(path_); }

  std::string path_;
};

// The record layout of YCSB's RocksDB binding: every field in one value under the key.
class RawStore : public RawBase {
 public:
  using RawBase::RawBase;

  void Insert(const std::string& key, const Fields& fields) override {
    record_.clear();
    for (int i = 0; i < kFieldCount; ++i) AppendField(kFieldNames[i], fields[i], &record_);
    Check(db_->Put(write_options_, key, record_), "raw insert");
  }

  void Read(const std::string& key) override {
    Check(db_->Get(read_options_, key, &value_), "raw read");
    Parse(value_, &parsed_);
    if (parsed_.size() != kFieldCount) Die("raw read missed " + key);
  }

  void Update(const std::string& key, int field, const std::string& value) override {
    Read(key);
    Rewrite(key, field, value);
  }

  void ReadModifyWrite(const std::string& key, int field, const std::string& value) override {
    // One read serves both halves (YCSB's binding would read twice: read(), then update()).
    Update(key, field, value);
  }

  int Scan(const std::string& start, int len) override {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options_));
    int rows = 0;
    for (it->Seek(start); it->Valid() && rows < len; it->Next(), ++rows) {
      // Copied out, as basalt's scanner hands each row to the caller.
      scanned_[static_cast<size_t>(rows)].assign(it->value().data(), it->value().size());
      Parse(scanned_[static_cast<size_t>(rows)], &parsed_);
      if (parsed_.size() != kFieldCount) Die("raw scan found a short record");
    }
    Check(it->status(), "raw scan");
    return rows;
  }

 private:
  static void AppendLength(size_t n, std::string* out) {
    const auto v = static_cast<uint32_t>(n);
    const char be[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                        static_cast<char>(v >> 8), static_cast<char>(v)};
    out->append(be, 4);
  }
  static void AppendField(std::string_view name, std::string_view value, std::string* out) {
    AppendLength(name.size(), out);
    out->append(name);
    AppendLength(value.size(), out);
    out->append(value);
  }
  static bool TakeLength(std::string_view* in, size_t* n) {
    if (in->size() < 4) return false;
    const auto* p = reinterpret_cast<const unsigned char*>(in->data());
    *n = (size_t{p[0]} << 24) | (size_t{p[1]} << 16) | (size_t{p[2]} << 8) | size_t{p[3]};
    in->remove_prefix(4);
    return *n <= in->size();
  }
  // The record's (name, value) pairs, as views into `record`; stops at a malformed field.
  static void Parse(std::string_view record,
                    std::vector<std::pair<std::string_view, std::string_view>>* out) {
    out->clear();
    size_t n = 0;
    while (!record.empty()) {
      if (!TakeLength(&record, &n)) return;
      const std::string_view name = record.substr(0, n);
      record.remove_prefix(n);
      if (!TakeLength(&record, &n)) return;
      out->emplace_back(name, record.substr(0, n));
      record.remove_prefix(n);
    }
  }

  // Writes back the record last read (parsed_ views value_) with `field` set to `value`.
  void Rewrite(const std::string& key, int field, const std::string& value) {
    record_.clear();
    for (const auto& [name, old] : parsed_) {
      AppendField(name, name == kFieldNames[field] ? std::string_view(value) : old, &record_);
    }
    Check(db_->Put(write_options_, key, record_), "raw update");
  }

  std::string value_, record_;
  std::array<std::string, kMaxScanLength> scanned_;
  std::vector<std::pair<std::string_view, std::string_view>> parsed_;
};

// --raw-layout cells: basalt's logical layout without basalt, one RocksDB entry per field under
// key + '\0' + field name (YCSB's keys hold no 0 byte, so a record's fields sort together and
// before any longer key). An update is then a blind write of one entry, as it is on basalt, and a
// read or a scan visits ten entries per record. It separates what basalt's layers cost from what
// the cell-per-field layout costs.
class RawCellsStore : public RawBase {
 public:
  using RawBase::RawBase;

  void Insert(const std::string& key, const Fields& fields) override {
    rocksdb::WriteBatch batch;
    for (int i = 0; i < kFieldCount; ++i) batch.Put(CellKey(key, i), fields[i]);
    Check(db_->Write(write_options_, &batch), "raw insert");
  }

  void Read(const std::string& key) override {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options_));
    const std::string prefix = key + '\0';
    int cells = 0;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next(), ++cells) {
      values_[static_cast<size_t>(cells) % kFieldCount].assign(it->value().data(),
                                                               it->value().size());
    }
    Check(it->status(), "raw read");
    if (cells != kFieldCount) Die("raw read missed " + key);
  }

  void Update(const std::string& key, int field, const std::string& value) override {
    Check(db_->Put(write_options_, CellKey(key, field), value), "raw update");
  }

  void ReadModifyWrite(const std::string& key, int field, const std::string& value) override {
    Read(key);
    Update(key, field, value);
  }

  int Scan(const std::string& start, int len) override {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options_));
    int rows = 0, cells = 0;
    std::string row;  // the record of the entries being read
    for (it->Seek(start); it->Valid(); it->Next(), ++cells) {
      const std::string_view k(it->key().data(), it->key().size());
      const std::string_view record = k.substr(0, k.find('\0'));
      if (record != row) {
        if (rows == len) break;
        row.assign(record);
        ++rows;
      }
      // Copied out, as basalt's scanner hands each cell to the caller.
      values_[static_cast<size_t>(cells) % kFieldCount].assign(it->value().data(),
                                                               it->value().size());
    }
    Check(it->status(), "raw scan");
    return rows;
  }

 private:
  static std::string CellKey(const std::string& key, int field) {
    std::string k = key;
    k += '\0';
    k += kFieldNames[field];
    return k;
  }

  std::array<std::string, kFieldCount> values_;
};

// ---- Running and measuring ----

struct Config {
  int64_t records = 500000;
  int64_t operations = 100000;
  std::string workloads = "ABCDEF";
  std::string url;  // basalt's target; empty: embedded under dir
  std::string dir = "/tmp/basalt-ycsb-bench";
  int slice_ops = 1000;
  double settle_seconds = 15;
  std::string label = "embedded";
  std::string side;        // for profiling: run only "basalt" or "raw"
  bool raw_cells = false;  // --raw-layout cells
};

// One side's measurements of one phase (a load or a workload run).
struct SideStats {
  int64_t ops = 0;
  double seconds = 0;
  std::vector<double> latency_us[kOpCount];
  int64_t scanned_rows = 0;
};

struct Side {
  const char* name;
  Store* store;
  SideStats stats;
};

// Runs one request on `store`, timing the call; the values it writes come from `rng`, outside
// the timed part (YCSB too builds them before calling the binding).
void Execute(const Request& r, std::mt19937_64& rng, Store* store, SideStats* stats) {
  static Fields fields;  // one client thread
  static std::string value;
  const std::string key = KeyName(r.keynum);
  if (r.op == kInsert) {
    for (auto& f : fields) FillValue(rng, &f);
  } else if (r.op == kUpdate || r.op == kReadModifyWrite) {
    FillValue(rng, &value);
  }
  const auto start = Clock::now();
  switch (r.op) {
    case kRead:
      store->Read(key);
      break;
    case kUpdate:
      store->Update(key, r.field, value);
      break;
    case kInsert:
      store->Insert(key, fields);
      break;
    case kScan:
      stats->scanned_rows += store->Scan(key, r.scan_len);
      break;
    case kReadModifyWrite:
      store->ReadModifyWrite(key, r.field, value);
      break;
    case kOpCount:
      break;
  }
  stats->latency_us[r.op].push_back(
      std::chrono::duration<double, std::micro>(Clock::now() - start).count());
}

// Calls one(side) `total` times for each side, in turns of --slice-ops calls, the side going
// first alternating; adds each side's operations and the time of its turns.
void Alternate(const Config& cfg, int64_t total, std::vector<Side>* sides,
               const std::function<void(size_t side)>& one) {
  std::vector<int64_t> done(sides->size(), 0);
  for (int64_t turn = 0; done[0] < total; ++turn) {
    for (size_t k = 0; k < sides->size(); ++k) {
      const size_t s = (k + static_cast<size_t>(turn)) % sides->size();
      const int64_t n = std::min<int64_t>(cfg.slice_ops, total - done[s]);
      const auto start = Clock::now();
      for (int64_t i = 0; i < n; ++i) one(s);
      (*sides)[s].stats.seconds += std::chrono::duration<double>(Clock::now() - start).count();
      (*sides)[s].stats.ops += n;
      done[s] += n;
    }
  }
}

struct PhaseResult {
  std::string phase;  // "load" or "A".."F"
  std::vector<SideStats> sides;
};

void Settle(const Config& cfg, std::vector<Side>* sides) {
  bool waited_all = true;
  for (Side& s : *sides) waited_all = s.store->Settle() && waited_all;
  if (!waited_all) {
    std::printf("  (basalt is remote: waiting %.0f s for its compactions)\n", cfg.settle_seconds);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::duration<double>(cfg.settle_seconds));
  }
}

PhaseResult Load(const Config& cfg, std::vector<Side>* sides, uint64_t seed) {
  std::vector<std::mt19937_64> rngs(sides->size(), std::mt19937_64(seed));
  std::vector<int64_t> next(sides->size(), 0);
  for (Side& s : *sides) s.stats = SideStats{};
  Alternate(cfg, cfg.records, sides, [&](size_t s) {
    Execute(Request{kInsert, next[s]++, 0, 0}, rngs[s], (*sides)[s].store, &(*sides)[s].stats);
  });
  PhaseResult r{"load", {}};
  for (Side& s : *sides) r.sides.push_back(std::move(s.stats));
  Settle(cfg, sides);
  return r;
}

PhaseResult Run(const Config& cfg, const WorkloadSpec& spec, int64_t* inserted,
                std::vector<Side>* sides, uint64_t seed) {
  std::vector<RequestStream> streams;
  for (size_t s = 0; s < sides->size(); ++s) {
    streams.emplace_back(spec, *inserted, cfg.operations, seed);
    (*sides)[s].stats = SideStats{};
  }
  Alternate(cfg, cfg.operations, sides, [&](size_t s) {
    Execute(streams[s].Next(), streams[s].rng(), (*sides)[s].store, &(*sides)[s].stats);
  });
  *inserted = streams[0].inserted();
  PhaseResult r{std::string(1, spec.name), {}};
  for (Side& s : *sides) r.sides.push_back(std::move(s.stats));
  if (r.sides.size() == 2 && r.sides[0].scanned_rows != r.sides[1].scanned_rows) {
    Die("the sides' scans returned different row counts");
  }
  return r;
}

// ---- Reporting ----

struct Row {
  std::string phase, op;
  int64_t count = 0;
  double rate[2] = {0, 0};
  double p50[2] = {0, 0}, p99[2] = {0, 0}, p999[2] = {0, 0};
};

std::vector<Row> Rows(const PhaseResult& r) {
  std::vector<Row> rows;
  Row all{r.phase, "all", r.sides[0].ops, {}, {}, {}, {}};
  for (size_t s = 0; s < r.sides.size(); ++s) {
    all.rate[s] = static_cast<double>(r.sides[s].ops) / r.sides[s].seconds;
  }
  for (int op = 0; op < kOpCount; ++op) {
    if (r.sides[0].latency_us[op].empty()) continue;
    Row row{r.phase, kOpNames[op], static_cast<int64_t>(r.sides[0].latency_us[op].size()),
            {},      {},           {},
            {}};
    for (size_t s = 0; s < r.sides.size(); ++s) {
      const std::vector<double>& v = r.sides[s].latency_us[op];
      double sum = 0;
      for (double x : v) sum += x;
      row.rate[s] = static_cast<double>(v.size()) / (sum / 1e6);
      row.p50[s] = basalt::bench::Percentile(v, 0.5);
      row.p99[s] = basalt::bench::Percentile(v, 0.99);
      row.p999[s] = basalt::bench::Percentile(v, 0.999);
    }
    rows.push_back(row);
  }
  // A one-operation phase needs no separate line for the operation's rate.
  if (rows.size() == 1) {
    rows[0].op = "all: " + rows[0].op;
    rows[0].rate[0] = all.rate[0];
    rows[0].rate[1] = all.rate[1];
  } else {
    // The "all" line carries the phase's throughput; its latencies are the operations' own.
    rows.insert(rows.begin(), all);
  }
  return rows;
}

std::string Format(const char* fmt, double a, double b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

void Print(const Config& cfg, const std::vector<Row>& rows) {
  const bool both = cfg.side.empty();
  for (const Row& r : rows) {
    std::string line = "  " + r.phase + " " + r.op;
    line.resize(std::max<size_t>(line.size(), 26), ' ');
    char buf[256];
    if (both) {
      std::snprintf(buf, sizeof buf, "%8lld ops  basalt %9.0f/s  raw %9.0f/s  %.2fx",
                    static_cast<long long>(r.count), r.rate[0], r.rate[1], r.rate[0] / r.rate[1]);
    } else {
      std::snprintf(buf, sizeof buf, "%8lld ops  %s %9.0f/s", static_cast<long long>(r.count),
                    cfg.side.c_str(), r.rate[0]);
    }
    line += buf;
    if (r.op != "all" && both) {
      std::snprintf(buf, sizeof buf, "  p50 %.1f/%.1f  p99 %.1f/%.1f  p99.9 %.1f/%.1f us", r.p50[0],
                    r.p50[1], r.p99[0], r.p99[1], r.p999[0], r.p999[1]);
      line += buf;
    } else if (r.op != "all") {
      std::snprintf(buf, sizeof buf, "  p50 %.1f  p99 %.1f  p99.9 %.1f us", r.p50[0], r.p99[0],
                    r.p999[0]);
      line += buf;
    }
    std::printf("%s\n", line.c_str());
  }
  std::fflush(stdout);
}

basalt::bench::Table RowTable(const std::vector<Row>& rows) {
  basalt::bench::Table table;
  table.columns = {"workload",
                   "operation",
                   "ops",
                   "basalt ops/s",
                   "raw ops/s",
                   "basalt / raw",
                   "p50 us basalt / raw",
                   "p99 us basalt / raw",
                   "p99.9 us basalt / raw"};
  table.right_aligned = {false, false, true, true, true, true, true, true, true};
  using basalt::bench::Fixed;
  for (const Row& r : rows) {
    std::vector<std::string> cells = {r.phase,
                                      r.op,
                                      std::to_string(r.count),
                                      Fixed(r.rate[0], 0),
                                      Fixed(r.rate[1], 0),
                                      Fixed(r.rate[0] / r.rate[1], 2)};
    if (r.op == "all") {
      cells.insert(cells.end(), {"", "", ""});
    } else {
      cells.push_back(Format("%.1f / %.1f", r.p50[0], r.p50[1]));
      cells.push_back(Format("%.1f / %.1f", r.p99[0], r.p99[1]));
      cells.push_back(Format("%.1f / %.1f", r.p999[0], r.p999[1]));
    }
    table.AddRow(std::move(cells));
  }
  return table;
}

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* cfg, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--records", cfg->records, "records loaded (at least 1000)")
      ->capture_default_str();
  harness->AddOps(&cfg->operations, 100000);
  app.add_option("--operations", cfg->operations, "operations per workload (as --ops)");
  app.add_option("--workloads", cfg->workloads, "the workloads, letters of ABCDEF")
      ->capture_default_str();
  app.add_option("--url", cfg->url, "basalt's target (thrift://HOST:PORT); default embedded");
  app.add_option("--dir", cfg->dir, "where the stores go")->capture_default_str();
  app.add_option("--slice-ops", cfg->slice_ops, "operations per turn")->capture_default_str();
  app.add_option("--settle-seconds", cfg->settle_seconds,
                 "wait after a load over thrift:// (no flush there)")
      ->capture_default_str();
  app.add_option("--label", cfg->label, "names the pass in the output")->capture_default_str();
  std::string layout = "record";
  app.add_option("--raw-layout", layout, "the raw side's layout")
      ->check(CLI::IsMember({"record", "cells"}))
      ->capture_default_str();
  app.add_option("--profile-side", cfg->side, "run only one side, for a profiler")
      ->check(CLI::IsMember({"basalt", "raw"}));
  if (int rc = harness->Parse(argc, argv); rc >= 0) return rc;
  cfg->records = std::max<int64_t>(1000, cfg->records);
  cfg->operations = std::max<int64_t>(1, cfg->operations);
  cfg->slice_ops = std::max(1, cfg->slice_ops);
  cfg->settle_seconds = std::max(0.0, cfg->settle_seconds);
  cfg->raw_cells = layout == "cells";
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Config parsed;
  basalt::bench::Harness harness("basalt_ycsb_bench",
                                 "YCSB's core workloads, basalt against raw RocksDB");
  if (int rc = ParseArgs(argc, argv, &parsed, &harness); rc >= 0) return rc;
  const Config& cfg = parsed;
  std::filesystem::remove_all(cfg.dir);
  std::filesystem::create_directories(cfg.dir);
  std::unique_ptr<Store> basalt_store, raw_store;
  std::vector<Side> sides;
  if (cfg.side != "raw") {
    basalt_store = std::make_unique<BasaltStore>(cfg.url.empty() ? cfg.dir + "/basalt" : cfg.url);
    sides.push_back(Side{"basalt", basalt_store.get(), {}});
  }
  if (cfg.side != "basalt") {
    if (cfg.raw_cells) {
      raw_store = std::make_unique<RawCellsStore>(cfg.dir + "/raw");
    } else {
      raw_store = std::make_unique<RawStore>(cfg.dir + "/raw");
    }
    sides.push_back(Side{"raw", raw_store.get(), {}});
  }
  std::printf(
      "YCSB (%s, raw layout: %s): %lld records of %d x %zu-byte fields, %lld operations per "
      "workload, slices of %d\n",
      cfg.label.c_str(), cfg.raw_cells ? "cells" : "record", static_cast<long long>(cfg.records),
      kFieldCount, kFieldLength, static_cast<long long>(cfg.operations), cfg.slice_ops);
  std::vector<Row> rows;
  auto report = [&](const PhaseResult& r) {
    std::vector<Row> more = Rows(r);
    Print(cfg, more);
    rows.insert(rows.end(), more.begin(), more.end());
  };
  int64_t inserted = 0;
  bool loaded = false;
  uint64_t seed = 1;
  for (const WorkloadSpec& spec : kWorkloads) {
    if (cfg.workloads.find(spec.name) == std::string::npos) continue;
    // E runs on a fresh load; the others share one, grown by D's inserts (D runs last of them).
    if (!loaded || spec.name == 'E') {
      if (loaded) {
        for (Side& s : sides) s.store->Reset();
      }
      report(Load(cfg, &sides, seed++));
      inserted = cfg.records;
      loaded = true;
    }
    std::printf(" %c: %s\n", spec.name, spec.what);
    std::fflush(stdout);  // a profiler waits for this line to attach
    report(Run(cfg, spec, &inserted, &sides, seed++));
  }
  harness.Keep(RowTable(rows));  // stdout has had the rows as they came
  sides.clear();
  basalt_store.reset();
  raw_store.reset();
  std::filesystem::remove_all(cfg.dir);
  return harness.Finish();
}
