// Creating the tables a recipe needs, through the public Admin API.

#ifndef BASALT_RECIPES_TABLE_SETUP_H_
#define BASALT_RECIPES_TABLE_SETUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "basalt/admin.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

// Creates namespace `ns` when it is missing. Another process creating it at the same time is
// not an error.
Status EnsureNamespace(Admin& admin, const std::string& ns);

// Creates `name` with `families` (one version each) when it is missing. An existing table is
// accepted as it is when it has every family in `families`; FailedPrecondition otherwise.
Status EnsureTable(Admin& admin, const TableName& name, const std::vector<std::string>& families);

// Creates `desc` (and its namespace) unless a table of that name exists; an existing table is
// left as it is.
Status EnsureTable(Admin& admin, const TableDescriptor& desc);

// Wall-clock milliseconds since the epoch: the recipes' default event time.
int64_t NowMillis();

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_TABLE_SETUP_H_
