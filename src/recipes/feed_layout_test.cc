#include "recipes/feed_layout.h"

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "basalt/keys.h"

namespace basalt::recipes::feed_layout {
namespace {

// KeyParser's reading of a timeline key, the reference the common-key path must agree with.
Result<PostId> ParsedByKeyParser(std::string_view key, std::string* post_id) {
  KeyParser parser(key);
  int64_t ts = 0;
  BASALT_RETURN_IF_ERROR(parser.ReadReverseTimestamp(&ts));
  PostId id;
  KeyParser id_parser(parser.rest());
  BASALT_RETURN_IF_ERROR(id_parser.ReadBytes(&id.author));
  BASALT_RETURN_IF_ERROR(id_parser.ReadReverseTimestamp(&id.timestamp_ms));
  BASALT_RETURN_IF_ERROR(id_parser.ReadUint32(&id.sequence, KeyOrder::kDescending));
  BASALT_RETURN_IF_ERROR(id_parser.Finish());
  if (id.timestamp_ms != ts) return Status::Corruption("time does not match");
  *post_id = std::string(parser.rest());
  return id;
}

TEST(FeedLayoutTest, TimelineKeysDecodeToThePostIdTheyWereMadeOfWhateverTheAuthorsBytes) {
  std::mt19937_64 rng(7);
  const std::string alphabet(
      "\0\1\xff\x7f"
      "abz",
      7);
  for (int i = 0; i < 2000; ++i) {
    PostId id;
    const size_t author_size = 1 + rng() % 12;
    for (size_t j = 0; j < author_size; ++j) id.author.push_back(alphabet[rng() % alphabet.size()]);
    id.timestamp_ms = static_cast<int64_t>(rng() >> (rng() % 64));
    if (rng() % 8 == 0) id.timestamp_ms = -id.timestamp_ms;
    id.sequence = static_cast<uint32_t>(rng());
    const std::string post_id = EncodePostId(id);
    const std::string key = TimelineKey(post_id, id.timestamp_ms);
    std::string decoded_id;
    auto decoded = DecodeTimelineKey(key, &decoded_id);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(decoded->author, id.author);
    EXPECT_EQ(decoded->timestamp_ms, id.timestamp_ms);
    EXPECT_EQ(decoded->sequence, id.sequence);
    EXPECT_EQ(decoded_id, post_id);
  }
}

TEST(FeedLayoutTest, TimelineKeysThatDoNotDecodeFailAsKeyParserSays) {
  PostId id{"alice", 1700000000000, 42};
  const std::string post_id = EncodePostId(id);
  const std::string good = TimelineKey(post_id, id.timestamp_ms);
  std::string ignored;
  const std::string bad[] = {
      TimelineKey(post_id, id.timestamp_ms + 1),  // the times disagree
      good.substr(0, good.size() - 1),            // truncated
      good + "x",                                 // a byte too many
      good.substr(0, 8),                          // no post id
      "",
  };
  for (const std::string& key : bad) {
    auto decoded = DecodeTimelineKey(key, &ignored);
    EXPECT_FALSE(decoded.ok()) << key.size();
    EXPECT_FALSE(ParsedByKeyParser(key, &ignored).ok()) << key.size();
  }
  // Every byte flipped in turn: the two readings agree on success and on the id.
  for (size_t i = 0; i < good.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string key = good;
      key[i] = static_cast<char>(key[i] ^ (1 << bit));
      std::string fast_id, parsed_id;
      auto fast = DecodeTimelineKey(key, &fast_id);
      auto parsed = ParsedByKeyParser(key, &parsed_id);
      ASSERT_EQ(fast.ok(), parsed.ok()) << i << " " << bit;
      if (!fast.ok()) continue;
      EXPECT_EQ(fast->author, parsed->author);
      EXPECT_EQ(fast->timestamp_ms, parsed->timestamp_ms);
      EXPECT_EQ(fast->sequence, parsed->sequence);
      EXPECT_EQ(fast_id, parsed_id);
    }
  }
}

}  // namespace
}  // namespace basalt::recipes::feed_layout
