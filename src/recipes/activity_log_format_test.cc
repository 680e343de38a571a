// The activity log's stored layouts (activity_log.h), pinned byte for byte, and Open's check of
// their format version.
// The golden listings were written by hand from the layout in activity_log.h.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/connection.h"
#include "basalt/recipes/activity_log.h"
#include "recipes/golden_rows.h"

namespace basalt::recipes {
namespace {

using golden::RawCells;

// The complement of `seq`, big-endian: a descending uint64 field.
std::string DescendingHex(uint64_t seq) {
  std::string bytes;
  for (int shift = 56; shift >= 0; shift -= 8) {
    bytes.push_back(static_cast<char>(~(seq >> shift) & 0xff));
  }
  return golden::Hex(bytes);
}

class ActivityLogFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
  }

  Status OpenLog(ActivityLogOptions::Layout layout) {
    ActivityLogOptions options;
    options.layout = layout;
    auto log = ActivityLog::Open(*conn_, options);
    if (!log.ok()) return log.status();
    log_ = std::move(*log);
    return Status::OK();
  }

  // Three events: two of alice's in one millisecond, one of bob's whose payload holds a zero
  // byte. Returns the places of their sequence numbers for RawCells.
  std::map<std::string, std::string> WriteDataSet(ActivityLogOptions::Layout layout) {
    EXPECT_TRUE(OpenLog(layout).ok());
    std::map<std::string, std::string> subs;
    const struct {
      const char* user;
      const char* name;
      std::string payload;
      int64_t time_ms;
    } events[] = {{"alice", "click", "p1", 1000},
                  {"alice", "view", "", 1000},
                  {"bob", "click", std::string("\0x", 2), 2000}};
    int n = 0;
    for (const auto& e : events) {
      auto id = log_->Record(e.user, e.name, e.payload, e.time_ms);
      EXPECT_TRUE(id.ok()) << id.status().ToString();
      if (id.ok()) subs[DescendingHex(id->seq)] = "~seq" + std::to_string(++n);
    }
    return subs;
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<ActivityLog> log_;
};

// Bytes("alice") = 616c696365 0001, Bytes("bob") = 626f62 0001; ReverseTimestamp(1000) =
// 7ffffffffffffc17, of 2000 7ffffffffffff82f; values Bytes(name) + Bytes(payload), the zero
// byte of bob's payload escaped as 00ff. Within alice's millisecond the later event (the larger
// sequence number, whose complement is smaller) sorts first.
TEST_F(ActivityLogFormatTest, TallLayoutIsPinned) {
  const auto subs = WriteDataSet(ActivityLogOptions::Layout::kTall);
  EXPECT_EQ(RawCells(*conn_, TableName("default", "activity_events"), subs),
            (std::vector<std::string>{
                // meta row "\0meta": m:v = "1"
                "006d657461 m:76 = 31",
                // row Bytes(user) + ReverseTimestamp(time) + ~seq, e:"" = the event
                "616c69636500017ffffffffffffc17{~seq2} e: = 766965770001"
                "0001",
                "616c69636500017ffffffffffffc17{~seq1} e: = 636c69636b0001"
                "70310001",
                "626f6200017ffffffffffff82f{~seq3} e: = 636c69636b0001"
                "00ff780001",
            }));
}

TEST_F(ActivityLogFormatTest, WideLayoutIsPinned) {
  const auto subs = WriteDataSet(ActivityLogOptions::Layout::kWide);
  EXPECT_EQ(RawCells(*conn_, TableName("default", "activity_events"), subs),
            (std::vector<std::string>{
                "006d657461 m:76 = 31",
                // row Bytes(user), e:(ReverseTimestamp(time) + ~seq) = the event
                "616c6963650001 e:7ffffffffffffc17{~seq2} = 766965770001"
                "0001",
                "616c6963650001 e:7ffffffffffffc17{~seq1} = 636c69636b0001"
                "70310001",
                "626f620001 e:7ffffffffffff82f{~seq3} = 636c69636b0001"
                "00ff780001",
            }));
}

TEST_F(ActivityLogFormatTest, OpenRefusesAFutureAndATooOldFormatVersion) {
  ASSERT_TRUE(OpenLog(ActivityLogOptions::Layout::kTall).ok());
  for (const char* version : {"2", "0"}) {
    golden::ExpectOpenRefuses(
        *conn_, TableName("default", "activity_events"), std::string("\0meta", 5), "m", version,
        [&] { return OpenLog(ActivityLogOptions::Layout::kTall); },
        std::string("activity log: table activity_events holds format version '") + version +
            "' of the activity log layout (m:v of its meta row); this basalt reads versions 1 "
            "to 1");
  }
}

}  // namespace
}  // namespace basalt::recipes
