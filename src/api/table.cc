#include "basalt/table.h"

#include "basalt/connection.h"
#include "util/coding.h"

namespace basalt {

std::string EncodeCounter(int64_t value) {
  std::string out;
  util::PutFixed64BE(&out, static_cast<uint64_t>(value));
  return out;
}

Result<int64_t> DecodeCounter(std::string_view bytes) {
  if (bytes.size() != 8) {
    return Status::InvalidArgument("Field is not a long, it's " + std::to_string(bytes.size()) +
                                   " bytes wide");
  }
  return static_cast<int64_t>(util::DecodeFixed64BE(bytes.data()));
}

int64_t ResultScanner::SkipRows(int64_t n) {
  int64_t skipped = 0;
  RowResult piece;
  while (skipped < n && Next(&piece)) {
    if (!piece.partial()) ++skipped;
  }
  return skipped;
}

Status Table::Put(const std::vector<basalt::Put>& puts) {
  std::vector<Mutation> mutations(puts.begin(), puts.end());
  return Batch(mutations).status();
}

Status Table::GetInto(const basalt::Get& get, RowResult* out) {
  Result<RowResult> r = Get(get);
  if (!r.ok()) {
    *out = RowResult();
    return r.status();
  }
  *out = std::move(*r);
  return Status::OK();
}

Result<std::vector<std::optional<std::string>>> Table::GetColumnValues(
    std::string_view family, std::string_view qualifier, const std::vector<std::string>& rows) {
  std::vector<basalt::Get> gets;
  gets.reserve(rows.size());
  for (const std::string& row : rows) {
    gets.push_back(basalt::Get(row).AddColumn(std::string(family), std::string(qualifier)));
  }
  BASALT_ASSIGN_OR_RETURN(std::vector<RowResult> got, Get(gets));
  std::vector<std::optional<std::string>> values(rows.size());
  for (size_t i = 0; i < got.size() && i < values.size(); ++i) {
    if (auto value = got[i].Value(family, qualifier)) values[i] = std::string(*value);
  }
  return values;
}

Result<int64_t> Table::IncrementColumnValue(std::string row, std::string family,
                                            std::string qualifier, int64_t amount,
                                            Durability durability) {
  basalt::Increment inc(std::move(row));
  inc.AddColumn(family, qualifier, amount).SetDurability(durability);
  BASALT_ASSIGN_OR_RETURN(RowResult result, Increment(inc));
  auto value = result.Value(family, qualifier);
  if (!value) return Status::Internal("increment returned no value");
  return DecodeCounter(*value);
}

Result<std::unique_ptr<Table>> Connection::GetTable(std::string_view name) {
  BASALT_ASSIGN_OR_RETURN(TableName parsed, TableName::Parse(name));
  return GetTable(parsed);
}

Result<bool> Connection::MutateRows(const MultiRowMutation&) {
  return Status::NotSupported("this backend (" + target() +
                              ") cannot apply writes to several rows atomically");
}

}  // namespace basalt
