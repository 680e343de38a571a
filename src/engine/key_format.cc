#include "engine/key_format.h"

#include <cstring>

#include "util/coding.h"

namespace basalt::engine {
namespace {

constexpr char kEscapeByte = '\x00';
constexpr char kEscapedZero = '\xff';
constexpr char kTerminator = '\x01';
constexpr char kMarkerSection = '\x00';

// Length of E(x) 00 01 at the start of `s`, or 0 when `s` has no terminator.
size_t EscapedLength(std::string_view s) {
  size_t pos = 0;
  while (pos < s.size()) {
    const void* hit = std::memchr(s.data() + pos, 0, s.size() - pos);
    if (hit == nullptr) return 0;
    size_t zero = static_cast<const char*>(hit) - s.data();
    if (zero + 1 >= s.size()) return 0;
    char next = s[zero + 1];
    if (next == kTerminator) return zero + 2;
    if (next != kEscapedZero) return 0;
    pos = zero + 2;
  }
  return 0;
}

}  // namespace

void AppendEscaped(std::string* dst, std::string_view x) {
  static constexpr char kEnd[2] = {kEscapeByte, kTerminator};
  // Most rows and qualifiers have no zero byte: one copy and the terminator (this runs twice
  // for every cell written, and each append is a call).
  const void* first_zero = x.empty() ? nullptr : std::memchr(x.data(), 0, x.size());
  if (first_zero == nullptr) {
    const size_t old_size = dst->size();
    dst->resize(old_size + x.size() + 2);
    char* out = dst->data() + old_size;
    if (!x.empty()) std::memcpy(out, x.data(), x.size());
    std::memcpy(out + x.size(), kEnd, 2);
    return;
  }
  size_t pos = 0;
  while (pos < x.size()) {
    const void* hit = std::memchr(x.data() + pos, 0, x.size() - pos);
    size_t zero = hit == nullptr ? x.size() : static_cast<const char*>(hit) - x.data();
    dst->append(x.data() + pos, zero - pos);
    if (zero == x.size()) break;
    dst->push_back(kEscapeByte);
    dst->push_back(kEscapedZero);
    pos = zero + 1;
  }
  dst->append(kEnd, 2);
}

char* WriteEscaped(char* dst, std::string_view x) {
  const void* first_zero = x.empty() ? nullptr : std::memchr(x.data(), 0, x.size());
  if (first_zero == nullptr) {
    if (!x.empty()) std::memcpy(dst, x.data(), x.size());
    dst += x.size();
  } else {
    for (char c : x) {
      *dst++ = c;
      if (c == kEscapeByte) *dst++ = kEscapedZero;
    }
  }
  *dst++ = kEscapeByte;
  *dst++ = kTerminator;
  return dst;
}

std::string RowPrefix(std::string_view row) {
  std::string out;
  out.reserve(row.size() + 2);
  AppendEscaped(&out, row);
  return out;
}

std::string ColumnPrefix(std::string_view row, std::string_view qualifier) {
  std::string out;
  out.reserve(row.size() + qualifier.size() + 4 + kKeySuffixSize);
  AppendEscaped(&out, row);
  AppendEscaped(&out, qualifier);
  return out;
}

void AppendQualifier(std::string* row_prefix, std::string_view qualifier) {
  AppendEscaped(row_prefix, qualifier);
}

std::string RowPrefixEnd(std::string_view row_prefix) {
  std::string out(row_prefix);
  out.back() = '\x02';
  return out;
}

std::string RowEndKey(std::string_view row) {
  return RowPrefixEnd(RowPrefix(row));
}

std::string ColumnEnd(std::string_view column_prefix) {
  // Every key of the column is column_prefix + 9 suffix bytes, all of which are <= 0xFF.
  std::string out(column_prefix);
  out.back() = '\x02';
  return out;
}

std::string CellKey(std::string_view row, std::string_view qualifier, int64_t ts, CellType type) {
  std::string out = ColumnPrefix(row, qualifier);
  AppendKeySuffix(&out, ts, type);
  return out;
}

std::string FamilyMarkerKey(std::string_view row, int64_t ts, CellType type) {
  std::string out = RowPrefix(row);
  out.push_back(kMarkerSection);
  out.push_back(kMarkerSection);
  AppendKeySuffix(&out, ts, type);
  return out;
}

size_t RowPrefixLength(std::string_view key) {
  return EscapedLength(key);
}

size_t EmptyQualifierRowPrefixLength(std::string_view key) {
  // The row's terminator, the empty qualifier's, the suffix.
  constexpr size_t kTail = 4 + kKeySuffixSize;
  if (key.size() < kTail + 1) return 0;
  const char* t = key.data() + key.size() - kTail;
  if (t[0] != kEscapeByte || t[1] != kTerminator || t[2] != kEscapeByte || t[3] != kTerminator) {
    return 0;
  }
  return key.size() - 2 - kKeySuffixSize;
}

bool ParseKey(std::string_view key, ParsedKey* out) {
  size_t row_len = EscapedLength(key);
  if (row_len == 0 || key.size() < row_len + 2 + kKeySuffixSize) return false;
  out->row_prefix = key.substr(0, row_len);
  std::string_view rest = key.substr(row_len, key.size() - row_len - kKeySuffixSize);
  if (rest.size() == 2 && rest[0] == kMarkerSection && rest[1] == kMarkerSection) {
    out->family_marker = true;
    out->column_prefix = {};
  } else {
    size_t qual_len = EscapedLength(rest);
    if (qual_len != rest.size()) return false;
    out->family_marker = false;
    out->column_prefix = key.substr(0, row_len + qual_len);
  }
  const char* suffix = key.data() + key.size() - kKeySuffixSize;
  uint64_t inverted = util::DecodeFixed64BE(suffix);
  if (inverted > static_cast<uint64_t>(INT64_MAX)) return false;
  out->timestamp = INT64_MAX - static_cast<int64_t>(inverted);
  auto type_code = static_cast<uint8_t>(0xff - static_cast<uint8_t>(suffix[8]));
  switch (type_code) {
    case static_cast<uint8_t>(CellType::kPut):
    case static_cast<uint8_t>(CellType::kDelete):
    case static_cast<uint8_t>(CellType::kDeleteColumn):
      if (out->family_marker) return false;
      break;
    case static_cast<uint8_t>(CellType::kDeleteFamily):
    case static_cast<uint8_t>(CellType::kDeleteFamilyVersion):
      if (!out->family_marker) return false;
      break;
    default:
      return false;
  }
  out->type = static_cast<CellType>(type_code);
  return true;
}

std::string Unescape(std::string_view escaped) {
  std::string out;
  UnescapeInto(escaped, &out);
  return out;
}

void UnescapeInto(std::string_view escaped, std::string* dst) {
  dst->clear();
  UnescapeAppend(escaped, dst);
}

void UnescapeAppend(std::string_view escaped, std::string* dst) {
  std::string& out = *dst;
  const void* first_zero =
      escaped.empty() ? nullptr : std::memchr(escaped.data(), 0, escaped.size());
  if (first_zero != nullptr &&
      static_cast<const char*>(first_zero) + 2 == escaped.data() + escaped.size() &&
      escaped.back() == kTerminator) {
    // No escaped zero: the bytes before the terminator, in one copy (once per row of a scan).
    out.append(escaped.data(), escaped.size() - 2);
    return;
  }
  // Written in place (the key is never shorter escaped) rather than appended piece by piece:
  // rows built by basalt/keys.h end in that layer's own terminator, so every row of a tall
  // recipe table takes this path.
  const size_t start = out.size();
  out.resize(start + escaped.size());
  char* w = out.data() + start;
  size_t pos = 0;
  while (pos < escaped.size()) {
    const void* hit = std::memchr(escaped.data() + pos, 0, escaped.size() - pos);
    size_t zero = hit == nullptr ? escaped.size() : static_cast<const char*>(hit) - escaped.data();
    std::memcpy(w, escaped.data() + pos, zero - pos);
    w += zero - pos;
    if (zero + 1 >= escaped.size() || escaped[zero + 1] == kTerminator) break;
    *w++ = '\0';
    pos = zero + 2;
  }
  out.resize(static_cast<size_t>(w - out.data()));
}

void AppendValueHeader(std::string* dst, uint64_t seq) {
  char header[kMaxValueHeaderSize];
  dst->append(header, EncodeValueHeader(header, seq));
}

std::string EncodeValue(uint64_t seq, std::string_view payload) {
  std::string out;
  out.reserve(kMaxValueHeaderSize + payload.size());
  AppendValueHeader(&out, seq);
  out.append(payload);
  return out;
}

bool ParseValue(std::string_view value, ParsedValue* out) {
  if (value.empty()) return false;
  if (value[0] == '\0') {
    // Format version 1: a zero flags byte, then the sequence number as BE64.
    if (value.size() < kValueHeaderSizeV1) return false;
    out->seq = util::DecodeFixed64BE(value.data() + 1);
    out->payload = value.substr(kValueHeaderSizeV1);
    return true;
  }
  uint64_t seq_plus_one;
  size_t n = util::GetVarint64(value, &seq_plus_one);
  if (n == 0) return false;
  out->seq = seq_plus_one - 1;
  out->payload = value.substr(n);
  return true;
}

// Metadata keys start with 0x01, catalog keys with 0x02 (namespaces) and 0x03 (tables), so each
// kind can be listed by prefix.
std::string MetaFormatVersionKey() {
  return "\x01"
         "format_version";
}
std::string MetaSequenceLimitKey() {
  return "\x01"
         "sequence_limit";
}
std::string MetaNextIdKey() {
  return "\x01"
         "next_id";
}
std::string MetaResumeAnchorKey() {
  return "\x01"
         "resume_anchor";
}
std::string CatalogNamespacePrefix() {
  return "\x02";
}
std::string CatalogNamespaceKey(std::string_view ns) {
  return "\x02" + std::string(ns);
}
std::string CatalogTablePrefix() {
  return "\x03";
}
std::string CatalogTableKey(std::string_view ns, std::string_view qualifier) {
  return "\x03" + std::string(ns) + ":" + std::string(qualifier);
}

}  // namespace basalt::engine
