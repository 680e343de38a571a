// Feeds arbitrary bytes to the row-key decoders (basalt/keys.h, basalt/key_spread.h).
//
// Checked on every input: decoding never crashes or reads out of bounds (ASan), fails only with
// Corruption and a message, and whenever it succeeds, encoding what it gave returns the same
// bytes (each byte string decodes in at most one way). A broken property is a __builtin_trap(),
// which libFuzzer reports as a crash.
//
// Schemas: a few fixed layouts from HBase schema designs decode the whole input; then the input's
// first bytes describe a schema of their own (count, then one byte per field) that decodes the
// rest.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "basalt/key_spread.h"
#include "basalt/keys.h"

namespace {

using basalt::KeyFieldType;
using basalt::KeyOrder;
using basalt::KeySchema;

void Check(bool property) {
  if (!property) __builtin_trap();
}

const KeySchema* FixedSchemas(size_t* count) {
  static const KeySchema kSchemas[] = {
      // userid + (Long.MAX - stamp) + actionid
      KeySchema().Add(KeyFieldType::kUint32).AddReverseTimestamp().Add(KeyFieldType::kUint32),
      // hash(follower) + hash(followed)
      KeySchema().AddFixedBytes(8).AddFixedBytes(8),
      // hash prefix + item id + descending name + signed counters
      KeySchema()
          .AddFixedBytes(2)
          .Add(KeyFieldType::kBytes)
          .Add(KeyFieldType::kBytes, KeyOrder::kDescending)
          .Add(KeyFieldType::kInt16)
          .Add(KeyFieldType::kInt8, KeyOrder::kDescending),
      KeySchema().Add(KeyFieldType::kBytes).Add(KeyFieldType::kUint64, KeyOrder::kDescending),
  };
  *count = sizeof(kSchemas) / sizeof(kSchemas[0]);
  return kSchemas;
}

// A schema described by the input's first bytes: a field count, then one byte per field
// (type in the low nibble, a fixed size in bits 4-6, descending in bit 7). Consumes them.
KeySchema SchemaFromInput(std::string_view* in) {
  KeySchema schema;
  if (in->empty()) return schema;
  const size_t n = static_cast<uint8_t>((*in)[0]) % 8;
  in->remove_prefix(1);
  for (size_t i = 0; i < n && !in->empty(); ++i) {
    const auto b = static_cast<uint8_t>((*in)[0]);
    in->remove_prefix(1);
    const auto type = static_cast<KeyFieldType>((b & 0x0f) % 10);
    const KeyOrder order = (b & 0x80) != 0 ? KeyOrder::kDescending : KeyOrder::kAscending;
    if (type == KeyFieldType::kFixedBytes) {
      schema.AddFixedBytes(((b >> 4) & 0x07) + 1, order);
    } else {
      schema.Add(type, order);
    }
  }
  return schema;
}

void CheckSchema(const KeySchema& schema, std::string_view key) {
  basalt::Result<basalt::KeyTuple> tuple = schema.Decode(key);
  if (!tuple.ok()) {
    Check(tuple.status().IsCorruption() && !tuple.status().message().empty());
  } else {
    basalt::Result<std::string> again = schema.Encode(*tuple);
    Check(again.ok() && *again == key);
    // Every prefix of the tuple encodes to a prefix of the key.
    basalt::KeyTuple prefix;
    for (const basalt::KeyValue& v : *tuple) {
      prefix.push_back(v);
      basalt::Result<std::string> p = schema.EncodePrefix(prefix);
      Check(p.ok() && key.substr(0, p->size()) == *p);
    }
  }

  // Field by field: the fields read before a failure re-encode to exactly the bytes consumed.
  basalt::KeyParser parser(key);
  basalt::KeyTuple read;
  for (const basalt::KeyField& field : schema.fields()) {
    basalt::KeyValue v;
    basalt::Status s = parser.Read(field, &v);
    if (!s.ok()) {
      Check(s.IsCorruption() && parser.fields_read() == read.size());
      break;
    }
    read.push_back(std::move(v));
  }
  basalt::Result<std::string> consumed = schema.EncodePrefix(read);
  Check(consumed.ok() && *consumed == key.substr(0, parser.offset()));
}

void CheckSpread(std::string_view input) {
  for (basalt::HashKind kind : {basalt::HashKind::kMd5, basalt::HashKind::kXxh3}) {
    const size_t n = input.empty() ? 0 : static_cast<uint8_t>(input[0]) % 20;
    basalt::Result<std::string> key = basalt::Unsalt(input, n, kind);
    if (key.ok()) {
      basalt::Result<std::string> salted = basalt::Salt(*key, n, kind);
      Check(salted.ok() && *salted == input);
    }
  }
  basalt::Result<std::string> digits = basalt::ReverseDigits(input);
  if (digits.ok()) {
    basalt::Result<std::string> back = basalt::ReverseDigits(*digits);
    Check(back.ok() && *back == input);
  }
  basalt::Result<uint64_t> number = basalt::ParseReverseDecimal(input);
  if (number.ok()) Check(basalt::ReverseDecimal(*number, input.size()) == input);
  Check(basalt::ReverseBytes(basalt::ReverseBytes(input)) == input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t count = 0;
  const KeySchema* schemas = FixedSchemas(&count);
  for (size_t i = 0; i < count; ++i) CheckSchema(schemas[i], input);

  std::string_view rest = input;
  const KeySchema derived = SchemaFromInput(&rest);
  CheckSchema(derived, rest);

  CheckSpread(input);
  return 0;
}
