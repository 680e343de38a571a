#include "server/thrift/message_scanner.h"

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace basalt::server {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;
namespace tp = apache::thrift::protocol;

using Bytes = std::vector<uint8_t>;

// Messages written by Thrift's own protocols, for the scanner to walk.
class Writer {
 public:
  explicit Writer(bool compact, bool strict = true) : buffer_(std::make_shared<TMemoryBuffer>()) {
    if (compact) {
      protocol_ = std::make_shared<TCompactProtocol>(buffer_);
    } else {
      protocol_ = std::make_shared<TBinaryProtocol>(buffer_, 0, 0, strict, strict);
    }
  }
  TProtocol& p() { return *protocol_; }
  Bytes bytes() const {
    std::string s = buffer_->getBufferAsString();
    return Bytes(s.begin(), s.end());
  }

 private:
  std::shared_ptr<TMemoryBuffer> buffer_;
  std::shared_ptr<TProtocol> protocol_;
};

// A random value of `type`, nested at most `depth` more levels.
void WriteValue(TProtocol& p, TType type, std::mt19937& rng, int depth);

TType RandomType(std::mt19937& rng, int depth) {
  static const TType scalars[] = {tp::T_BOOL, tp::T_BYTE,   tp::T_I16,   tp::T_I32,
                                  tp::T_I64,  tp::T_DOUBLE, tp::T_STRING};
  static const TType nested[] = {tp::T_STRUCT, tp::T_LIST, tp::T_SET, tp::T_MAP};
  if (depth > 0 && rng() % 3 == 0) return nested[rng() % 4];
  return scalars[rng() % 7];
}

void WriteStruct(TProtocol& p, std::mt19937& rng, int depth) {
  p.writeStructBegin("s");
  const int fields = static_cast<int>(rng() % 6);
  int16_t id = 0;
  for (int i = 0; i < fields; ++i) {
    // Deltas of 1..15 and long jumps (the compact protocol writes them differently).
    id = static_cast<int16_t>(id + (rng() % 4 == 0 ? 100 + rng() % 1000 : 1 + rng() % 15));
    const TType type = RandomType(rng, depth);
    p.writeFieldBegin("f", type, id);
    WriteValue(p, type, rng, depth - 1);
    p.writeFieldEnd();
  }
  p.writeFieldStop();
  p.writeStructEnd();
}

void WriteValue(TProtocol& p, TType type, std::mt19937& rng, int depth) {
  switch (type) {
    case tp::T_BOOL:
      p.writeBool(rng() % 2 == 0);
      break;
    case tp::T_BYTE:
      p.writeByte(static_cast<int8_t>(rng()));
      break;
    case tp::T_I16:
      p.writeI16(static_cast<int16_t>(rng()));
      break;
    case tp::T_I32:
      p.writeI32(static_cast<int32_t>(rng()));
      break;
    case tp::T_I64:
      p.writeI64(static_cast<int64_t>(rng()) << (rng() % 32));
      break;
    case tp::T_DOUBLE:
      p.writeDouble(static_cast<double>(rng()) / 7.0);
      break;
    case tp::T_STRING:
      p.writeString(std::string(rng() % (rng() % 8 == 0 ? 300 : 20), 'x'));
      break;
    case tp::T_STRUCT:
      WriteStruct(p, rng, depth);
      break;
    case tp::T_LIST:
    case tp::T_SET: {
      const TType elem = RandomType(rng, depth);
      const uint32_t n = rng() % (rng() % 4 == 0 ? 20 : 4);  // past 14: a compact varint size
      type == tp::T_LIST ? p.writeListBegin(elem, n) : p.writeSetBegin(elem, n);
      for (uint32_t i = 0; i < n; ++i) WriteValue(p, elem, rng, depth - 1);
      type == tp::T_LIST ? p.writeListEnd() : p.writeSetEnd();
      break;
    }
    case tp::T_MAP: {
      const TType key = RandomType(rng, 0), value = RandomType(rng, depth);
      const uint32_t n = rng() % 4;
      p.writeMapBegin(key, value, n);
      for (uint32_t i = 0; i < n; ++i) {
        WriteValue(p, key, rng, 0);
        WriteValue(p, value, rng, depth - 1);
      }
      p.writeMapEnd();
      break;
    }
    default:
      FAIL() << "type " << type;
  }
}

Bytes RandomCall(bool compact, bool strict, std::mt19937& rng) {
  Writer w(compact, strict);
  w.p().writeMessageBegin("someMethod", tp::T_CALL, static_cast<int32_t>(rng()));
  WriteStruct(w.p(), rng, 5);
  w.p().writeMessageEnd();
  return w.bytes();
}

// How many bytes Thrift's own skip() takes for the message at the start of `bytes`.
size_t ThriftSkipLength(bool compact, const Bytes& bytes) {
  auto in = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(bytes.data()),
                                            static_cast<uint32_t>(bytes.size()));
  std::shared_ptr<TProtocol> p;
  if (compact) {
    p = std::make_shared<TCompactProtocol>(in);
  } else {
    p = std::make_shared<TBinaryProtocol>(in, 0, 0, false, true);
  }
  std::string name;
  tp::TMessageType type;
  int32_t seqid;
  uint32_t n = p->readMessageBegin(name, type, seqid);
  n += p->skip(tp::T_STRUCT);
  n += p->readMessageEnd();
  return n;
}

MessageScanner::Result ScanAll(MessageScanner& scanner, const Bytes& bytes) {
  return scanner.Scan(bytes.data(), bytes.size());
}

TEST(MessageScannerTest, EndsWhereThriftsSkipEndsForRandomMessages) {
  std::mt19937 rng(20261202);
  for (int i = 0; i < 300; ++i) {
    for (bool compact : {false, true}) {
      const bool strict = compact || i % 3 != 0;  // unversioned binary messages too
      SCOPED_TRACE("message " + std::to_string(i) + (compact ? " compact" : " binary") +
                   (strict ? "" : " unversioned"));
      Bytes message = RandomCall(compact, strict, rng);
      ASSERT_EQ(ThriftSkipLength(compact, message), message.size());
      // With another message behind it, the scanner stops at the first one's end.
      Bytes two = message;
      two.insert(two.end(), message.begin(), message.end());
      MessageScanner scanner(compact, MessageCaps{});
      ASSERT_EQ(ScanAll(scanner, two), MessageScanner::Result::kComplete) << scanner.error();
      EXPECT_EQ(scanner.length(), message.size());
    }
  }
}

TEST(MessageScannerTest, GoesOnWhereItStoppedAsBytesArriveOneAtATime) {
  std::mt19937 rng(7);
  for (int i = 0; i < 60; ++i) {
    for (bool compact : {false, true}) {
      const bool strict = compact || i % 2 == 0;
      SCOPED_TRACE("message " + std::to_string(i) + (compact ? " compact" : " binary"));
      const Bytes message = RandomCall(compact, strict, rng);
      MessageScanner scanner(compact, MessageCaps{});
      for (size_t have = 0; have < message.size(); ++have) {
        ASSERT_EQ(scanner.Scan(message.data(), have), MessageScanner::Result::kIncomplete)
            << "at " << have << " of " << message.size() << ": " << scanner.error();
      }
      ASSERT_EQ(ScanAll(scanner, message), MessageScanner::Result::kComplete);
      EXPECT_EQ(scanner.length(), message.size());
      // Reset: the same scanner walks the next message from scratch.
      scanner.Reset();
      ASSERT_EQ(ScanAll(scanner, message), MessageScanner::Result::kComplete);
      EXPECT_EQ(scanner.length(), message.size());
    }
  }
}

// A call up to (and with) a field whose value the test writes by hand.
Bytes CallWithField(bool compact, TType type, int16_t id,
                    const std::function<void(TProtocol&)>& value) {
  Writer w(compact);
  w.p().writeMessageBegin("put", tp::T_CALL, 1);
  w.p().writeStructBegin("args");
  w.p().writeFieldBegin("f", type, id);
  value(w.p());
  return w.bytes();
}

TEST(MessageScannerTest, ListsDeclaringPastTheCapAreRefusedAtTheirHeader) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact" : "binary");
    const Bytes bytes = CallWithField(
        compact, tp::T_LIST, 2, [](TProtocol& p) { p.writeListBegin(tp::T_STRUCT, 4000000); });
    MessageScanner scanner(compact, MessageCaps{100 << 20, 100000});
    EXPECT_EQ(ScanAll(scanner, bytes), MessageScanner::Result::kRefused);
    EXPECT_NE(scanner.error().find("4000000 elements (at most 100000)"), std::string::npos)
        << scanner.error();
    // Within the cap, the scanner waits for the elements.
    MessageScanner roomy(compact, MessageCaps{100 << 20, 5000000});
    EXPECT_EQ(ScanAll(roomy, bytes), MessageScanner::Result::kIncomplete) << roomy.error();
  }
}

TEST(MessageScannerTest, AContainerTheMessageCannotHoldIsRefused) {
  // 1,000 i64s take at least 8,000 binary bytes: more than a 4 KiB message.
  const Bytes bytes =
      CallWithField(false, tp::T_LIST, 2, [](TProtocol& p) { p.writeListBegin(tp::T_I64, 1000); });
  MessageScanner scanner(false, MessageCaps{4096, 100000});
  EXPECT_EQ(ScanAll(scanner, bytes), MessageScanner::Result::kRefused);
}

TEST(MessageScannerTest, StringsPastTheMessageLimitAreRefusedWhenDeclared) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact" : "binary");
    Bytes bytes = CallWithField(compact, tp::T_STRING, 1, [](TProtocol&) {});
    const int32_t declared = 2 << 20;
    if (compact) {
      uint32_t n = static_cast<uint32_t>(declared);
      while (n >= 0x80) {
        bytes.push_back(static_cast<uint8_t>(n | 0x80));
        n >>= 7;
      }
      bytes.push_back(static_cast<uint8_t>(n));
    } else {
      for (int shift : {24, 16, 8, 0}) bytes.push_back(static_cast<uint8_t>(declared >> shift));
    }
    MessageScanner scanner(compact, MessageCaps{1 << 20, 100000});
    EXPECT_EQ(ScanAll(scanner, bytes), MessageScanner::Result::kRefused);
    // Under the limit the scanner waits for the string's bytes, holding nothing for them.
    MessageScanner roomy(compact, MessageCaps{4 << 20, 100000});
    EXPECT_EQ(ScanAll(roomy, bytes), MessageScanner::Result::kIncomplete);
  }
}

TEST(MessageScannerTest, TheWrongProtocolOrTransportIsRefusedFromItsFirstBytes) {
  // A framed binary call on a buffered binary connection: its frame size reads as an old-style
  // name length, and the "name" starts with the version bytes.
  Writer call(false);
  call.p().writeMessageBegin("getTableNames", tp::T_CALL, 1);
  call.p().writeStructBegin("args");
  call.p().writeFieldStop();
  call.p().writeStructEnd();
  Bytes framed = {0, 0, 0, static_cast<uint8_t>(call.bytes().size())};
  Bytes body = call.bytes();
  framed.insert(framed.end(), body.begin(), body.end());
  MessageScanner binary(false, MessageCaps{});
  EXPECT_EQ(binary.Scan(framed.data(), 5), MessageScanner::Result::kRefused);

  Writer compact_call(true);
  compact_call.p().writeMessageBegin("getTableNames", tp::T_CALL, 1);
  const Bytes compact = compact_call.bytes();
  MessageScanner on_binary(false, MessageCaps{});
  EXPECT_EQ(on_binary.Scan(compact.data(), 4), MessageScanner::Result::kRefused);
  MessageScanner on_compact(true, MessageCaps{});
  EXPECT_EQ(on_compact.Scan(body.data(), 1), MessageScanner::Result::kRefused);
  EXPECT_EQ(on_compact.Scan(framed.data(), 1), MessageScanner::Result::kRefused);
}

TEST(MessageScannerTest, LongNamesOtherMessageTypesBadTypesAndDeepNestingAreRefused) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact" : "binary");
    {
      Writer w(compact);
      w.p().writeMessageBegin(std::string(300, 'm'), tp::T_CALL, 1);
      MessageScanner scanner(compact, MessageCaps{});
      EXPECT_EQ(ScanAll(scanner, w.bytes()), MessageScanner::Result::kRefused);
    }
    {
      Writer w(compact);
      w.p().writeMessageBegin("get", tp::T_REPLY, 1);
      MessageScanner scanner(compact, MessageCaps{});
      EXPECT_EQ(ScanAll(scanner, w.bytes()), MessageScanner::Result::kRefused);
    }
    {
      Writer w(compact);
      w.p().writeMessageBegin("get", tp::T_CALL, 1);
      w.p().writeStructBegin("args");
      for (int i = 0; i < 70; ++i) {
        w.p().writeFieldBegin("f", tp::T_STRUCT, 1);
        w.p().writeStructBegin("s");
      }
      MessageScanner scanner(compact, MessageCaps{});
      EXPECT_EQ(ScanAll(scanner, w.bytes()), MessageScanner::Result::kRefused);
      EXPECT_NE(scanner.error().find("nesting"), std::string::npos) << scanner.error();
    }
  }
  // A field of a type Thrift's skip() does not know (binary 9, T_U64).
  Bytes bytes = CallWithField(false, tp::T_STOP, 1, [](TProtocol&) {});
  bytes[bytes.size() - 3] = 9;
  MessageScanner scanner(false, MessageCaps{});
  EXPECT_EQ(ScanAll(scanner, bytes), MessageScanner::Result::kRefused);
}

}  // namespace
}  // namespace basalt::server
