// UserStore: registration rules, log-in and sessions, profiles, and what reaches the tables.

#include "basalt/recipes/users.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "basalt/recipes/follow_graph.h"
#include "recipes/recipe_store.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

using recipes::kWrongCredentials;
using recipes::Profile;
using recipes::UserStore;
using recipes::UserStoreOptions;

constexpr char kPassword[] = "Tr0ub4dor&3 horse";

class UsersTest : public RecipeTest {
 protected:
  std::unique_ptr<UserStore> Open(
      UserStoreOptions::HashCost cost = UserStoreOptions::HashCost::kMinimum) {
    UserStoreOptions options;
    options.hash_cost = cost;
    options.presplit_regions = kPresplitRegions;
    options.session_ttl_ms = 60'000;
    options.now_ms = [this] { return now_ms_.load(); };
    auto users = UserStore::Open(conn(), options);
    EXPECT_TRUE(users.ok()) << users.status().ToString();
    return users.ok() ? std::move(users).value() : nullptr;
  }

  std::atomic<int64_t> now_ms_{1'700'000'000'000};
};

TEST_P(UsersTest, RegisterThenLogInGivesASessionForTheUser) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto session = users->LogIn("alice", kPassword);
  ASSERT_OK(session);
  EXPECT_EQ(session->user, "alice");
  EXPECT_EQ(session->token.size(), 43u);
  EXPECT_EQ(session->expires_at_ms, now_ms_.load() + 60'000);
  auto who = users->ValidateSession(session->token);
  ASSERT_OK(who);
  EXPECT_EQ(*who, "alice");
  // Each log-in is a new session.
  auto second = users->LogIn("alice", kPassword);
  ASSERT_OK(second);
  EXPECT_NE(second->token, session->token);
}

TEST_P(UsersTest, FindUsersListsNamesByPrefixInPages) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  for (const char* name : {"alice", "alicia", "alfred", "bob", "al_x", "albert"}) {
    ASSERT_OK(users->Register(name, kPassword));
  }
  auto first = users->FindUsers("al", 2);
  ASSERT_OK(first);
  EXPECT_EQ(first->users, (std::vector<std::string>{"al_x", "albert"}));
  ASSERT_FALSE(first->cursor.empty());
  auto second = users->FindUsers("al", 2, first->cursor);
  ASSERT_OK(second);
  EXPECT_EQ(second->users, (std::vector<std::string>{"alfred", "alice"}));
  auto third = users->FindUsers("al", 2, second->cursor);
  ASSERT_OK(third);
  EXPECT_EQ(third->users, (std::vector<std::string>{"alicia"}));
  EXPECT_TRUE(third->cursor.empty());
  auto all = users->FindUsers("", 100);
  ASSERT_OK(all);
  EXPECT_EQ(all->users.size(), 6u);
  EXPECT_EQ(all->users.back(), "bob");
  // A prefix no name could start with finds nobody; a bad page size is an error.
  for (const char* prefix : {"Al", "a-", "\xff", "abcdefghijklmnopqrstuvwxyz0123456789"}) {
    auto none = users->FindUsers(prefix, 10);
    ASSERT_OK(none);
    EXPECT_TRUE(none->users.empty()) << prefix;
  }
  EXPECT_TRUE(users->FindUsers("a", 0).status().IsInvalidArgument());
  EXPECT_TRUE(users->FindUsers("a", 1001).status().IsInvalidArgument());
}

TEST_P(UsersTest, TakenNameIsAlreadyExists) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  EXPECT_TRUE(users->Register("alice", "another pass 123").IsAlreadyExists());
  // The first password still holds.
  EXPECT_OK(users->LogIn("alice", kPassword));
  EXPECT_FALSE(users->LogIn("alice", "another pass 123").ok());
}

TEST_P(UsersTest, BadUserNamesAreRejected) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  for (const char* name : {"", "ab", "Alice", "1alice", "_alice", "al ice", "al-ice", "élise",
                           "abcdefghijklmnopqrstuvwxyz0123456"}) {
    Status s = users->Register(name, kPassword);
    EXPECT_TRUE(s.IsInvalidArgument()) << name << ": " << s.ToString();
  }
  EXPECT_OK(users->Register("abc", kPassword));
  EXPECT_OK(users->Register("a_1234567890123456789012345678_z", kPassword));  // 32
}

TEST_P(UsersTest, WeakPasswordsAreRejected) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  for (const char* password :
       {"", "short1!", "aaaaaaaaaaaa", "abababababab", "xxbobby_99xx", "my BOBBY_99 pass"}) {
    Status s = users->Register("bobby_99", password);
    EXPECT_TRUE(s.IsInvalidArgument()) << password << ": " << s.ToString();
  }
  EXPECT_TRUE(users->Register("bobby_99", std::string(129, 'x') + "abcde").IsInvalidArgument());
  EXPECT_FALSE(*users->UserExists("bobby_99"));
  EXPECT_OK(users->Register("bobby_99", "abcde12345"));
}

TEST_P(UsersTest, WrongPasswordAndUnknownUserGiveTheSameError) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto wrong = users->LogIn("alice", "not the password");
  auto unknown = users->LogIn("mallory", kPassword);
  auto malformed = users->LogIn("No Such User", kPassword);
  ASSERT_FALSE(wrong.ok());
  ASSERT_FALSE(unknown.ok());
  ASSERT_FALSE(malformed.ok());
  EXPECT_TRUE(wrong.status().IsInvalidArgument());
  EXPECT_EQ(wrong.status(), unknown.status());
  EXPECT_EQ(wrong.status(), malformed.status());
  EXPECT_EQ(wrong.status().message(), kWrongCredentials);
  EXPECT_FALSE(users->LogIn("alice", "").ok());
}

TEST_P(UsersTest, SessionsExpireByTheInjectedClock) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto session = users->LogIn("alice", kPassword);
  ASSERT_OK(session);
  now_ms_ += 59'999;
  EXPECT_OK(users->ValidateSession(session->token));
  now_ms_ += 1;
  EXPECT_TRUE(users->ValidateSession(session->token).status().IsNotFound());
  now_ms_ -= 10;  // the expired session was deleted when seen: turning back does not revive it
  EXPECT_TRUE(users->ValidateSession(session->token).status().IsNotFound());
}

TEST_P(UsersTest, PurgeDeletesOnlyExpiredSessions) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto old1 = users->LogIn("alice", kPassword);
  auto old2 = users->LogIn("alice", kPassword);
  now_ms_ += 30'000;
  auto fresh = users->LogIn("alice", kPassword);
  ASSERT_OK(old1);
  ASSERT_OK(old2);
  ASSERT_OK(fresh);
  EXPECT_EQ(*users->PurgeExpiredSessions(), 0);
  now_ms_ += 30'000;  // old1 and old2 expire now; fresh in 30 s
  EXPECT_EQ(*users->PurgeExpiredSessions(), 2);
  EXPECT_EQ(*users->PurgeExpiredSessions(), 0);
  now_ms_ -= 1;  // gone from the table, not just expired
  EXPECT_TRUE(users->ValidateSession(old1->token).status().IsNotFound());
  EXPECT_TRUE(users->ValidateSession(old2->token).status().IsNotFound());
  EXPECT_EQ(*users->ValidateSession(fresh->token), "alice");
  EXPECT_EQ(ScanRows(store().table("social_sessions")).size(), 1u);
}

TEST_P(UsersTest, LogOutEndsOnlyThatSession) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto first = users->LogIn("alice", kPassword);
  auto second = users->LogIn("alice", kPassword);
  ASSERT_OK(first);
  ASSERT_OK(second);
  ASSERT_OK(users->LogOut(first->token));
  EXPECT_TRUE(users->ValidateSession(first->token).status().IsNotFound());
  EXPECT_OK(users->ValidateSession(second->token));
  EXPECT_OK(users->LogOut(first->token));  // idempotent
  EXPECT_OK(users->LogOut("garbage"));
}

TEST_P(UsersTest, ForgedTokensAreNotFound) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto session = users->LogIn("alice", kPassword);
  ASSERT_OK(session);
  std::string forged = session->token;
  forged[0] = forged[0] == 'A' ? 'B' : 'A';
  for (const std::string& token :
       {forged, std::string(), std::string("alice"), session->token + "A",
        session->token.substr(0, 42), std::string(43, '!')}) {
    EXPECT_TRUE(users->ValidateSession(token).status().IsNotFound()) << token;
  }
}

TEST_P(UsersTest, SessionsSurviveReopen) {
  std::string token;
  {
    auto users = Open();
    ASSERT_NE(users, nullptr);
    ASSERT_OK(users->Register("alice", kPassword));
    auto session = users->LogIn("alice", kPassword);
    ASSERT_OK(session);
    token = session->token;
  }
  store().Reopen();
  auto users = Open();
  ASSERT_NE(users, nullptr);
  EXPECT_EQ(*users->ValidateSession(token), "alice");
  EXPECT_OK(users->LogIn("alice", kPassword));
}

TEST_P(UsersTest, ProfilesAreReadAndEditedWithinLimits) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto profile = users->GetProfile("alice");
  ASSERT_OK(profile);
  EXPECT_EQ(profile->display_name, "alice");
  EXPECT_EQ(profile->bio, "");

  ASSERT_OK(users->UpdateProfile("alice", Profile{"Alice Liddell", "Down the\nrabbit hole."}));
  profile = users->GetProfile("alice");
  ASSERT_OK(profile);
  EXPECT_EQ(profile->display_name, "Alice Liddell");
  EXPECT_EQ(profile->bio, "Down the\nrabbit hole.");

  EXPECT_TRUE(users->UpdateProfile("alice", Profile{"", ""}).IsInvalidArgument());
  EXPECT_TRUE(users->UpdateProfile("alice", Profile{std::string(65, 'x'), ""}).IsInvalidArgument());
  EXPECT_OK(users->UpdateProfile("alice", Profile{std::string(64, 'x'), std::string(280, 'y')}));
  EXPECT_TRUE(
      users->UpdateProfile("alice", Profile{"A", std::string(281, 'y')}).IsInvalidArgument());
  EXPECT_TRUE(users->UpdateProfile("alice", Profile{"A\nB", ""}).IsInvalidArgument());
  EXPECT_TRUE(users->UpdateProfile("alice", Profile{"A", "tab\there"}).IsInvalidArgument());

  EXPECT_TRUE(users->GetProfile("mallory").status().IsNotFound());
  EXPECT_TRUE(users->UpdateProfile("mallory", Profile{"M", ""}).IsNotFound());
  EXPECT_FALSE(*users->UserExists("mallory"));  // editing did not create the account
}

// Neither the password nor a session token reaches the tables: every stored byte (rows,
// qualifiers, values, all versions) is searched for them.
TEST_P(UsersTest, NoPasswordOrTokenIsStoredInClear) {
  auto users = Open(UserStoreOptions::HashCost::kInteractive);
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  auto session = users->LogIn("alice", kPassword);
  ASSERT_OK(session);
  EXPECT_FALSE(users->LogIn("alice", "a wrong password").ok());

  bool saw_hash = false;
  for (const char* table : {"social_users", "social_sessions"}) {
    // Raw where the backend has raw scans (Thrift2 has none): every stored cell, markers too.
    Scan every = Scan().ReadAllVersions().SetRaw(!IsRemote(GetParam()));
    for (const RowResult& row : ScanAll(store().table(table), every)) {
      for (const Cell& cell : row.cells()) {
        for (const std::string& bytes : {cell.row, cell.qualifier, cell.value}) {
          EXPECT_EQ(bytes.find(kPassword), std::string::npos) << table;
          EXPECT_EQ(bytes.find("a wrong password"), std::string::npos) << table;
          EXPECT_EQ(bytes.find(session->token), std::string::npos) << table;
        }
        if (cell.value.rfind("$argon2id$v=19$m=65536,t=2,", 0) == 0) saw_hash = true;
      }
    }
  }
  EXPECT_TRUE(saw_hash) << "the password is stored as an interactive-cost argon2id hash";
}

TEST_P(UsersTest, UserExistsPlugsIntoTheFollowGraph) {
  auto users = Open();
  ASSERT_NE(users, nullptr);
  ASSERT_OK(users->Register("alice", kPassword));
  ASSERT_OK(users->Register("bob", kPassword));
  recipes::FollowGraphOptions options;
  options.user_exists = users->UserExistsFunction();
  options.presplit_regions = kPresplitRegions;
  auto graph = recipes::FollowGraph::Open(conn(), options);
  ASSERT_OK(graph);
  EXPECT_OK((*graph)->Follow("alice", "bob"));
  EXPECT_TRUE((*graph)->Follow("alice", "mallory").IsNotFound());
  EXPECT_TRUE((*graph)->Follow("Alice", "bob").IsNotFound());
}

BASALT_INSTANTIATE_STORE_TEST(UsersTest);

}  // namespace
}  // namespace basalt::testing
