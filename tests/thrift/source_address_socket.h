// A Thrift socket to a local server from a chosen loopback source address (127.0.0.2, ...), for
// tests of what the Thrift servers keep per client address: every 127.x.y.z address is this
// machine's, and the server sees the connection as coming from it.

#ifndef BASALT_TESTS_THRIFT_SOURCE_ADDRESS_SOCKET_H_
#define BASALT_TESTS_THRIFT_SOURCE_ADDRESS_SOCKET_H_

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thrift/transport/TSocket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

namespace basalt::testing {

// An open socket to 127.0.0.1:`port` bound to `source` (any port), or nullptr after a test
// failure saying why.
inline std::shared_ptr<apache::thrift::transport::TSocket> SocketFromAddress(
    const std::string& source, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    ADD_FAILURE() << "socket: " << std::strerror(errno);
    return nullptr;
  }
  sockaddr_in from{};
  from.sin_family = AF_INET;
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, source.c_str(), &from.sin_addr) != 1 ||
      ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr) != 1) {
    ADD_FAILURE() << "not an IPv4 address: " << source;
    ::close(fd);
    return nullptr;
  }
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&from), sizeof(from)) != 0 ||
      ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof(to)) != 0) {
    ADD_FAILURE() << "cannot connect from " << source << ": " << std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  auto socket = std::make_shared<apache::thrift::transport::TSocket>(fd);  // owns fd
  socket->setRecvTimeout(10000);
  return socket;
}

}  // namespace basalt::testing

#endif  // BASALT_TESTS_THRIFT_SOURCE_ADDRESS_SOCKET_H_
