// Thrift2 calls a `basalt serve` has answered, read from its /metrics
// (`basalt_thrift2_calls_total`, docs/rest.md), so that a benchmark running basalt over
// thrift:// can state the calls each operation costs: read the count before and after a phase,
// divide by the phase's operations. The benchmark must be the server's only Thrift2 client while
// it measures. One plain HTTP/1.0 GET a reading, on loopback (which needs no credentials:
// docs/security.md); a reading is not a Thrift call, so it does not count itself.

#ifndef BASALT_BENCH_CALL_COUNTER_H_
#define BASALT_BENCH_CALL_COUNTER_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace basalt::bench {

class ThriftCallCounter {
 public:
  // `metrics`: "http://IPV4:PORT" of the server's HTTP side; empty: no counting (embedded runs),
  // Calls() answers -1. Ends the program on a malformed address.
  explicit ThriftCallCounter(const std::string& metrics) {
    if (metrics.empty()) return;
    std::string rest = metrics;
    if (rest.rfind("http://", 0) == 0) rest = rest.substr(7);
    while (!rest.empty() && rest.back() == '/') rest.pop_back();
    const size_t colon = rest.rfind(':');
    if (colon == std::string::npos) Fail("--metrics wants http://IPV4:PORT, got " + metrics);
    host_ = rest.substr(0, colon);
    port_ = std::atoi(rest.c_str() + colon + 1);
    in_addr probe{};
    if (port_ <= 0 || port_ > 65535 || inet_pton(AF_INET, host_.c_str(), &probe) != 1) {
      Fail("--metrics wants http://IPV4:PORT, got " + metrics);
    }
  }

  bool enabled() const { return port_ > 0; }

  // The server's Thrift2 call count now; -1 when not enabled. Ends the program when the server
  // cannot be read.
  int64_t Calls() const {
    if (!enabled()) return -1;
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) Fail("socket");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    inet_pton(AF_INET, host_.c_str(), &addr.sin_addr);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
      close(fd);
      Fail("cannot connect to " + host_ + ":" + std::to_string(port_) + " for /metrics");
    }
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: " + host_ + "\r\n\r\n";
    for (size_t sent = 0; sent < request.size();) {
      const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) {
        close(fd);
        Fail("sending the /metrics request");
      }
      sent += static_cast<size_t>(n);
    }
    std::string response;
    char buf[16384];
    for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) response.append(buf, n);
    close(fd);
    // Exposition format: "name value" on a line of its own (a counter without labels).
    const std::string name = "\nbasalt_thrift2_calls_total ";
    const size_t at = response.find(name);
    if (at == std::string::npos) Fail("no basalt_thrift2_calls_total in the server's /metrics");
    return std::strtoll(response.c_str() + at + name.size(), nullptr, 10);
  }

 private:
  [[noreturn]] static void Fail(const std::string& what) {
    std::fprintf(stderr, "call counter: %s\n", what.c_str());
    std::exit(1);
  }

  std::string host_;
  int port_ = 0;
};

}  // namespace basalt::bench

#endif  // BASALT_BENCH_CALL_COUNTER_H_
