// Composite row keys: typed fields packed so that bytewise order of keys is the order of the
// fields (HBase schema-design keys such as userid + (Long.MAX - ts) + actionid).
//
//   std::string key = basalt::KeyBuilder()
//                         .AddUint32(uid)
//                         .AddReverseTimestamp(ts)  // newest first
//                         .AddUint32(action)
//                         .Build();
//
//   basalt::KeyParser parser(key);
//   uint32_t uid2, action2;
//   int64_t ts2;
//   basalt::Status s = parser.ReadUint32(&uid2);
//   if (s.ok()) s = parser.ReadReverseTimestamp(&ts2);
//   if (s.ok()) s = parser.ReadUint32(&action2);
//   if (s.ok()) s = parser.Finish();
//
//   // Every row of one user, newest first: the first field alone is a row prefix.
//   Scan scan = Scan().SetRowPrefix(basalt::KeyBuilder().AddUint32(uid).Build());
//
// The contract, for keys that all follow one layout (the same field types in the same order):
//   - order: unsigned bytewise order (memcmp, RocksDB's and HBase's) of two keys is the
//     lexicographic order of their field tuples, each field compared in its own KeyOrder;
//     a key whose fields are the first fields of another sorts before it.
//   - prefixes: the encoding of the first k fields of a key is a byte prefix of the key, and a
//     key starts with it exactly when its first k fields are equal to those k values. So a
//     prefix scan on it returns exactly the rows whose first k fields match.
//   - round trip: parsing with the layout the key was built with gives back the values; every
//     byte string parses in at most one way, so a key that parses re-encodes to the same bytes.
//
// The bytes are a persistent format: users store them as row keys. docs/keys.md describes them
// byte by byte and src/keys/field_codec_test.cc pins them with golden bytes; they never change.
//
// Thread safety: KeyBuilder, KeyParser and KeySchema are values; a const KeySchema may be used
// from many threads at once.

#ifndef BASALT_KEYS_H_
#define BASALT_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "basalt/status.h"

namespace basalt {

// Java's Long.MAX_VALUE - ts, as HBase schemas write it to put the newest rows first. Wraps like
// Java for negative ts. It is its own inverse: ReverseTimestamp(ReverseTimestamp(ts)) == ts.
// Written as 8 big-endian bytes (HBase's Bytes.toBytes(long)) it sorts newest first for every
// int64 ts, negative ones included; those bytes are what KeyBuilder::AddReverseTimestamp writes.
constexpr int64_t ReverseTimestamp(int64_t ts) {
  // Unsigned arithmetic: the wrap Java does is undefined behaviour on int64_t.
  return static_cast<int64_t>(uint64_t{INT64_MAX} - static_cast<uint64_t>(ts));
}
// The timestamp a ReverseTimestamp value was made from (the same computation, named for reading).
constexpr int64_t TimestampFromReverse(int64_t reversed) {
  return ReverseTimestamp(reversed);
}

// The direction a field sorts in. kDescending stores the complement of the kAscending bytes, so
// larger values sort first.
enum class KeyOrder : uint8_t { kAscending = 0, kDescending = 1 };

// The type of one key field. The encodings (docs/keys.md):
//   kUint8..kUint64  big-endian, 1/2/4/8 bytes (kUint32 of a non-negative int is HBase's
//                    Bytes.toBytes(int)).
//   kInt8..kInt64    big-endian two's complement with the sign bit flipped, so negatives sort
//                    first; 1/2/4/8 bytes.
//   kBytes           any bytes (strings included): each 00 byte written as 00 FF, then the
//                    terminator 00 01. Shorter sorts first when it is a prefix of the other.
//   kFixedBytes      exactly the field's size in bytes, copied; no terminator. For hash
//                    prefixes and other values whose width never varies.
// A kDescending field stores the complement of each of those bytes.
enum class KeyFieldType : uint8_t {
  kUint8,
  kUint16,
  kUint32,
  kUint64,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kBytes,
  kFixedBytes,
};

// One field of a KeySchema.
struct KeyField {
  KeyFieldType type = KeyFieldType::kBytes;
  KeyOrder order = KeyOrder::kAscending;
  size_t fixed_size = 0;  // the width of a kFixedBytes field; 0 for every other type

  // E.g. "uint32", "int64 desc", "bytes", "fixed(16)".
  std::string ToString() const;
  friend bool operator==(const KeyField&, const KeyField&) = default;
};

// The value of one field: uint64_t for kUint*, int64_t for kInt*, std::string for kBytes and
// kFixedBytes. Decoding always gives these alternatives; encoding also takes the other integer
// alternative when the value fits the field (so that `KeyValue(5)`, an int64_t, fits a kUint32).
using KeyValue = std::variant<uint64_t, int64_t, std::string>;
using KeyTuple = std::vector<KeyValue>;

// Appends fields to a key. Every Add* appends one field's encoding (see KeyFieldType); nothing
// can fail. Keys read back by a KeySchema or KeyParser must be built with the same field types
// in the same order.
class KeyBuilder {
 public:
  KeyBuilder() = default;

  KeyBuilder& AddUint8(uint8_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddUint16(uint16_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddUint32(uint32_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddUint64(uint64_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddInt8(int8_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddInt16(int16_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddInt32(int32_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddInt64(int64_t v, KeyOrder order = KeyOrder::kAscending);
  KeyBuilder& AddBytes(std::string_view v, KeyOrder order = KeyOrder::kAscending);
  // Appends `v` as a fixed-width field. The width is not stored: every key of the layout must
  // use the same width here, which is the width the reader passes (KeySchema::AddFixedBytes,
  // KeyParser::ReadFixedBytes).
  KeyBuilder& AddFixedBytes(std::string_view v, KeyOrder order = KeyOrder::kAscending);
  // BE64(ReverseTimestamp(ts)): HBase's Bytes.toBytes(Long.MAX_VALUE - ts), newest first. The
  // same bytes as AddInt64(ts, KeyOrder::kDescending), so either reads it back.
  KeyBuilder& AddReverseTimestamp(int64_t ts);

  // The key so far. Building a key of the first k fields of a layout gives the prefix of every
  // key whose first k fields have these values (see the contract at the top of this file).
  const std::string& key() const { return key_; }
  std::string Build() const { return key_; }

 private:
  std::string key_;
};

// Reads the fields of a key in order, the mirror of KeyBuilder. Each Read* reads one field of
// the given type; on failure it returns Corruption naming the field's index, type and byte
// offset and what was wrong, and the parser stays where it was. A parser never reads outside
// `key`, whatever its bytes.
//
// REQUIRES: the bytes `key` refers to outlive the parser (a temporary std::string is refused at
// compile time for that reason).
class KeyParser {
 public:
  explicit KeyParser(std::string_view key) : key_(key) {}
  explicit KeyParser(const char* key) : key_(key) {}
  explicit KeyParser(std::string&& key) = delete;

  Status ReadUint8(uint8_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadUint16(uint16_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadUint32(uint32_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadUint64(uint64_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadInt8(int8_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadInt16(int16_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadInt32(int32_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadInt64(int64_t* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadBytes(std::string* v, KeyOrder order = KeyOrder::kAscending);
  Status ReadFixedBytes(size_t size, std::string* v, KeyOrder order = KeyOrder::kAscending);
  // The timestamp written by KeyBuilder::AddReverseTimestamp.
  Status ReadReverseTimestamp(int64_t* ts);
  // One field described by `field` (what KeySchema::Decode uses). A kFixedBytes field reads
  // field.fixed_size bytes.
  Status Read(const KeyField& field, KeyValue* v);

  // OK when every byte of the key has been read; Corruption saying how many bytes are left
  // otherwise (a key longer than its layout).
  Status Finish() const;

  bool done() const { return offset_ == key_.size(); }
  // Fields read so far: the index of the next field.
  size_t fields_read() const { return fields_read_; }
  // Bytes read so far, and the bytes not read yet.
  size_t offset() const { return offset_; }
  std::string_view rest() const { return key_.substr(offset_); }

 private:
  Status ReadUint(size_t width, KeyOrder order, uint64_t* v);
  Status ReadInt(size_t width, KeyOrder order, int64_t* v);
  // Adds the field index, type and offset to a codec error.
  Status FieldError(const Status& s, const KeyField& field) const;

  std::string_view key_;
  size_t offset_ = 0;
  size_t fields_read_ = 0;
};

// The layout of a family of keys: field types in order. For code that handles keys generically
// (tools, the CLI, fuzzers); code that knows its layout can use KeyBuilder and KeyParser alone.
//
//   KeySchema schema = KeySchema().Add(KeyFieldType::kUint32).AddReverseTimestamp()
//                                 .Add(KeyFieldType::kUint32);
//   Result<std::string> key = schema.Encode({uint64_t{42}, int64_t{ts}, uint64_t{7}});
//   Result<KeyTuple> fields = schema.Decode(*key);
class KeySchema {
 public:
  KeySchema() = default;

  // Adds a field. REQUIRES: type is not kFixedBytes, whose width AddFixedBytes takes; a schema
  // that breaks this refuses every Encode and Decode with InvalidArgument.
  KeySchema& Add(KeyFieldType type, KeyOrder order = KeyOrder::kAscending);
  // A fixed-width field of `size` bytes. REQUIRES: size > 0 (else as above).
  KeySchema& AddFixedBytes(size_t size, KeyOrder order = KeyOrder::kAscending);
  // A kInt64 kDescending field: what KeyBuilder::AddReverseTimestamp writes, read back as the
  // timestamp itself.
  KeySchema& AddReverseTimestamp() { return Add(KeyFieldType::kInt64, KeyOrder::kDescending); }

  const std::vector<KeyField>& fields() const { return fields_; }
  size_t size() const { return fields_.size(); }

  // The key of a full tuple. InvalidArgument, naming the field, when `values` does not have
  // exactly size() values, a value has the wrong alternative or does not fit its field (e.g.
  // 300 for a kUint8, or a 3-byte string for a fixed(4) field), or the schema is invalid.
  Result<std::string> Encode(const KeyTuple& values) const;
  // The key prefix of the first values.size() fields (at most size()): the rows whose first
  // fields equal `values` are exactly the rows whose key starts with it. Errors as Encode.
  Result<std::string> EncodePrefix(const KeyTuple& values) const;

  // The fields of a whole key. Corruption, naming the field index and what was wrong, when the
  // key does not follow this layout (truncated, a bad escape, bytes left after the last field);
  // InvalidArgument when the schema is invalid.
  Result<KeyTuple> Decode(std::string_view key) const;

  // E.g. "(uint32, int64 desc, uint32)".
  std::string ToString() const;

 private:
  Status Validate() const;
  Status EncodeFields(const KeyTuple& values, std::string* out) const;

  std::vector<KeyField> fields_;
};

}  // namespace basalt

#endif  // BASALT_KEYS_H_
