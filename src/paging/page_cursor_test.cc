#include "paging/page_cursor.h"

#include <gtest/gtest.h>

#include "basalt/base64.h"

namespace basalt::paging {
namespace {

PageCursor Sample() {
  PageCursor c;
  c.kind = CursorKind::kRows;
  c.reversed = true;
  c.fingerprint = 0x0102030405060708ULL;
  c.remaining = 42;
  c.last_key = std::string("row\x00\xff", 5);
  return c;
}

TEST(PageCursorTest, RoundTrips) {
  PageCursor c = Sample();
  auto back = DecodeCursor(EncodeCursor(c));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, c);
  c.kind = CursorKind::kColumns;
  c.reversed = false;
  c.last_key = "";
  back = DecodeCursor(EncodeCursor(c));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, c);
}

// The version-1 layout is a stable format: clients hold cursors across upgrades.
TEST(PageCursorTest, Version1BytesArePinned) {
  std::string bytes = *Base64UrlDecode(EncodeCursor(Sample()));
  std::string expected_head(
      "\x01\x01\x01"
      "\x01\x02\x03\x04\x05\x06\x07\x08"
      "\x00\x00\x00\x00\x00\x00\x00\x2a"
      "\x00\x00\x00\x05"
      "row\x00\xff",
      28);
  ASSERT_EQ(bytes.size(), expected_head.size() + 4);
  EXPECT_EQ(bytes.substr(0, expected_head.size()), expected_head);
  EXPECT_EQ(EncodeCursor(Sample()), "AQEBAQIDBAUGBwgAAAAAAAAAKgAAAAVyb3cA_792-Lo");
}

TEST(PageCursorTest, EveryTruncationIsRejected) {
  std::string text = EncodeCursor(Sample());
  for (size_t n = 0; n < text.size(); ++n) {
    auto r = DecodeCursor(text.substr(0, n));
    EXPECT_TRUE(r.status().IsInvalidArgument()) << n;
  }
  std::string bytes = *Base64UrlDecode(text);
  for (size_t n = 1; n < bytes.size(); ++n) {
    auto r = DecodeCursor(Base64UrlEncode(bytes.substr(0, n)));
    EXPECT_TRUE(r.status().IsInvalidArgument()) << n;
  }
}

TEST(PageCursorTest, EveryFlippedBitIsRejected) {
  std::string bytes = *Base64UrlDecode(EncodeCursor(Sample()));
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      auto r = DecodeCursor(Base64UrlEncode(bad));
      EXPECT_TRUE(r.status().IsInvalidArgument()) << i << ":" << bit;
    }
  }
}

TEST(PageCursorTest, MessagesSayWhatIsWrong) {
  EXPECT_NE(DecodeCursor("not a cursor!").status().message().find("base64url"), std::string::npos);
  std::string bytes = *Base64UrlDecode(EncodeCursor(Sample()));
  bytes[0] = 2;
  EXPECT_NE(DecodeCursor(Base64UrlEncode(bytes)).status().message().find("version 2"),
            std::string::npos);
  PageCursor c = Sample();
  Status s = CheckCursorMatches(c, CursorKind::kRows, false, c.fingerprint);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("reversed"), std::string::npos) << s.message();
  s = CheckCursorMatches(c, CursorKind::kRows, true, c.fingerprint + 1);
  EXPECT_NE(s.message().find("different scan"), std::string::npos) << s.message();
  s = CheckCursorMatches(c, CursorKind::kColumns, true, c.fingerprint);
  EXPECT_NE(s.message().find("row cursor"), std::string::npos) << s.message();
  EXPECT_TRUE(CheckCursorMatches(c, CursorKind::kRows, true, c.fingerprint).ok());
}

TEST(PageCursorTest, FingerprintFramesItsValues) {
  EXPECT_NE(Fingerprint().AddBytes("ab").AddBytes("c").Finish(),
            Fingerprint().AddBytes("a").AddBytes("bc").Finish());
  EXPECT_NE(Fingerprint().AddBool(true).Finish(), Fingerprint().AddBool(false).Finish());
  EXPECT_NE(Fingerprint().AddInt(1).Finish(), Fingerprint().AddInt(2).Finish());
  EXPECT_EQ(Fingerprint().AddBytes("x").AddInt(7).Finish(),
            Fingerprint().AddBytes("x").AddInt(7).Finish());
}

}  // namespace
}  // namespace basalt::paging
