// The access log: one JSON object per line per request, written through spdlog.
//
//   {"time":"2026-11-23T13:04:26.123Z","method":"GET","target":"/t/row1","route":"/{table}/{row}",
//    "status":200,"bytes":57,"duration_ms":0.41,"remote":"127.0.0.1:50312"}
//
// Thread safety: Write may be called from many threads. Each line is formatted on the calling
// thread without building a JSON tree, and flushed as it is written (a crash loses no line).

#ifndef BASALT_SERVER_HTTP_ACCESS_LOG_H_
#define BASALT_SERVER_HTTP_ACCESS_LOG_H_

#include <memory>
#include <string>
#include <string_view>

#include "basalt/status.h"

namespace spdlog {
class logger;
}

namespace basalt::server::http {

// Views into the caller's strings, read during Write only.
struct AccessLogEntry {
  std::string_view method;
  std::string_view target;
  std::string_view route;
  int status = 0;
  size_t bytes = 0;
  double duration_ms = 0;
  std::string_view remote;
};

class AccessLog {
 public:
  // `path` empty: stderr. Otherwise the file is appended to (IOError if it cannot be opened).
  static Result<std::unique_ptr<AccessLog>> Open(const std::string& path);
  ~AccessLog();

  void Write(const AccessLogEntry& entry);
  void Flush();

 private:
  explicit AccessLog(std::shared_ptr<spdlog::logger> logger) : logger_(std::move(logger)) {}
  std::shared_ptr<spdlog::logger> logger_;
};

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_ACCESS_LOG_H_
