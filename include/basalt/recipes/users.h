// UserStore: accounts, log-in sessions and profiles for the microblog (the `follow-graph`
// workload's register and log-in pages), on the public table API only, so it runs unchanged on
// every backend.
//
//   auto users = basalt::recipes::UserStore::Open(conn);
//   Status s = (*users)->Register("alice", "correct horse battery");
//   auto session = (*users)->LogIn("alice", "correct horse battery");
//   auto who = (*users)->ValidateSession(session->token);          // "alice"
//
// Tables (in `name_space`, created on Open when missing):
//   <prefix>_users     row = user name; "a:pw" = the argon2id hash string of the password,
//                      "p:name" = display name, "p:bio" = bio. The meta row "\0meta" (never a
//                      user name) holds "a:v" = the layout's format version, decimal ("1");
//                      Open refuses (FailedPrecondition) tables of a version it does not read.
//   <prefix>_sessions  row = BLAKE2b-256 of the token's 32 bytes; "s:user" = user name,
//                      "s:exp" = expiry in ms since the epoch (8 bytes big-endian).
// Neither a password nor a session token is ever stored, logged or put in an error message:
// the users table holds libsodium's crypto_pwhash_str (argon2id) output, the sessions table a
// hash of the token, so a copy of the tables opens no account.
//
// Rules:
//   user names  3-32 characters of [a-z0-9_], starting with a letter. Lower case only, so two
//               names that differ only in case cannot both exist.
//   passwords   10-128 bytes, at least 5 distinct bytes (rejects "aaaaaaaaaa", "ababababab"),
//               and not containing the user name. Any bytes otherwise (UTF-8 pass phrases).
//   display name  1-64 bytes, no control characters. Default: the user name.
//   bio           0-280 bytes, no control characters but newline.
// A breach of a rule is InvalidArgument naming the rule.
//
// Thread safety: all methods may be called concurrently. Register is atomic: of concurrent
// registrations of one name, exactly one succeeds (CheckAndMutate on the user's row).

#ifndef BASALT_RECIPES_USERS_H_
#define BASALT_RECIPES_USERS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basalt/connection.h"
#include "basalt/schema.h"
#include "basalt/status.h"

namespace basalt::recipes {

// The message of every failed log-in, whether the user is unknown or the password wrong, so a
// caller cannot learn which names exist.
inline constexpr std::string_view kWrongCredentials = "wrong user name or password";

struct UserStoreOptions {
  std::string name_space = "default";
  // Tables are "<table_prefix>_users" and "<table_prefix>_sessions".
  std::string table_prefix = "social";
  // How long a session lives after LogIn. Default: 7 days.
  int64_t session_ttl_ms = int64_t{7} * 24 * 3600 * 1000;
  // The clock sessions expire by, in ms since the epoch. Default (empty): the system clock.
  std::function<int64_t()> now_ms;
  // The cost of hashing a password. kInteractive is libsodium's interactive limits (argon2id,
  // 2 passes, 64 MiB) and the default; kMinimum (1 pass, 8 KiB) is for tests only.
  enum class HashCost : uint8_t { kInteractive, kMinimum };
  HashCost hash_cost = HashCost::kInteractive;
  // When > 1, the sessions table (keyed by a hash) is created pre-split into this many regions
  // at evenly spaced first bytes, as the `modelling` rules advise for clusters; the users table is
  // keyed by name, whose spread is unknown, and keeps one region. Only at creation: an existing
  // table keeps its regions. 0..256 (InvalidArgument otherwise). Default: 0, one region (an
  // embedded store gains nothing from regions: each family is one RocksDB column family).
  int presplit_regions = 0;
  // Compression of every family of both tables, given when Open creates them; existing tables
  // keep their own (Admin::ModifyFamily changes it). Default: LZ4 (docs/recipes.md).
  Compression compression = Compression::kLz4;
};

struct Session {
  std::string token;  // 43 characters of base64url (32 random bytes); a secret
  std::string user;
  int64_t expires_at_ms;  // by UserStoreOptions::now_ms
};

struct Profile {
  std::string display_name;
  std::string bio;
};

// A page of user names and the cursor of the next page (empty when there is none).
struct UserPage {
  std::vector<std::string> users;
  std::string cursor;
};

class UserStore {
 public:
  // Opens (creating the tables if needed) a store on `conn`, which must outlive it. Fails with
  // Internal when libsodium cannot be initialised.
  static Result<std::unique_ptr<UserStore>> Open(Connection& conn, UserStoreOptions options = {});
  virtual ~UserStore() = default;

  // Creates an account. InvalidArgument when the name or password breaks a rule above;
  // AlreadyExists when the name is taken.
  virtual Status Register(std::string_view user, std::string_view password) = 0;

  // Checks the password and starts a session. InvalidArgument with kWrongCredentials when the
  // user does not exist or the password is wrong (the same message, and the same work: an
  // unknown user still costs one password verification).
  virtual Result<Session> LogIn(std::string_view user, std::string_view password) = 0;

  // The user of a live session. NotFound when the token is unknown, logged out or expired (an
  // expired session is deleted when seen).
  virtual Result<std::string> ValidateSession(std::string_view token) = 0;

  // Ends a session. Idempotent: logging out an unknown token is OK.
  virtual Status LogOut(std::string_view token) = 0;

  // Deletes every session that has expired by now_ms; returns how many. One scan of the
  // sessions table (a Delete per expired session), for a periodic sweep: sessions that are
  // never presented again are otherwise kept.
  virtual Result<int64_t> PurgeExpiredSessions() = 0;

  // Whether the account exists. Suits FollowGraphOptions::user_exists (see UserExistsFunction).
  virtual Result<bool> UserExists(std::string_view user) = 0;

  // Accounts whose name starts with `prefix`, in name order, `page_size` at a time (1..1000);
  // pass the returned cursor for the next page. An empty prefix lists every account. A prefix
  // no name could start with (not of the name alphabet, or too long) finds nobody; it is not
  // an error. Cost: one scan of the users table over the prefix, reading one cell per account.
  virtual Result<UserPage> FindUsers(std::string_view prefix, int32_t page_size,
                                     std::string_view cursor = {}) = 0;

  // NotFound when the user does not exist.
  virtual Result<Profile> GetProfile(std::string_view user) = 0;
  // Replaces the profile. InvalidArgument when a field breaks a rule above; NotFound when the
  // user does not exist.
  virtual Status UpdateProfile(std::string_view user, const Profile& profile) = 0;

  // UserExists as a function object, for FollowGraphOptions::user_exists. The store must
  // outlive it.
  std::function<Result<bool>(std::string_view)> UserExistsFunction() {
    return [this](std::string_view user) { return UserExists(user); };
  }
};

// The rules above, exposed for forms that check input before submitting it.
Status ValidateUserName(std::string_view user);
Status ValidatePassword(std::string_view user, std::string_view password);
Status ValidateProfile(const Profile& profile);

}  // namespace basalt::recipes

#endif  // BASALT_RECIPES_USERS_H_
