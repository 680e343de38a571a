// `basalt import TABLE FILE`: a bulk load (basalt/bulk_load.h) from a text file of cells, one
// per record: ROW, COLUMN (FAMILY:QUALIFIER), VALUE and an optional TIMESTAMP (ms; default: the
// time the import began).
//
//   tsv  fields separated by a tab, records by a newline (LF or CRLF). Bytes use HBase's
//        printable form, as every other CLI argument and `scan`'s output: \xHH is byte HH, every
//        other byte is itself. So a tab, a newline or a backslash-x in data is written \x09,
//        \x0A or \x5Cx.
//   csv  RFC 4180: fields separated by commas; a field in double quotes may hold commas, quotes
//        (doubled: "") and line breaks; a quote inside an unquoted field is an error. Bytes are
//        taken as they are (no \xHH decoding).
// Blank lines are skipped. The cells must be in the loader's order (each family's cells by
// row, then qualifier, ascending bytewise, then timestamp descending); `LC_ALL=C sort` of a file
// whose rows and qualifiers need no escapes gives it.
//
// All or nothing: a malformed record, a bad cell or a cell out of order fails the import with
// its line number (the first line of the record), and nothing of the file is loaded.

#ifndef BASALT_CLI_IMPORT_H_
#define BASALT_CLI_IMPORT_H_

#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/admin.h"
#include "basalt/bulk_load.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::cli {

enum class ImportFormat { kTsv, kCsv };

// "tsv" or "csv".
Result<ImportFormat> ParseImportFormat(std::string_view name);
// csv for a name ending in .csv (any case), tsv otherwise.
ImportFormat FormatOfPath(std::string_view path);

// One record's fields, decoded, and the line it starts on.
struct ImportRecord {
  int64_t line = 0;
  std::vector<std::string> fields;
};

// Splits `in` into records. Thread-compatible; reads `in` as it goes.
class RecordReader {
 public:
  RecordReader(std::istream& in, ImportFormat format) : in_(in), format_(format) {}

  // The next record into `*out`: true, or false at the end of the input. InvalidArgument with
  // the line number for a malformed CSV record.
  Result<bool> Next(ImportRecord* out);

 private:
  bool ReadLine();
  Status ParseCsv(ImportRecord* out);

  std::istream& in_;
  const ImportFormat format_;
  std::string line_;
  int64_t line_number_ = 0;
};

// Bulk loads every cell of `in` into `table`.
Result<BulkLoadStats> Import(Admin& admin, const TableName& table, std::istream& in,
                             ImportFormat format);

}  // namespace basalt::cli

#endif  // BASALT_CLI_IMPORT_H_
