#include "cli/import.h"

#include <cctype>
#include <charconv>
#include <cstring>
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

// The limits of a cell's parts (basalt/bulk_load.h, basalt/schema.h), and the longest timestamp
// worth reading: 19 digits and a sign.
constexpr size_t kMaxFamilyBytes = 127;
constexpr size_t kMaxQualifierBytes = 65535;
constexpr size_t kMaxTimestampChars = 20;
// How much of the input is read at a time.
constexpr size_t kChunkBytes = 64 * 1024;

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

size_t MaxRecordBytes(ImportFormat format, size_t max_value_bytes) {
  const size_t bytes = kMaxRowKeyLength + kMaxFamilyBytes + kMaxQualifierBytes + max_value_bytes;
  // Each field after the first follows a separator, and a CR may end the record.
  constexpr size_t kSeparators = 3 + 1;
  if (format == ImportFormat::kCsv) {
    // Every byte a quote, written twice, but the column's colon and the timestamp's digits; each
    // of the four fields in quotes.
    return 2 * bytes + 1 + kMaxTimestampChars + 4 * 2 + kSeparators;
  }
  return 4 * (bytes + 1 + kMaxTimestampChars) + kSeparators;  // every byte \xHH
}

bool RecordReader::Fill() {
  chunk_.resize(kChunkBytes);
  in_.read(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
  chunk_.resize(static_cast<size_t>(in_.gcount()));
  chunk_pos_ = 0;
  return !chunk_.empty();
}

RecordReader::LineRead RecordReader::ReadLine(size_t limit) {
  line_.clear();
  bool any = false;
  while (true) {
    if (chunk_pos_ == chunk_.size() && !Fill()) {
      if (!any) return LineRead::kEnd;
      break;
    }
    any = true;
    const char* start = chunk_.data() + chunk_pos_;
    const size_t available = chunk_.size() - chunk_pos_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', available));
    const size_t take = newline != nullptr ? static_cast<size_t>(newline - start) : available;
    if (take > limit - line_.size()) return LineRead::kTooLong;
    // A long line takes its most at once rather than by doublings, each of which would copy it
    // (and briefly hold it twice).
    if (line_.size() + take > line_.capacity() && line_.capacity() >= kChunkBytes * 16) {
      line_.reserve(limit);
    }
    line_.append(start, take);
    chunk_pos_ += take;
    if (newline != nullptr) {
      ++chunk_pos_;
      break;
    }
  }
  ++line_number_;
  return LineRead::kLine;
}

Status RecordReader::TooLong(int64_t line) const {
  return AtLine(line, Status::InvalidArgument(
                          "record longer than " + std::to_string(max_record_bytes_) +
                          " bytes, the most a valid one can take (a row, column and value at "
                          "their limits, every byte escaped); reading stopped there"));
}

Result<bool> RecordReader::Next(ImportRecord* out) {
  while (true) {
    const LineRead read = ReadLine(max_record_bytes_);
    if (read == LineRead::kEnd) return false;
    if (read == LineRead::kTooLong) return TooLong(line_number_ + 1);
    if (!line_.empty() && line_ != "\r") break;
  }
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
  size_t record_bytes = line_.size();  // the record's lines so far and the LFs between them
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
    ++record_bytes;
    const LineRead read = record_bytes > max_record_bytes_
                              ? LineRead::kTooLong
                              : ReadLine(max_record_bytes_ - record_bytes);
    if (read == LineRead::kTooLong) return TooLong(out->line);
    if (read == LineRead::kEnd) {
      return AtLine(out->line,
                    Status::InvalidArgument("a quoted field is not closed before the end of the "
                                            "input"));
    }
    record_bytes += line_.size();
  }
  out->fields.push_back(std::move(field));
  return Status::OK();
}

Result<BulkLoadStats> Import(Admin& admin, const TableName& table, std::istream& in,
                             ImportFormat format, size_t max_value_bytes) {
  BASALT_ASSIGN_OR_RETURN(std::unique_ptr<BulkLoader> loader, admin.NewBulkLoader(table));
  RecordReader reader(in, format, MaxRecordBytes(format, max_value_bytes));
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
