// Test support for the recipes' golden-byte tests (*_format_test.cc): every cell of a table as
// one line of hex, in the table's order, to compare with a listing written into the test, so
// that a change of a recipe's stored layout fails its test until the listing (and the recipe's
// format version, recipe_format.h) is changed with it.

#ifndef BASALT_RECIPES_GOLDEN_ROWS_H_
#define BASALT_RECIPES_GOLDEN_ROWS_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/connection.h"
#include "basalt/mutation.h"
#include "basalt/scan.h"
#include "basalt/table.h"

namespace basalt::recipes::golden {

inline std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

// Each newest cell of `name` as "<row hex> <family>:<qualifier hex> = <value hex>", in the
// table's order (rows, then families, then qualifiers, bytewise). A hex string of `subs` is
// replaced by its name (as "{name}") wherever it is a whole row, qualifier or value, or a prefix
// or suffix of one: the place of a value the test cannot choose (a random sequence number, a
// salted hash), checked in the test by other means.
inline std::vector<std::string> RawCells(Connection& conn, const TableName& name,
                                         const std::map<std::string, std::string>& subs = {}) {
  std::vector<std::string> lines;
  auto table = conn.GetTable(name);
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  if (!table.ok()) return lines;
  auto scanner = (*table)->GetScanner(Scan());
  EXPECT_TRUE(scanner.ok()) << scanner.status().ToString();
  if (!scanner.ok()) return lines;
  auto shown = [&](std::string_view bytes) {
    std::string hex = Hex(bytes);
    for (const auto& [sub_hex, sub_name] : subs) {
      if (sub_hex.empty()) continue;
      if (hex == sub_hex) return "{" + sub_name + "}";
      if (hex.starts_with(sub_hex)) return "{" + sub_name + "}" + hex.substr(sub_hex.size());
      if (hex.ends_with(sub_hex)) {
        return hex.substr(0, hex.size() - sub_hex.size()) + "{" + sub_name + "}";
      }
    }
    return hex;
  };
  RowResult row;
  while ((*scanner)->Next(&row)) {
    for (const Cell& cell : row.cells()) {
      lines.push_back(shown(row.row()) + " " + cell.family + ":" + shown(cell.qualifier) + " = " +
                      shown(cell.value));
    }
  }
  EXPECT_TRUE((*scanner)->status().ok()) << (*scanner)->status().ToString();
  return lines;
}

// Writes `version` into the version cell ("<family>:v" of `row`) of `table`, then expects `open`
// (a recipe's Open on that table) to fail with FailedPrecondition and exactly `message`.
inline void ExpectOpenRefuses(Connection& conn, const TableName& table, std::string_view row,
                              std::string_view family, std::string_view version,
                              const std::function<Status()>& open, std::string_view message) {
  SCOPED_TRACE("stored version '" + std::string(version) + "'");
  auto t = conn.GetTable(table);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_TRUE(
      (*t)->Put(Put(std::string(row)).Add(std::string(family), "v", std::string(version))).ok());
  const Status s = open();
  EXPECT_TRUE(s.IsFailedPrecondition()) << s.ToString();
  EXPECT_EQ(s.message(), message);
}

}  // namespace basalt::recipes::golden

#endif  // BASALT_RECIPES_GOLDEN_ROWS_H_
