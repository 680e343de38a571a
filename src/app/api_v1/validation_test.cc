#include "app/api_v1/validation.h"

#include <gtest/gtest.h>

#include "basalt/base64.h"

namespace basalt::app::api_v1 {
namespace {

namespace bh = boost::beast::http;

const server::http::Request kRequest{};

server::http::RequestContext WithQuery(std::vector<std::pair<std::string, std::string>> query) {
  return server::http::RequestContext{kRequest, {}, std::move(query), "127.0.0.1:1"};
}

TEST(ValidationTest, JsonBodiesMustBeObjects) {
  EXPECT_TRUE(ParseJsonObject("{}").ok());
  EXPECT_TRUE(ParseJsonObject("", /*empty_ok=*/true).ok());
  EXPECT_EQ(ParseJsonObject("").status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(ParseJsonObject("[1]").status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(ParseJsonObject("{\"a\":").status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(ParseJsonObject("\"x\"").status().code(), Status::Code::kInvalidArgument);
}

TEST(ValidationTest, StringFieldsAreTyped) {
  auto body = *ParseJsonObject(R"({"a":"x","b":1,"c":null})");
  EXPECT_EQ(*StringField(body, "a"), "x");
  EXPECT_FALSE(StringField(body, "b").ok());
  EXPECT_FALSE(OptionalStringField(body, "b").ok());
  EXPECT_FALSE(StringField(body, "missing").ok());
  EXPECT_FALSE(OptionalStringField(body, "missing")->has_value());
  EXPECT_FALSE(OptionalStringField(body, "c")->has_value());
  EXPECT_FALSE(StringField(body, "c").ok());
  EXPECT_EQ(**OptionalStringField(body, "a"), "x");
}

TEST(ValidationTest, PageLimitIsOneToAHundredDefaultTwenty) {
  EXPECT_EQ(*PageLimit(WithQuery({})), 20);
  EXPECT_EQ(*PageLimit(WithQuery({{"limit", "1"}})), 1);
  EXPECT_EQ(*PageLimit(WithQuery({{"limit", "100"}})), 100);
  for (const char* bad : {"0", "101", "-1", "", "1x", "x", "99999999999999999999", " 5"}) {
    EXPECT_EQ(PageLimit(WithQuery({{"limit", bad}})).status().code(),
              Status::Code::kInvalidArgument)
        << bad;
  }
}

TEST(ValidationTest, CursorsRoundTripAndGarbageIsRejected) {
  EXPECT_EQ(EncodeCursor(""), nullptr);
  std::string recipe_cursor("\x00\xff row", 6);
  nlohmann::json encoded = EncodeCursor(recipe_cursor);
  ASSERT_TRUE(encoded.is_string());
  EXPECT_EQ(*PageCursor(WithQuery({{"cursor", encoded.get<std::string>()}})), recipe_cursor);
  EXPECT_EQ(*PageCursor(WithQuery({})), "");
  for (const char* bad : {"!!", "a", "abc=", "a b"}) {
    EXPECT_EQ(PageCursor(WithQuery({{"cursor", bad}})).status().code(),
              Status::Code::kInvalidArgument)
        << bad;
  }
}

TEST(ValidationTest, UserParamsFollowTheUserStoreRules) {
  server::http::Request req;
  server::http::RequestContext ctx{req, {{"user", "alice_1"}}, {}, ""};
  EXPECT_EQ(*UserParam(ctx), "alice_1");
  for (const char* bad : {"Alice", "al", "1abc", "a%20b", "%zz", "a/b", ""}) {
    ctx.params["user"] = bad;
    EXPECT_EQ(UserParam(ctx).status().code(), Status::Code::kInvalidArgument) << bad;
  }
}

TEST(ValidationTest, ItemsNamesAndPayloads) {
  EXPECT_TRUE(ValidateItem("sku-1 (blue)").ok());
  EXPECT_TRUE(ValidateItem("caf\xc3\xa9").ok());
  EXPECT_FALSE(ValidateItem("").ok());
  EXPECT_FALSE(ValidateItem(std::string(kMaxItemBytes + 1, 'x')).ok());
  EXPECT_FALSE(ValidateItem("a\nb").ok());
  EXPECT_FALSE(ValidateItem("\xff").ok());
  EXPECT_TRUE(ValidateActivityName("login").ok());
  EXPECT_FALSE(ValidateActivityName("").ok());
  EXPECT_FALSE(ValidateActivityName("a\tb").ok());
  EXPECT_TRUE(ValidateActivityPayload("").ok());
  EXPECT_TRUE(ValidateActivityPayload("{\n}").ok());
  EXPECT_FALSE(ValidateActivityPayload(std::string(kMaxActivityPayloadBytes + 1, 'x')).ok());
}

TEST(ValidationTest, Utf8) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("\xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\x80"));
}

TEST(ValidationTest, PostTextIsCountedInCharactersAndMustNotBeBlank) {
  EXPECT_EQ(CodePointCount(""), 0u);
  EXPECT_EQ(CodePointCount("caf\xc3\xa9 \xf0\x9f\x98\x80"), 6u);
  EXPECT_TRUE(ValidatePostText("hello").ok());
  EXPECT_TRUE(ValidatePostText(" \n x \n").ok());
  EXPECT_TRUE(ValidatePostText("a\tb\r\nc").ok());
  EXPECT_FALSE(ValidatePostText(std::string("a\0b", 3)).ok());
  EXPECT_FALSE(ValidatePostText("a\x1b[31mred").ok());
  EXPECT_FALSE(ValidatePostText("a\x7f").ok());
  // 1000 characters are allowed whatever their width in bytes; 1001 are not.
  std::string e_acute;
  std::string emoji;
  for (size_t i = 0; i < kMaxPostChars; ++i) {
    e_acute += "\xc3\xa9";
    emoji += "\xf0\x9f\x98\x80";
  }
  EXPECT_TRUE(ValidatePostText(e_acute).ok());
  EXPECT_TRUE(ValidatePostText(emoji).ok());
  EXPECT_EQ(emoji.size(), kMaxPostBytes);
  EXPECT_FALSE(ValidatePostText(e_acute + "x").ok());
  EXPECT_FALSE(ValidatePostText(std::string(kMaxPostChars + 1, 'x')).ok());
  EXPECT_FALSE(ValidatePostText("\xff").ok());
  // Empty, and only white space: ASCII, NBSP, U+2003, U+3000, U+0085, U+FEFF.
  for (std::string blank : {"", " ", "\t\r\n ", "\xc2\xa0", "\xe2\x80\x83", "\xe3\x80\x80",
                            "\xc2\x85", "\xef\xbb\xbf"}) {
    Status s = ValidatePostText(blank);
    EXPECT_TRUE(s.IsInvalidArgument()) << blank;
    EXPECT_NE(s.message().find("white space"), std::string::npos) << s.ToString();
  }
  EXPECT_TRUE(ValidatePostText("\xe3\x80\x80.").ok());
}

TEST(ValidationTest, PostIdsAreCanonicalBase64Url) {
  EXPECT_EQ(*DecodePostId(Base64UrlEncode("id\x01")), "id\x01");
  EXPECT_FALSE(DecodePostId("").ok());
  EXPECT_FALSE(DecodePostId("a").ok());
  EXPECT_FALSE(DecodePostId("ab+/").ok());
}

}  // namespace
}  // namespace basalt::app::api_v1
