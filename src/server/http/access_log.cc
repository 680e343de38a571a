#include "server/http/access_log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

namespace basalt::server::http {
namespace {

std::string UtcNow() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof(out), "%s.%03dZ", buf, static_cast<int>(ms));
  return out;
}

}  // namespace

Result<std::unique_ptr<AccessLog>> AccessLog::Open(const std::string& path) {
  std::shared_ptr<spdlog::sinks::sink> sink;
  try {
    if (path.empty()) {
      sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    } else {
      sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path, /*truncate=*/false);
    }
  } catch (const spdlog::spdlog_ex& e) {
    return Status::IOError("cannot open access log '" + path + "': " + e.what());
  }
  auto logger = std::make_shared<spdlog::logger>("access", std::move(sink));
  logger->set_pattern("%v");
  logger->flush_on(spdlog::level::info);
  return std::unique_ptr<AccessLog>(new AccessLog(std::move(logger)));
}

AccessLog::~AccessLog() {
  Flush();
}

void AccessLog::Write(const AccessLogEntry& e) {
  nlohmann::json j = {{"time", UtcNow()},
                      {"method", e.method},
                      {"target", e.target},
                      {"route", e.route},
                      {"status", e.status},
                      {"bytes", e.bytes},
                      {"duration_ms", e.duration_ms},
                      {"remote", e.remote}};
  // Targets may hold any bytes; replace invalid UTF-8 rather than throw.
  logger_->info(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void AccessLog::Flush() {
  logger_->flush();
}

}  // namespace basalt::server::http
