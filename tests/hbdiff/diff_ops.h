// The differential test's operations: one line of text each, so that a failing sequence prints
// as a regression test and a regression test reads as the sequence. Applying a line to a Table
// gives a normalised outcome (the cells read, a check's verdict, or "error"); two stores agree
// when every line gives the same outcome on both.
//
// Lines (ROW, F family, Q qualifier, V value; @T an explicit timestamp, an offset from the run's
// base time, so that explicit cells are hours old and server-timestamped ones are newer):
//   put ROW F:Q=V[@T] ...                    one Put; a cell without @T takes the server's time
//   del ROW [@T]                             whole-row delete (up to T)
//   delfam ROW F [@T]                        DeleteFamily
//   delfamver ROW F @T                       DeleteFamilyVersion
//   delcol ROW F:Q [@T]                      Delete of one version (the latest without @T)
//   delcols ROW F:Q [@T]                     DeleteColumn: every version (up to T)
//   incr ROW F:Q=N ...                       Increment
//   append ROW F:Q=V ...                     Append
//   mutate ROW SUB | SUB ...                 RowMutations of put/del* lines without their ROW
//   cam ROW F:Q OP VALUE|- then SUB | ...    CheckAndMutate (OP: < <= = != >= >; '-' absent)
//   get ROW [cols=F,F:Q] [v=N|all] [tr=A,B|A,max] [mrpf=N] [ropf=N] [filter=STRING]
//   scan [start=R] [stop=R] [rev] [limit=N] [batch=N] [caching=N] and get's options
// `filter=` takes the rest of the line; an @T inside it is a timestamp as above.
// Outcome timestamps: explicit ones print as @T, server-assigned ones as "S" (the two stores'
// clocks differ; their order shows in the cells' order).

#ifndef BASALT_TESTS_HBDIFF_DIFF_OPS_H_
#define BASALT_TESTS_HBDIFF_DIFF_OPS_H_

#include <cstdint>
#include <string>

#include "basalt/table.h"

namespace basalt::hbdiff {

// The times the outcomes are normalised against, fixed for a run.
struct Clock {
  int64_t base = 0;          // @0
  int64_t server_floor = 0;  // a timestamp at or above this one was assigned by a server
};

// Applies `line` to `table` and returns its normalised outcome. A line that does not parse is
// "bad op: ..." (a bug of the generator, which the caller reports).
std::string ApplyOp(Table& table, const Clock& clock, const std::string& line);

// Whether two outcomes agree: an error's message (after a tab) is not compared.
bool SameOutcome(const std::string& a, const std::string& b);

// True for lines that write (the caller spaces them a millisecond apart: see the .cc).
bool IsWrite(const std::string& line);

}  // namespace basalt::hbdiff

#endif  // BASALT_TESTS_HBDIFF_DIFF_OPS_H_
