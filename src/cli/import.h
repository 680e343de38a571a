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
//
// A record is at most MaxRecordBytes long (its bytes, line breaks inside CSV quotes included,
// the one ending it not): the largest a valid record can be. Reading stops as soon as a record
// passes it, so an unending line or an unclosed CSV quote costs no more memory than that.

#ifndef BASALT_CLI_IMPORT_H_
#define BASALT_CLI_IMPORT_H_

#include <cstddef>
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

// The longest valid record of `format` when values may be `max_value_bytes` long: a row of
// kMaxRowKeyLength bytes, a family of 127, a qualifier of 65535, a value of `max_value_bytes`
// and a timestamp of 20 characters, with the separators and a CR; in tsv every byte of them
// written \xHH, in csv each field quoted and every byte a doubled quote (but the column's colon
// and the timestamp's digits).
size_t MaxRecordBytes(ImportFormat format, size_t max_value_bytes);

// One record's fields, decoded, and the line it starts on.
struct ImportRecord {
  int64_t line = 0;
  std::vector<std::string> fields;
};

// Splits `in` into records. Thread-compatible; reads `in` as it goes.
class RecordReader {
 public:
  // Records longer than `max_record_bytes` are refused.
  RecordReader(std::istream& in, ImportFormat format, size_t max_record_bytes)
      : in_(in), format_(format), max_record_bytes_(max_record_bytes) {}

  // The next record into `*out`: true, or false at the end of the input. InvalidArgument with
  // the line number for a malformed CSV record, and for a record longer than the limit (read
  // no further than the limit).
  Result<bool> Next(ImportRecord* out);

 private:
  enum class LineRead { kLine, kEnd, kTooLong };
  // The next line into line_, without its LF; kTooLong as soon as it passes `limit` bytes.
  LineRead ReadLine(size_t limit);
  // Refills chunk_ from in_; false at the end of the input.
  bool Fill();
  Status ParseCsv(ImportRecord* out);
  Status TooLong(int64_t line) const;

  std::istream& in_;
  const ImportFormat format_;
  const size_t max_record_bytes_;
  std::string chunk_;  // read from in_ and not yet taken, from chunk_pos_
  size_t chunk_pos_ = 0;
  std::string line_;
  int64_t line_number_ = 0;
};

// Bulk loads every cell of `in` into `table`. `max_value_bytes` is the connection's value size
// limit (ConnectionOptions::max_value_bytes), which sets the record limit.
Result<BulkLoadStats> Import(Admin& admin, const TableName& table, std::istream& in,
                             ImportFormat format, size_t max_value_bytes);

}  // namespace basalt::cli

#endif  // BASALT_CLI_IMPORT_H_
