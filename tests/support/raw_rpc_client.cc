#include "support/raw_rpc_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <google/protobuf/io/coded_stream.h>

#include "hbase_rpc/rpc_codec.h"

namespace basalt::testing {

int ConnectToLoopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

RawRpcClient::RawRpcClient(int fd, const std::string& service, std::chrono::seconds timeout)
    : fd_(fd) {
  if (fd_ < 0) return;
  const timeval tv{static_cast<time_t>(timeout.count()), 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ::hbase::pb::ConnectionHeader header;
  header.set_service_name(service);
  header.set_cell_block_codec_class(std::string(hbase_rpc::kKeyValueCodec));
  ok_ = Send(std::string("HBas\x00\x50", 6) + hbase_rpc::EncodeConnectionHeader(header));
}

RawRpcClient::~RawRpcClient() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawRpcClient::Send(const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

bool RawRpcClient::Call(uint32_t id, const std::string& method,
                        const google::protobuf::MessageLite& request) {
  ::hbase::pb::RequestHeader header;
  header.set_call_id(id);
  header.set_method_name(method);
  return Send(hbase_rpc::EncodeCall(header, &request));
}

bool RawRpcClient::Read(::hbase::pb::ResponseHeader* header, std::string* message) {
  uint8_t length_bytes[4];
  if (!ReadExactly(length_bytes, 4)) return false;
  const uint32_t length = uint32_t{length_bytes[0]} << 24 | uint32_t{length_bytes[1]} << 16 |
                          uint32_t{length_bytes[2]} << 8 | length_bytes[3];
  std::string body(length, '\0');
  if (!ReadExactly(reinterpret_cast<uint8_t*>(body.data()), length)) return false;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(body.data()),
                                            static_cast<int>(body.size()));
  uint32_t size = 0;
  std::string bytes;
  if (!in.ReadVarint32(&size) || !in.ReadString(&bytes, static_cast<int>(size))) return false;
  if (!header->ParseFromString(bytes)) return false;
  message->clear();
  if (in.ReadVarint32(&size)) in.ReadString(message, static_cast<int>(size));
  return true;
}

bool RawRpcClient::ReadExactly(uint8_t* out, size_t n) {
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::recv(fd_, out + got, n - got, 0);
    if (r <= 0) return false;
    got += static_cast<size_t>(r);
  }
  return true;
}

}  // namespace basalt::testing
