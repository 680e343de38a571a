// Creating the tables a recipe needs, on the public Admin API.

#ifndef BASALT_RECIPES_RECIPE_TABLES_H_
#define BASALT_RECIPES_RECIPE_TABLES_H_

#include <cstdint>

#include "basalt/admin.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

// Creates `desc` (and its namespace) unless a table of that name exists; an existing table is
// used as it is. Safe against another process creating it at the same time.
Status EnsureTable(Admin& admin, const TableDescriptor& desc);

// Milliseconds since the Unix epoch on the system clock.
int64_t NowMillis();

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_RECIPE_TABLES_H_
