#include "server/thrift/growing_protocol.h"

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TVirtualProtocol.h>

#include <algorithm>
#include <string>

namespace basalt::server {

namespace {

using apache::thrift::protocol::TBinaryProtocolT;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::protocol::TProtocolFactory;
using apache::thrift::protocol::TVirtualProtocol;
using apache::thrift::transport::TTransport;

// Longer than any method name of THBaseService (the longest has 32 characters) or Hbase (31).
constexpr int32_t kMaxMessageNameBytes = 256;
// Bytes allocated ahead of their arrival, at most, per string being read.
constexpr int32_t kChunkBytes = 1 << 20;

// Whether `name` can be a method name: an IDL identifier, or "Service:method" behind Thrift's
// multiplexed protocol.
bool IsMethodName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == ':';
    if (!ok) return false;
  }
  return true;
}

void CheckStringSize(int32_t size, int32_t limit) {
  if (size < 0) throw TProtocolException(TProtocolException::NEGATIVE_SIZE);
  if (limit > 0 && size > limit) throw TProtocolException(TProtocolException::SIZE_LIMIT);
}

// Reads `size` bytes of `trans` into `out`, allocating at most kChunkBytes ahead of the bytes
// that have arrived. std::string's geometric growth keeps the copies linear.
void ReadGrowing(TTransport& trans, int32_t size, std::string& out) {
  out.clear();
  uint32_t available = static_cast<uint32_t>(size);
  if (const uint8_t* buffered = trans.borrow(nullptr, &available)) {
    out.assign(reinterpret_cast<const char*>(buffered), static_cast<size_t>(size));
    trans.consume(static_cast<uint32_t>(size));
    return;
  }
  size_t done = 0;
  while (done < static_cast<size_t>(size)) {
    size_t chunk = std::min<size_t>(kChunkBytes, static_cast<size_t>(size) - done);
    out.resize(done + chunk);
    trans.readAll(reinterpret_cast<uint8_t*>(out.data() + done), static_cast<uint32_t>(chunk));
    done += chunk;
  }
}

class GrowingBinaryProtocol
    : public TVirtualProtocol<GrowingBinaryProtocol, TBinaryProtocolT<TTransport>> {
 public:
  GrowingBinaryProtocol(std::shared_ptr<TTransport> trans, int32_t string_limit,
                        int32_t container_limit)
      : TVirtualProtocol(std::move(trans)) {
    setStringSizeLimit(string_limit);
    setContainerSizeLimit(container_limit);
    // HBase's server: lenient reads (old unversioned clients), strict writes.
    setStrict(/*strict_read=*/false, /*strict_write=*/true);
  }

  // TBinaryProtocolT's, with the name read by ReadString under kMaxMessageNameBytes.
  uint32_t readMessageBegin(std::string& name, TMessageType& type, int32_t& seqid) {
    int32_t sz = 0;
    uint32_t result = readI32(sz);
    if (sz < 0) {
      if ((sz & VERSION_MASK) != VERSION_1) {
        throw TProtocolException(TProtocolException::BAD_VERSION, "Bad version identifier");
      }
      type = static_cast<TMessageType>(sz & 0xff);
      int32_t name_size = 0;
      result += readI32(name_size);
      result += ReadBody(name_size, kMaxMessageNameBytes, name);
      result += readI32(seqid);
    } else {
      // An unversioned (pre-strict) message: `sz` is the name's length. A framed message on
      // this buffered connection looks like one too (its frame size, then the versioned
      // header), but its "name" then starts with the version bytes: refused here, since
      // reading on would wait for bytes the client never sends while the client waits for an
      // answer.
      result += ReadBody(sz, kMaxMessageNameBytes, name);
      if (!IsMethodName(name)) {
        throw TProtocolException(TProtocolException::BAD_VERSION,
                                 "not a binary-protocol message on a buffered connection (a "
                                 "framed client, or another protocol?)");
      }
      int8_t byte = 0;
      result += readByte(byte);
      type = static_cast<TMessageType>(byte);
      result += readI32(seqid);
    }
    return result;
  }

  uint32_t readString(std::string& str) {
    int32_t size = 0;
    uint32_t result = readI32(size);
    return result + ReadBody(size, string_limit_, str);
  }
  uint32_t readBinary(std::string& str) { return readString(str); }

 private:
  uint32_t ReadBody(int32_t size, int32_t limit, std::string& out) {
    CheckStringSize(size, limit);
    ReadGrowing(*trans_, size, out);
    return static_cast<uint32_t>(size);
  }
};

class GrowingCompactProtocol
    : public TVirtualProtocol<GrowingCompactProtocol, TCompactProtocolT<TTransport>> {
 public:
  GrowingCompactProtocol(std::shared_ptr<TTransport> trans, int32_t string_limit,
                         int32_t container_limit)
      : TVirtualProtocol(std::move(trans)) {
    // TCompactProtocolT takes these only in a constructor TVirtualProtocol does not forward.
    string_limit_ = string_limit;
    container_limit_ = container_limit;
  }

  // TCompactProtocolT's, with the name read by ReadBody under kMaxMessageNameBytes.
  uint32_t readMessageBegin(std::string& name, TMessageType& type, int32_t& seqid) {
    int8_t protocol_id = 0;
    int8_t version_and_type = 0;
    uint32_t result = readByte(protocol_id);
    if (protocol_id != PROTOCOL_ID) {
      throw TProtocolException(TProtocolException::BAD_VERSION, "Bad protocol identifier");
    }
    result += readByte(version_and_type);
    if ((version_and_type & VERSION_MASK) != VERSION_N) {
      throw TProtocolException(TProtocolException::BAD_VERSION, "Bad protocol version");
    }
    type = static_cast<TMessageType>((version_and_type >> TYPE_SHIFT_AMOUNT) & TYPE_BITS);
    result += readVarint32(seqid);
    result += ReadSizedBody(kMaxMessageNameBytes, name);
    return result;
  }

  uint32_t readBinary(std::string& str) { return ReadSizedBody(string_limit_, str); }
  uint32_t readString(std::string& str) { return readBinary(str); }

 private:
  uint32_t ReadSizedBody(int32_t limit, std::string& out) {
    int32_t size = 0;
    uint32_t result = readVarint32(size);
    CheckStringSize(size, limit);
    ReadGrowing(*trans_, size, out);
    return result + static_cast<uint32_t>(size);
  }
};

class GrowingFactory : public TProtocolFactory {
 public:
  GrowingFactory(bool compact, int32_t string_limit, int32_t container_limit)
      : compact_(compact), string_limit_(string_limit), container_limit_(container_limit) {}

  std::shared_ptr<TProtocol> getProtocol(std::shared_ptr<TTransport> trans) override {
    if (compact_) {
      return std::make_shared<GrowingCompactProtocol>(std::move(trans), string_limit_,
                                                      container_limit_);
    }
    return std::make_shared<GrowingBinaryProtocol>(std::move(trans), string_limit_,
                                                   container_limit_);
  }

 private:
  const bool compact_;
  const int32_t string_limit_;
  const int32_t container_limit_;
};

}  // namespace

std::shared_ptr<TProtocolFactory> GrowingProtocolFactory(bool compact, int32_t string_limit,
                                                         int32_t container_limit) {
  return std::make_shared<GrowingFactory>(compact, string_limit, container_limit);
}

}  // namespace basalt::server
