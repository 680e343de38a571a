// How `basalt shell` prints results: HBase shell's layout. Row keys, columns and values are
// printed as HBase's Bytes.toStringBinary does (printable ASCII as is, other bytes as \xHH);
// timestamps as milliseconds since the epoch.
//
//   ROW                           COLUMN+CELL
//    r1                           column=f:q, timestamp=1700000000000, value=v
//   1 row(s)
//   Took 0.0012 seconds

#ifndef BASALT_SHELL_FORMATTER_H_
#define BASALT_SHELL_FORMATTER_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::shell {

// How a column's values print: HBase's per-column formatter, written after the qualifier in a
// read's columns ('f:q:toLong', or 'f:q:c(org.apache.hadoop.hbase.util.Bytes).toLong').
enum class ValueFormat { kBinary, kInt, kLong, kShort, kFloat, kDouble, kBoolean, kString };
// "toInt", "toLong", "toShort", "toFloat", "toDouble", "toBoolean", "toString",
// "toStringBinary", alone or after "c(org.apache.hadoop.hbase.util.Bytes)."; NotFound otherwise.
Result<ValueFormat> ParseValueFormat(std::string_view name);
// Big-endian numbers as Java's Bytes.toXxx; a value of the wrong length prints in binary form.
std::string FormatValue(std::string_view bytes, ValueFormat format);
// (family, qualifier) -> format; columns not in it print in binary form.
using ColumnFormats = std::map<std::pair<std::string, std::string>, ValueFormat>;

// "timestamp=T, value=V", with ", type=Delete..." before the value for delete markers.
std::string FormatCell(const Cell& cell, const ColumnFormats& formats = {});
// "family:qualifier" in printable form.
std::string FormatColumn(const Cell& cell);

// get: the COLUMN / CELL header, a line per cell and "1 row(s)" (or "0 row(s)").
void PrintGetResult(std::ostream& out, const RowResult& row, const ColumnFormats& formats = {});

// scan: the header once, a line per cell as rows arrive, then the count.
void PrintScanHeader(std::ostream& out);
void PrintScanRow(std::ostream& out, const RowResult& row, const ColumnFormats& formats = {});
void PrintRowCount(std::ostream& out, int64_t rows);

// list / list_namespace: a heading, a line per name, the count.
void PrintNameList(std::ostream& out, std::string_view heading,
                   const std::vector<std::string>& names);

// describe: state, durability, splits and one {NAME => ...} line per family.
void PrintTableDescription(std::ostream& out, const TableInfo& info);

// "Took 0.0123 seconds".
std::string FormatTook(double seconds);

}  // namespace basalt::shell

#endif  // BASALT_SHELL_FORMATTER_H_
