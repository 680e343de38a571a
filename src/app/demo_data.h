// `basalt serve --demo`: the demo data set (basalt/recipes/demo.h) loaded on a store's first
// start only.
//
// Rule: load when the store has no completion marker and the demo's users table
// (<namespace>:social_users) is missing or empty; then write the marker. A store that holds users
// already (from `basalt demo load`, or real ones) is never loaded into, and a start after a
// completed load finds the marker. The marker is row "loaded" of table <namespace>:basalt_demo,
// family "d": "at" = load time (ms since the epoch, decimal) and "summary" = what was written.

#ifndef BASALT_APP_DEMO_DATA_H_
#define BASALT_APP_DEMO_DATA_H_

#include <string>

#include "basalt/connection.h"
#include "basalt/recipes/demo.h"
#include "basalt/status.h"

namespace basalt::app {

inline constexpr char kDemoMarkerTable[] = "basalt_demo";

// The demo's default counts (DemoOptions) times `scale`, at least 2 users and 1 item.
// InvalidArgument unless 0 < scale <= 100.
Result<recipes::DemoOptions> ScaledDemoOptions(double scale);

// Loads ScaledDemoOptions(scale) into namespace `name_space` under the rule above. Returns what
// happened, "loaded: ..." or "skipped: ..." (a line for the server's log); InvalidArgument for a
// bad scale, before any write; otherwise the first recipe error (the marker is then not written).
// `progress` is called as the load goes (recipes/demo.h).
Result<std::string> LoadDemoOnFirstStart(Connection& conn, const std::string& name_space,
                                         double scale, const recipes::DemoProgress& progress = {});

}  // namespace basalt::app

#endif  // BASALT_APP_DEMO_DATA_H_
