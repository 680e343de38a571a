// The byte layout of everything basalt stores in RocksDB. This is the only file that knows it;
// docs/format.md mirrors it. Changing anything here changes the on-disk format: bump
// kFormatVersion, and either keep reading the older layout (as format 2 reads format 1's values)
// or add a migration.
//
// Every column family of a table is its own RocksDB column family. Inside it, a cell is:
//
//   key   = E(row) 00 01 E(qualifier) 00 01 BE64(INT64_MAX - ts) (0xFF - type)   column cell
//   key   = E(row) 00 01 00 00              BE64(INT64_MAX - ts) (0xFF - type)   family marker
//   value = varint(seq + 1) payload                                               format 2
//   value = 00 BE64(seq) payload                                                  format 1
//
// E(x) copies x with every 00 byte written as 00 FF; the terminator 00 01 follows it. This is
// order-preserving and prefix-free, so bytewise order of keys is HBase's cell order: row
// ascending, then qualifier ascending, then timestamp descending, then type code descending
// (delete markers before a Put at the same timestamp). The family-marker section (00 00) sorts
// before every column of the row, so a reader meets a row's DeleteFamily and
// DeleteFamilyVersion markers before the cells they hide.
//
// seq is the store-wide write sequence of the mutation that wrote the cell. A delete marker hides
// only cells with a smaller seq (cells written before it). It is stored plus one as a LEB128
// varint, whose first byte is then never 00; format 1 wrote a 00 flags byte and the seq as BE64.
// Readers accept both, so a format-1 store opens without rewriting its cells. payload is the
// cell value for a Put and empty for markers.
//
// The default RocksDB column family holds metadata and the schema catalog under the keys built
// by the Meta*/Catalog* functions below.

#ifndef BASALT_ENGINE_KEY_FORMAT_H_
#define BASALT_ENGINE_KEY_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/types.h"
#include "util/coding.h"

namespace basalt::engine {

// Version of the layout above, stored under MetaFormatVersionKey(). Never reuse a number.
inline constexpr int kFormatVersion = 2;
// Older versions this basalt still reads; opening one records kFormatVersion, since new cells
// are written in the current layout.
inline constexpr int kOldestReadableFormatVersion = 1;

inline constexpr size_t kKeySuffixSize = 9;        // BE64 inverted timestamp + inverted type
inline constexpr size_t kMaxValueHeaderSize = 10;  // varint(seq + 1)
inline constexpr size_t kValueHeaderSizeV1 = 9;    // format 1: flags + BE64 seq

// Appends E(x) followed by the terminator 00 01.
void AppendEscaped(std::string* dst, std::string_view x);

// Writes E(x) 00 01 at `dst`, which has room for 2 * x.size() + 2 bytes, and returns the end of
// what it wrote: AppendEscaped's bytes, for a key built in a buffer sized once (the write path
// builds a key per cell; growing a string piece by piece cost more than the bytes).
char* WriteEscaped(char* dst, std::string_view x);

// The prefix shared by every key of `row`: E(row) 00 01.
std::string RowPrefix(std::string_view row);
// The prefix of every key of one column: E(row) 00 01 E(qualifier) 00 01.
std::string ColumnPrefix(std::string_view row, std::string_view qualifier);
// Appends E(qualifier) 00 01 to a row prefix.
void AppendQualifier(std::string* row_prefix, std::string_view qualifier);

// Bounds in key space. "After" bounds are the smallest key greater than every key of the row.
// RowStartKey(row) == RowPrefix(row); RowEndKey(row) = E(row) 00 02.
std::string RowEndKey(std::string_view row);
// The successor of the escaped row prefix `row_prefix` (E(row) 00 01): E(row) 00 02.
std::string RowPrefixEnd(std::string_view row_prefix);
// The smallest key after every key of the column whose prefix is `column_prefix`.
std::string ColumnEnd(std::string_view column_prefix);

std::string CellKey(std::string_view row, std::string_view qualifier, int64_t ts, CellType type);
std::string FamilyMarkerKey(std::string_view row, int64_t ts, CellType type);
// Appends the 9-byte suffix (inverted timestamp and type). Inline, as the value header below:
// both run for every cell written.
inline void AppendKeySuffix(std::string* dst, int64_t ts, CellType type) {
  char suffix[kKeySuffixSize];
  util::EncodeFixed64BE(suffix, static_cast<uint64_t>(INT64_MAX - ts));
  suffix[8] = static_cast<char>(0xff - static_cast<uint8_t>(type));
  dst->append(suffix, kKeySuffixSize);
}

// The same suffix written at `dst` (kKeySuffixSize bytes); returns its end.
inline char* WriteKeySuffix(char* dst, int64_t ts, CellType type) {
  util::EncodeFixed64BE(dst, static_cast<uint64_t>(INT64_MAX - ts));
  dst[8] = static_cast<char>(0xff - static_cast<uint8_t>(type));
  return dst + kKeySuffixSize;
}

// A parsed key. Views point into the key it was parsed from.
struct ParsedKey {
  std::string_view row_prefix;     // E(row) 00 01
  std::string_view column_prefix;  // row_prefix + E(qualifier) 00 01; empty for a marker
  bool family_marker = false;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;
};

// False when `key` is not a well-formed cell key.
bool ParseKey(std::string_view key, ParsedKey* out);

// The length of E(row) 00 01 at the start of `key`, or 0 when there is no terminator.
size_t RowPrefixLength(std::string_view key);

// RowPrefixLength for the common key of a tall table, read from its end: a cell of the empty
// qualifier ends E(row) 00 01 00 01 and the suffix, and no other well-formed key ends so (inside
// E(x) a 00 is followed by FF, and a family marker ends 00 01 00 00), so its row prefix is all
// but its last 11 bytes. 0 for any other key: the caller then asks RowPrefixLength. It reads
// only the key's last 13 bytes, so unlike RowPrefixLength it does not check the row's escapes.
size_t EmptyQualifierRowPrefixLength(std::string_view key);

// Decodes E(x) 00 01 back to x. `escaped` must include the terminator.
std::string Unescape(std::string_view escaped);
// The same into `*dst`, reusing its buffer.
void UnescapeInto(std::string_view escaped, std::string* dst);
// Appends the un-escaped bytes to *dst instead.
void UnescapeAppend(std::string_view escaped, std::string* dst);
// The row of a row prefix, and the qualifier of a column prefix (given its row prefix length).
inline std::string RowFromPrefix(std::string_view row_prefix) {
  return Unescape(row_prefix);
}
inline std::string QualifierFromColumnPrefix(std::string_view column_prefix,
                                             size_t row_prefix_len) {
  return Unescape(column_prefix.substr(row_prefix_len));
}

// Cell values: a header holding the sequence number, then the payload.
// Writes the header to `dst`, which has kMaxValueHeaderSize bytes; returns its length.
inline size_t EncodeValueHeader(char* dst, uint64_t seq) {
  return util::EncodeVarint64(dst, seq + 1);  // + 1: never a 00 first byte, which marks format 1
}
void AppendValueHeader(std::string* dst, uint64_t seq);
std::string EncodeValue(uint64_t seq, std::string_view payload);
struct ParsedValue {
  uint64_t seq = 0;
  std::string_view payload;
};
bool ParseValue(std::string_view value, ParsedValue* out);

// Metadata and catalog keys in the default column family.
std::string MetaFormatVersionKey();
std::string MetaSequenceLimitKey();
std::string MetaNextIdKey();
// Never read: Engine::PutResumeAnchor writes it (without the write-ahead log) to keep the default
// column family's memtable from being empty.
std::string MetaResumeAnchorKey();
std::string CatalogNamespaceKey(std::string_view ns);
std::string CatalogNamespacePrefix();
std::string CatalogTableKey(std::string_view ns, std::string_view qualifier);
std::string CatalogTablePrefix();

}  // namespace basalt::engine

#endif  // BASALT_ENGINE_KEY_FORMAT_H_
