// Creating the tables a recipe needs, through the public Admin API.

#ifndef BASALT_RECIPES_TABLE_SETUP_H_
#define BASALT_RECIPES_TABLE_SETUP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/admin.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

// Creates namespace `ns` when it is missing. Another process creating it at the same time is
// not an error.
Status EnsureNamespace(Admin& admin, const std::string& ns);

// Creates `name` with `families` (one version each, compressed with `compression`), pre-split
// at `split_keys`, when it is missing. An existing table is accepted as it is (whatever its
// regions and compression) when it has every family in `families`; FailedPrecondition otherwise.
Status EnsureTable(Admin& admin, const TableName& name, const std::vector<std::string>& families,
                   Compression compression, const std::vector<std::string>& split_keys = {});

// Creates `desc` (and its namespace), pre-split at `split_keys`, unless a table of that name
// exists; an existing table is left as it is.
Status EnsureTable(Admin& admin, const TableDescriptor& desc,
                   const std::vector<std::string>& split_keys = {});

// The split keys of a recipe's presplit_regions option (the `modelling` rules of
// docs/design/workloads.md: pre-split tables whose keys are spread), for row keys whose first byte
// is spread evenly over [0, first_byte_values): 256 for a hash prefix, N for a salt byte of N
// buckets. One-byte keys cutting that range into min(regions, first_byte_values) ranges of equal
// width (within one value); none for regions
// <= 1. InvalidArgument, naming `option`, for regions outside 0..256.
// E.g. EvenFirstByteSplits(4, 256) = {"\x40", "\x80", "\xC0"}; (4, 8) = {"\x02", "\x04", "\x06"}.
Result<std::vector<std::string>> EvenFirstByteSplits(int regions, int first_byte_values,
                                                     std::string_view option);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_TABLE_SETUP_H_
