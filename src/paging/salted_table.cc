// SaltedTable: original keys in, salted keys to the wrapped table, original keys out. Mutations
// and reads are rebuilt field by field through their public builders, so nothing here depends
// on the backend.

#include <utility>
#include <variant>

#include "basalt/key_spread.h"
#include "basalt/salting.h"
#include "paging/bucket_merge.h"
#include "paging/salted_filter.h"

namespace basalt {
namespace {

// A stored row key back to the original one, in the result and in each of its cells.
void Unsalt(RowResult* r) {
  if (r->row().empty()) return;  // a Get that found nothing
  std::string row = r->row().substr(1);
  for (Cell& cell : r->mutable_cells()) cell.row = row;
  *r = RowResult(std::move(row), std::move(r->mutable_cells()), r->partial());
}

std::string WithSalt(char salt, const std::string& key) {
  std::string out(1, salt);
  out += key;
  return out;
}

basalt::Put RebuildPut(const basalt::Put& put, std::string row) {
  basalt::Put out(std::move(row), put.timestamp());
  for (const auto& e : put.entries()) out.Add(e.family, e.qualifier, e.timestamp, e.value);
  out.SetDurability(put.durability());
  return out;
}

basalt::Delete RebuildDelete(const basalt::Delete& del, std::string row) {
  basalt::Delete out(std::move(row), del.timestamp());
  for (const auto& e : del.entries()) {
    switch (e.type) {
      case CellType::kDeleteFamily:
        out.AddFamily(e.family, e.timestamp);
        break;
      case CellType::kDeleteFamilyVersion:
        out.AddFamilyVersion(e.family, e.timestamp);
        break;
      case CellType::kDeleteColumn:
        out.AddColumns(e.family, e.qualifier, e.timestamp);
        break;
      case CellType::kDelete:
      case CellType::kPut:  // not a delete kind; kept so that the table rejects it as it would
        out.AddColumn(e.family, e.qualifier, e.timestamp);
        break;
    }
  }
  out.SetDurability(del.durability());
  return out;
}

Result<RowMutations> RebuildRowMutations(const RowMutations& rm, const SaltedTable& t) {
  BASALT_ASSIGN_OR_RETURN(std::string row, t.SaltedRow(rm.row()));
  RowMutations out(row);
  for (const auto& item : rm.items()) {
    // Each item keeps its own row, salted, so that a mismatch is still reported by the table.
    if (const auto* put = std::get_if<basalt::Put>(&item)) {
      BASALT_ASSIGN_OR_RETURN(std::string r, t.SaltedRow(put->row()));
      out.Add(RebuildPut(*put, std::move(r)));
    } else {
      const auto& del = std::get<basalt::Delete>(item);
      BASALT_ASSIGN_OR_RETURN(std::string r, t.SaltedRow(del.row()));
      out.Add(RebuildDelete(del, std::move(r)));
    }
  }
  return out;
}

Result<basalt::Increment> RebuildIncrement(const basalt::Increment& inc, const SaltedTable& t) {
  BASALT_ASSIGN_OR_RETURN(std::string row, t.SaltedRow(inc.row()));
  basalt::Increment out(std::move(row));
  for (const auto& e : inc.entries()) out.AddColumn(e.family, e.qualifier, e.amount);
  out.SetTimeRange(inc.time_range())
      .SetReturnResults(inc.return_results())
      .SetDurability(inc.durability());
  return out;
}

Result<basalt::Append> RebuildAppend(const basalt::Append& app, const SaltedTable& t) {
  BASALT_ASSIGN_OR_RETURN(std::string row, t.SaltedRow(app.row()));
  basalt::Append out(std::move(row));
  for (const auto& e : app.entries()) out.Add(e.family, e.qualifier, e.value);
  out.SetReturnResults(app.return_results()).SetDurability(app.durability());
  return out;
}

Result<Mutation> RebuildMutation(const Mutation& m, const SaltedTable& t) {
  if (const auto* put = std::get_if<basalt::Put>(&m)) {
    BASALT_ASSIGN_OR_RETURN(std::string row, t.SaltedRow(put->row()));
    return Mutation(RebuildPut(*put, std::move(row)));
  }
  if (const auto* del = std::get_if<basalt::Delete>(&m)) {
    BASALT_ASSIGN_OR_RETURN(std::string row, t.SaltedRow(del->row()));
    return Mutation(RebuildDelete(*del, std::move(row)));
  }
  if (const auto* inc = std::get_if<basalt::Increment>(&m)) {
    BASALT_ASSIGN_OR_RETURN(basalt::Increment out, RebuildIncrement(*inc, t));
    return Mutation(std::move(out));
  }
  if (const auto* app = std::get_if<basalt::Append>(&m)) {
    BASALT_ASSIGN_OR_RETURN(basalt::Append out, RebuildAppend(*app, t));
    return Mutation(std::move(out));
  }
  BASALT_ASSIGN_OR_RETURN(RowMutations out, RebuildRowMutations(std::get<RowMutations>(m), t));
  return Mutation(std::move(out));
}

Result<basalt::Get> RebuildGet(const basalt::Get& get, const SaltedTable& t) {
  BASALT_ASSIGN_OR_RETURN(std::string row, t.SaltedRow(get.row()));
  char salt = row[0];
  basalt::Get out(std::move(row));
  for (const auto& [family, qualifiers] : get.columns()) {
    if (qualifiers.empty()) out.AddFamily(family);
    for (const auto& q : qualifiers) out.AddColumn(family, q);
  }
  BASALT_ASSIGN_OR_RETURN(FilterPtr filter,
                          paging::SaltFilter(get.filter(), salt, paging::SaltedRead::kGet));
  out.ReadVersions(get.max_versions())
      .SetTimeRange(get.time_range().min, get.time_range().max)
      .SetMaxResultsPerColumnFamily(get.max_results_per_family())
      .SetRowOffsetPerColumnFamily(get.row_offset_per_family())
      .SetFilter(std::move(filter));
  return out;
}

// The scan of one bucket: the same bounds and prefix, under the bucket's salt byte. An empty
// bound stays empty; the prefix alone keeps the scan inside the bucket.
Result<basalt::Scan> BucketScan(const basalt::Scan& scan, int bucket) {
  const char salt = static_cast<char>(bucket);
  basalt::Scan out = scan;
  out.WithStartRow(scan.start_row().empty() ? std::string() : WithSalt(salt, scan.start_row()),
                   scan.start_inclusive());
  out.WithStopRow(scan.stop_row().empty() ? std::string() : WithSalt(salt, scan.stop_row()),
                  scan.stop_inclusive());
  out.SetRowPrefix(WithSalt(salt, scan.row_prefix()));
  BASALT_ASSIGN_OR_RETURN(FilterPtr filter,
                          paging::SaltFilter(scan.filter(), salt, paging::SaltedRead::kScan));
  out.SetFilter(std::move(filter));
  return out;
}

}  // namespace

// The one place that maps a key to its bucket.
uint8_t SaltBucket(std::string_view row, int buckets) {
  if (buckets <= 1) return 0;  // also keeps a broken REQUIRES from dividing by zero
  // The keys layer's XXH3 prefix, all 8 bytes: big-endian, so it decodes to XXH3_64bits(row).
  Result<std::string> hash = HashPrefix(row, 8, HashKind::kXxh3);
  if (!hash.ok() || hash->size() != 8) return 0;  // cannot happen: 8 bytes of XXH3 are valid
  uint64_t h = 0;
  for (char c : *hash) h = (h << 8) | static_cast<uint8_t>(c);
  return static_cast<uint8_t>(h % static_cast<uint64_t>(buckets));
}

Result<SaltedTable> SaltedTable::Wrap(Table& table, int buckets) {
  if (buckets < kMinBuckets || buckets > kMaxBuckets) {
    return Status::InvalidArgument("salted table: bucket count must be between 1 and 256, got " +
                                   std::to_string(buckets));
  }
  return SaltedTable(table, buckets);
}

Result<std::string> SaltedTable::SaltedRow(std::string_view row) const {
  if (row.empty()) return Status::InvalidArgument("row key is empty");
  std::string out(1, static_cast<char>(SaltBucket(row, buckets_)));
  out += row;
  return out;
}

Status SaltedTable::Put(const basalt::Put& put) {
  BASALT_ASSIGN_OR_RETURN(std::string row, SaltedRow(put.row()));
  return table_->Put(RebuildPut(put, std::move(row)));
}

Status SaltedTable::Put(const std::vector<basalt::Put>& puts) {
  std::vector<basalt::Put> salted;
  salted.reserve(puts.size());
  for (const basalt::Put& put : puts) {
    BASALT_ASSIGN_OR_RETURN(std::string row, SaltedRow(put.row()));
    salted.push_back(RebuildPut(put, std::move(row)));
  }
  return table_->Put(salted);
}

Status SaltedTable::Delete(const basalt::Delete& del) {
  BASALT_ASSIGN_OR_RETURN(std::string row, SaltedRow(del.row()));
  return table_->Delete(RebuildDelete(del, std::move(row)));
}

Result<RowResult> SaltedTable::Get(const basalt::Get& get) {
  BASALT_ASSIGN_OR_RETURN(basalt::Get salted, RebuildGet(get, *this));
  BASALT_ASSIGN_OR_RETURN(RowResult r, table_->Get(salted));
  Unsalt(&r);
  return r;
}

Result<std::vector<RowResult>> SaltedTable::Get(const std::vector<basalt::Get>& gets) {
  std::vector<basalt::Get> salted;
  salted.reserve(gets.size());
  for (const auto& g : gets) {
    BASALT_ASSIGN_OR_RETURN(basalt::Get s, RebuildGet(g, *this));
    salted.push_back(std::move(s));
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> rows, table_->Get(salted));
  for (RowResult& r : rows) Unsalt(&r);
  return rows;
}

Result<bool> SaltedTable::Exists(const basalt::Get& get) {
  BASALT_ASSIGN_OR_RETURN(basalt::Get salted, RebuildGet(get, *this));
  return table_->Exists(salted);
}

Result<std::unique_ptr<ResultScanner>> SaltedTable::GetScanner(const basalt::Scan& scan) {
  std::vector<std::unique_ptr<ResultScanner>> scanners;
  scanners.reserve(buckets_);
  for (int b = 0; b < buckets_; ++b) {
    BASALT_ASSIGN_OR_RETURN(basalt::Scan bucket_scan, BucketScan(scan, b));
    // Each bucket keeps the scan's limit: the merge can never take more rows than that from
    // one bucket, so the limit bounds what each reads ahead.
    BASALT_ASSIGN_OR_RETURN(std::unique_ptr<ResultScanner> scanner,
                            table_->GetScanner(bucket_scan));
    scanners.push_back(std::move(scanner));
  }
  return std::unique_ptr<ResultScanner>(std::make_unique<paging::BucketMergeScanner>(
      std::move(scanners), buckets_, scan.reversed(), scan.limit()));
}

Result<RowResult> SaltedTable::Increment(const basalt::Increment& inc) {
  BASALT_ASSIGN_OR_RETURN(basalt::Increment salted, RebuildIncrement(inc, *this));
  BASALT_ASSIGN_OR_RETURN(RowResult r, table_->Increment(salted));
  Unsalt(&r);
  return r;
}

Result<RowResult> SaltedTable::Append(const basalt::Append& app) {
  BASALT_ASSIGN_OR_RETURN(basalt::Append salted, RebuildAppend(app, *this));
  BASALT_ASSIGN_OR_RETURN(RowResult r, table_->Append(salted));
  Unsalt(&r);
  return r;
}

Result<bool> SaltedTable::CheckAndMutate(const basalt::CheckAndMutate& cam) {
  BASALT_ASSIGN_OR_RETURN(std::string row, SaltedRow(cam.row()));
  basalt::CheckAndMutate out(row);
  out.IfMatches(cam.family(), cam.qualifier(), cam.op(), cam.expected())
      .SetTimeRange(cam.time_range());
  if (cam.action()) {
    const basalt::CheckAndMutate::Action& action = *cam.action();
    if (const auto* put = std::get_if<basalt::Put>(&action)) {
      BASALT_ASSIGN_OR_RETURN(std::string r, SaltedRow(put->row()));
      out.Then(RebuildPut(*put, std::move(r)));
    } else if (const auto* del = std::get_if<basalt::Delete>(&action)) {
      BASALT_ASSIGN_OR_RETURN(std::string r, SaltedRow(del->row()));
      out.Then(RebuildDelete(*del, std::move(r)));
    } else {
      BASALT_ASSIGN_OR_RETURN(RowMutations rm,
                              RebuildRowMutations(std::get<RowMutations>(action), *this));
      out.Then(std::move(rm));
    }
  }
  return table_->CheckAndMutate(out);
}

Status SaltedTable::MutateRow(const RowMutations& mutations) {
  BASALT_ASSIGN_OR_RETURN(RowMutations salted, RebuildRowMutations(mutations, *this));
  return table_->MutateRow(salted);
}

Result<std::vector<RowResult>> SaltedTable::Batch(const std::vector<Mutation>& mutations) {
  std::vector<Mutation> salted;
  salted.reserve(mutations.size());
  for (const auto& m : mutations) {
    BASALT_ASSIGN_OR_RETURN(Mutation s, RebuildMutation(m, *this));
    salted.push_back(std::move(s));
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> results, table_->Batch(salted));
  for (RowResult& r : results) Unsalt(&r);
  return results;
}

}  // namespace basalt
