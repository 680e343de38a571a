// Linked-list verification, in the spirit of HBase's IntegrationTestBigLinkedList: writers grow
// chains of nodes, each node naming the node before it, and a node is written only after the one
// it names was acknowledged. A verifier then scans the table: a node that is named but missing
// (UNDEFINED) is an acknowledged write that was lost; a node nobody names (UNREFERENCED) must be
// the head of a chain, or a node whose write was not acknowledged.
//
// Table layout: row = node id (16 random hex digits, so writes spread over the key space),
// column f:p = the previous node's id (empty for the first node of a chain).

#ifndef BASALT_TESTS_CRASH_LINKED_LIST_H_
#define BASALT_TESTS_CRASH_LINKED_LIST_H_

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "basalt/status.h"
#include "basalt/table.h"
#include "basalt/types.h"

namespace basalt::crash {

inline constexpr char kListFamily[] = "f";

// Grows one chain. Not thread-safe: one per writer thread.
class ChainWriter {
 public:
  // Nodes are written with `durability` (SYNC_WAL: acknowledged means in the write-ahead log).
  ChainWriter(uint64_t seed, Durability durability) : rng_(seed), durability_(durability) {}

  // Writes one node naming the head into `table`. OK: the node is the new head. Otherwise the
  // write's fate is unknown (the node is remembered as such) and the head stays.
  Status AppendNode(Table& table);

  // The last acknowledged node ("" before the first).
  const std::string& head() const { return head_; }
  // Nodes whose write returned an error: each may or may not exist.
  const std::vector<std::string>& unknown() const { return unknown_; }
  int64_t acknowledged() const { return acknowledged_; }

 private:
  std::mt19937_64 rng_;
  const Durability durability_;
  std::string head_;
  std::vector<std::string> unknown_;
  int64_t acknowledged_ = 0;
};

struct ListCounts {
  int64_t referenced = 0;    // nodes that exist and are named by another node
  int64_t unreferenced = 0;  // nodes that exist and are named by none
  int64_t undefined = 0;     // nodes named by a node (or a chain head) that do not exist
  // Unreferenced nodes that are neither a chain head nor an unacknowledged write.
  int64_t unexpected_unreferenced = 0;
  std::vector<std::string> examples;  // a few offending node ids, for the report
};

// Scans the whole list table. `heads` are the chains' acknowledged heads (each must exist);
// `unknown` the nodes whose write was not acknowledged (they may be unreferenced).
Result<ListCounts> VerifyLinkedList(Table& table, const std::set<std::string>& heads,
                                    const std::set<std::string>& unknown);

}  // namespace basalt::crash

#endif  // BASALT_TESTS_CRASH_LINKED_LIST_H_
