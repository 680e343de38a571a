// KeyBuilder, KeyParser and KeySchema: fields in order, each through keys/field_codec.

#include <limits>

#include "basalt/keys.h"
#include "keys/field_codec.h"

namespace basalt {
namespace {

using keys::IntegerWidth;
using keys::IsSigned;

std::string_view TypeName(KeyFieldType type) {
  switch (type) {
    case KeyFieldType::kUint8:
      return "uint8";
    case KeyFieldType::kUint16:
      return "uint16";
    case KeyFieldType::kUint32:
      return "uint32";
    case KeyFieldType::kUint64:
      return "uint64";
    case KeyFieldType::kInt8:
      return "int8";
    case KeyFieldType::kInt16:
      return "int16";
    case KeyFieldType::kInt32:
      return "int32";
    case KeyFieldType::kInt64:
      return "int64";
    case KeyFieldType::kBytes:
      return "bytes";
    case KeyFieldType::kFixedBytes:
      return "fixed";
  }
  return "unknown";
}

KeyField IntField(KeyFieldType type, KeyOrder order) {
  return KeyField{type, order, 0};
}

// "field 2 (uint32): " for error messages.
std::string FieldLabel(size_t index, const KeyField& field) {
  return "key field " + std::to_string(index) + " (" + field.ToString() + ")";
}

// The value of an unsigned field, from either integer alternative.
Status UnsignedValue(const KeyValue& value, size_t width, uint64_t* out) {
  uint64_t v = 0;
  if (const auto* u = std::get_if<uint64_t>(&value)) {
    v = *u;
  } else if (const auto* s = std::get_if<int64_t>(&value)) {
    if (*s < 0) return Status::InvalidArgument(std::to_string(*s) + " is negative");
    v = static_cast<uint64_t>(*s);
  } else {
    return Status::InvalidArgument("expects an integer, got a string");
  }
  if (width < 8 && v >> (8 * width) != 0) {
    return Status::InvalidArgument(std::to_string(v) + " does not fit in " + std::to_string(width) +
                                   " bytes");
  }
  *out = v;
  return Status::OK();
}

// The value of a signed field, from either integer alternative.
Status SignedValue(const KeyValue& value, size_t width, int64_t* out) {
  int64_t v = 0;
  if (const auto* s = std::get_if<int64_t>(&value)) {
    v = *s;
  } else if (const auto* u = std::get_if<uint64_t>(&value)) {
    if (*u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Status::InvalidArgument(std::to_string(*u) + " does not fit in 8 bytes signed");
    }
    v = static_cast<int64_t>(*u);
  } else {
    return Status::InvalidArgument("expects an integer, got a string");
  }
  if (width < 8) {
    const int64_t max = (int64_t{1} << (8 * width - 1)) - 1;
    if (v > max || v < -max - 1) {
      return Status::InvalidArgument(std::to_string(v) + " does not fit in " +
                                     std::to_string(width) + " bytes signed");
    }
  }
  *out = v;
  return Status::OK();
}

}  // namespace

std::string KeyField::ToString() const {
  std::string out(TypeName(type));
  if (type == KeyFieldType::kFixedBytes) out += "(" + std::to_string(fixed_size) + ")";
  if (order == KeyOrder::kDescending) out += " desc";
  return out;
}

// ---- KeyBuilder ----

KeyBuilder& KeyBuilder::AddUint8(uint8_t v, KeyOrder order) {
  keys::AppendUint(&key_, v, 1, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddUint16(uint16_t v, KeyOrder order) {
  keys::AppendUint(&key_, v, 2, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddUint32(uint32_t v, KeyOrder order) {
  keys::AppendUint(&key_, v, 4, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddUint64(uint64_t v, KeyOrder order) {
  keys::AppendUint(&key_, v, 8, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddInt8(int8_t v, KeyOrder order) {
  keys::AppendInt(&key_, v, 1, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddInt16(int16_t v, KeyOrder order) {
  keys::AppendInt(&key_, v, 2, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddInt32(int32_t v, KeyOrder order) {
  keys::AppendInt(&key_, v, 4, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddInt64(int64_t v, KeyOrder order) {
  keys::AppendInt(&key_, v, 8, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddBytes(std::string_view v, KeyOrder order) {
  keys::AppendBytes(&key_, v, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddFixedBytes(std::string_view v, KeyOrder order) {
  keys::AppendFixedBytes(&key_, v, order);
  return *this;
}
KeyBuilder& KeyBuilder::AddReverseTimestamp(int64_t ts) {
  // BE64(INT64_MAX - ts) as an unsigned number is the complement of the sign-flipped int64, so
  // this is HBase's Bytes.toBytes(Long.MAX_VALUE - ts) byte for byte.
  keys::AppendUint(&key_, static_cast<uint64_t>(ReverseTimestamp(ts)), 8, KeyOrder::kAscending);
  return *this;
}

// ---- KeyParser ----

Status KeyParser::FieldError(const Status& s, const KeyField& field) const {
  return s.WithContext(FieldLabel(fields_read_, field) + " at byte " + std::to_string(offset_));
}

Status KeyParser::ReadUint(size_t width, KeyOrder order, uint64_t* v) {
  std::string_view in = rest();
  Status s = keys::ReadUint(&in, width, order, v);
  if (!s.ok()) {
    static constexpr KeyFieldType kTypes[] = {KeyFieldType::kUint8, KeyFieldType::kUint16,
                                              KeyFieldType::kUint32, KeyFieldType::kUint64};
    const size_t index = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3;
    return FieldError(s, IntField(kTypes[index], order));
  }
  offset_ += width;
  ++fields_read_;
  return Status::OK();
}

Status KeyParser::ReadInt(size_t width, KeyOrder order, int64_t* v) {
  std::string_view in = rest();
  Status s = keys::ReadInt(&in, width, order, v);
  if (!s.ok()) {
    static constexpr KeyFieldType kTypes[] = {KeyFieldType::kInt8, KeyFieldType::kInt16,
                                              KeyFieldType::kInt32, KeyFieldType::kInt64};
    const size_t index = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3;
    return FieldError(s, IntField(kTypes[index], order));
  }
  offset_ += width;
  ++fields_read_;
  return Status::OK();
}

Status KeyParser::ReadUint8(uint8_t* v, KeyOrder order) {
  uint64_t x = 0;
  BASALT_RETURN_IF_ERROR(ReadUint(1, order, &x));
  *v = static_cast<uint8_t>(x);
  return Status::OK();
}
Status KeyParser::ReadUint16(uint16_t* v, KeyOrder order) {
  uint64_t x = 0;
  BASALT_RETURN_IF_ERROR(ReadUint(2, order, &x));
  *v = static_cast<uint16_t>(x);
  return Status::OK();
}
Status KeyParser::ReadUint32(uint32_t* v, KeyOrder order) {
  uint64_t x = 0;
  BASALT_RETURN_IF_ERROR(ReadUint(4, order, &x));
  *v = static_cast<uint32_t>(x);
  return Status::OK();
}
Status KeyParser::ReadUint64(uint64_t* v, KeyOrder order) {
  return ReadUint(8, order, v);
}
Status KeyParser::ReadInt8(int8_t* v, KeyOrder order) {
  int64_t x = 0;
  BASALT_RETURN_IF_ERROR(ReadInt(1, order, &x));
  *v = static_cast<int8_t>(x);
  return Status::OK();
}
Status KeyParser::ReadInt16(int16_t* v, KeyOrder order) {
  int64_t x = 0;
  BASALT_RETURN_IF_ERROR(ReadInt(2, order, &x));
  *v = static_cast<int16_t>(x);
  return Status::OK();
}
Status KeyParser::ReadInt32(int32_t* v, KeyOrder order) {
  int64_t x = 0;
  BASALT_RETURN_IF_ERROR(ReadInt(4, order, &x));
  *v = static_cast<int32_t>(x);
  return Status::OK();
}
Status KeyParser::ReadInt64(int64_t* v, KeyOrder order) {
  return ReadInt(8, order, v);
}

Status KeyParser::ReadBytes(std::string* v, KeyOrder order) {
  std::string_view in = rest();
  Status s = keys::ReadBytes(&in, order, v);
  if (!s.ok()) return FieldError(s, KeyField{KeyFieldType::kBytes, order, 0});
  offset_ = key_.size() - in.size();
  ++fields_read_;
  return Status::OK();
}

Status KeyParser::ReadFixedBytes(size_t size, std::string* v, KeyOrder order) {
  std::string_view in = rest();
  Status s = keys::ReadFixedBytes(&in, size, order, v);
  if (!s.ok()) return FieldError(s, KeyField{KeyFieldType::kFixedBytes, order, size});
  offset_ += size;
  ++fields_read_;
  return Status::OK();
}

Status KeyParser::ReadReverseTimestamp(int64_t* ts) {
  // The same bytes as an int64 descending field (see AddReverseTimestamp).
  return ReadInt64(ts, KeyOrder::kDescending);
}

Status KeyParser::Read(const KeyField& field, KeyValue* v) {
  switch (field.type) {
    case KeyFieldType::kBytes:
    case KeyFieldType::kFixedBytes: {
      std::string s;
      BASALT_RETURN_IF_ERROR(field.type == KeyFieldType::kBytes
                                 ? ReadBytes(&s, field.order)
                                 : ReadFixedBytes(field.fixed_size, &s, field.order));
      *v = std::move(s);
      return Status::OK();
    }
    default:
      break;
  }
  const size_t width = IntegerWidth(field.type);
  if (IsSigned(field.type)) {
    int64_t x = 0;
    BASALT_RETURN_IF_ERROR(ReadInt(width, field.order, &x));
    *v = x;
  } else {
    uint64_t x = 0;
    BASALT_RETURN_IF_ERROR(ReadUint(width, field.order, &x));
    *v = x;
  }
  return Status::OK();
}

Status KeyParser::Finish() const {
  if (done()) return Status::OK();
  std::string where = fields_read_ == 0
                          ? std::string("a key of no fields")
                          : "key field " + std::to_string(fields_read_ - 1) + ", the last one";
  return Status::Corruption(std::to_string(key_.size() - offset_) + " bytes left at byte " +
                            std::to_string(offset_) + ", after " + where);
}

// ---- KeySchema ----

KeySchema& KeySchema::Add(KeyFieldType type, KeyOrder order) {
  fields_.push_back(KeyField{type, order, 0});
  return *this;
}

KeySchema& KeySchema::AddFixedBytes(size_t size, KeyOrder order) {
  fields_.push_back(KeyField{KeyFieldType::kFixedBytes, order, size});
  return *this;
}

Status KeySchema::Validate() const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    const KeyField& f = fields_[i];
    const bool fixed = f.type == KeyFieldType::kFixedBytes;
    if (fixed && f.fixed_size == 0) {
      return Status::InvalidArgument("schema field " + std::to_string(i) +
                                     ": a fixed-bytes field needs a size (use AddFixedBytes)");
    }
    if (!fixed && f.fixed_size != 0) {
      return Status::InvalidArgument("schema field " + std::to_string(i) + " (" +
                                     std::string(TypeName(f.type)) +
                                     "): only fixed-bytes fields have a size");
    }
  }
  return Status::OK();
}

Status KeySchema::EncodeFields(const KeyTuple& values, std::string* out) const {
  BASALT_RETURN_IF_ERROR(Validate());
  if (values.size() > fields_.size()) {
    return Status::InvalidArgument(std::to_string(values.size()) + " values for a schema of " +
                                   std::to_string(fields_.size()) + " fields " + ToString());
  }
  for (size_t i = 0; i < values.size(); ++i) {
    const KeyField& field = fields_[i];
    const KeyValue& value = values[i];
    Status s;
    switch (field.type) {
      case KeyFieldType::kBytes:
      case KeyFieldType::kFixedBytes: {
        const auto* str = std::get_if<std::string>(&value);
        if (str == nullptr) {
          s = Status::InvalidArgument("expects a string, got an integer");
        } else if (field.type == KeyFieldType::kBytes) {
          keys::AppendBytes(out, *str, field.order);
        } else if (str->size() != field.fixed_size) {
          s = Status::InvalidArgument("needs exactly " + std::to_string(field.fixed_size) +
                                      " bytes, got " + std::to_string(str->size()));
        } else {
          keys::AppendFixedBytes(out, *str, field.order);
        }
        break;
      }
      default: {
        const size_t width = IntegerWidth(field.type);
        if (IsSigned(field.type)) {
          int64_t v = 0;
          s = SignedValue(value, width, &v);
          if (s.ok()) keys::AppendInt(out, v, width, field.order);
        } else {
          uint64_t v = 0;
          s = UnsignedValue(value, width, &v);
          if (s.ok()) keys::AppendUint(out, v, width, field.order);
        }
        break;
      }
    }
    if (!s.ok()) return s.WithContext(FieldLabel(i, field));
  }
  return Status::OK();
}

Result<std::string> KeySchema::Encode(const KeyTuple& values) const {
  if (values.size() != fields_.size()) {
    return Status::InvalidArgument(std::to_string(values.size()) + " values for a schema of " +
                                   std::to_string(fields_.size()) + " fields " + ToString() +
                                   " (EncodePrefix builds a prefix)");
  }
  std::string out;
  BASALT_RETURN_IF_ERROR(EncodeFields(values, &out));
  return out;
}

Result<std::string> KeySchema::EncodePrefix(const KeyTuple& values) const {
  std::string out;
  BASALT_RETURN_IF_ERROR(EncodeFields(values, &out));
  return out;
}

Result<KeyTuple> KeySchema::Decode(std::string_view key) const {
  BASALT_RETURN_IF_ERROR(Validate());
  KeyParser parser(key);
  KeyTuple out(fields_.size());
  for (size_t i = 0; i < fields_.size(); ++i) {
    BASALT_RETURN_IF_ERROR(parser.Read(fields_[i], &out[i]));
  }
  BASALT_RETURN_IF_ERROR(parser.Finish());
  return out;
}

std::string KeySchema::ToString() const {
  std::string out = "(";
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields_[i].ToString();
  }
  out += ")";
  return out;
}

}  // namespace basalt
