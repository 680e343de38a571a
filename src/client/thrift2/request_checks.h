// The checks a request passes on the client before it is sent over Thrift2, and the reading of
// failures HBase's gateway does not explain.
//
// HBase's own Java client refuses bad requests before they leave it (Mutation.checkRow, the
// timestamp and version checks of Put, Get and Scan, validatePut's empty Put and
// hbase.client.keyvalue.maxsize, TableName's and the filter parser's rules, Admin's split key
// checks). HBase's Thrift2 gateway runs the same checks only while it converts a request, where a
// failure is a RuntimeException that reaches the client as a bare TApplicationException
// ("Internal error processing put"), or an IOException its own client retries for half a minute
// before giving up. So the remote backend makes those checks itself, in the embedded store's words
// (engine/cell_checks.h), and every backend refuses the same input with the same InvalidArgument.
//
// None of these needs the table's schema: families are checked by the server (or by Batch, which
// reads the schema once).

#ifndef BASALT_CLIENT_THRIFT2_REQUEST_CHECKS_H_
#define BASALT_CLIENT_THRIFT2_REQUEST_CHECKS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "basalt/check_and_mutate.h"
#include "basalt/filter.h"
#include "basalt/get.h"
#include "basalt/mutation.h"
#include "basalt/scan.h"
#include "basalt/schema.h"
#include "basalt/status.h"
#include "client/thrift2/client_pool.h"

namespace basalt::client::remote {

// Row key, timestamps, qualifier lengths, cell counts and (Put, Append) value sizes against
// `max_value_bytes` (ConnectionOptions::max_value_bytes; its default is HBase's 10 MiB
// hbase.client.keyvalue.maxsize).
Status CheckRequest(const Put& put, size_t max_value_bytes);
Status CheckRequest(const Delete& del);
Status CheckRequest(const Increment& inc);
Status CheckRequest(const Append& app, size_t max_value_bytes);
Status CheckRequest(const RowMutations& rm, size_t max_value_bytes);
Status CheckRequest(const CheckAndMutate& cam, size_t max_value_bytes);
// Row key, versions, time range, filter (see CheckFilter).
Status CheckRequest(const Get& get);
// Versions, time range, filter, and a batch size with a filter that needs whole rows (HBase's
// IncompatibleFilterException, which its gateway's client retries before it fails).
Status CheckRequest(const Scan& scan);

// A filter the filter language can carry and that would compile: the text the request sends
// must parse back (null children, negative sizes, bad regular expressions and fuzzy masks, too
// deep a nesting fail here as they fail on the embedded store).
Status CheckFilter(const FilterPtr& filter);

// The first basalt extension of HBase's filter language the filter uses (the `long:` comparator,
// FuzzyRowFilter: docs/filters.md), or nullopt. HBase's gateway parses filterString with its own
// ParseFilter, which knows neither.
std::optional<std::string> FilterLanguageExtension(const FilterPtr& filter);

// Split keys for Admin::CreateTable: none empty, none twice (HBase sorts them itself).
Status CheckSplitKeys(const std::vector<std::string>& split_keys);

// `failure` of a read with `filter`, told better when HBase's gateway failed on a filter that
// uses a basalt extension: NotSupported, naming it. Otherwise `failure` unchanged.
Status ExplainFilterFailure(Status failure, const FilterPtr& filter);

// `failure` of a call on `table`, told better when it is a bare IOError from the server (HBase's
// gateway answers a missing table with its name alone and a disabled one with "t is disabled."):
// one more call asks whether the table exists and is enabled, giving NotFound or
// FailedPrecondition. Otherwise, or when that call fails too, `failure` unchanged.
Status ExplainTableFailure(ClientPool& pool, const TableName& table, Status failure);

}  // namespace basalt::client::remote

#endif  // BASALT_CLIENT_THRIFT2_REQUEST_CHECKS_H_
