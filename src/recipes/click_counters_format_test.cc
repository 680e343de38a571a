// The click counters' stored layout (click_counters.h), pinned byte for byte, and Open's check of
// its format version.
// The golden listing was dumped once and reviewed against the layout in click_counters.h: the
// places of the visitor's register and the Count-Min counters come from the sketches' hashes
// (click_sketches.h), which it pins too.

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/connection.h"
#include "basalt/recipes/click_counters.h"
#include "recipes/golden_rows.h"

namespace basalt::recipes {
namespace {

using golden::RawCells;

// 2026-11-23 10:30 UTC.
constexpr int64_t kT = 1795392000000 + 10 * ClickCounters::kHourMs + 30 * ClickCounters::kMinuteMs;

class ClickCountersFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
  }

  Status OpenCounters() {
    ClickCountersOptions options;
    options.clock = [] { return kT; };
    // Long enough that the data set's buckets outlive the test whatever the date.
    options.bucket_ttl_seconds = 20 * 365 * 24 * 3600;
    auto counters = ClickCounters::Open(*conn_, options);
    if (!counters.ok()) return counters.status();
    counters_ = std::move(*counters);
    return Status::OK();
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<ClickCounters> counters_;
};

TEST_F(ClickCountersFormatTest, LayoutIsPinned) {
  ASSERT_TRUE(OpenCounters().ok());
  ASSERT_TRUE(counters_->Click("shoe", 1, kT).ok());
  ASSERT_TRUE(counters_->ClickBy("shoe", "v1", 1, kT).ok());
  ASSERT_TRUE(counters_->Click("hat", 2, kT + ClickCounters::kMinuteMs).ok());
  ASSERT_TRUE(counters_->RefreshWeekly(kT + ClickCounters::kRefreshPeriodMs).ok());
  // Bytes("hat") = 686174 0001, Bytes("shoe") = 73686f65 0001; Minute = "202611231030" (shoe)
  // and "202611231031" (hat) in ASCII; counters are BE64.
  EXPECT_EQ(RawCells(*conn_, TableName("default", "clicks_by_item")),
            (std::vector<std::string>{
                // Bytes(item) + Minute(t), c:n = the minute's clicks
                "6861740001"
                "323032363131323331303331 c:6e = 0000000000000002",
                "73686f650001"
                "323032363131323331303330 c:6e = 0000000000000002",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "clicks_by_minute")),
            (std::vector<std::string>{
                // Minute(t) + Bytes(item), c:n
                "323032363131323331303330"
                "73686f650001 c:6e = 0000000000000002",
                "323032363131323331303331"
                "6861740001 c:6e = 0000000000000002",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "clicks_totals")),
            (std::vector<std::string>{
                // the meta row "\0meta": c:v = "1"
                "006d657461 c:76 = 31",
                // Bytes(item): c:all, c:week
                "6861740001 c:616c6c = 0000000000000002",
                "6861740001 c:7765656b = 0000000000000002",
                // "refresh": c:to = the boundary refreshed to, 2026-11-23 11:00 UTC in ms
                "72656672657368 c:746f = 000001a208100f80",
                "73686f650001 c:616c6c = 0000000000000002",
                "73686f650001 c:7765656b = 0000000000000002",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "clicks_visitors")),
            (std::vector<std::string>{
                // Bytes(item) + "2026112310" (the hour), v:(register BE16 + rank) = "": visitor
                // v1's HyperLogLog cell (register 0x0d22, rank 1)
                "73686f650001"
                "32303236313132333130 v:0d2201 = ",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "clicks_heavy")),
            (std::vector<std::string>{
                // "2026112310" + shard (shoe's is 3): k:item = its clicks since it became a
                // candidate; s:(row u8 + column BE16) = the Count-Min counters, one per row of
                // 4; s:n = the shard's clicks
                "32303236313132333130"
                "03 k:73686f65 = 0000000000000002",
                "32303236313132333130"
                "03 s:000249 = 0000000000000002",
                "32303236313132333130"
                "03 s:010458 = 0000000000000002",
                "32303236313132333130"
                "03 s:020191 = 0000000000000002",
                "32303236313132333130"
                "03 s:03039a = 0000000000000002",
                "32303236313132333130"
                "03 s:6e = 0000000000000002",
                // hat's shard is 5
                "32303236313132333130"
                "05 k:686174 = 0000000000000002",
                "32303236313132333130"
                "05 s:000405 = 0000000000000002",
                "32303236313132333130"
                "05 s:010493 = 0000000000000002",
                "32303236313132333130"
                "05 s:020757 = 0000000000000002",
                "32303236313132333130"
                "05 s:030765 = 0000000000000002",
                "32303236313132333130"
                "05 s:6e = 0000000000000002",
            }));
}

TEST_F(ClickCountersFormatTest, OpenRefusesAFutureAndATooOldFormatVersion) {
  ASSERT_TRUE(OpenCounters().ok());
  for (const char* version : {"2", "0"}) {
    golden::ExpectOpenRefuses(
        *conn_, TableName("default", "clicks_totals"), std::string("\0meta", 5), "c", version,
        [&] { return OpenCounters(); },
        std::string("click counters: table clicks_totals holds format version '") + version +
            "' of the click counters layout (c:v of its meta row); this basalt reads versions "
            "1 to 1");
  }
}

}  // namespace
}  // namespace basalt::recipes
