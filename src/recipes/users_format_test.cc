// The user store's stored layout (users.h), pinned byte for byte, and Open's check of its format
// version.
// The golden listing was written by hand from the layout in users.h.

#include <sodium.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "basalt/base64.h"
#include "basalt/connection.h"
#include "basalt/recipes/users.h"
#include "recipes/golden_rows.h"

namespace basalt::recipes {
namespace {

using golden::RawCells;

constexpr char kPassword[] = "correct horse battery";
constexpr int64_t kNowMs = 1700000000000;
constexpr int64_t kTtlMs = 3600000;

class UsersFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(sodium_init(), 0);
    auto conn = Connection::Open("mem:");
    ASSERT_TRUE(conn.ok()) << conn.status().ToString();
    conn_ = std::move(*conn);
  }

  Status OpenStore() {
    UserStoreOptions options;
    options.hash_cost = UserStoreOptions::HashCost::kMinimum;
    options.session_ttl_ms = kTtlMs;
    options.now_ms = [] { return kNowMs; };
    auto store = UserStore::Open(*conn_, options);
    if (!store.ok()) return store.status();
    store_ = std::move(*store);
    return Status::OK();
  }

  std::unique_ptr<Connection> conn_;
  std::unique_ptr<UserStore> store_;
};

// The password hash (salted) and the session's row (a hash of a random token) are not the
// test's to choose: they are checked against the password and the token, and listed as places.
TEST_F(UsersFormatTest, LayoutIsPinned) {
  ASSERT_TRUE(OpenStore().ok());
  ASSERT_TRUE(store_->Register("alice", kPassword).ok());
  ASSERT_TRUE(store_->UpdateProfile("alice", Profile{"Alice", "hi"}).ok());
  auto session = store_->LogIn("alice", kPassword);
  ASSERT_TRUE(session.ok()) << session.status().ToString();

  auto users = conn_->GetTable(TableName("default", "social_users"));
  ASSERT_TRUE(users.ok());
  auto account = (*users)->Get(Get("alice").AddColumn("a", "pw"));
  ASSERT_TRUE(account.ok());
  const std::string hash(account->Value("a", "pw").value_or(""));
  EXPECT_TRUE(hash.starts_with("$argon2id$")) << hash;
  EXPECT_EQ(crypto_pwhash_str_verify(hash.c_str(), kPassword, sizeof kPassword - 1), 0);
  const std::optional<std::string> token = Base64UrlDecode(session->token);
  ASSERT_TRUE(token.has_value());
  ASSERT_EQ(token->size(), 32u);
  std::string key(crypto_generichash_BYTES, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(key.data()), key.size(),
                     reinterpret_cast<const unsigned char*>(token->data()), token->size(), nullptr,
                     0);

  EXPECT_EQ(RawCells(*conn_, TableName("default", "social_users"),
                     {{golden::Hex(hash), "argon2id(password)"}}),
            (std::vector<std::string>{
                // meta row "\0meta": a:v = "1"
                "006d657461 a:76 = 31",
                // row "alice": a:pw = crypto_pwhash_str, p:bio = "hi", p:name = "Alice"
                "616c696365 a:7077 = {argon2id(password)}",
                "616c696365 p:62696f = 6869",
                "616c696365 p:6e616d65 = 416c696365",
            }));
  EXPECT_EQ(RawCells(*conn_, TableName("default", "social_sessions"),
                     {{golden::Hex(key), "blake2b-256(token)"}}),
            (std::vector<std::string>{
                // row BLAKE2b-256 of the token's 32 bytes: s:exp = BE64(now + ttl), s:user
                "{blake2b-256(token)} s:657870 = 0000018bd01c5680",
                "{blake2b-256(token)} s:75736572 = 616c696365",
            }));
}

TEST_F(UsersFormatTest, OpenRefusesAFutureAndATooOldFormatVersion) {
  ASSERT_TRUE(OpenStore().ok());
  for (const char* version : {"2", "0"}) {
    golden::ExpectOpenRefuses(
        *conn_, TableName("default", "social_users"), std::string("\0meta", 5), "a", version,
        [&] { return OpenStore(); },
        std::string("users: table social_users holds format version '") + version +
            "' of the users layout (a:v of its meta row); this basalt reads versions 1 to 1");
  }
}

}  // namespace
}  // namespace basalt::recipes
