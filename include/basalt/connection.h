// Connection: the entry point. Opens a store and hands out Admin and Table objects.
//
//   auto conn = basalt::Connection::Open("/var/lib/basalt");   // embedded store on RocksDB
//   auto table = (*conn)->GetTable("users");
//
// Thread safety: a Connection may be shared by many threads.

#ifndef BASALT_CONNECTION_H_
#define BASALT_CONNECTION_H_

#include <memory>
#include <string>
#include <string_view>

#include "basalt/admin.h"
#include "basalt/multi_row_mutation.h"
#include "basalt/options.h"
#include "basalt/schema.h"
#include "basalt/status.h"
#include "basalt/table.h"

namespace basalt {

class Connection {
 public:
  // `target` names the backend:
  //   "DIR", "file:DIR" or "embedded:DIR"  an embedded store in directory DIR;
  //   "mem:"                               a fresh in-memory embedded store;
  //   "thrift://HOST:PORT[?OPTIONS]"       an HBase Thrift2 server (basalt's or an HBase
  //                                        cluster's gateway); OPTIONS: transport=buffered|framed,
  //                                        protocol=binary|compact, max_frame_bytes=N,
  //                                        timeout_ms=N (see docs/hbase.md).
  // Only one Connection (in any process) may open an embedded directory at a time; a second
  // gets Busy.
  static Result<std::unique_ptr<Connection>> Open(std::string_view target,
                                                  const ConnectionOptions& options = {});

  virtual ~Connection() = default;

  // Owned by the Connection.
  virtual Admin& admin() = 0;

  // NotFound when the table does not exist.
  virtual Result<std::unique_ptr<Table>> GetTable(const TableName& name) = 0;
  Result<std::unique_ptr<Table>> GetTable(std::string_view name);

  // Applies `m` (multi_row_mutation.h) when all its conditions hold: true when applied, false
  // (nothing written) when a condition failed. Every mutation and condition is validated first;
  // an invalid one (unknown table or family, bad row, no mutations) fails the call with
  // InvalidArgument or NotFound, and a disabled table with FailedPrecondition, writing nothing.
  // NotSupported on backends that cannot apply writes to several rows atomically (thrift://:
  // Thrift2 has no such call); callers then fall back to single-row calls. The default is
  // NotSupported.
  virtual Result<bool> MutateRows(const MultiRowMutation& m);

  // What Open was given, normalised (e.g. "embedded:/var/lib/basalt").
  virtual std::string target() const = 0;

  // Flushes and closes the store. Calls on its Tables afterwards fail with Aborted. Called by
  // the destructor if not before.
  virtual Status Close() = 0;
};

}  // namespace basalt

#endif  // BASALT_CONNECTION_H_
