#include "server/hbase_rpc/client_service.h"

#include <climits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hbase_proto/client_codec.h"
#include "hbase_proto/proto/Client.pb.h"
#include "hbase_rpc/cell_block.h"
#include "server/hbase_rpc/exceptions.h"
#include "server/reserved_namespaces.h"

namespace basalt::server::hbase_rpc {
namespace {

namespace pb = ::hbase::pb;
using ::basalt::hbase_rpc::CallAnswer;
using ::basalt::hbase_rpc::CellBlockReader;
using ::basalt::hbase_rpc::DecodedCall;

constexpr std::string_view kMetaRegionPrefix = "hbase:meta,";
// What a scan asks for when it does not say (hbase.client.scanner.max.result.size).
constexpr uint64_t kDefaultMaxResultBytes = 2u << 20;

template <class Request>
std::optional<RpcError> ParseRequest(const DecodedCall& call, Request* request) {
  if (!call.has_param || call.param.size() > static_cast<size_t>(INT_MAX) ||
      !request->ParsePartialFromArray(call.param.data(), static_cast<int>(call.param.size())) ||
      !request->IsInitialized()) {
    return DoNotRetry("the request of " + call.header.method_name() + " is not a valid " +
                      request->GetTypeName());
  }
  return std::nullopt;
}

CallAnswer Encode(const google::protobuf::MessageLite& message) {
  return CallAnswer{message.SerializeAsString(), {}};
}

// Which table a call's region names: hbase:meta, or a user table's current region.
struct Target {
  bool meta = false;
  TableName table;
};

// The `count` cells a mutation carries in the call's cell block.
Result<std::vector<Cell>> TakeCells(CellBlockReader& reader, int32_t count) {
  std::vector<Cell> cells;
  for (int32_t i = 0; i < count; ++i) {
    Cell cell;
    if (!reader.Next(&cell)) {
      return Status::InvalidArgument(reader.error().value_or(
          "the cell block holds fewer cells than its mutations say they carry"));
    }
    cells.push_back(std::move(cell));
  }
  return cells;
}

Result<Mutation> MutationOf(const pb::MutationProto& proto, CellBlockReader& reader) {
  std::vector<Cell> cells;
  if (proto.associated_cell_count() > 0) {
    BASALT_ASSIGN_OR_RETURN(cells, TakeCells(reader, proto.associated_cell_count()));
  }
  return hbase_proto::MutationFromProto(proto, cells);
}

// Applies one mutation; its Result (Increment's and Append's new values) into `*out`.
Status Apply(Table& table, const Mutation& mutation, pb::Result* out) {
  if (const auto* put = std::get_if<Put>(&mutation)) return table.Put(*put);
  if (const auto* del = std::get_if<Delete>(&mutation)) return table.Delete(*del);
  if (const auto* inc = std::get_if<Increment>(&mutation)) {
    BASALT_ASSIGN_OR_RETURN(RowResult row, table.Increment(*inc));
    hbase_proto::ResultToProto(row, out);
    return Status::OK();
  }
  if (const auto* app = std::get_if<Append>(&mutation)) {
    BASALT_ASSIGN_OR_RETURN(RowResult row, table.Append(*app));
    hbase_proto::ResultToProto(row, out);
    return Status::OK();
  }
  return Status::InvalidArgument("a row mutation where one mutation was expected");
}

// A checkAndMutate's action: a Put, a Delete or (Multi's atomic region action) RowMutations.
Result<CheckAndMutate::Action> ActionOf(Mutation mutation) {
  if (auto* put = std::get_if<Put>(&mutation)) return CheckAndMutate::Action(std::move(*put));
  if (auto* del = std::get_if<Delete>(&mutation)) return CheckAndMutate::Action(std::move(*del));
  if (auto* rows = std::get_if<RowMutations>(&mutation)) {
    return CheckAndMutate::Action(std::move(*rows));
  }
  return Status::InvalidArgument(
      "checkAndMutate with an Increment or an Append is not supported (Put, Delete and "
      "RowMutations are)");
}

pb::NameBytesPair ExceptionPair(const RpcError& error) {
  pb::NameBytesPair pair;
  pair.set_name(error.exception_class);
  pair.set_value(error.exception_class + ": " + error.message);
  return pair;
}

size_t CellBytes(const pb::Result& result) {
  size_t bytes = 0;
  for (const pb::Cell& cell : result.cell()) {
    bytes += cell.row().size() + cell.family().size() + cell.qualifier().size() +
             cell.value().size() + 16;
  }
  return bytes;
}

}  // namespace

std::variant<CallAnswer, RpcError> ClientService::Call(const DecodedCall& call,
                                                       const ::basalt::hbase_rpc::Caller& caller) {
  const std::string& method = call.header.method_name();
  if (method == "Get") return Get(call);
  if (method == "Mutate") return Mutate(call);
  if (method == "Scan") return Scan(call, caller.address);
  if (method == "Multi") return Multi(call);
  return DoNotRetry("method " + method.substr(0, 200) +
                    " of ClientService is not served by basalt");
}

namespace {

std::variant<Target, RpcError> ResolveRegion(RegionDirectory& regions,
                                             const std::vector<std::string>& reserved,
                                             const pb::RegionSpecifier& region) {
  if (region.type() != pb::RegionSpecifier::REGION_NAME) {
    return DoNotRetry("a region must be named by its full name (REGION_NAME)");
  }
  const std::string& name = region.value();
  if (name.starts_with(kMetaRegionPrefix)) return Target{true, {}};
  std::optional<TableName> table = regions.Resolve(name);
  if (!table) {
    return RpcError{std::string(kNotServingRegionException),
                    "Region " + PrintableRegionName(name) + " is not online on this server", false};
  }
  if (IsReservedNamespace(reserved, table->ns)) {
    return RpcError{std::string(kAccessDeniedException), ReservedNamespaceMessage(table->ns),
                    false};
  }
  return Target{false, *std::move(table)};
}

}  // namespace

ClientService::Answer ClientService::Get(const DecodedCall& call) {
  pb::GetRequest request;
  if (auto error = ParseRequest(call, &request)) return *error;
  auto target = ResolveRegion(regions_, reserved_namespaces_, request.region());
  if (auto* error = std::get_if<RpcError>(&target)) return *error;
  const Target& where = std::get<Target>(target);
  Result<basalt::Get> get = hbase_proto::GetFromProto(request.get());
  if (!get.ok()) return DataCallError(get.status());
  pb::GetResponse response;
  if (where.meta) {
    Result<RowResult> row = meta_.Get(*get);
    if (!row.ok()) return DataCallError(row.status());
    if (request.get().existence_only()) {
      response.mutable_result()->set_exists(!row->empty());
    } else {
      hbase_proto::ResultToProto(*row, response.mutable_result());
    }
    return Encode(response);
  }
  Result<std::unique_ptr<Table>> table = conn_.GetTable(where.table);
  if (!table.ok()) return DataCallError(table.status());
  if (request.get().existence_only()) {
    Result<bool> exists = (*table)->Exists(*get);
    if (!exists.ok()) return DataCallError(exists.status());
    response.mutable_result()->set_exists(*exists);
    return Encode(response);
  }
  Result<RowResult> row = (*table)->Get(*get);
  if (!row.ok()) return DataCallError(row.status());
  hbase_proto::ResultToProto(*row, response.mutable_result());
  return Encode(response);
}

ClientService::Answer ClientService::Mutate(const DecodedCall& call) {
  pb::MutateRequest request;
  if (auto error = ParseRequest(call, &request)) return *error;
  auto target = ResolveRegion(regions_, reserved_namespaces_, request.region());
  if (auto* error = std::get_if<RpcError>(&target)) return *error;
  const Target& where = std::get<Target>(target);
  if (where.meta) return DoNotRetry("hbase:meta is basalt's, and read-only");
  CellBlockReader cells(call.cell_block);
  Result<Mutation> mutation = MutationOf(request.mutation(), cells);
  if (!mutation.ok()) return DataCallError(mutation.status());
  Result<std::unique_ptr<Table>> table = conn_.GetTable(where.table);
  if (!table.ok()) return DataCallError(table.status());
  pb::MutateResponse response;
  if (request.has_condition()) {
    Result<CheckAndMutate> check = hbase_proto::ConditionFromProto(request.condition());
    if (!check.ok()) return DataCallError(check.status());
    Result<CheckAndMutate::Action> action = ActionOf(*std::move(mutation));
    if (!action.ok()) return DataCallError(action.status());
    check->Then(*std::move(action));
    Result<bool> passed = (*table)->CheckAndMutate(*check);
    if (!passed.ok()) return DataCallError(passed.status());
    response.set_processed(*passed);
    return Encode(response);
  }
  if (Status s = Apply(**table, *mutation, response.mutable_result()); !s.ok()) {
    return DataCallError(s);
  }
  response.set_processed(true);
  return Encode(response);
}

ClientService::Answer ClientService::Scan(const DecodedCall& call, std::string_view client) {
  pb::ScanRequest request;
  if (auto error = ParseRequest(call, &request)) return *error;
  pb::ScanResponse response;
  std::shared_ptr<ScannerRegistry::Entry> entry;
  int32_t id = 0;
  if (request.has_scanner_id()) {
    if (request.scanner_id() > static_cast<uint64_t>(INT32_MAX) ||
        !(entry = scanners_.Find(static_cast<int32_t>(request.scanner_id()), client))) {
      return RpcError{std::string(kUnknownScannerException),
                      "Unknown scanner '" + std::to_string(request.scanner_id()) +
                          "'. This can happen due to any of the following reasons: a) Scanner id "
                          "given is wrong, b) Scanner lease expired because of long wait between "
                          "consecutive client checkins, c) Server may be closing down",
                      false};
    }
    id = static_cast<int32_t>(request.scanner_id());
    response.set_scanner_id(request.scanner_id());
    if (request.close_scanner()) {
      scanners_.Remove(id, client);
      response.set_more_results(false);
      return Encode(response);
    }
  } else {
    if (!request.has_region() || !request.has_scan()) {
      return DoNotRetry("a Scan call names neither a scanner nor a region and a scan");
    }
    auto target = ResolveRegion(regions_, reserved_namespaces_, request.region());
    if (auto* error = std::get_if<RpcError>(&target)) return *error;
    const Target& where = std::get<Target>(target);
    Result<basalt::Scan> scan = hbase_proto::ScanFromProto(request.scan());
    if (!scan.ok()) return DataCallError(scan.status());
    if (request.limit_of_rows() > 0) scan->SetLimit(request.limit_of_rows());
    std::unique_ptr<Table> table;
    if (!where.meta) {
      Result<std::unique_ptr<Table>> opened = conn_.GetTable(where.table);
      if (!opened.ok()) return DataCallError(opened.status());
      table = *std::move(opened);
    }
    Result<std::unique_ptr<ResultScanner>> scanner =
        where.meta ? meta_.Scan(*scan) : table->GetScanner(*scan);
    if (!scanner.ok()) return DataCallError(scanner.status());
    Result<int32_t> added = scanners_.Add(client, std::move(table), *std::move(scanner));
    if (!added.ok()) return DataCallError(added.status());
    id = *added;
    entry = scanners_.Find(id, client);
    if (!entry) return DataCallError(Status::Busy("the scanner was closed to make room"));
    {
      ScannerRegistry::Lease lease(entry);
      entry->max_result_bytes = request.scan().max_result_size();
    }
    response.set_scanner_id(static_cast<uint64_t>(id));
    response.set_ttl(static_cast<uint32_t>(options_.scanner_lease.count()));
  }

  ScannerRegistry::Lease lease(entry);
  if (request.has_scanner_id()) {
    if (request.renew()) {
      response.set_more_results_in_region(true);
      return Encode(response);
    }
    if (request.has_next_call_seq() && request.next_call_seq() != entry->next_call_seq) {
      const uint64_t expected = entry->next_call_seq;
      scanners_.Remove(id, client);
      return RpcError{
          std::string(kOutOfOrderScannerNextException),
          "Expected nextCallSeq: " + std::to_string(expected) +
              " But the nextCallSeq got from client: " + std::to_string(request.next_call_seq()),
          false};
    }
  }
  if (entry->broken) {
    scanners_.Remove(id, client);
    return DataCallError(Status::IOError("the scanner failed on an earlier call"));
  }
  const uint32_t rows_wanted = std::min(request.number_of_rows(), options_.max_rows_per_call);
  uint64_t byte_budget =
      entry->max_result_bytes > 0 ? entry->max_result_bytes : kDefaultMaxResultBytes;
  byte_budget = std::min(byte_budget, options_.max_result_bytes);
  bool exhausted = false;
  uint64_t bytes = 0;
  // The client sends the rows its limit has left with every call: once that many rows are
  // answered, the scan is over, which saves the client a call to learn it.
  uint64_t rows_ended = 0;
  RowResult row;
  for (uint32_t n = 0; n < rows_wanted && bytes < byte_budget; ++n) {
    if (!entry->scanner->Next(&row)) {
      if (Status s = entry->scanner->status(); !s.ok()) {
        entry->broken = true;
        scanners_.Remove(id, client);
        return DataCallError(s);
      }
      exhausted = true;
      break;
    }
    pb::Result* result = response.add_results();
    hbase_proto::ResultToProto(row, result);
    bytes += CellBytes(*result);
    if (!row.partial() && request.limit_of_rows() > 0 && ++rows_ended >= request.limit_of_rows()) {
      exhausted = true;
      break;
    }
  }
  if (request.has_scanner_id() || rows_wanted > 0) ++entry->next_call_seq;
  if (exhausted) {
    // HBase's "nothing more in this scan": the client ends it without looking for the next
    // region.
    response.set_more_results_in_region(false);
    response.set_more_results(false);
    scanners_.Remove(id, client);
  } else {
    response.set_more_results_in_region(true);
    response.set_more_results(true);
  }
  return Encode(response);
}

ClientService::Answer ClientService::Multi(const DecodedCall& call) {
  pb::MultiRequest request;
  if (auto error = ParseRequest(call, &request)) return *error;
  size_t actions = 0;
  for (const pb::RegionAction& region_action : request.regionaction()) {
    actions += static_cast<size_t>(region_action.action_size());
  }
  if (actions > options_.max_multi_actions) {
    return DoNotRetry("a Multi of " + std::to_string(actions) + " actions; at most " +
                      std::to_string(options_.max_multi_actions) + " are taken");
  }
  CellBlockReader cells(call.cell_block);
  pb::MultiResponse response;
  for (const pb::RegionAction& region_action : request.regionaction()) {
    pb::RegionActionResult* region_result = response.add_regionactionresult();
    // Every mutation's cells are read, whatever becomes of it: the next ones follow them.
    std::vector<std::optional<Result<Mutation>>> mutations;
    for (const pb::Action& action : region_action.action()) {
      if (action.has_mutation()) {
        mutations.emplace_back(MutationOf(action.mutation(), cells));
      } else {
        mutations.emplace_back(std::nullopt);
      }
    }
    auto target = ResolveRegion(regions_, reserved_namespaces_, region_action.region());
    if (auto* error = std::get_if<RpcError>(&target)) {
      *region_result->mutable_exception() = ExceptionPair(*error);
      continue;
    }
    const Target& where = std::get<Target>(target);
    std::unique_ptr<Table> table;
    if (!where.meta) {
      Result<std::unique_ptr<Table>> opened = conn_.GetTable(where.table);
      if (!opened.ok()) {
        *region_result->mutable_exception() = ExceptionPair(DataCallError(opened.status()));
        continue;
      }
      table = *std::move(opened);
    }

    if (region_action.atomic() || region_action.has_condition()) {
      // One row's mutations, all or none (RowMutations, checkAndMutate's batched form).
      auto fail = [&](const Status& s) {
        *region_result->mutable_exception() = ExceptionPair(DataCallError(s));
      };
      if (where.meta) {
        fail(Status::InvalidArgument("hbase:meta is basalt's, and read-only"));
        continue;
      }
      std::optional<RowMutations> row_mutations;
      Status status;
      for (size_t i = 0; i < mutations.size() && status.ok(); ++i) {
        if (!mutations[i]) {
          status = Status::InvalidArgument("a Get in an atomic region action");
        } else if (!mutations[i]->ok()) {
          status = mutations[i]->status();
        } else {
          Mutation& m = **mutations[i];
          if (!row_mutations) row_mutations.emplace(MutationRow(m));
          if (auto* put = std::get_if<Put>(&m)) {
            row_mutations->Add(std::move(*put));
          } else if (auto* del = std::get_if<Delete>(&m)) {
            row_mutations->Add(std::move(*del));
          } else {
            status = Status::InvalidArgument(
                "an Increment or Append in an atomic region action is not supported");
          }
        }
      }
      if (status.ok() && !row_mutations) status = Status::InvalidArgument("an empty region action");
      if (!status.ok()) {
        fail(status);
        continue;
      }
      if (region_action.has_condition()) {
        Result<CheckAndMutate> check = hbase_proto::ConditionFromProto(region_action.condition());
        if (!check.ok()) {
          fail(check.status());
          continue;
        }
        check->Then(*std::move(row_mutations));
        Result<bool> passed = table->CheckAndMutate(*check);
        if (!passed.ok()) {
          fail(passed.status());
          continue;
        }
        region_result->set_processed(*passed);
      } else if (Status s = table->MutateRow(*row_mutations); !s.ok()) {
        fail(s);
        continue;
      } else {
        region_result->set_processed(true);
      }
      // As HBase answers an atomic action: an empty result per mutation, indexed by its place.
      for (int i = 0; i < region_action.action_size(); ++i) {
        region_result->add_resultorexception()->set_index(static_cast<uint32_t>(i));
      }
      continue;
    }

    // Independent actions, each with its own result or error. The Puts go first as one batch;
    // if the batch fails (one Put is invalid, and then none is written) each is applied alone,
    // so that only the invalid ones fail.
    std::vector<Put> puts;
    std::vector<size_t> put_indexes;
    for (size_t i = 0; i < mutations.size(); ++i) {
      if (mutations[i] && mutations[i]->ok() && std::holds_alternative<Put>(**mutations[i])) {
        puts.push_back(std::get<Put>(**mutations[i]));
        put_indexes.push_back(i);
      }
    }
    std::vector<bool> done(mutations.size(), false);
    if (!where.meta && puts.size() > 1 && table->Put(puts).ok()) {
      for (size_t i : put_indexes) done[i] = true;
    }
    for (size_t i = 0; i < mutations.size(); ++i) {
      const pb::Action& action = region_action.action(static_cast<int>(i));
      pb::ResultOrException* entry = region_result->add_resultorexception();
      entry->set_index(action.index());
      Status status;
      if (done[i]) {
        entry->mutable_result();
      } else if (mutations[i]) {
        if (!mutations[i]->ok()) {
          status = mutations[i]->status();
        } else if (where.meta) {
          status = Status::InvalidArgument("hbase:meta is basalt's, and read-only");
        } else {
          status = Apply(*table, **mutations[i], entry->mutable_result());
        }
      } else if (action.has_get()) {
        Result<basalt::Get> get = hbase_proto::GetFromProto(action.get());
        Result<RowResult> row = !get.ok()    ? Result<RowResult>(get.status())
                                : where.meta ? meta_.Get(*get)
                                             : table->Get(*get);
        if (!row.ok()) {
          status = row.status();
        } else if (action.get().existence_only()) {
          entry->mutable_result()->set_exists(!row->empty());
        } else {
          hbase_proto::ResultToProto(*row, entry->mutable_result());
        }
      } else {
        status = Status::InvalidArgument(
            "an action that is neither a Get nor a mutation "
            "(coprocessor calls are not served)");
      }
      if (!status.ok()) {
        entry->clear_result();
        *entry->mutable_exception() = ExceptionPair(DataCallError(status));
      }
    }
  }
  return Encode(response);
}

}  // namespace basalt::server::hbase_rpc
