#include "server/http/metrics.h"

#include <gtest/gtest.h>

namespace basalt::server::http {
namespace {

TEST(MetricsTest, CollectorFamiliesRenderWithLabelsAndExactValues) {
  Metrics metrics;
  int calls = 0;
  metrics.AddCollector([&calls] {
    ++calls;
    return std::vector<Metrics::Family>{
        {"basalt_x_bytes",
         "Some bytes.",
         "gauge",
         {{{{"table", "ns:t"}, {"family", "a\"b"}}, 123456789012.0}, {{{"table", "u"}}, 0.25}}},
        {"basalt_empty", "Nothing yet.", "gauge", {}},
        {"basalt_y_total", "A count.", "counter", {{{}, 7}}}};
  });
  std::string text = metrics.Render();
  EXPECT_EQ(calls, 1);  // one reading per scrape, whatever the number of families
  EXPECT_NE(text.find("# HELP basalt_x_bytes Some bytes.\n# TYPE basalt_x_bytes gauge\n"
                      "basalt_x_bytes{table=\"ns:t\",family=\"a\\\"b\"} 123456789012\n"
                      "basalt_x_bytes{table=\"u\"} 0.25\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE basalt_y_total counter\nbasalt_y_total 7\n"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("basalt_empty"), std::string::npos) << text;
}

}  // namespace
}  // namespace basalt::server::http
