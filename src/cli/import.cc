#include "cli/import.h"

#include <cctype>
#include <charconv>
#include <memory>

#include "util/bytes_format.h"

namespace basalt::cli {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status AtLine(int64_t line, const Status& s) {
  return s.WithContext("line " + std::to_string(line));
}

}  // namespace

Result<ImportFormat> ParseImportFormat(std::string_view name) {
  const std::string lower = Lower(name);
  if (lower == "tsv") return ImportFormat::kTsv;
  if (lower == "csv") return ImportFormat::kCsv;
  return Status::InvalidArgument("unknown import format '" + std::string(name) + "' (tsv or csv)");
}

ImportFormat FormatOfPath(std::string_view path) {
  const std::string lower = Lower(path);
  return lower.size() >= 4 && lower.compare(lower.size() - 4, 4, ".csv") == 0 ? ImportFormat::kCsv
                                                                              : ImportFormat::kTsv;
}

bool RecordReader::ReadLine() {
  if (!std::getline(in_, line_)) return false;
  ++line_number_;
  return true;
}

Result<bool> RecordReader::Next(ImportRecord* out) {
  do {
    if (!ReadLine()) return false;
  } while (line_.empty() || line_ == "\r");
  if (format_ == ImportFormat::kCsv) {
    BASALT_RETURN_IF_ERROR(ParseCsv(out));
    return true;
  }
  out->line = line_number_;
  out->fields.clear();
  std::string_view rest(line_);
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  while (true) {
    const size_t tab = rest.find('\t');
    out->fields.push_back(util::FromStringBinary(rest.substr(0, tab)));
    if (tab == std::string_view::npos) break;
    rest.remove_prefix(tab + 1);
  }
  return true;
}

// RFC 4180, record by record: a record may span physical lines inside quotes.
Status RecordReader::ParseCsv(ImportRecord* out) {
  out->line = line_number_;
  out->fields.clear();
  enum class State { kFieldStart, kUnquoted, kQuoted, kAfterQuote } state = State::kFieldStart;
  std::string field;
  while (true) {
    const size_t n = line_.size();
    for (size_t i = 0; i < n; ++i) {
      const char c = line_[i];
      // The CR of a CRLF record end; inside quotes it is data, as the LF after it.
      const bool record_cr = c == '\r' && i + 1 == n;
      switch (state) {
        case State::kFieldStart:
          if (c == '"') {
            state = State::kQuoted;
            break;
          }
          state = State::kUnquoted;
          [[fallthrough]];
        case State::kUnquoted:
          if (record_cr) break;
          if (c == ',') {
            out->fields.push_back(std::move(field));
            field.clear();
            state = State::kFieldStart;
          } else if (c == '"') {
            return AtLine(line_number_,
                          Status::InvalidArgument(
                              "a double quote inside an unquoted field (quote the whole field "
                              "and double the quotes in it: \"a\"\"b\")"));
          } else {
            field += c;
          }
          break;
        case State::kQuoted:
          if (c == '"') {
            state = State::kAfterQuote;
          } else {
            field += c;
          }
          break;
        case State::kAfterQuote:
          if (c == '"') {
            field += '"';
            state = State::kQuoted;
          } else if (c == ',') {
            out->fields.push_back(std::move(field));
            field.clear();
            state = State::kFieldStart;
          } else if (!record_cr) {
            return AtLine(line_number_,
                          Status::InvalidArgument(
                              "a closing double quote must end its field (a quote inside a "
                              "quoted field is written twice: \"\")"));
          }
          break;
      }
    }
    if (state != State::kQuoted) break;
    field += '\n';
    if (!ReadLine()) {
      return AtLine(out->line,
                    Status::InvalidArgument("a quoted field is not closed before the end of the "
                                            "input"));
    }
  }
  out->fields.push_back(std::move(field));
  return Status::OK();
}

Result<BulkLoadStats> Import(Admin& admin, const TableName& table, std::istream& in,
                             ImportFormat format) {
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<BulkLoader> loader, admin.NewBulkLoader(table));
  RecordReader reader(in, format);
  ImportRecord record;
  while (true) {
    BASALT_ASSIGN_OR_RETURN(bool more, reader.Next(&record));
    if (!more) break;
    const auto& f = record.fields;
    if (f.size() < 3 || f.size() > 4) {
      return AtLine(record.line, Status::InvalidArgument(
                                     "a record is ROW, COLUMN, VALUE and an optional TIMESTAMP; "
                                     "this one has " +
                                     std::to_string(f.size()) + " field(s)"));
    }
    const size_t colon = f[1].find(':');
    if (colon == std::string::npos) {
      return AtLine(record.line, Status::InvalidArgument("column '" + util::ToStringBinary(f[1]) +
                                                         "' must be FAMILY:QUALIFIER"));
    }
    int64_t ts = kLatestTimestamp;
    if (f.size() == 4) {
      const std::string& text = f[3];
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ts);
      if (ec != std::errc() || end != text.data() + text.size()) {
        return AtLine(record.line, Status::InvalidArgument("timestamp must be an integer (ms), "
                                                           "not '" +
                                                           util::ToStringBinary(text) + "'"));
      }
    }
    const std::string_view column(f[1]);
    Status s = loader->Add(f[0], column.substr(0, colon), column.substr(colon + 1), f[2], ts);
    if (!s.ok()) return AtLine(record.line, s);
  }
  if (in.bad()) return Status::IOError("reading the input failed");
  return loader->Finish();
}

}  // namespace basalt::cli
