// Random operation lines (diff_ops.h) for the differential test, from a seed.
//
// The generator steers clear of the differences docs/data-model.md lists as deliberate, so that
// any difference the test reports is one nobody has explained:
//  - deletes mask later Puts in HBase: a Put's explicit timestamp is always above every delete
//    marker's timestamp in its row, and once a row has a server-timestamped marker its Puts take
//    the server's time (the runner spaces writes a millisecond apart);
//  - VERSIONS applies before the time range (and before filters) in basalt: reads with a time
//    range or a filter that drops single versions select only family "a", whose VERSIONS is
//    never reached, and read all versions;
//  - version-specific deletes, which uncover older versions until a compaction, go to "a" only.
// Family "c" has a TTL of two hours and MIN_VERSIONS 1; some of its Puts are far older.

#ifndef BASALT_TESTS_HBDIFF_OP_GENERATOR_H_
#define BASALT_TESTS_HBDIFF_OP_GENERATOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "basalt/schema.h"

namespace basalt::hbdiff {

// The table every sequence runs on: families a (VERSIONS 1000), b (VERSIONS 2), c (VERSIONS 3,
// MIN_VERSIONS 1, TTL 7200 s).
TableDescriptor DiffTable(const std::string& name);

// `count` lines from `seed`; the same seed gives the same lines.
std::vector<std::string> GenerateOps(uint64_t seed, int count);

}  // namespace basalt::hbdiff

#endif  // BASALT_TESTS_HBDIFF_OP_GENERATOR_H_
