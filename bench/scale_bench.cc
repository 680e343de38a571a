// The scale curve: the same point-read, short-scan and write mix at data sizes from
// within the block cache to many times it, basalt against raw RocksDB in the same run.
//
// Both sides get the same small block cache (--cache-mib, default 32 MiB) and 64 MiB write
// buffers (basalt's ConnectionOptions; raw_rocksdb.h's options), so that a few million cells
// are already many times the cache. For each --cells size, each side, in a child process of its
// own (so that its RSS is its own):
//
//   load   the cells, bulk loaded into a fresh store: rows "row%012d" in order, one cell f:q of
//          --value-bytes pseudo-random bytes. basalt: Admin::NewBulkLoader; raw RocksDB:
//          rocksdb::SstFileWriter files of the same key/value pairs, then IngestExternalFile.
//   mix    single thread, for --warmup seconds untimed, then --seconds timed, of
//            90% point reads of a uniformly random existing row (basalt GetInto; raw Get),
//             5% short scans of 10 rows from a uniformly random row (basalt Scan with
//                SetLimit(10); raw Iterator Seek + 10 Next),
//             5% writes of one cell to a uniformly random existing row (basalt Put, default
//                durability SYNC_WAL; raw Put, default WriteOptions: both to the OS, no fsync)
//          the same seeded sequence of operations on both sides; every read must find its row.
//   report ops/s, the p50 and p99 latency of all operations, the size of the store's table
//          files (.sst) after the load, and the process RSS (VmRSS at the end of the mix, VmHWM:
//          its peak over the whole child, load included), from /proc/self/status.
//
// The page cache is not limited, and after the load each side's table files are read once
// (untimed) so that they are in it: both loads write through SstFileWriter, which drops what it
// wrote from the page cache. So a block cache miss is a read from the page cache, not the disk,
// while the store fits in the machine's free memory, and the curve measures the block cache and
// the LSM's structure, not the disk. --cold-page-cache skips the reading: the mix then starts
// with the files on disk only, and at gigabytes it measures the page cache warming from disk.
//
// Usage: basalt_scale_bench [--cells N,N,...] [--value-bytes B] [--cache-mib M] [--seconds S]
//                           [--warmup S] [--cold-page-cache] [--dir DIR] [--markdown FILE]
//                           [--json FILE]

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "basalt/basalt.h"
#include "harness.h"
#include "raw_rocksdb.h"
#include "workloads.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  std::vector<int64_t> cells = {100'000, 500'000, 1'250'000, 2'500'000, 5'000'000};
  size_t value_bytes = 100;
  size_t cache_mib = 32;
  double seconds = 15;
  double warmup = 3;
  std::string dir = "/tmp/basalt-scale-bench";
  bool warm_page_cache = true;
};

[[noreturn]] void Die(const std::string& msg) {
  std::fprintf(stderr, "scale_bench: %s\n", msg.c_str());
  std::exit(1);
}

void Check(const basalt::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

void CheckRocks(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

template <class T>
T Check(basalt::Result<T> r, const char* what) {
  if (!r.ok()) Die(std::string(what) + ": " + r.status().ToString());
  return std::move(r).value();
}

// What one side's child reports through its pipe.
struct SideResult {
  double load_seconds = 0;
  double disk_mib = 0;
  double ops_per_second = 0;
  double p50_us = 0;
  double p99_us = 0;
  double rss_mib = 0;
  double hwm_mib = 0;
  int64_t ops = 0;
  double mean_us[3] = {0, 0, 0};  // per kind of operation: get, scan, put
};

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The table files (.sst) under `path`, MiB: the data, without the preallocated WAL.
double TableFilesMib(const std::string& path) {
  uint64_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(path)) {
    if (e.is_regular_file() && e.path().extension() == ".sst") bytes += e.file_size();
  }
  return static_cast<double>(bytes) / (1 << 20);
}

// Reads every table file under `path` once, so that the mix finds them in the operating
// system's page cache: both loads write their files through SstFileWriter, which drops them
// from the page cache, and a store of gigabytes would otherwise be warming from disk all
// through the timed mix.
void WarmPageCache(const std::string& path) {
  std::vector<char> buf(1 << 20);
  for (const auto& e : std::filesystem::recursive_directory_iterator(path)) {
    if (!e.is_regular_file() || e.path().extension() != ".sst") continue;
    std::ifstream in(e.path(), std::ios::binary);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0) {
    }
  }
}

// VmRSS or VmHWM of this process, MiB.
double StatusMib(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') {
      return std::stod(line.substr(n + 1)) / 1024.0;  // kB
    }
  }
  return 0;
}

// The operations of the mix, applied to one side.
class Side {
 public:
  virtual ~Side() = default;
  virtual void Read(const std::string& row) = 0;
  virtual void ScanTen(const std::string& row) = 0;
  virtual void Write(const std::string& row, const std::string& value) = 0;
};

class BasaltSide : public Side {
 public:
  explicit BasaltSide(basalt::Table* table) : table_(table) {}
  void Read(const std::string& row) override {
    Check(table_->GetInto(basalt::Get(row), &result_), "GetInto");
    if (result_.size() != 1) Die("basalt: row " + row + " not found");
  }
  void ScanTen(const std::string& row) override {
    auto scanner =
        Check(table_->GetScanner(basalt::Scan().WithStartRow(row).SetLimit(10)), "GetScanner");
    int n = 0;
    while (scanner->Next(&result_)) ++n;
    Check(scanner->status(), "scan");
    if (n == 0) Die("basalt: scan from " + row + " found nothing");
  }
  void Write(const std::string& row, const std::string& value) override {
    Check(table_->Put(basalt::Put(row).Add("f", "q", value)), "Put");
  }

 private:
  basalt::Table* table_;
  basalt::RowResult result_;
};

class RawSide : public Side {
 public:
  explicit RawSide(rocksdb::DB* db) : db_(db) {}
  void Read(const std::string& row) override {
    value_.Reset();
    CheckRocks(db_->Get(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), row, &value_), "Get");
  }
  void ScanTen(const std::string& row) override {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    int n = 0;
    for (it->Seek(row); it->Valid() && n < 10; it->Next()) {
      sink_ += it->value().size();
      ++n;
    }
    CheckRocks(it->status(), "iterator");
    if (n == 0) Die("raw: scan from " + row + " found nothing");
  }
  void Write(const std::string& row, const std::string& value) override {
    CheckRocks(db_->Put(rocksdb::WriteOptions(), row, value), "Put");
  }

 private:
  rocksdb::DB* db_;
  rocksdb::PinnableSlice value_;
  size_t sink_ = 0;
};

// Runs the mix on `side`: --warmup seconds untimed, then --seconds timed.
void RunMix(const Config& c, int64_t cells, Side& side, SideResult* out) {
  basalt::bench::CellSource src(c.value_bytes);
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> pick(0, cells - 1);
  std::uniform_int_distribution<int> kind(0, 99);
  uint64_t writes = 0;
  auto one = [&]() {  // returns the kind of operation: 0 get, 1 scan, 2 put
    const int k = kind(rng);
    const int64_t i = pick(rng);
    if (k < 90) {
      side.Read(src.Row(i));
      return 0;
    }
    if (k < 95) {
      side.ScanTen(src.Row(i));
      return 1;
    }
    const std::string row = src.Row(i);
    side.Write(row, src.Value(i, ++writes));
    return 2;
  };
  const auto warm_start = Clock::now();
  while (SecondsSince(warm_start) < c.warmup) {
    for (int k = 0; k < 64; ++k) one();
  }
  // Latencies in a histogram of 0.1 us buckets up to 10 ms (and the rare slower ones kept
  // apart): a fixed 800 KB, so that the RSS measured is the store's, not the samples'.
  constexpr size_t kBuckets = 100'000;
  std::vector<int64_t> buckets(kBuckets, 0);
  std::vector<double> slow_us;
  int64_t ops = 0;
  double kind_us[3] = {0, 0, 0};
  int64_t kind_ops[3] = {0, 0, 0};
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < c.seconds) {
    const auto t0 = Clock::now();
    const int k = one();
    const auto t1 = Clock::now();
    const double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    kind_us[k] += us;
    ++kind_ops[k];
    const auto bucket = static_cast<size_t>(us * 10);
    if (bucket < kBuckets) {
      ++buckets[bucket];
    } else {
      slow_us.push_back(us);
    }
    ++ops;
    elapsed = std::chrono::duration<double>(t1 - start).count();
  }
  std::sort(slow_us.begin(), slow_us.end());
  auto quantile = [&](double p) {
    const auto rank = static_cast<int64_t>(p * static_cast<double>(ops));
    int64_t seen = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      seen += buckets[b];
      if (seen > rank) return (static_cast<double>(b) + 0.5) / 10;
    }
    const auto i = static_cast<size_t>(rank - seen);
    return slow_us[std::min(i, slow_us.size() - 1)];
  };
  out->ops = ops;
  out->ops_per_second = static_cast<double>(ops) / elapsed;
  out->p50_us = quantile(0.50);
  out->p99_us = quantile(0.99);
  for (int k = 0; k < 3; ++k) {
    out->mean_us[k] = kind_ops[k] == 0 ? 0 : kind_us[k] / static_cast<double>(kind_ops[k]);
  }
}

SideResult RunBasalt(const Config& c, int64_t cells) {
  SideResult r;
  const std::string path = c.dir + "/basalt";
  std::filesystem::remove_all(path);
  basalt::ConnectionOptions options;
  options.block_cache_bytes = c.cache_mib << 20;
  options.write_buffer_bytes = size_t{64} << 20;
  auto conn = Check(basalt::Connection::Open(path, options), "opening the store");
  basalt::TableDescriptor desc(basalt::TableName("default", "t"));
  desc.AddFamily(basalt::FamilyDescriptor("f"));
  Check(conn->admin().CreateTable(desc), "creating the table");
  {
    basalt::bench::CellSource src(c.value_bytes);
    const auto start = Clock::now();
    auto loader =
        Check(conn->admin().NewBulkLoader(basalt::TableName("default", "t")), "NewBulkLoader");
    for (int64_t i = 0; i < cells; ++i) {
      Check(loader->Add(src.Row(i), "f", "q", src.Value(i)), "BulkLoader::Add");
    }
    Check(loader->Finish().status(), "BulkLoader::Finish");
    r.load_seconds = SecondsSince(start);
  }
  r.disk_mib = TableFilesMib(path);
  if (c.warm_page_cache) WarmPageCache(path);
  auto table = Check(conn->GetTable("t"), "GetTable");
  BasaltSide side(table.get());
  RunMix(c, cells, side, &r);
  r.rss_mib = StatusMib("VmRSS");
  r.hwm_mib = StatusMib("VmHWM");
  table.reset();
  Check(conn->Close(), "Close");
  return r;
}

SideResult RunRaw(const Config& c, int64_t cells) {
  SideResult r;
  const std::string path = c.dir + "/raw";
  auto db = basalt::bench::OpenRawRocksDb(path, c.cache_mib << 20);
  {
    basalt::bench::CellSource src(c.value_bytes);
    const auto start = Clock::now();
    const rocksdb::Options options = db->GetOptions();
    const std::string files_dir = c.dir + "/raw-sst";
    std::filesystem::remove_all(files_dir);
    std::filesystem::create_directories(files_dir);
    std::vector<std::string> files;
    std::unique_ptr<rocksdb::SstFileWriter> writer;
    constexpr uint64_t kTargetFileBytes = uint64_t{256} << 20;  // as BulkLoadOptions
    for (int64_t i = 0; i < cells; ++i) {
      if (writer == nullptr) {
        writer = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), options);
        files.push_back(files_dir + "/" + std::to_string(files.size()) + ".sst");
        CheckRocks(writer->Open(files.back()), "SstFileWriter::Open");
      }
      CheckRocks(writer->Put(src.Row(i), src.Value(i)), "SstFileWriter::Put");
      if (writer->FileSize() >= kTargetFileBytes) {
        CheckRocks(writer->Finish(), "SstFileWriter::Finish");
        writer.reset();
      }
    }
    if (writer != nullptr) CheckRocks(writer->Finish(), "SstFileWriter::Finish");
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = true;
    CheckRocks(db->IngestExternalFile(files, ingest), "IngestExternalFile");
    r.load_seconds = SecondsSince(start);
    std::filesystem::remove_all(files_dir);
  }
  r.disk_mib = TableFilesMib(path);
  if (c.warm_page_cache) WarmPageCache(path);
  {
    RawSide side(db.get());  // gone (its pinned value released) before the DB closes
    RunMix(c, cells, side, &r);
  }
  r.rss_mib = StatusMib("VmRSS");
  r.hwm_mib = StatusMib("VmHWM");
  CheckRocks(db->Close(), "Close");
  return r;
}

// Runs one side in a child process and returns what it reported.
SideResult InChild(const Config& c, int64_t cells, bool basalt_side) {
  int fds[2];
  if (pipe(fds) != 0) Die("pipe");
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    close(fds[0]);
    const SideResult r = basalt_side ? RunBasalt(c, cells) : RunRaw(c, cells);
    if (write(fds[1], &r, sizeof(r)) != static_cast<ssize_t>(sizeof(r))) _exit(1);
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  SideResult r;
  const ssize_t got = read(fds[0], &r, sizeof(r));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != static_cast<ssize_t>(sizeof(r)) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    Die(std::string(basalt_side ? "basalt" : "raw") + " side failed");
  }
  std::filesystem::remove_all(c.dir + (basalt_side ? "/basalt" : "/raw"));
  return r;
}

// Returns -1 to go on, or the exit code.
int ParseArgs(int argc, char** argv, Config* c, basalt::bench::Harness* harness) {
  CLI::App& app = harness->app();
  app.add_option("--cells", c->cells, "the sizes, a comma list")
      ->delimiter(',')
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--value-bytes", c->value_bytes, "bytes of each value")->capture_default_str();
  app.add_option("--cache-mib", c->cache_mib, "the block cache of each side")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  harness->AddSeconds(&c->seconds, 15);
  app.add_option("--warmup", c->warmup, "untimed seconds before each side's mix")
      ->capture_default_str();
  app.add_option("--dir", c->dir, "where the stores go")->capture_default_str();
  bool cold = false;
  app.add_flag("--cold-page-cache", cold, "do not read the table files before the mix");
  if (int rc = harness->Parse(argc, argv); rc >= 0) return rc;
  c->warm_page_cache = !cold;
  if (c->cells.empty()) Die("--cells needs at least one size");
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Config parsed;
  basalt::bench::Harness harness("basalt_scale_bench",
                                 "One mix at growing sizes, basalt against raw RocksDB");
  if (int rc = ParseArgs(argc, argv, &parsed, &harness); rc >= 0) return rc;
  const Config& c = parsed;
  std::filesystem::create_directories(c.dir);
  std::printf(
      "block cache %zu MiB, write buffers 64 MiB, cells of %zu bytes; mix 90%% get / 5%% scan of "
      "10 / 5%% put, 1 thread, %.0f s warm-up + %.0f s timed per side\n",
      c.cache_mib, c.value_bytes, c.warmup, c.seconds);
  basalt::bench::Table table;
  table.columns = {"cells",
                   "table files MiB basalt / raw",
                   "x cache (basalt)",
                   "ops/s basalt",
                   "ops/s raw",
                   "basalt / raw",
                   "p50 us basalt / raw",
                   "p99 us basalt / raw",
                   "RSS MiB basalt / raw",
                   "peak RSS MiB basalt / raw",
                   "mean us get / scan / put: basalt, raw"};
  table.right_aligned = std::vector<bool>(table.columns.size(), true);
  auto pair = [](double x, double y, int digits) {
    return basalt::bench::Fixed(x, digits) + " / " + basalt::bench::Fixed(y, digits);
  };
  for (int64_t cells : c.cells) {
    const SideResult b = InChild(c, cells, true);
    const SideResult r = InChild(c, cells, false);
    std::printf(
        "%lld cells: basalt load %.1f s, %.0f MiB, %.0f ops/s, p50 %.1f us, p99 %.1f us, RSS "
        "%.0f MiB (peak %.0f) | raw load %.1f s, %.0f MiB, %.0f ops/s, p50 %.1f us, p99 %.1f us, "
        "RSS %.0f MiB (peak %.0f)\n",
        static_cast<long long>(cells), b.load_seconds, b.disk_mib, b.ops_per_second, b.p50_us,
        b.p99_us, b.rss_mib, b.hwm_mib, r.load_seconds, r.disk_mib, r.ops_per_second, r.p50_us,
        r.p99_us, r.rss_mib, r.hwm_mib);
    std::fflush(stdout);
    table.AddRow(
        {std::to_string(cells), pair(b.disk_mib, r.disk_mib, 0),
         basalt::bench::Fixed(b.disk_mib / static_cast<double>(c.cache_mib), 1) + "x",
         basalt::bench::Fixed(b.ops_per_second, 0), basalt::bench::Fixed(r.ops_per_second, 0),
         basalt::bench::Fixed(b.ops_per_second / r.ops_per_second, 2), pair(b.p50_us, r.p50_us, 1),
         pair(b.p99_us, r.p99_us, 1), pair(b.rss_mib, r.rss_mib, 0), pair(b.hwm_mib, r.hwm_mib, 0),
         pair(b.mean_us[0], b.mean_us[1], 1) + " / " + basalt::bench::Fixed(b.mean_us[2], 1) +
             ", " + pair(r.mean_us[0], r.mean_us[1], 1) + " / " +
             basalt::bench::Fixed(r.mean_us[2], 1)});
  }
  std::printf("\n");
  harness.Emit(table);
  return harness.Finish();
}
