#include "server/http/access_log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

namespace basalt::server::http {
namespace {

// "2026-11-23T13:04:26.123Z" into `out`. The date and time of day are formatted once a second
// per thread; only the milliseconds change between calls.
void AppendUtcNow(std::string* out) {
  thread_local std::time_t cached_second = -1;
  thread_local char cached[24];  // "2026-11-23T13:04:26"
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  if (t != cached_second) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(cached, sizeof(cached), "%Y-%m-%dT%H:%M:%S", &tm);
    cached_second = t;
  }
  out->append(cached);
  char frac[6] = {'.',
                  static_cast<char>('0' + ms / 100),
                  static_cast<char>('0' + ms / 10 % 10),
                  static_cast<char>('0' + ms % 10),
                  'Z',
                  '\0'};
  out->append(frac, 5);
}

// `s` as a JSON string. Printable ASCII without quotes or backslashes (nearly every method,
// target, route and address) is copied as it is; anything else goes through nlohmann-json,
// which escapes it and replaces invalid UTF-8 rather than throw.
void AppendJsonString(std::string_view s, std::string* out) {
  bool plain = std::all_of(s.begin(), s.end(),
                           [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (plain) {
    out->push_back('"');
    out->append(s);
    out->push_back('"');
    return;
  }
  out->append(nlohmann::json(std::string(s))
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

template <typename Number>
void AppendNumber(Number n, std::string* out) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), n);
  out->append(buf, ec == std::errc() ? end : buf);
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
  // Built by hand in the keys' order: a JSON object per request (nlohmann-json's tree and dump
  // were most of this function's cost, on the thread serving the connection).
  thread_local std::string line;
  line.clear();
  line.append("{\"time\":\"");
  AppendUtcNow(&line);
  line.append("\",\"method\":");
  AppendJsonString(e.method, &line);
  line.append(",\"target\":");
  AppendJsonString(e.target, &line);
  line.append(",\"route\":");
  AppendJsonString(e.route, &line);
  line.append(",\"status\":");
  AppendNumber(e.status, &line);
  line.append(",\"bytes\":");
  AppendNumber(e.bytes, &line);
  line.append(",\"duration_ms\":");
  AppendNumber(std::isfinite(e.duration_ms) ? e.duration_ms : 0.0, &line);
  line.append(",\"remote\":");
  AppendJsonString(e.remote, &line);
  line.push_back('}');
  logger_->info(std::string_view(line));
}

void AccessLog::Flush() {
  logger_->flush();
}

}  // namespace basalt::server::http
