#include "server/http/metrics.h"

#include <charconv>
#include <sstream>

namespace basalt::server::http {
namespace {

std::string_view StatusClass(int status) {
  static constexpr std::string_view kClasses[] = {"0xx", "1xx", "2xx", "3xx", "4xx",
                                                  "5xx", "6xx", "7xx", "8xx", "9xx"};
  int c = status / 100;
  return c >= 0 && c <= 9 ? kClasses[c] : std::string_view("other");
}

// Label values escape backslash, double quote and newline.
std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// The shortest text that reads back as `value`: integers print without an exponent up to 2^53.
std::string FormatValue(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc()) return "NaN";
  return std::string(buf, end);
}

}  // namespace

void Metrics::ObserveRequest(std::string_view route, std::string_view method, int status,
                             double seconds) {
  // Looked up by views: a request of a series already seen allocates nothing.
  const KeyView key{route.empty() ? std::string_view("unmatched") : std::string_view(route), method,
                    StatusClass(status)};
  util::MutexLock lock(mu_);
  auto it = series_.find(key);
  if (it == series_.end()) {
    it = series_.emplace(Key(std::get<0>(key), std::get<1>(key), std::get<2>(key)), Series()).first;
  }
  Series& s = it->second;
  ++s.count;
  s.sum += seconds;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) {
      ++s.buckets[i];
      break;
    }
  }
}

void Metrics::AddGauge(std::string name, std::string help, std::function<int64_t()> read) {
  gauges_.push_back({std::move(name), std::move(help), false, std::move(read)});
}

void Metrics::AddCounter(std::string name, std::string help, std::function<int64_t()> read) {
  gauges_.push_back({std::move(name), std::move(help), true, std::move(read)});
}

Metrics::Snapshot Metrics::TakeSnapshot() const {
  Snapshot snapshot;
  {
    util::MutexLock lock(mu_);
    for (const auto& [k, s] : series_) {
      snapshot.requests.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k), s.count, s.sum});
    }
  }
  snapshot.open_connections = open_connections_.load(std::memory_order_relaxed);
  for (const Gauge& g : gauges_)
    (g.counter ? snapshot.counters : snapshot.gauges)[g.name] = g.read();
  return snapshot;
}

void Metrics::AddCollector(std::function<std::vector<Family>()> collect) {
  collectors_.push_back(std::move(collect));
}

std::string Metrics::Render() const {
  std::ostringstream out;
  SeriesMap copy;
  {
    util::MutexLock lock(mu_);
    copy = series_;
  }
  auto labels = [](const Key& k) {
    return "route=\"" + Escape(std::get<0>(k)) + "\",method=\"" + Escape(std::get<1>(k)) +
           "\",status=\"" + std::get<2>(k) + "\"";
  };
  out << "# HELP basalt_http_requests_total HTTP requests served, by route pattern, method and "
         "status class.\n# TYPE basalt_http_requests_total counter\n";
  for (const auto& [k, s] : copy) {
    out << "basalt_http_requests_total{" << labels(k) << "} " << s.count << "\n";
  }
  out << "# HELP basalt_http_request_errors_total Requests answered with a 4xx or 5xx status.\n"
         "# TYPE basalt_http_request_errors_total counter\n";
  for (const auto& [k, s] : copy) {
    const std::string& cls = std::get<2>(k);
    if (cls == "4xx" || cls == "5xx") {
      out << "basalt_http_request_errors_total{" << labels(k) << "} " << s.count << "\n";
    }
  }
  out << "# HELP basalt_http_request_duration_seconds Time from the end of the request to the "
         "response being ready.\n# TYPE basalt_http_request_duration_seconds histogram\n";
  for (const auto& [k, s] : copy) {
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      cumulative += s.buckets[i];
      out << "basalt_http_request_duration_seconds_bucket{" << labels(k) << ",le=\"" << kBuckets[i]
          << "\"} " << cumulative << "\n";
    }
    out << "basalt_http_request_duration_seconds_bucket{" << labels(k) << ",le=\"+Inf\"} "
        << s.count << "\n";
    out << "basalt_http_request_duration_seconds_sum{" << labels(k) << "} " << s.sum << "\n";
    out << "basalt_http_request_duration_seconds_count{" << labels(k) << "} " << s.count << "\n";
  }
  out << "# HELP basalt_http_open_connections HTTP connections open now.\n"
         "# TYPE basalt_http_open_connections gauge\n"
      << "basalt_http_open_connections " << open_connections_.load(std::memory_order_relaxed)
      << "\n"
      << "# HELP basalt_http_refused_connections_total HTTP connections refused at "
         "max_connections.\n"
         "# TYPE basalt_http_refused_connections_total counter\n"
      << "basalt_http_refused_connections_total "
      << refused_connections_.load(std::memory_order_relaxed) << "\n";
  for (const Gauge& g : gauges_) {
    out << "# HELP " << g.name << " " << g.help << "\n# TYPE " << g.name
        << (g.counter ? " counter\n" : " gauge\n") << g.name << " " << g.read() << "\n";
  }
  for (const auto& collect : collectors_) {
    for (const Family& family : collect()) {
      if (family.samples.empty()) continue;
      out << "# HELP " << family.name << " " << family.help << "\n# TYPE " << family.name << " "
          << family.type << "\n";
      for (const Sample& sample : family.samples) {
        out << family.name;
        if (!sample.labels.empty()) {
          out << "{";
          for (size_t i = 0; i < sample.labels.size(); ++i) {
            if (i > 0) out << ",";
            out << sample.labels[i].first << "=\"" << Escape(sample.labels[i].second) << "\"";
          }
          out << "}";
        }
        out << " " << FormatValue(sample.value) << "\n";
      }
    }
  }
  return out.str();
}

}  // namespace basalt::server::http
