#include "hbdiff/op_generator.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>

namespace basalt::hbdiff {
namespace {

constexpr int64_t kNoMarker = std::numeric_limits<int64_t>::min();
constexpr int64_t kServerMarker = std::numeric_limits<int64_t>::max();
// An offset from the base time far beyond family c's TTL.
constexpr int64_t kAncient = -10'000'000'000;

const std::vector<std::string> kRows = {"r0", "r1", "r2", "r3", "r4", "r5"};
const std::vector<std::string> kFamilies = {"a", "b", "c"};
const std::vector<std::string> kQualifiers = {"q0", "q1", "q2", "q3"};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  std::string Next() {
    int dice = Pick(100);
    if (dice < 30) return PutLine();
    if (dice < 42) return DeleteLine(Row(), true);
    if (dice < 46) return IncrLine();
    if (dice < 50) return AppendLine();
    if (dice < 54) return MutateLine();
    if (dice < 58) return CamLine();
    if (dice < 78) return GetLine();
    return ScanLine();
  }

 private:
  struct RowState {
    int64_t floor = kNoMarker;  // the highest delete marker's timestamp (offset)
    std::set<int64_t> put_ts;   // explicit timestamps written
  };

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool Chance(int percent) { return Pick(100) < percent; }
  std::string OneOf(const std::vector<std::string>& v) {
    return v[Pick(static_cast<int>(v.size()))];
  }
  std::string Row() { return OneOf(kRows); }
  std::string Value() { return "v" + std::to_string(Pick(12)); }

  // An explicit timestamp a Put in `row` may use, or nullopt (the server's time).
  std::optional<int64_t> PutTs(const std::string& row, const std::string& family) {
    RowState& st = rows_[row];
    if (st.floor == kServerMarker || Chance(25)) return std::nullopt;
    if (family == "c" && st.floor == kNoMarker && Chance(20)) return kAncient + Pick(5);
    int64_t low = std::max<int64_t>(st.floor, 0);
    return low + 1 + Pick(30);
  }

  std::string CellPut(const std::string& row, const std::string& family) {
    std::string w = family + ":" + OneOf(kQualifiers) + "=" + Value();
    auto ts = PutTs(row, family);
    if (ts) {
      rows_[row].put_ts.insert(*ts);
      w += "@" + std::to_string(*ts);
    }
    return w;
  }

  std::string PutBody(const std::string& row) {
    std::string out;
    int cells = 1 + Pick(3);
    for (int i = 0; i < cells; ++i) out += " " + CellPut(row, OneOf(kFamilies));
    return out;
  }

  std::string PutLine() {
    std::string row = Row();
    return "put " + row + PutBody(row);
  }

  // A marker timestamp: mostly one a Put used, so the delete hits something.
  int64_t MarkerTs(const std::string& row) {
    RowState& st = rows_[row];
    int64_t ts;
    if (!st.put_ts.empty() && Chance(70)) {
      auto it = st.put_ts.begin();
      std::advance(it, Pick(static_cast<int>(st.put_ts.size())));
      ts = *it;
    } else {
      // Under the server-time marker (the largest timestamp) there is no floor to go past.
      ts = (st.floor == kServerMarker ? 0 : std::max<int64_t>(st.floor, 0)) + Pick(30);
    }
    if (st.floor != kServerMarker) st.floor = std::max(st.floor, ts);
    return ts;
  }

  void ServerMarker(const std::string& row) { rows_[row].floor = kServerMarker; }

  // A delete of a random kind; `with_row` prefixes the row (not inside mutate and cam).
  std::string DeleteLine(const std::string& row, bool with_row) {
    std::string r = with_row ? " " + row : "";
    std::string q = OneOf(kQualifiers);
    bool explicit_ts = Chance(60);
    auto ts = [&]() { return " @" + std::to_string(MarkerTs(row)); };
    switch (Pick(6)) {
      case 0:
        if (explicit_ts) return "del" + r + ts();
        ServerMarker(row);
        return "del" + r;
      case 1: {
        std::string f = OneOf(kFamilies);
        if (explicit_ts) return "delfam" + r + " " + f + ts();
        ServerMarker(row);
        return "delfam" + r + " " + f;
      }
      case 2:
        return "delfamver" + r + " a" + ts();
      case 3:
        // Inside one call HBase's latest-version delete does not see the call's own Puts and
        // basalt's does (a deliberate difference): there it names its version.
        if (explicit_ts || !with_row) return "delcol" + r + " a:" + q + ts();
        // The marker lands on the latest version's timestamp: at most the newest explicit one
        // (or a server's, which later Puts pass by the runner's spacing).
        if (!rows_[row].put_ts.empty()) {
          rows_[row].floor = std::max(rows_[row].floor, *rows_[row].put_ts.rbegin());
        }
        return "delcol" + r + " a:" + q;
      default: {
        std::string f = OneOf(kFamilies);
        if (explicit_ts) return "delcols" + r + " " + f + ":" + q + ts();
        ServerMarker(row);
        return "delcols" + r + " " + f + ":" + q;
      }
    }
  }

  std::string IncrLine() {
    std::string row = Row();
    std::string out = "incr " + row;
    int n = 1 + Pick(2);
    for (int i = 0; i < n; ++i) {
      // Mostly counters; sometimes a column holding text, which both must refuse.
      // A column named twice in one Increment is a deliberate difference (docs/data-model.md).
      std::string q = (Chance(85) ? "n" : "q") + std::to_string(i);
      out += " " + OneOf(kFamilies) + ":" + q + "=" + std::to_string(Pick(21) - 10);
    }
    return out;
  }

  std::string AppendLine() {
    std::string row = Row();
    return "append " + row + " " + OneOf(kFamilies) + ":" + OneOf(kQualifiers) + "=" + Value();
  }

  // One mutation of a RowMutations or CheckAndMutate. HBase gives every server-timestamped
  // mutation of one call the same time, so after a server-timestamped marker the call's Puts
  // would be masked (a deliberate difference): `*server_marker` says one was written, and then
  // only deletes follow.
  std::string Sub(const std::string& row, bool* server_marker) {
    if (!*server_marker && Chance(60)) return "put" + PutBody(row);
    std::string out = DeleteLine(row, false);
    // Without @T the marker takes the call's time (delcol's the latest version's, which may be
    // the server's too).
    if (out.find('@') == std::string::npos) *server_marker = true;
    return out;
  }

  std::string MutateLine() {
    std::string row = Row();
    bool server_marker = false;
    std::string out = "mutate " + row + " " + Sub(row, &server_marker);
    int n = Pick(3);
    for (int i = 0; i < n; ++i) out += " | " + Sub(row, &server_marker);
    return out;
  }

  std::string CamLine() {
    std::string row = Row();
    static const std::vector<std::string> kOps = {"<", "<=", "=", "!=", ">=", ">"};
    std::string op = Chance(60) ? "=" : OneOf(kOps);
    std::string expected = Chance(25) ? "-" : Value();
    if (expected == "-") op = "=";
    std::string out = "cam " + row + " " + OneOf(kFamilies) + ":" + OneOf(kQualifiers) + " " + op +
                      " " + expected + " then ";
    bool server_marker = false;
    out += Sub(row, &server_marker);
    if (Chance(30)) out += " | " + Sub(row, &server_marker);
    return out;
  }

  // Columns of c are never named: HBase's MIN_VERSIONS rule differs there (docs/data-model.md).
  std::string Columns() {
    switch (Pick(5)) {
      case 0:
      case 1:
        return "";
      case 2:
        return " cols=" + OneOf(kFamilies);
      case 3:
        return " cols=" + OneOf({"a", "b"}) + ":" + OneOf(kQualifiers);
      default:
        return " cols=" + OneOf({"a:q0,b", "b:q1,c", "a,b:q2"});
    }
  }

  std::string Versions() {
    switch (Pick(3)) {
      case 0:
        return "";
      case 1:
        return " v=2";
      default:
        return " v=all";
    }
  }

  // Filters that keep or drop whole rows or whole columns, so version counting does not matter.
  // ColumnCountGetFilter only in gets: past its limit in a scan, HBase ends the families that
  // still had cells to show and basalt the whole scan (a deliberate difference).
  std::string StructuralFilter(bool is_get) {
    switch (Pick(is_get ? 11 : 10)) {
      case 0:
        return "PrefixFilter('r" + std::to_string(Pick(6)) + "')";
      case 1:
        return "ColumnPrefixFilter('q" + std::to_string(Pick(4)) + "')";
      case 2:
        return "QualifierFilter(" + OneOf({"=", "!=", ">="}) + ", 'binary:q" +
               std::to_string(Pick(4)) + "')";
      case 3:
        return "FamilyFilter(=, 'binary:" + OneOf(kFamilies) + "')";
      case 4:
        return "RowFilter(<=, 'binary:r" + std::to_string(Pick(6)) + "')";
      case 5:
        return "PageFilter(" + std::to_string(1 + Pick(3)) + ")";
      case 6:
        return "FirstKeyOnlyFilter()";
      case 7:
        return "KeyOnlyFilter()";
      case 8:
        return "ColumnRangeFilter('q1', true, 'q3', false)";
      case 9:
        return "MultipleColumnPrefixFilter('q0', 'q2')";
      default:
        return "ColumnCountGetFilter(" + std::to_string(1 + Pick(3)) + ")";
    }
  }

  // Filters that look at single cells' values or timestamps: only on family a, all versions.
  std::string CellFilter() {
    switch (Pick(6)) {
      case 0:
        return "ValueFilter(=, 'binary:" + Value() + "')";
      case 1:
        return "ValueFilter(!=, 'substring:1')";
      case 2:
        return "ValueFilter(=, 'regexstring:v[0-5]')";
      case 3:
        return "TimestampsFilter(@" + std::to_string(1 + Pick(30)) + ", @" +
               std::to_string(1 + Pick(60)) + ")";
      case 4:
        return "SingleColumnValueFilter('a', 'q" + std::to_string(Pick(4)) +
               "', =, 'binary:" + Value() + "')";
      default:
        return "SKIP ValueFilter(!=, 'binary:" + Value() + "')";
    }
  }

  // The options of a read: a time range and cell filters only on family a, all versions.
  // Per-family limits and offsets only on gets: Thrift2's TScan cannot carry them, so the
  // thrift:// backend refuses them on scans (docs/hbase.md).
  // No FilterList OR in a reversed scan: HBase 2.6 loses cells there (a deliberate difference,
  // docs/data-model.md).
  std::string ReadOptions(bool is_get, bool reversed = false) {
    if (Chance(30)) {
      std::string out = " cols=a";
      if (Chance(50)) out = " cols=a:" + OneOf(kQualifiers);
      out += " v=all";
      if (Chance(50)) {
        int lo = Pick(40);
        out += " tr=" + std::to_string(lo) + "," +
               (Chance(30) ? std::string("max") : std::to_string(lo + 1 + Pick(40)));
      }
      if (Chance(60)) {
        std::string f = CellFilter();
        if (Chance(25)) f = "(" + f + ") AND (" + StructuralFilter(is_get) + ")";
        out += " filter=" + f;
      }
      return out;
    }
    std::string out = Columns() + Versions();
    if (is_get && Chance(10)) out += " mrpf=" + std::to_string(1 + Pick(3));
    if (is_get && Chance(10)) out += " ropf=" + std::to_string(1 + Pick(2));
    if (Chance(35)) {
      std::string f = StructuralFilter(is_get);
      if (!reversed && Chance(20)) f = "(" + f + ") OR (" + StructuralFilter(is_get) + ")";
      out += " filter=" + f;
    }
    return out;
  }

  std::string GetLine() { return "get " + Row() + ReadOptions(true); }

  std::string ScanLine() {
    std::string out = "scan";
    int lo = Pick(7), hi = Pick(7);
    if (lo > hi) std::swap(lo, hi);
    bool rev = Chance(35);
    // A reversed scan starts at its high end.
    if (Chance(50)) out += " start=r" + std::to_string(rev ? hi : lo);
    if (Chance(40)) out += " stop=r" + std::to_string(rev ? lo : hi);
    if (rev) out += " rev";
    // A limit and a batch together count differently (rows here; on HBase some row pieces
    // count as rows: docs/data-model.md), so a scan has one or the other.
    if (Chance(25)) {
      out += " limit=" + std::to_string(1 + Pick(4));
    } else if (Chance(33)) {
      out += " batch=" + std::to_string(1 + Pick(3));
    }
    if (Chance(25)) out += " caching=" + std::to_string(1 + Pick(3));
    // get and scan share the options; a filter goes last (it takes the rest of the line).
    return out + ReadOptions(false, rev);
  }

  std::mt19937_64 rng_;
  std::map<std::string, RowState> rows_;
};

}  // namespace

TableDescriptor DiffTable(const std::string& name) {
  TableDescriptor desc(TableName("default", name));
  FamilyDescriptor a("a");
  a.max_versions = 1000;
  FamilyDescriptor b("b");
  b.max_versions = 2;
  FamilyDescriptor c("c");
  c.max_versions = 3;
  c.min_versions = 1;
  c.ttl_seconds = 7200;
  desc.AddFamily(a).AddFamily(b).AddFamily(c);
  return desc;
}

std::vector<std::string> GenerateOps(uint64_t seed, int count) {
  Generator gen(seed);
  std::vector<std::string> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) out.push_back(gen.Next());
  return out;
}

}  // namespace basalt::hbdiff
