// Everything a basalt user needs: include this one header.

#ifndef BASALT_BASALT_H_
#define BASALT_BASALT_H_

#include "basalt/admin.h"               // IWYU pragma: export
#include "basalt/bulk_load.h"           // IWYU pragma: export
#include "basalt/cell.h"                // IWYU pragma: export
#include "basalt/check_and_mutate.h"    // IWYU pragma: export
#include "basalt/connection.h"          // IWYU pragma: export
#include "basalt/filter.h"              // IWYU pragma: export
#include "basalt/filter_language.h"     // IWYU pragma: export
#include "basalt/get.h"                 // IWYU pragma: export
#include "basalt/key_spread.h"          // IWYU pragma: export
#include "basalt/keys.h"                // IWYU pragma: export
#include "basalt/multi_row_mutation.h"  // IWYU pragma: export
#include "basalt/mutation.h"            // IWYU pragma: export
#include "basalt/options.h"             // IWYU pragma: export
#include "basalt/paging.h"              // IWYU pragma: export
#include "basalt/row_result.h"          // IWYU pragma: export
#include "basalt/salting.h"             // IWYU pragma: export
#include "basalt/scan.h"                // IWYU pragma: export
#include "basalt/schema.h"              // IWYU pragma: export
#include "basalt/stats.h"               // IWYU pragma: export
#include "basalt/status.h"              // IWYU pragma: export
#include "basalt/table.h"               // IWYU pragma: export
#include "basalt/types.h"               // IWYU pragma: export

#endif  // BASALT_BASALT_H_
