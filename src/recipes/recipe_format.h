// The format version of a recipe's stored layout, recorded in one cell of the recipe's meta row
// and checked by the recipe's Open, as the engine records and checks its own (docs/format.md).
//
// Each recipe owns a layout (its rows, families, qualifiers and value encodings; the recipe's
// header or layout file spells it out) and numbers it: the current version is what this basalt
// writes, the oldest readable one the first it still reads. Changing a layout means bumping the
// recipe's current version and either reading the older one as well (keeping the oldest
// readable version) or raising the oldest readable version to the new one, so that stores of
// the older layout are refused at Open instead of being misread. The golden-byte tests beside
// each recipe (*_format_test.cc) fail when a layout changes without that.
//
// The cell holds the version in decimal ASCII ("1"), as the engine's does.

#ifndef BASALT_RECIPES_RECIPE_FORMAT_H_
#define BASALT_RECIPES_RECIPE_FORMAT_H_

#include <string>
#include <string_view>

#include "basalt/status.h"
#include "basalt/table.h"

namespace basalt::recipes {

// The meta row of the recipes whose tables have no row kinds of their own (all but the feed,
// whose meta row is a kind of its layout). Never a data row of any of them: their keys are
// tuple-codec bytes (a 00 byte in them is followed by FF or 01), user names of [a-z0-9_], or
// fixed-width hashes of 8 or 16 bytes.
inline constexpr std::string_view kRecipeMetaRow{"\0meta", 5};
// The qualifier of the version cell in the meta row.
inline constexpr std::string_view kFormatVersionQualifier = "v";

// What a recipe's Open checks.
struct RecipeFormat {
  std::string recipe;  // the recipe's name in errors, e.g. "feed"
  int current = 0;     // the version this basalt writes
  int oldest_readable = 0;
  // Where the version cell lives in the table given to CheckRecipeFormat.
  std::string row;
  std::string family;
  std::string qualifier = std::string(kFormatVersionQualifier);
};

// Checks (and records) `format` in `table`; errors reading it name the recipe and the table:
//   - no version cell (tables made by this Open, or that hold nothing of the recipe yet): writes
//     format.current;
//   - format.current: OK;
//   - a version in [oldest_readable, current): readable; records format.current, since what the
//     recipe writes from now on is in the current layout;
//   - anything else (a newer version, an older one, a value that is not a version):
//     FailedPrecondition naming the recipe, the table, the version found and the versions this
//     basalt reads, and nothing is written.
// Concurrent Opens agree: the cell is written with CheckAndMutate. Busy when it keeps changing.
Status CheckRecipeFormat(Table& table, const RecipeFormat& format);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_RECIPE_FORMAT_H_
