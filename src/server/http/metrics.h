// Metrics: request counters and latency histograms per route pattern, rendered in Prometheus'
// text exposition format (version 0.0.4).
//
// Thread safety: every method may be called from many threads.

#ifndef BASALT_SERVER_HTTP_METRICS_H_
#define BASALT_SERVER_HTTP_METRICS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "util/mutex.h"

namespace basalt::server::http {

class Metrics {
 public:
  // Counts one finished request. `route` is the route pattern ("" when no route matched,
  // reported as "unmatched"); `status` the HTTP status code sent.
  void ObserveRequest(std::string_view route, std::string_view method, int status, double seconds);

  void ConnectionOpened() { open_connections_.fetch_add(1, std::memory_order_relaxed); }
  void ConnectionClosed() { open_connections_.fetch_sub(1, std::memory_order_relaxed); }
  // A connection refused because max_connections were open.
  void ConnectionRefused() { refused_connections_.fetch_add(1, std::memory_order_relaxed); }

  // A gauge whose value is read when metrics are rendered (e.g. open REST scanners).
  // REQUIRES: called before serving.
  void AddGauge(std::string name, std::string help, std::function<int64_t()> read);
  // A counter (a value that only grows, e.g. jobs finished) read the same way.
  // REQUIRES: called before serving.
  void AddCounter(std::string name, std::string help, std::function<int64_t()> read);

  // The figures Render exports, as values (for a JSON view of them).
  struct RequestSeries {
    std::string route, method, status_class;
    uint64_t count = 0;
    double seconds_sum = 0;
  };
  struct Snapshot {
    std::vector<RequestSeries> requests;
    int64_t open_connections = 0;
    std::map<std::string, int64_t> gauges;    // by name
    std::map<std::string, int64_t> counters;  // by name
  };
  Snapshot TakeSnapshot() const;

  // Labelled metrics that one call reads together (e.g. from one statistics snapshot), rendered
  // after the others. A family without samples is left out.
  struct Sample {
    std::vector<std::pair<std::string, std::string>> labels;  // name, value (escaped on output)
    double value = 0;
  };
  struct Family {
    std::string name, help;
    std::string type;  // "gauge" or "counter"
    std::vector<Sample> samples;
  };
  // REQUIRES: called before serving.
  void AddCollector(std::function<std::vector<Family>()> collect);

  // The Prometheus text format.
  std::string Render() const;

 private:
  static constexpr std::array<double, 10> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                      0.025,  0.05,  0.1,    0.5,   1.0};
  struct Series {
    uint64_t count = 0;
    double sum = 0;
    std::array<uint64_t, kBuckets.size()> buckets{};  // cumulative at render time
  };
  using Key = std::tuple<std::string, std::string, std::string>;  // route, method, class
  using KeyView = std::tuple<std::string_view, std::string_view, std::string_view>;
  // Orders keys by their views, so that a lookup by views builds no strings. (A tuple of strings
  // and one of views have no operator< between them in every standard library.)
  struct KeyLess {
    using is_transparent = void;
    static KeyView View(const Key& k) { return {std::get<0>(k), std::get<1>(k), std::get<2>(k)}; }
    static const KeyView& View(const KeyView& k) { return k; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return View(a) < View(b);
    }
  };
  using SeriesMap = std::map<Key, Series, KeyLess>;

  mutable util::Mutex mu_;
  SeriesMap series_ BASALT_GUARDED_BY(mu_);
  std::atomic<int64_t> open_connections_{0};
  std::atomic<int64_t> refused_connections_{0};
  struct Gauge {
    std::string name, help;
    bool counter = false;
    std::function<int64_t()> read;
  };
  std::vector<Gauge> gauges_;
  std::vector<std::function<std::vector<Family>()>> collectors_;
};

}  // namespace basalt::server::http

#endif  // BASALT_SERVER_HTTP_METRICS_H_
