#include "server/thrift/message_scanner.h"

#include <algorithm>
#include <utility>

namespace basalt::server {

namespace {

// Thrift's TType codes (protocol/TProtocol.h), which the binary protocol puts on the wire.
enum : int8_t {
  kStop = 0,
  kVoid = 1,
  kBool = 2,
  kByte = 3,
  kDouble = 4,
  kI16 = 6,
  kI32 = 8,
  kI64 = 10,
  kString = 11,
  kStruct = 12,
  kMap = 13,
  kSet = 14,
  kList = 15,
};

// Message types a processor serves (TDispatchProcessor closes the connection on any other).
constexpr int kCall = 1;
constexpr int kOneway = 4;

// The binary protocol's version word, and the compact protocol's id and version.
constexpr uint32_t kBinaryVersionMask = 0xffff0000;
constexpr uint32_t kBinaryVersion1 = 0x80010000;
constexpr uint8_t kCompactProtocolId = 0x82;
constexpr uint8_t kCompactVersion = 1;
constexpr uint8_t kCompactVersionMask = 0x1f;
// Thrift reads a varint of up to ten bytes, whatever its width.
constexpr size_t kMaxVarintBytes = 10;

int32_t BigEndian32(const uint8_t* p) {
  return static_cast<int32_t>((uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) |
                              (uint32_t{p[2]} << 8) | uint32_t{p[3]});
}

bool IsMethodNameByte(uint8_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == ':';
}

// A varint at `p` of at most `avail` bytes: its length, 0 when it has not all arrived, -1 when
// it is longer than Thrift reads.
int Varint(const uint8_t* p, size_t avail, uint64_t* value) {
  uint64_t v = 0;
  for (size_t i = 0; i < kMaxVarintBytes; ++i) {
    if (i >= avail) return 0;
    v |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
    if ((p[i] & 0x80) == 0) {
      *value = v;
      return static_cast<int>(i + 1);
    }
  }
  return -1;
}

// A compact type code as the TType it stands for (both booleans are kBool); -1 if unknown.
int8_t FromCompact(uint8_t type) {
  switch (type) {
    case 0:
      return kStop;
    case 1:
    case 2:
      return kBool;
    case 3:
      return kByte;
    case 4:
      return kI16;
    case 5:
      return kI32;
    case 6:
      return kI64;
    case 7:
      return kDouble;
    case 8:
      return kString;
    case 9:
      return kList;
    case 10:
      return kSet;
    case 11:
      return kMap;
    case 12:
      return kStruct;
    default:
      return -1;
  }
}

}  // namespace

MessageScanner::MessageScanner(bool compact, MessageCaps caps) : compact_(compact), caps_(caps) {}

void MessageScanner::Reset() {
  header_done_ = false;
  pos_ = 0;
  skip_ = 0;
  pending_ = -1;
  stack_.clear();
  error_.clear();
}

MessageScanner::Result MessageScanner::Refuse(std::string why) {
  error_ = std::move(why);
  return Result::kRefused;
}

int MessageScanner::MinBytes(int8_t type) const {
  switch (type) {
    case kStop:
    case kVoid:
    case kStruct:
      return 0;
    case kBool:
    case kByte:
      return 1;
    case kDouble:
      return 8;
    case kI16:
      return compact_ ? 1 : 2;
    case kI32:
      return compact_ ? 1 : 4;
    case kI64:
      return compact_ ? 1 : 8;
    case kString:
    case kMap:
    case kSet:
    case kList:
      return compact_ ? 1 : 4;
    default:
      return -1;
  }
}

MessageScanner::Result MessageScanner::Scan(const uint8_t* data, size_t size) {
  if (!error_.empty()) return Result::kRefused;
  if (!header_done_) {
    Result r = ScanHeader(data, size);
    if (r != Result::kComplete) return r;
    header_done_ = true;
    pending_ = kStruct;  // the arguments
  }
  while (true) {
    if (pos_ > static_cast<size_t>(caps_.max_message_bytes)) {
      return Refuse("a message past the size limit of " + std::to_string(caps_.max_message_bytes) +
                    " bytes");
    }
    if (skip_ > 0) {
      const uint64_t take = std::min<uint64_t>(skip_, size - pos_);
      pos_ += take;
      skip_ -= take;
      if (skip_ > 0) return Result::kIncomplete;
    }
    if (pending_ >= 0) {
      Result r = StartValue(data, size, pending_);
      if (r != Result::kComplete) return r;
      pending_ = -1;
      continue;
    }
    if (stack_.empty()) return Result::kComplete;
    Result r = NextInFrame(data, size);
    if (r != Result::kComplete) return r;
  }
}

MessageScanner::Result MessageScanner::ScanHeader(const uint8_t* data, size_t size) {
  return compact_ ? ScanHeaderCompact(data, size) : ScanHeaderBinary(data, size);
}

MessageScanner::Result MessageScanner::ScanHeaderBinary(const uint8_t* data, size_t size) {
  if (size < 4) return Result::kIncomplete;
  const int32_t first = BigEndian32(data);
  if (first < 0) {
    // Versioned: version and type, name, sequence id.
    if ((static_cast<uint32_t>(first) & kBinaryVersionMask) != kBinaryVersion1) {
      return Refuse("bad binary-protocol version (a compact client?)");
    }
    const int type = first & 0xff;
    if (type != kCall && type != kOneway) {
      return Refuse("message type " + std::to_string(type) + " is not a call");
    }
    if (size < 8) return Result::kIncomplete;
    const int32_t name = BigEndian32(data + 4);
    if (name < 0) return Refuse("negative method name length");
    if (name > kMaxMethodNameBytes) return Refuse("method name longer than 256 bytes");
    const size_t header = 8 + static_cast<size_t>(name) + 4;
    if (size < header) return Result::kIncomplete;
    pos_ = header;
    return Result::kComplete;
  }
  // Unversioned (pre-strict): name, type byte, sequence id. A framed message on this buffered
  // connection looks like one (its frame size, then the versioned header), but its "name" then
  // starts with the version bytes: refused here, since walking on would wait for bytes the client
  // never sends while the client waits for an answer.
  const int32_t name = first;
  if (name > kMaxMethodNameBytes) {
    return Refuse("method name longer than 256 bytes (a framed client, or another protocol?)");
  }
  const size_t have = std::min(size - 4, static_cast<size_t>(name));
  for (size_t i = 0; i < have; ++i) {
    if (!IsMethodNameByte(data[4 + i])) {
      return Refuse(
          "not a binary-protocol message on a buffered connection (a framed client, or another "
          "protocol?)");
    }
  }
  if (name == 0) return Refuse("empty method name");
  const size_t header = 4 + static_cast<size_t>(name) + 1 + 4;
  if (size < header) return Result::kIncomplete;
  const int type = data[4 + name];
  if (type != kCall && type != kOneway) {
    return Refuse("message type " + std::to_string(type) + " is not a call");
  }
  pos_ = header;
  return Result::kComplete;
}

MessageScanner::Result MessageScanner::ScanHeaderCompact(const uint8_t* data, size_t size) {
  if (size < 1) return Result::kIncomplete;
  if (data[0] != kCompactProtocolId) {
    return Refuse("bad compact-protocol id (a binary client?)");
  }
  if (size < 2) return Result::kIncomplete;
  if ((data[1] & kCompactVersionMask) != kCompactVersion) {
    return Refuse("bad compact-protocol version");
  }
  const int type = (data[1] >> 5) & 0x07;
  if (type != kCall && type != kOneway) {
    return Refuse("message type " + std::to_string(type) + " is not a call");
  }
  size_t at = 2;
  uint64_t value = 0;
  int n = Varint(data + at, size - at, &value);  // sequence id
  if (n < 0) return Refuse("varint longer than 10 bytes");
  if (n == 0) return Result::kIncomplete;
  at += static_cast<size_t>(n);
  n = Varint(data + at, size - at, &value);  // name length
  if (n < 0) return Refuse("varint longer than 10 bytes");
  if (n == 0) return Result::kIncomplete;
  at += static_cast<size_t>(n);
  const int32_t name = static_cast<int32_t>(value);
  if (name < 0) return Refuse("negative method name length");
  if (name > kMaxMethodNameBytes) return Refuse("method name longer than 256 bytes");
  const size_t header = at + static_cast<size_t>(name);
  if (size < header) return Result::kIncomplete;
  pos_ = header;
  return Result::kComplete;
}

MessageScanner::Result MessageScanner::StartContainer(Frame frame, int64_t elements,
                                                      int64_t min_element_bytes) {
  if (elements < 0) return Refuse("negative container size");
  if (caps_.max_list_elements > 0 && elements > caps_.max_list_elements) {
    return Refuse("a list, set or map of " + std::to_string(elements) + " elements (at most " +
                  std::to_string(caps_.max_list_elements) + ")");
  }
  // As Thrift's checkReadBytesAvailable: the elements cannot take less than this.
  if (static_cast<int64_t>(pos_) + elements * min_element_bytes > caps_.max_message_bytes) {
    return Refuse("a container that cannot fit the message size limit");
  }
  if (stack_.size() >= kMaxMessageNesting) return Refuse("nesting deeper than 64");
  frame.remaining = static_cast<uint32_t>(elements);
  stack_.push_back(frame);
  return Result::kComplete;
}

MessageScanner::Result MessageScanner::StartValue(const uint8_t* data, size_t size, int8_t type) {
  const uint8_t* p = data + pos_;
  const size_t avail = size - pos_;
  auto fixed = [&](size_t bytes) {
    if (avail < bytes) return Result::kIncomplete;
    pos_ += bytes;
    return Result::kComplete;
  };
  auto varint = [&](uint64_t* value) {
    int n = Varint(p, avail, value);
    if (n < 0) return Refuse("varint longer than 10 bytes");
    if (n == 0) return Result::kIncomplete;
    pos_ += static_cast<size_t>(n);
    return Result::kComplete;
  };
  switch (type) {
    case kBool:
    case kByte:
      return fixed(1);
    case kDouble:
      return fixed(8);
    case kI16:
    case kI32:
    case kI64: {
      if (!compact_) return fixed(type == kI16 ? 2 : type == kI32 ? 4 : 8);
      uint64_t ignored = 0;
      return varint(&ignored);
    }
    case kString: {
      int64_t length = 0;
      if (compact_) {
        uint64_t value = 0;
        Result r = varint(&value);
        if (r != Result::kComplete) return r;
        length = static_cast<int32_t>(value);
      } else {
        if (avail < 4) return Result::kIncomplete;
        length = BigEndian32(p);
        pos_ += 4;
      }
      if (length < 0) return Refuse("negative string size");
      if (static_cast<int64_t>(pos_) + length > caps_.max_message_bytes) {
        return Refuse("a string of " + std::to_string(length) +
                      " bytes past the message size limit of " +
                      std::to_string(caps_.max_message_bytes));
      }
      skip_ = static_cast<uint64_t>(length);
      return Result::kComplete;
    }
    case kStruct:
      if (stack_.size() >= kMaxMessageNesting) return Refuse("nesting deeper than 64");
      stack_.push_back(Frame{Frame::kStruct, 0, 0, false, 0});
      return Result::kComplete;
    case kList:
    case kSet: {
      int8_t elem = 0;
      int64_t elements = 0;
      size_t used = 0;
      if (compact_) {
        if (avail < 1) return Result::kIncomplete;
        elem = FromCompact(p[0] & 0x0f);
        elements = (p[0] >> 4) & 0x0f;
        used = 1;
        if (elements == 15) {
          uint64_t value = 0;
          int n = Varint(p + 1, avail - 1, &value);
          if (n < 0) return Refuse("varint longer than 10 bytes");
          if (n == 0) return Result::kIncomplete;
          used += static_cast<size_t>(n);
          elements = static_cast<int32_t>(value);
        }
      } else {
        if (avail < 5) return Result::kIncomplete;
        elem = static_cast<int8_t>(p[0]);
        elements = BigEndian32(p + 1);
        used = 5;
      }
      const int min = MinBytes(elem);
      if (min < 0) return Refuse("unknown element type " + std::to_string(elem));
      pos_ += used;
      return StartContainer(Frame{Frame::kList, elem, 0, false, 0}, elements, min);
    }
    case kMap: {
      int8_t key = 0, value_type = 0;
      int64_t elements = 0;
      size_t used = 0;
      if (compact_) {
        uint64_t value = 0;
        int n = Varint(p, avail, &value);
        if (n < 0) return Refuse("varint longer than 10 bytes");
        if (n == 0) return Result::kIncomplete;
        used = static_cast<size_t>(n);
        elements = static_cast<int32_t>(value);
        uint8_t types = 0;
        if (elements != 0) {
          if (avail < used + 1) return Result::kIncomplete;
          types = p[used];
          used += 1;
        }
        key = FromCompact(types >> 4);
        value_type = FromCompact(types & 0x0f);
      } else {
        if (avail < 6) return Result::kIncomplete;
        key = static_cast<int8_t>(p[0]);
        value_type = static_cast<int8_t>(p[1]);
        elements = BigEndian32(p + 2);
        used = 6;
      }
      const int min_key = MinBytes(key), min_value = MinBytes(value_type);
      if (min_key < 0 || min_value < 0) return Refuse("unknown map key or value type");
      pos_ += used;
      return StartContainer(Frame{Frame::kMap, key, value_type, true, 0}, elements,
                            min_key + min_value);
    }
    default:
      // Thrift's skip() knows no other type: stop and void included.
      return Refuse("invalid type " + std::to_string(type));
  }
}

MessageScanner::Result MessageScanner::NextInFrame(const uint8_t* data, size_t size) {
  Frame& frame = stack_.back();
  if (frame.kind == Frame::kList) {
    if (frame.remaining == 0) {
      stack_.pop_back();
      return Result::kComplete;
    }
    --frame.remaining;
    pending_ = frame.elem;
    return Result::kComplete;
  }
  if (frame.kind == Frame::kMap) {
    if (frame.remaining == 0) {
      stack_.pop_back();
      return Result::kComplete;
    }
    if (frame.key_next) {
      pending_ = frame.elem;
    } else {
      pending_ = frame.value;
      --frame.remaining;
    }
    frame.key_next = !frame.key_next;
    return Result::kComplete;
  }
  // A struct: the next field's header, or its end.
  const uint8_t* p = data + pos_;
  const size_t avail = size - pos_;
  if (avail < 1) return Result::kIncomplete;
  if (!compact_) {
    if (p[0] == kStop) {
      pos_ += 1;
      stack_.pop_back();
      return Result::kComplete;
    }
    if (avail < 3) return Result::kIncomplete;  // type, then a two-byte field id
    pos_ += 3;
    pending_ = static_cast<int8_t>(p[0]);
    return Result::kComplete;
  }
  const uint8_t compact_type = p[0] & 0x0f;
  if (compact_type == 0) {
    pos_ += 1;
    stack_.pop_back();
    return Result::kComplete;
  }
  size_t used = 1;
  if ((p[0] >> 4) == 0) {  // no delta: the field id follows as a varint
    uint64_t ignored = 0;
    int n = Varint(p + 1, avail - 1, &ignored);
    if (n < 0) return Refuse("varint longer than 10 bytes");
    if (n == 0) return Result::kIncomplete;
    used += static_cast<size_t>(n);
  }
  const int8_t type = FromCompact(compact_type);
  if (type < 0) return Refuse("unknown field type " + std::to_string(compact_type));
  pos_ += used;
  // A boolean field's value is its type code: nothing follows.
  if (type != kBool) pending_ = type;
  return Result::kComplete;
}

}  // namespace basalt::server
