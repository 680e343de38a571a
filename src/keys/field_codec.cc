#include "keys/field_codec.h"

#include <cstring>

#include "util/coding.h"

namespace basalt::keys {
namespace {

// The ascending bytes of the escape scheme; a descending field stores their complements.
constexpr uint8_t kEscape = 0x00;
constexpr uint8_t kEscapedZero = 0xff;
constexpr uint8_t kTerminator = 0x01;

uint8_t Flip(KeyOrder order) {
  return order == KeyOrder::kDescending ? 0xff : 0x00;
}

uint64_t SignBit(size_t width) {
  return uint64_t{1} << (8 * width - 1);
}

std::string HexByte(uint8_t b) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  return {kHex[b >> 4], kHex[b & 0xf]};
}

}  // namespace

size_t IntegerWidth(KeyFieldType type) {
  switch (type) {
    case KeyFieldType::kUint8:
    case KeyFieldType::kInt8:
      return 1;
    case KeyFieldType::kUint16:
    case KeyFieldType::kInt16:
      return 2;
    case KeyFieldType::kUint32:
    case KeyFieldType::kInt32:
      return 4;
    case KeyFieldType::kUint64:
    case KeyFieldType::kInt64:
      return 8;
    case KeyFieldType::kBytes:
    case KeyFieldType::kFixedBytes:
      return 0;
  }
  return 0;
}

bool IsSigned(KeyFieldType type) {
  return type == KeyFieldType::kInt8 || type == KeyFieldType::kInt16 ||
         type == KeyFieldType::kInt32 || type == KeyFieldType::kInt64;
}

void AppendUint(std::string* dst, uint64_t v, size_t width, KeyOrder order) {
  const uint8_t flip = Flip(order);
  char buf[8];
  for (size_t i = width; i-- > 0;) {
    buf[i] = static_cast<char>(static_cast<uint8_t>(v) ^ flip);
    v >>= 8;
  }
  dst->append(buf, width);
}

void AppendInt(std::string* dst, int64_t v, size_t width, KeyOrder order) {
  // Two's complement in `width` bytes is the low bytes of the 64-bit value; flipping the sign bit
  // maps [min, max] onto [0, 2^(8w) - 1] in order.
  AppendUint(dst, static_cast<uint64_t>(v) ^ SignBit(width), width, order);
}

void AppendBytes(std::string* dst, std::string_view v, KeyOrder order) {
  if (order == KeyOrder::kAscending) {
    // Copy the runs between 00 bytes in one go; strings rarely hold any.
    size_t pos = 0;
    while (pos < v.size()) {
      const void* hit = std::memchr(v.data() + pos, kEscape, v.size() - pos);
      size_t zero = hit == nullptr ? v.size() : static_cast<const char*>(hit) - v.data();
      dst->append(v.data() + pos, zero - pos);
      if (zero == v.size()) break;
      dst->push_back(static_cast<char>(kEscape));
      dst->push_back(static_cast<char>(kEscapedZero));
      pos = zero + 1;
    }
  } else {
    dst->reserve(dst->size() + v.size() + 2);
    for (char c : v) {
      if (static_cast<uint8_t>(c) == kEscape) {
        dst->push_back(static_cast<char>(~kEscape));
        dst->push_back(static_cast<char>(~kEscapedZero));
      } else {
        dst->push_back(static_cast<char>(~c));
      }
    }
  }
  const uint8_t flip = Flip(order);
  dst->push_back(static_cast<char>(kEscape ^ flip));
  dst->push_back(static_cast<char>(kTerminator ^ flip));
}

void AppendFixedBytes(std::string* dst, std::string_view v, KeyOrder order) {
  if (order == KeyOrder::kAscending) {
    dst->append(v);
    return;
  }
  for (char c : v) dst->push_back(static_cast<char>(~c));
}

Status ReadUint(std::string_view* in, size_t width, KeyOrder order, uint64_t* v) {
  if (in->size() < width) {
    return Status::Corruption("needs " + std::to_string(width) + " bytes, the key has " +
                              std::to_string(in->size()) + " left");
  }
  const uint8_t flip = Flip(order);
  uint64_t x = 0;
  if (width == 8) {
    // Timestamps, the commonest field a recipe decodes: one load and a byte swap.
    x = util::DecodeFixed64BE(in->data()) ^ (flip * 0x0101010101010101ULL);
  } else {
    for (size_t i = 0; i < width; ++i) x = (x << 8) | (static_cast<uint8_t>((*in)[i]) ^ flip);
  }
  *v = x;
  in->remove_prefix(width);
  return Status::OK();
}

Status ReadInt(std::string_view* in, size_t width, KeyOrder order, int64_t* v) {
  uint64_t u = 0;
  BASALT_RETURN_IF_ERROR(ReadUint(in, width, order, &u));
  // u - 2^(8w-1), in 64-bit two's complement: the inverse of AppendInt, sign-extended.
  *v = static_cast<int64_t>(u - SignBit(width));
  return Status::OK();
}

Status ReadBytes(std::string_view* in, KeyOrder order, std::string* v) {
  const uint8_t flip = Flip(order);
  const auto escape = static_cast<uint8_t>(kEscape ^ flip);
  const char* data = in->data();
  const size_t size = in->size();
  std::string out;
  size_t pos = 0;
  while (true) {
    // memchr is not called on an empty range: its pointer may then be null.
    const void* hit = pos < size ? std::memchr(data + pos, escape, size - pos) : nullptr;
    if (hit == nullptr) {
      return Status::Corruption("no terminator (" + HexByte(escape) + " " +
                                HexByte(kTerminator ^ flip) + ") in the " + std::to_string(size) +
                                " bytes left");
    }
    size_t at = static_cast<const char*>(hit) - data;
    if (order == KeyOrder::kAscending) {
      out.append(data + pos, at - pos);
    } else {
      for (size_t i = pos; i < at; ++i) out.push_back(static_cast<char>(~data[i]));
    }
    if (at + 1 == size) {
      return Status::Corruption("the key ends inside an escape at byte " + std::to_string(at));
    }
    const auto next = static_cast<uint8_t>(static_cast<uint8_t>(data[at + 1]) ^ flip);
    if (next == kTerminator) {
      pos = at + 2;
      break;
    }
    if (next != kEscapedZero) {
      return Status::Corruption("byte " + std::to_string(at) + " is " + HexByte(escape) +
                                " followed by " + HexByte(next ^ flip) + "; expected " +
                                HexByte(kEscapedZero ^ flip) + " (an escaped 00) or " +
                                HexByte(kTerminator ^ flip) + " (the terminator)");
    }
    out.push_back('\0');
    pos = at + 2;
  }
  *v = std::move(out);
  in->remove_prefix(pos);
  return Status::OK();
}

Status ReadFixedBytes(std::string_view* in, size_t size, KeyOrder order, std::string* v) {
  if (in->size() < size) {
    return Status::Corruption("needs " + std::to_string(size) + " bytes, the key has " +
                              std::to_string(in->size()) + " left");
  }
  v->assign(in->data(), size);
  if (order == KeyOrder::kDescending) {
    for (char& c : *v) c = static_cast<char>(~c);
  }
  in->remove_prefix(size);
  return Status::OK();
}

}  // namespace basalt::keys
