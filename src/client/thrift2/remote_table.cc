#include "client/thrift2/remote_table.h"

#include <algorithm>
#include <type_traits>
#include <variant>

#include "client/thrift2/remote_scanner.h"
#include "client/thrift2/request_checks.h"
#include "thrift2/codec.h"

namespace basalt::client::remote {

namespace t2 = ::basalt::thrift2;

Status RemoteTable::ExplainFailure(Status failure) {
  return ExplainTableFailure(*pool_, name_, std::move(failure));
}

Status RemoteTable::Put(const basalt::Put& put) {
  BASALT_RETURN_IF_ERROR(CheckRequest(put, max_value_bytes_));
  BASALT_ASSIGN_OR_RETURN(t2::TPut tput, t2::ToThrift(put));
  return Call([&](ThriftClient& c) { c.put(wire_name_, tput); });
}

Status RemoteTable::Delete(const basalt::Delete& del) {
  BASALT_RETURN_IF_ERROR(CheckRequest(del));
  BASALT_ASSIGN_OR_RETURN(std::vector<t2::TDelete> deletes, t2::ToThrift(del));
  if (deletes.size() == 1) {
    return Call([&](ThriftClient& c) { c.deleteSingle(wire_name_, deletes[0]); });
  }
  // Several delete kinds need several TDeletes: mutateRow applies them atomically.
  t2::TRowMutations rm;
  rm.__set_row(del.row());
  for (auto& d : deletes) {
    t2::TMutation m;
    m.__set_deleteSingle(std::move(d));
    rm.mutations.push_back(std::move(m));
  }
  return Call([&](ThriftClient& c) { c.mutateRow(wire_name_, rm); });
}

Result<RowResult> RemoteTable::Get(const basalt::Get& get) {
  BASALT_RETURN_IF_ERROR(CheckRequest(get));
  BASALT_ASSIGN_OR_RETURN(t2::TGet tget, t2::ToThrift(get));
  t2::TResult result;
  BASALT_RETURN_IF_ERROR(
      ExplainFilterFailure(Call([&](ThriftClient& c) { c.get(result, wire_name_, tget); },
                                ClientPool::Idempotence::kYes),
                           get.filter()));
  return t2::FromThrift(std::move(result));
}

namespace {

// Gets per getMultiple: a page of a few hundred rows (a follow list checked, a home page's posts)
// stays one round trip, and no call asks for an unbounded number of rows at once.
constexpr size_t kMostGetsPerCall = 1000;

}  // namespace

Result<std::vector<RowResult>> RemoteTable::Get(const std::vector<basalt::Get>& gets) {
  std::vector<t2::TGet> tgets;
  tgets.reserve(gets.size());
  for (size_t i = 0; i < gets.size(); ++i) {
    Status s = CheckRequest(gets[i]);
    if (!s.ok()) return s.WithContext("get " + std::to_string(i));
    BASALT_ASSIGN_OR_RETURN(t2::TGet tget, t2::ToThrift(gets[i]));
    tgets.push_back(std::move(tget));
  }
  // In calls of at most kMostGetsPerCall, in order; a call the server refuses as too large is
  // sent again as two halves, and the calls after it keep the smaller size. One Get alone is
  // never refused (the server counts the bytes of the rows before each one).
  std::vector<RowResult> out;
  out.reserve(gets.size());
  size_t per_call = kMostGetsPerCall;
  size_t done = 0;
  std::vector<t2::TGet> part;
  while (done < tgets.size()) {
    const size_t n = std::min(per_call, tgets.size() - done);
    const bool whole = done == 0 && n == tgets.size();
    if (!whole) part.assign(tgets.begin() + done, tgets.begin() + done + n);
    std::vector<t2::TResult> results;
    Status s =
        Call([&](ThriftClient& c) { c.getMultiple(results, wire_name_, whole ? tgets : part); },
             ClientPool::Idempotence::kYes);
    if (!s.ok()) {
      if (IsTooLargeForOneCall(s, "getMultiple") && n > 1) {
        per_call = n / 2;
        continue;
      }
      return s;
    }
    if (results.size() != n) {
      return Status::IOError("getMultiple: the server answered " + std::to_string(results.size()) +
                             " results for " + std::to_string(n) + " gets");
    }
    for (auto& r : results) out.push_back(t2::FromThrift(std::move(r)));
    done += n;
  }
  return out;
}

Result<bool> RemoteTable::Exists(const basalt::Get& get) {
  BASALT_RETURN_IF_ERROR(CheckRequest(get));
  BASALT_ASSIGN_OR_RETURN(t2::TGet tget, t2::ToThrift(get));
  bool exists = false;
  BASALT_RETURN_IF_ERROR(
      ExplainFilterFailure(Call([&](ThriftClient& c) { exists = c.exists(wire_name_, tget); },
                                ClientPool::Idempotence::kYes),
                           get.filter()));
  return exists;
}

Result<std::unique_ptr<ResultScanner>> RemoteTable::GetScanner(const basalt::Scan& scan) {
  BASALT_RETURN_IF_ERROR(CheckRequest(scan));
  auto scanner = RemoteScanner::Open(pool_, wire_name_, scan);
  if (scanner.ok()) return scanner;
  return ExplainFilterFailure(ExplainFailure(scanner.status()), scan.filter());
}

Result<RowResult> RemoteTable::Increment(const basalt::Increment& inc) {
  BASALT_RETURN_IF_ERROR(CheckRequest(inc));
  BASALT_ASSIGN_OR_RETURN(t2::TIncrement tinc, t2::ToThrift(inc));
  t2::TResult result;
  BASALT_RETURN_IF_ERROR(Call([&](ThriftClient& c) { c.increment(result, wire_name_, tinc); }));
  if (!inc.return_results()) return RowResult();
  return t2::FromThrift(std::move(result));
}

Result<RowResult> RemoteTable::Append(const basalt::Append& app) {
  BASALT_RETURN_IF_ERROR(CheckRequest(app, max_value_bytes_));
  t2::TAppend tapp = t2::ToThrift(app);
  t2::TResult result;
  BASALT_RETURN_IF_ERROR(Call([&](ThriftClient& c) { c.append(result, wire_name_, tapp); }));
  if (!app.return_results()) return RowResult();
  return t2::FromThrift(std::move(result));
}

Result<bool> RemoteTable::CheckAndMutate(const basalt::CheckAndMutate& cam) {
  if (!cam.time_range().IsAll()) {
    return Status::NotSupported("Thrift2 cannot express a CheckAndMutate time range");
  }
  if (!cam.action().has_value()) {
    return Status::InvalidArgument("CheckAndMutate has no action (call Then)");
  }
  BASALT_RETURN_IF_ERROR(CheckRequest(cam, max_value_bytes_));
  BASALT_ASSIGN_OR_RETURN(t2::TRowMutations rm, t2::ActionToThrift(cam.row(), *cam.action()));
  // Thrift2 has no null value: an absent expected value travels as an empty one, which the
  // check rule treats the same way (check_and_mutate.h).
  std::string value = cam.expected().value_or(std::string());
  bool passed = false;
  BASALT_RETURN_IF_ERROR(Call([&](ThriftClient& c) {
    passed = c.checkAndMutate(wire_name_, cam.row(), cam.family(), cam.qualifier(),
                              t2::ToThrift(cam.op()), value, rm);
  }));
  return passed;
}

Status RemoteTable::MutateRow(const RowMutations& mutations) {
  BASALT_RETURN_IF_ERROR(CheckRequest(mutations, max_value_bytes_));
  BASALT_ASSIGN_OR_RETURN(t2::TRowMutations rm, t2::ToThrift(mutations));
  return Call([&](ThriftClient& c) { c.mutateRow(wire_name_, rm); });
}

namespace {

Status CheckRowAndFamily(const TableDescriptor& desc, const std::string& row,
                         const std::string& family) {
  if (row.empty()) return Status::InvalidArgument("row key is empty");
  if (row.size() > kMaxRowKeyLength) {
    return Status::InvalidArgument("row key is longer than " + std::to_string(kMaxRowKeyLength) +
                                   " bytes");
  }
  if (desc.FindFamily(family) == nullptr) {
    // The engine's answer, so that a caller cannot tell the backends apart.
    return Status::NoSuchFamily("column family '" + family + "' does not exist in table '" +
                                desc.name.ToString() + "'");
  }
  return Status::OK();
}

template <class M>
Status CheckEntries(const TableDescriptor& desc, const M& m) {
  for (const auto& e : m.entries())
    BASALT_RETURN_IF_ERROR(CheckRowAndFamily(desc, m.row(), e.family));
  if (m.entries().empty() && m.row().empty()) return Status::InvalidArgument("row key is empty");
  return Status::OK();
}

// What can be checked on the client before a batch writes anything: row keys and families.
Status CheckMutation(const TableDescriptor& desc, const Mutation& m) {
  return std::visit(
      [&](const auto& x) -> Status {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, RowMutations>) {
          for (const auto& item : x.items()) {
            BASALT_RETURN_IF_ERROR(
                std::visit([&](const auto& y) { return CheckEntries(desc, y); }, item));
          }
          return Status::OK();
        } else {
          return CheckEntries(desc, x);
        }
      },
      m);
}

}  // namespace

Result<TableDescriptor> RemoteTable::Describe() {
  t2::TTableDescriptor tdesc;
  t2::TTableName tname = t2::ToThrift(name_);
  BASALT_RETURN_IF_ERROR(Call([&](ThriftClient& c) { c.getTableDescriptor(tdesc, tname); },
                              ClientPool::Idempotence::kYes));
  return t2::FromThrift(tdesc);
}

Status RemoteTable::CheckAgainstSchema(const std::function<Status(const TableDescriptor&)>& check) {
  constexpr auto kFreshFor = std::chrono::seconds(1);
  std::shared_ptr<const TableDescriptor> recent;
  {
    util::MutexLock lock(schema_mu_);
    if (schema_ != nullptr && std::chrono::steady_clock::now() - schema_read_ < kFreshFor) {
      recent = schema_;
    }
  }
  if (recent != nullptr && check(*recent).ok()) return Status::OK();
  BASALT_ASSIGN_OR_RETURN(TableDescriptor now, Describe());
  auto fresh = std::make_shared<const TableDescriptor>(std::move(now));
  {
    util::MutexLock lock(schema_mu_);
    schema_ = fresh;
    schema_read_ = std::chrono::steady_clock::now();
  }
  return check(*fresh);
}

Status RemoteTable::Put(const std::vector<basalt::Put>& puts) {
  if (puts.empty()) return Status::OK();
  for (size_t i = 0; i < puts.size(); ++i) {
    Status s = CheckRequest(puts[i], max_value_bytes_);
    if (!s.ok()) return s.WithContext("put " + std::to_string(i));
  }
  BASALT_RETURN_IF_ERROR(CheckAgainstSchema([&](const TableDescriptor& desc) {
    for (size_t i = 0; i < puts.size(); ++i) {
      Status s = CheckEntries(desc, puts[i]);
      if (!s.ok()) return s.WithContext("put " + std::to_string(i));
    }
    return Status::OK();
  }));
  std::vector<t2::TPut> tputs;
  tputs.reserve(puts.size());
  for (const basalt::Put& put : puts) {
    BASALT_ASSIGN_OR_RETURN(t2::TPut tput, t2::ToThrift(put));
    tputs.push_back(std::move(tput));
  }
  return Call([&](ThriftClient& c) { c.putMultiple(wire_name_, tputs); });
}

Result<std::vector<RowResult>> RemoteTable::Batch(const std::vector<Mutation>& mutations) {
  // Validate what the client can (row keys, families) so that such mistakes write nothing, as
  // on the embedded backend. Then the mutations in order, runs of Puts and of Deletes one call
  // each; a failure the server finds ends the batch, and the calls before it stay written
  // (Thrift2 has no cross-row atomicity).
  for (size_t i = 0; i < mutations.size(); ++i) {
    Status s = std::visit(
        [&](const auto& m) -> Status {
          using T = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<T, basalt::Delete> || std::is_same_v<T, basalt::Increment>) {
            return CheckRequest(m);
          } else {
            return CheckRequest(m, max_value_bytes_);
          }
        },
        mutations[i]);
    if (!s.ok()) return s.WithContext("batch mutation " + std::to_string(i));
  }
  BASALT_RETURN_IF_ERROR(CheckAgainstSchema([&](const TableDescriptor& desc) {
    for (size_t i = 0; i < mutations.size(); ++i) {
      Status s = CheckMutation(desc, mutations[i]);
      if (!s.ok()) return s.WithContext("batch mutation " + std::to_string(i));
    }
    return Status::OK();
  }));
  std::vector<RowResult> out(mutations.size());
  for (size_t i = 0; i < mutations.size();) {
    // A run of Puts goes in one putMultiple, a run of plain Deletes in one deleteMultiple: the
    // wire's batching, which one call per row would forgo.
    std::vector<t2::TPut> puts;
    std::vector<t2::TDelete> deletes;
    size_t end = i;
    for (; end < mutations.size(); ++end) {
      const Mutation& m = mutations[end];
      if (const auto* put = std::get_if<basalt::Put>(&m); put != nullptr && deletes.empty()) {
        BASALT_ASSIGN_OR_RETURN(t2::TPut tput, t2::ToThrift(*put));
        puts.push_back(std::move(tput));
        continue;
      }
      if (const auto* del = std::get_if<basalt::Delete>(&m); del != nullptr && puts.empty()) {
        BASALT_ASSIGN_OR_RETURN(std::vector<t2::TDelete> tdeletes, t2::ToThrift(*del));
        if (tdeletes.size() == 1) {
          deletes.push_back(std::move(tdeletes[0]));
          continue;
        }
      }
      break;
    }
    Status s;
    if (!puts.empty()) {
      s = Call([&](ThriftClient& c) { c.putMultiple(wire_name_, puts); });
    } else if (!deletes.empty()) {
      s = Call([&](ThriftClient& c) {
        std::vector<t2::TDelete> failed;
        c.deleteMultiple(failed, wire_name_, deletes);
      });
    } else {
      end = i + 1;
      const Mutation& m = mutations[i];
      if (const auto* del = std::get_if<basalt::Delete>(&m)) {
        s = Delete(*del);
      } else if (const auto* inc = std::get_if<basalt::Increment>(&m)) {
        auto res = Increment(*inc);
        s = res.status();
        if (res.ok()) out[i] = std::move(*res);
      } else if (const auto* app = std::get_if<basalt::Append>(&m)) {
        auto res = Append(*app);
        s = res.status();
        if (res.ok()) out[i] = std::move(*res);
      } else {
        s = MutateRow(std::get<RowMutations>(m));
      }
    }
    if (!s.ok()) {
      return s.WithContext(end - i == 1 ? "batch mutation " + std::to_string(i)
                                        : "batch mutations " + std::to_string(i) + " to " +
                                              std::to_string(end - 1));
    }
    i = end;
  }
  return out;
}

}  // namespace basalt::client::remote
