// UserStore on the public table API, with libsodium for password hashing (argon2id), session
// tokens (randombytes_buf) and token hashing (BLAKE2b).

#include "basalt/recipes/users.h"

#include <sodium.h>

#include <chrono>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "basalt/filter.h"
#include "basalt/paging.h"
#include "recipes/recipe_format.h"
#include "recipes/table_setup.h"

namespace basalt::recipes {
namespace {

constexpr size_t kMinUserName = 3;
constexpr size_t kMaxUserName = 32;

constexpr size_t kMinPassword = 10;
constexpr size_t kMaxPassword = 128;
constexpr size_t kMinDistinctPasswordBytes = 5;
constexpr size_t kMaxDisplayName = 64;
constexpr size_t kMaxBio = 280;
constexpr size_t kTokenBytes = 32;

constexpr const char* kAuthFamily = "a";
constexpr const char* kPasswordColumn = "pw";
constexpr const char* kProfileFamily = "p";
constexpr const char* kNameColumn = "name";
constexpr const char* kBioColumn = "bio";
constexpr const char* kSessionFamily = "s";
constexpr const char* kSessionUserColumn = "user";
constexpr const char* kSessionExpiryColumn = "exp";

// The version of the layout in users.h, in the users table's meta row (recipe_format.h); bump it
// with any change of the layout. Never reuse a number.
constexpr int kUsersFormatVersion = 1;
constexpr int kOldestReadableUsersFormatVersion = 1;

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

Status InitSodium() {
  static const int result = sodium_init();  // thread-safe once; 1 means already initialised
  if (result < 0) return Status::Internal("libsodium could not be initialised");
  return Status::OK();
}

Status CheckText(std::string_view what, std::string_view text, size_t min, size_t max,
                 bool allow_newline) {
  if (text.size() < min || text.size() > max) {
    return Status::InvalidArgument(std::string(what) + " must be " + std::to_string(min) + "-" +
                                   std::to_string(max) + " bytes");
  }
  for (unsigned char c : text) {
    if ((c < 0x20 && !(allow_newline && c == '\n')) || c == 0x7f) {
      return Status::InvalidArgument(std::string(what) + " must not contain control characters");
    }
  }
  return Status::OK();
}

class UserStoreImpl : public UserStore {
 public:
  UserStoreImpl(std::unique_ptr<Table> users, std::unique_ptr<Table> sessions,
                UserStoreOptions options)
      : users_(std::move(users)), sessions_(std::move(sessions)), options_(std::move(options)) {
    if (!options_.now_ms) options_.now_ms = SystemWallMillis;
    if (options_.hash_cost == UserStoreOptions::HashCost::kMinimum) {
      ops_limit_ = crypto_pwhash_OPSLIMIT_MIN;
      mem_limit_ = crypto_pwhash_MEMLIMIT_MIN;
    }
  }

  // A hash of a password nobody has, verified against when the user is unknown so that a
  // failed log-in costs the same either way.
  Status Init() {
    auto dummy = HashPassword("no such user: a decoy password");
    if (!dummy.ok()) return dummy.status();
    decoy_hash_ = std::move(dummy).value();
    return Status::OK();
  }

  Status Register(std::string_view user, std::string_view password) override {
    BASALT_RETURN_IF_ERROR(ValidateUserName(user));
    BASALT_RETURN_IF_ERROR(ValidatePassword(user, password));
    BASALT_ASSIGN_OR_RETURN(std::string hash, HashPassword(password));
    std::string row(user);
    Put put(row);
    put.Add(kAuthFamily, kPasswordColumn, std::move(hash))
        .Add(kProfileFamily, kNameColumn, row)
        .Add(kProfileFamily, kBioColumn, "");
    BASALT_ASSIGN_OR_RETURN(
        bool created,
        users_->CheckAndMutate(
            CheckAndMutate(row).IfNotExists(kAuthFamily, kPasswordColumn).Then(std::move(put))));
    if (!created) return Status::AlreadyExists("the user name '" + row + "' is taken");
    return Status::OK();
  }

  Result<Session> LogIn(std::string_view user, std::string_view password) override {
    std::string stored;
    bool known =
        ValidateUserName(user).ok() && !password.empty() && password.size() <= kMaxPassword;
    if (known) {
      Get get{std::string(user)};
      get.AddColumn(kAuthFamily, kPasswordColumn);
      BASALT_ASSIGN_OR_RETURN(RowResult row, users_->Get(get));
      auto value = row.Value(kAuthFamily, kPasswordColumn);
      known = value.has_value();
      if (known) stored = std::string(*value);
    }
    // Verify even for an unknown user (against the decoy), so timing does not tell them apart.
    bool match = VerifyPassword(known ? stored : decoy_hash_, password);
    if (!known || !match) return Status::InvalidArgument(std::string(kWrongCredentials));

    unsigned char raw[kTokenBytes];
    randombytes_buf(raw, sizeof raw);
    Session session;
    session.token = ToBase64Url(raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    session.user = std::string(user);
    session.expires_at_ms = options_.now_ms() + options_.session_ttl_ms;
    BASALT_ASSIGN_OR_RETURN(std::string key, SessionKey(session.token));
    BASALT_RETURN_IF_ERROR(sessions_->Put(
        Put(key)
            .Add(kSessionFamily, kSessionUserColumn, session.user)
            .Add(kSessionFamily, kSessionExpiryColumn, EncodeCounter(session.expires_at_ms))));
    return session;
  }

  Result<std::string> ValidateSession(std::string_view token) override {
    auto key = SessionKey(token);
    if (!key.ok()) return Status::NotFound("no such session");
    BASALT_ASSIGN_OR_RETURN(RowResult row, sessions_->Get(Get(*key)));
    auto user = row.Value(kSessionFamily, kSessionUserColumn);
    auto expiry = row.Value(kSessionFamily, kSessionExpiryColumn);
    if (!user.has_value() || !expiry.has_value()) return Status::NotFound("no such session");
    BASALT_ASSIGN_OR_RETURN(int64_t expires_at, DecodeCounter(*expiry));
    if (options_.now_ms() >= expires_at) {
      BASALT_RETURN_IF_ERROR(sessions_->Delete(Delete(*key)));
      return Status::NotFound("the session has expired");
    }
    return std::string(*user);
  }

  Status LogOut(std::string_view token) override {
    auto key = SessionKey(token);
    if (!key.ok()) return Status::OK();  // no session can have this token
    return sessions_->Delete(Delete(*key));
  }

  Result<int64_t> PurgeExpiredSessions() override {
    Scan scan;
    scan.AddColumn(kSessionFamily, kSessionExpiryColumn);
    BASALT_ASSIGN_OR_RETURN(std::unique_ptr<ResultScanner> scanner, sessions_->GetScanner(scan));
    const int64_t now = options_.now_ms();
    std::vector<std::string> expired;
    RowResult row;
    while (scanner->Next(&row)) {
      auto expiry = row.Value(kSessionFamily, kSessionExpiryColumn);
      if (!expiry.has_value()) continue;
      auto expires_at = DecodeCounter(*expiry);
      // A cell that does not decode is not a session this store wrote; leave it.
      if (expires_at.ok() && now >= *expires_at) expired.push_back(row.row());
    }
    BASALT_RETURN_IF_ERROR(scanner->status());
    for (const std::string& key : expired) BASALT_RETURN_IF_ERROR(sessions_->Delete(Delete(key)));
    return static_cast<int64_t>(expired.size());
  }

  Result<bool> UserExists(std::string_view user) override {
    if (!ValidateUserName(user).ok()) return false;
    Get get{std::string(user)};
    get.AddColumn(kAuthFamily, kPasswordColumn);
    return users_->Exists(get);
  }

  Result<UserPage> FindUsers(std::string_view prefix, int32_t page_size,
                             std::string_view cursor) override {
    if (page_size < 1 || page_size > 1000) {
      return Status::InvalidArgument("users: page_size must be 1..1000");
    }
    UserPage out;
    if (prefix.size() > kMaxUserName) return out;
    for (char c : prefix) {
      if (!IsNameChar(c)) return out;
    }
    Scan scan;
    if (!prefix.empty()) scan.SetRowPrefix(std::string(prefix));
    // The password cell marks an account (a row may hold only a profile left by nothing else,
    // but Register writes both at once): one small cell per row.
    scan.AddColumn(kAuthFamily, kPasswordColumn).SetFilter(std::make_shared<KeyOnlyFilter>());
    BASALT_ASSIGN_OR_RETURN(Page page, ReadPage(*users_, scan, page_size, cursor));
    for (const RowResult& row : page.rows) out.users.push_back(row.row());
    out.cursor = std::move(page.cursor);
    return out;
  }

  Result<Profile> GetProfile(std::string_view user) override {
    BASALT_RETURN_IF_ERROR(ValidateUserName(user));
    Get get{std::string(user)};
    get.AddFamily(kProfileFamily).AddColumn(kAuthFamily, kPasswordColumn);
    BASALT_ASSIGN_OR_RETURN(RowResult row, users_->Get(get));
    if (!row.Value(kAuthFamily, kPasswordColumn).has_value()) return NoUser(user);
    Profile profile;
    profile.display_name = std::string(row.Value(kProfileFamily, kNameColumn).value_or(""));
    profile.bio = std::string(row.Value(kProfileFamily, kBioColumn).value_or(""));
    return profile;
  }

  Status UpdateProfile(std::string_view user, const Profile& profile) override {
    BASALT_RETURN_IF_ERROR(ValidateUserName(user));
    BASALT_RETURN_IF_ERROR(ValidateProfile(profile));
    std::string row(user);
    // Only an existing account gets a profile: the check and the write are one atomic step.
    Put put(row);
    put.Add(kProfileFamily, kNameColumn, profile.display_name)
        .Add(kProfileFamily, kBioColumn, profile.bio);
    BASALT_ASSIGN_OR_RETURN(
        bool updated, users_->CheckAndMutate(CheckAndMutate(row)
                                                 .IfMatches(kAuthFamily, kPasswordColumn,
                                                            CompareOp::kNotEqual, std::nullopt)
                                                 .Then(std::move(put))));
    if (!updated) return NoUser(user);
    return Status::OK();
  }

 private:
  static Status NoUser(std::string_view user) {
    return Status::NotFound("no user '" + std::string(user) + "'");
  }

  Result<std::string> HashPassword(std::string_view password) const {
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(), ops_limit_, mem_limit_,
                              crypto_pwhash_ALG_ARGON2ID13) != 0) {
      return Status::Internal("password hashing ran out of memory");
    }
    return std::string(out);
  }

  static bool VerifyPassword(const std::string& hash, std::string_view password) {
    return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
  }

  static std::string ToBase64Url(const unsigned char* bytes, size_t n) {
    std::string out(sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
    sodium_bin2base64(out.data(), out.size(), bytes, n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    out.resize(out.size() - 1);  // the terminating NUL
    return out;
  }

  // The sessions row of a token: BLAKE2b-256 of its 32 bytes. InvalidArgument when the token
  // is not 32 bytes of base64url.
  static Result<std::string> SessionKey(std::string_view token) {
    unsigned char raw[kTokenBytes];
    size_t len = 0;
    const char* end = nullptr;
    if (sodium_base642bin(raw, sizeof raw, token.data(), token.size(), nullptr, &len, &end,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        len != kTokenBytes || end != token.data() + token.size()) {
      return Status::InvalidArgument("malformed session token");
    }
    std::string key(crypto_generichash_BYTES, '\0');
    crypto_generichash(reinterpret_cast<unsigned char*>(key.data()), key.size(), raw, sizeof raw,
                       nullptr, 0);
    sodium_memzero(raw, sizeof raw);
    return key;
  }

  std::unique_ptr<Table> users_;
  std::unique_ptr<Table> sessions_;
  UserStoreOptions options_;
  unsigned long long ops_limit_ = crypto_pwhash_OPSLIMIT_INTERACTIVE;
  size_t mem_limit_ = crypto_pwhash_MEMLIMIT_INTERACTIVE;
  std::string decoy_hash_;
};

}  // namespace

Status ValidateUserName(std::string_view user) {
  if (user.size() < kMinUserName || user.size() > kMaxUserName) {
    return Status::InvalidArgument("a user name must be " + std::to_string(kMinUserName) + "-" +
                                   std::to_string(kMaxUserName) + " characters");
  }
  if (user[0] < 'a' || user[0] > 'z') {
    return Status::InvalidArgument("a user name must start with a lower-case letter");
  }
  for (char c : user) {
    if (!IsNameChar(c)) {
      return Status::InvalidArgument(
          "a user name may only hold lower-case letters, digits and '_'");
    }
  }
  return Status::OK();
}

Status ValidatePassword(std::string_view user, std::string_view password) {
  if (password.size() < kMinPassword || password.size() > kMaxPassword) {
    return Status::InvalidArgument("a password must be " + std::to_string(kMinPassword) + "-" +
                                   std::to_string(kMaxPassword) + " bytes");
  }
  std::set<char> distinct(password.begin(), password.end());
  if (distinct.size() < kMinDistinctPasswordBytes) {
    return Status::InvalidArgument("a password must hold at least " +
                                   std::to_string(kMinDistinctPasswordBytes) +
                                   " different characters");
  }
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  };
  if (!user.empty() && lower(password).find(lower(user)) != std::string::npos) {
    return Status::InvalidArgument("a password must not contain the user name");
  }
  return Status::OK();
}

Status ValidateProfile(const Profile& profile) {
  BASALT_RETURN_IF_ERROR(CheckText("a display name", profile.display_name, 1, kMaxDisplayName,
                                   /*allow_newline=*/false));
  return CheckText("a bio", profile.bio, 0, kMaxBio, /*allow_newline=*/true);
}

Result<std::unique_ptr<UserStore>> UserStore::Open(Connection& conn, UserStoreOptions options) {
  BASALT_RETURN_IF_ERROR(InitSodium());
  if (options.table_prefix.empty()) {
    return Status::InvalidArgument("UserStoreOptions::table_prefix is empty");
  }
  if (options.session_ttl_ms <= 0) {
    return Status::InvalidArgument("UserStoreOptions::session_ttl_ms must be positive");
  }
  BASALT_ASSIGN_OR_RETURN(
      auto session_splits,
      EvenFirstByteSplits(options.presplit_regions, 256, "UserStoreOptions::presplit_regions"));
  Admin& admin = conn.admin();
  BASALT_RETURN_IF_ERROR(EnsureNamespace(admin, options.name_space));
  TableName users(options.name_space, options.table_prefix + "_users");
  TableName sessions(options.name_space, options.table_prefix + "_sessions");
  BASALT_RETURN_IF_ERROR(
      EnsureTable(admin, users, {kAuthFamily, kProfileFamily}, options.compression));
  BASALT_RETURN_IF_ERROR(
      EnsureTable(admin, sessions, {kSessionFamily}, options.compression, session_splits));
  BASALT_ASSIGN_OR_RETURN(auto users_table, conn.GetTable(users));
  BASALT_ASSIGN_OR_RETURN(auto sessions_table, conn.GetTable(sessions));
  BASALT_RETURN_IF_ERROR(CheckRecipeFormat(
      *users_table, RecipeFormat{"users", kUsersFormatVersion, kOldestReadableUsersFormatVersion,
                                 std::string(kRecipeMetaRow), kAuthFamily}));
  auto store = std::make_unique<UserStoreImpl>(std::move(users_table), std::move(sessions_table),
                                               std::move(options));
  BASALT_RETURN_IF_ERROR(store->Init());
  return std::unique_ptr<UserStore>(std::move(store));
}

}  // namespace basalt::recipes
