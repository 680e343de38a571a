#include "server/thrift/growing_protocol.h"

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TProtocol.h>
#include <thrift/transport/TBufferTransports.h>

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
using apache::thrift::protocol::TType;
using apache::thrift::transport::TBufferBase;
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
template <class Transport>
void ReadGrowing(Transport& trans, int32_t size, std::string& out) {
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

// `Transport` is TBufferBase for the server's own buffered and framed transports: the protocol
// then reads and writes their buffers through inline calls, where through TTransport every
// field's every byte count was a virtual call into the transport (a sixth of the server's time
// encoding a page of 30 rows). Any other transport is read through TTransport.
//
// Thrift's TVirtualProtocol, which would route TProtocol's virtual calls to the methods below,
// can only be built on a protocol of TTransport; so this derives from Thrift's protocol and
// overrides the virtual entry points of the methods it replaces, skip included (Thrift's skip
// of a string field would otherwise read it with Thrift's own readBinary, which allocates the
// declared size).
template <class Transport>
class GrowingBinaryProtocol : public TBinaryProtocolT<Transport> {
  using Base = TBinaryProtocolT<Transport>;

 public:
  GrowingBinaryProtocol(std::shared_ptr<Transport> trans, int32_t string_limit,
                        int32_t container_limit)
      : Base(std::move(trans)) {
    this->setStringSizeLimit(string_limit);
    this->setContainerSizeLimit(container_limit);
    // HBase's server: lenient reads (old unversioned clients), strict writes.
    this->setStrict(/*strict_read=*/false, /*strict_write=*/true);
  }

  // TBinaryProtocolT's, with the name read by ReadString under kMaxMessageNameBytes.
  uint32_t readMessageBegin(std::string& name, TMessageType& type, int32_t& seqid) {
    int32_t sz = 0;
    uint32_t result = this->readI32(sz);
    if (sz < 0) {
      if ((sz & Base::VERSION_MASK) != Base::VERSION_1) {
        throw TProtocolException(TProtocolException::BAD_VERSION, "Bad version identifier");
      }
      type = static_cast<TMessageType>(sz & 0xff);
      int32_t name_size = 0;
      result += this->readI32(name_size);
      result += ReadBody(name_size, kMaxMessageNameBytes, name);
      result += this->readI32(seqid);
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
      result += this->readByte(byte);
      type = static_cast<TMessageType>(byte);
      result += this->readI32(seqid);
    }
    return result;
  }

  uint32_t readString(std::string& str) {
    int32_t size = 0;
    uint32_t result = this->readI32(size);
    return result + ReadBody(size, this->string_limit_, str);
  }
  uint32_t readBinary(std::string& str) { return readString(str); }
  uint32_t skip(TType type) { return apache::thrift::protocol::skip(*this, type); }

  uint32_t readMessageBegin_virt(std::string& name, TMessageType& type, int32_t& seqid) override {
    return readMessageBegin(name, type, seqid);
  }
  uint32_t readString_virt(std::string& str) override { return readString(str); }
  uint32_t readBinary_virt(std::string& str) override { return readString(str); }
  uint32_t skip_virt(TType type) override { return skip(type); }

 private:
  uint32_t ReadBody(int32_t size, int32_t limit, std::string& out) {
    CheckStringSize(size, limit);
    ReadGrowing(*this->trans_, size, out);
    return static_cast<uint32_t>(size);
  }
};

// `Transport`, and why this overrides virtual entry points, as for GrowingBinaryProtocol.
template <class Transport>
class GrowingCompactProtocol : public TCompactProtocolT<Transport> {
  using Base = TCompactProtocolT<Transport>;

 public:
  GrowingCompactProtocol(std::shared_ptr<Transport> trans, int32_t string_limit,
                         int32_t container_limit)
      : Base(std::move(trans)) {
    // TCompactProtocolT takes these only in a constructor TVirtualProtocol does not forward.
    this->string_limit_ = string_limit;
    this->container_limit_ = container_limit;
  }

  // TCompactProtocolT's, with the name read by ReadBody under kMaxMessageNameBytes.
  uint32_t readMessageBegin(std::string& name, TMessageType& type, int32_t& seqid) {
    int8_t protocol_id = 0;
    int8_t version_and_type = 0;
    uint32_t result = this->readByte(protocol_id);
    if (protocol_id != Base::PROTOCOL_ID) {
      throw TProtocolException(TProtocolException::BAD_VERSION, "Bad protocol identifier");
    }
    result += this->readByte(version_and_type);
    if ((version_and_type & Base::VERSION_MASK) != Base::VERSION_N) {
      throw TProtocolException(TProtocolException::BAD_VERSION, "Bad protocol version");
    }
    type =
        static_cast<TMessageType>((version_and_type >> Base::TYPE_SHIFT_AMOUNT) & Base::TYPE_BITS);
    result += this->readVarint32(seqid);
    result += ReadSizedBody(kMaxMessageNameBytes, name);
    return result;
  }

  uint32_t readBinary(std::string& str) { return ReadSizedBody(this->string_limit_, str); }
  uint32_t readString(std::string& str) { return readBinary(str); }
  uint32_t skip(TType type) { return apache::thrift::protocol::skip(*this, type); }

  uint32_t readMessageBegin_virt(std::string& name, TMessageType& type, int32_t& seqid) override {
    return readMessageBegin(name, type, seqid);
  }
  uint32_t readString_virt(std::string& str) override { return readBinary(str); }
  uint32_t readBinary_virt(std::string& str) override { return readBinary(str); }
  uint32_t skip_virt(TType type) override { return skip(type); }

 private:
  uint32_t ReadSizedBody(int32_t limit, std::string& out) {
    int32_t size = 0;
    uint32_t result = this->readVarint32(size);
    CheckStringSize(size, limit);
    ReadGrowing(*this->trans_, size, out);
    return result + static_cast<uint32_t>(size);
  }
};

class GrowingFactory : public TProtocolFactory {
 public:
  GrowingFactory(bool compact, int32_t string_limit, int32_t container_limit)
      : compact_(compact), string_limit_(string_limit), container_limit_(container_limit) {}

  std::shared_ptr<TProtocol> getProtocol(std::shared_ptr<TTransport> trans) override {
    // The server's transports (message_transports.h) are buffers: see GrowingBinaryProtocol.
    if (auto buffered = std::dynamic_pointer_cast<TBufferBase>(trans)) {
      return Make<TBufferBase>(std::move(buffered));
    }
    return Make<TTransport>(std::move(trans));
  }

 private:
  template <class Transport>
  std::shared_ptr<TProtocol> Make(std::shared_ptr<Transport> trans) const {
    if (compact_) {
      return std::make_shared<GrowingCompactProtocol<Transport>>(std::move(trans), string_limit_,
                                                                 container_limit_);
    }
    return std::make_shared<GrowingBinaryProtocol<Transport>>(std::move(trans), string_limit_,
                                                              container_limit_);
  }

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
