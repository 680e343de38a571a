#include "feed_redis.h"

#include <hiredis/hiredis.h>

#include <cstdlib>

#include "harness.h"

namespace basalt::bench {

namespace {

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

}  // namespace

// One connection with its commands appended and their replies read in turn.
class RedisFeed::Client {
 public:
  explicit Client(const std::string& address) {
    const size_t colon = address.rfind(':');
    if (colon == std::string::npos) Die("--redis expects HOST:PORT, got " + address);
    c_ = redisConnect(address.substr(0, colon).c_str(), std::atoi(address.c_str() + colon + 1));
    if (c_ == nullptr || c_->err) {
      Die("redis connect to " + address + ": " + std::string(c_ ? c_->errstr : "no memory"));
    }
  }
  ~Client() { redisFree(c_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void Append(const std::vector<std::string>& argv) {
    args_.clear();
    lens_.clear();
    for (const auto& a : argv) {
      args_.push_back(a.data());
      lens_.push_back(a.size());
    }
    if (redisAppendCommandArgv(c_, static_cast<int>(args_.size()), args_.data(), lens_.data()) !=
        REDIS_OK) {
      Die("redis: " + std::string(c_->errstr));
    }
    ++pending_;
  }
  // The reply of the oldest appended command.
  Reply Next() {
    void* reply = nullptr;
    if (redisGetReply(c_, &reply) != REDIS_OK) Die("redis: " + std::string(c_->errstr));
    --pending_;
    Reply r(static_cast<redisReply*>(reply));
    if (r->type == REDIS_REPLY_ERROR) Die(std::string("redis: ") + r->str);
    return r;
  }
  void Drain() {
    while (pending_ > 0) Next();
  }
  Reply Call(const std::vector<std::string>& argv) {
    Drain();
    Append(argv);
    return Next();
  }

 private:
  redisContext* c_ = nullptr;
  std::vector<const char*> args_;
  std::vector<size_t> lens_;
  int pending_ = 0;
};

RedisFeed::RedisFeed(const std::string& address, int connections, int inbox_cap)
    : inbox_cap_(inbox_cap) {
  for (int i = 0; i < connections; ++i) clients_.push_back(std::make_unique<Client>(address));
  clients_[0]->Call({"FLUSHALL"});
}

RedisFeed::~RedisFeed() = default;

void RedisFeed::LoadFollows(const std::vector<std::pair<int, int>>& edges) {
  Client& c = *clients_[0];
  size_t n = 0;
  for (const auto& [follower, followed] : edges) {
    c.Append({"SADD", "F:" + std::to_string(followed), std::to_string(follower)});
    if (++n % 1000 == 0) c.Drain();
  }
  c.Drain();
}

int64_t RedisFeed::Post(int connection, int64_t n, int author, const std::string& text) {
  Client& c = *clients_[connection];
  const std::string id = std::to_string(n);
  const std::string cap = std::to_string(inbox_cap_ - 1);
  const std::string own = "i:" + std::to_string(author);
  c.Append({"SET", "p:" + id, text});
  c.Append({"LPUSH", own, id});
  c.Append({"LTRIM", own, "0", cap});
  c.Append({"SMEMBERS", "F:" + std::to_string(author)});
  for (int i = 0; i < 3; ++i) c.Next();
  Reply followers = c.Next();
  if (followers->type != REDIS_REPLY_ARRAY) Die("redis SMEMBERS: not an array");
  int64_t written = 0;
  for (size_t i = 0; i < followers->elements; ++i) {
    const redisReply* f = followers->element[i];
    const std::string inbox = "i:" + std::string(f->str, f->len);
    c.Append({"LPUSH", inbox, id});
    c.Append({"LTRIM", inbox, "0", cap});
    ++written;
    if (written % 500 == 0) c.Drain();  // replies read as they come, not all held back
  }
  c.Drain();
  return written;
}

size_t RedisFeed::HomeRead(int reader) {
  Client& c = *clients_[0];
  Reply ids = c.Call({"LRANGE", "i:" + std::to_string(reader), "0", "19"});
  if (ids->type != REDIS_REPLY_ARRAY) Die("redis LRANGE: not an array");
  if (ids->elements == 0) return 0;
  std::vector<std::string> argv = {"MGET"};
  for (size_t i = 0; i < ids->elements; ++i) {
    argv.push_back("p:" + std::string(ids->element[i]->str, ids->element[i]->len));
  }
  Reply posts = c.Call(argv);
  if (posts->type != REDIS_REPLY_ARRAY) Die("redis MGET: not an array");
  size_t shown = 0;
  for (size_t i = 0; i < posts->elements; ++i)
    shown += posts->element[i]->type == REDIS_REPLY_STRING;
  return shown;
}

std::string RedisFeed::Version() {
  Reply info = clients_[0]->Call({"INFO", "server"});
  const std::string text(info->str, info->len);
  const size_t at = text.find("redis_version:");
  if (at == std::string::npos) return "?";
  const size_t from = at + 14;
  return text.substr(from, text.find_first_of("\r\n", from) - from);
}

}  // namespace basalt::bench
