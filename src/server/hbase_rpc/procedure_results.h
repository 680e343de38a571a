// The outcomes of the DDL procedures MasterService answered, by proc_id, for getProcedureResult.
// basalt runs each DDL call to its end before answering it, so a procedure is never RUNNING: it
// is FINISHED (with the HBase exception it failed with, if any) or, once evicted or never
// given, NOT_FOUND. The map is capped: a client polls its procedure right after the call, so
// the most recent outcomes are the ones asked for, and the oldest go first.
//
// A procedure may carry the client's nonce (HBase's nonce_group and nonce, which the Java client
// draws for every DDL call and keeps when it retries the call): a call that repeats a recorded
// nonce is the client retrying a call whose answer it lost, and is answered the first proc_id
// instead of being applied twice.
//
// Thread safety: every method from any thread.

#ifndef BASALT_SERVER_HBASE_RPC_PROCEDURE_RESULTS_H_
#define BASALT_SERVER_HBASE_RPC_PROCEDURE_RESULTS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "util/mutex.h"

namespace basalt::server::hbase_rpc {

// How a procedure failed: an HBase exception class (its full Java name) and message.
struct ProcedureFailure {
  std::string exception_class;
  std::string message;
};

struct NonceKey {
  uint64_t group = 0;
  uint64_t nonce = 0;
  friend auto operator<=>(const NonceKey&, const NonceKey&) = default;
};

struct ProcedureOutcome {
  uint64_t finished_ms = 0;                 // wall-clock ms when it ended
  std::optional<ProcedureFailure> failure;  // none: it succeeded
};

inline constexpr size_t kMaxProcedureResults = 10000;

class ProcedureResults {
 public:
  explicit ProcedureResults(size_t capacity = kMaxProcedureResults) : capacity_(capacity) {}

  // Records a finished procedure and returns its new proc_id: 1, 2, ... in call order. Evicts
  // the oldest outcome beyond the capacity.
  uint64_t Record(ProcedureOutcome outcome, std::optional<NonceKey> nonce = std::nullopt);
  // nullopt for an id never given or already evicted.
  std::optional<ProcedureOutcome> Find(uint64_t proc_id) const;
  // The proc_id recorded with `nonce`, while its outcome is kept.
  std::optional<uint64_t> FindByNonce(const NonceKey& nonce) const;

 private:
  const size_t capacity_;
  mutable util::Mutex mu_;
  struct Entry {
    ProcedureOutcome outcome;
    std::optional<NonceKey> nonce;
  };
  std::map<uint64_t, Entry> outcomes_ BASALT_GUARDED_BY(mu_);
  std::map<NonceKey, uint64_t> by_nonce_ BASALT_GUARDED_BY(mu_);
  uint64_t last_id_ BASALT_GUARDED_BY(mu_) = 0;
};

}  // namespace basalt::server::hbase_rpc

#endif  // BASALT_SERVER_HBASE_RPC_PROCEDURE_RESULTS_H_
