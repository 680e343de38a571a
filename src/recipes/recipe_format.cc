#include "recipes/recipe_format.h"

#include <charconv>
#include <optional>

#include "basalt/check_and_mutate.h"

namespace basalt::recipes {
namespace {

// The version a cell holds: decimal digits only, as CheckRecipeFormat writes them.
std::optional<int> ParseVersion(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  int version = 0;
  std::from_chars(text.data(), text.data() + text.size(), version);
  return version;
}

// The stored value as an error shows it: as it is when printable, else in hex.
std::string Shown(std::string_view value) {
  bool printable = !value.empty() && value.size() <= 32;
  for (unsigned char c : value) printable = printable && c >= 0x20 && c < 0x7f;
  if (printable) return "'" + std::string(value) + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex = "0x";
  for (unsigned char c : value.substr(0, 32)) {
    hex.push_back(kHex[c >> 4]);
    hex.push_back(kHex[c & 0xf]);
  }
  if (value.size() > 32) hex += "...";
  return value.empty() ? "'' (empty)" : hex;
}

}  // namespace

Status CheckRecipeFormat(Table& table, const RecipeFormat& format) {
  const std::string current = std::to_string(format.current);
  for (int attempt = 0; attempt < 4; ++attempt) {
    Result<RowResult> read = table.Get(Get(format.row).AddColumn(format.family, format.qualifier));
    if (!read.ok()) {
      return read.status().WithContext(format.recipe + ": reading the format version in table " +
                                       table.name().ToString());
    }
    const RowResult& meta = *read;
    const std::optional<std::string_view> stored = meta.Value(format.family, format.qualifier);
    CheckAndMutate write(format.row);
    if (!stored.has_value()) {
      write.IfNotExists(format.family, format.qualifier);
    } else {
      if (*stored == current) return Status::OK();
      const std::optional<int> version = ParseVersion(*stored);
      if (!version || *version < format.oldest_readable || *version > format.current) {
        return Status::FailedPrecondition(
            format.recipe + ": table " + table.name().ToString() + " holds format version " +
            Shown(*stored) + " of the " + format.recipe + " layout (" + format.family + ":" +
            format.qualifier + " of its meta row); this basalt reads versions " +
            std::to_string(format.oldest_readable) + " to " + std::to_string(format.current));
      }
      write.IfEquals(format.family, format.qualifier, std::string(*stored));
    }
    write.Then(Put(format.row).Add(format.family, format.qualifier, current));
    BASALT_ASSIGN_OR_RETURN(bool written, table.CheckAndMutate(write));
    if (written) return Status::OK();
  }
  return Status::Busy(format.recipe + ": the format version in table " + table.name().ToString() +
                      " kept changing");
}

}  // namespace basalt::recipes
