// The HTTP server under many concurrent clients: an in-process HttpServer with the REST routes
// on an in-memory store, and client threads on their own keep-alive connections (some opening
// a new connection per request) that increment one hot counter through REST, write and read
// back rows of their own, and run scanners, while another thread reads /metrics. Every request
// must succeed, every read must see the client's own last write, and the hot counter must equal
// the number of acknowledged increments. Runs under ThreadSanitizer too.

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "basalt/base64.h"
#include "server/http/access_log.h"
#include "server/http/http_server.h"
#include "server/http/metrics.h"
#include "server/http/router.h"
#include "server/rest/rest_service.h"
#include "server/rest/scanners.h"
#include "support/test_store.h"

namespace basalt::testing {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bh = boost::beast::http;

constexpr int kClients = 8;
constexpr int kRequestsPerClient = 30;

// A REST server on `conn`, serving on a free loopback port from a background thread.
class InProcessServer {
 public:
  explicit InProcessServer(Connection& conn)
      : access_log_(std::move(*server::http::AccessLog::Open("/dev/null"))),
        scanners_(std::chrono::seconds(60), 1000),
        server_(config_, router_, metrics_, *access_log_),
        rest_(conn, scanners_, "127.0.0.1:0") {
    rest_.RegisterRoutes(&router_);
    router_.Add(bh::verb::get, "/metrics", [this](const server::http::RequestContext& ctx) {
      return server::http::MakeResponse(ctx.request, bh::status::ok, "text/plain",
                                        metrics_.Render());
    });
  }

  // Routes of the test's own, before Start.
  server::http::Router& router() { return router_; }

  Status Start(uint32_t threads = 4) {
    config_.port = 0;
    config_.threads = threads;
    BASALT_RETURN_IF_ERROR(server_.Listen());
    thread_ = std::thread([this] { server_.Run(); });
    return Status::OK();
  }

  ~InProcessServer() {
    server_.Stop();
    if (thread_.joinable()) thread_.join();
    scanners_.Clear();
  }

  uint16_t port() const { return server_.port(); }

 private:
  server::http::ServerConfig config_;
  server::http::Router router_;
  server::http::Metrics metrics_;
  std::unique_ptr<server::http::AccessLog> access_log_;
  server::rest::ScannerRegistry scanners_;
  server::http::HttpServer server_;
  server::rest::RestService rest_;
  std::thread thread_;
};

// One HTTP/1.1 client connection; reconnects when the server closed it.
class Client {
 public:
  explicit Client(uint16_t port) : port_(port) {}

  // The response, or nullopt on a transport error.
  std::optional<bh::response<bh::string_body>> Send(bh::verb verb, const std::string& target,
                                                    const std::string& body = "",
                                                    bool new_connection = false) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      beast::error_code ec;
      if (new_connection || !stream_ || attempt > 0) Connect(ec);
      if (ec) return std::nullopt;
      bh::request<bh::string_body> req{verb, target, 11};
      req.set(bh::field::host, "127.0.0.1");
      req.set(bh::field::accept, "application/json");
      if (!body.empty()) {
        req.set(bh::field::content_type, "application/json");
        req.body() = body;
      }
      req.keep_alive(!new_connection);
      req.prepare_payload();
      bh::write(*stream_, req, ec);
      bh::response<bh::string_body> res;
      if (!ec) bh::read(*stream_, buffer_, res, ec);
      // A keep-alive connection the server closed meanwhile: retry once on a new one. The server
      // closes a kept-alive connection only while it waits for a request, so the first try
      // never reached a handler and a retry cannot apply an increment twice.
      if (ec == bh::error::end_of_stream && attempt == 0 && !new_connection) continue;
      if (ec) return std::nullopt;
      if (!res.keep_alive()) stream_.reset();
      return res;
    }
    return std::nullopt;
  }

 private:
  void Connect(beast::error_code& ec) {
    stream_.emplace(ioc_);
    buffer_.clear();
    stream_->connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), ec);
  }

  uint16_t port_;
  net::io_context ioc_;
  std::optional<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
};

std::string CellSet(const std::string& row, const std::string& column, const std::string& value) {
  return "{\"Row\":[{\"key\":\"" + Base64Encode(row) + "\",\"Cell\":[{\"column\":\"" +
         Base64Encode(column) + "\",\"$\":\"" + Base64Encode(value) + "\"}]}]}";
}

TEST(ServerConcurrencyTest, ManyClientsIncrementWriteReadAndScanThroughRest) {
  TestStore store(StoreKind::kMem);
  Table& t = store.CreateTable("t", {"cf"});
  InProcessServer server(store.conn());
  ASSERT_OK(server.Start());

  std::atomic<int> failures{0};
  std::atomic<int> increments{0};
  std::atomic<bool> stop{false};
  std::mutex first_failure_mu;
  std::string first_failure;
  auto fail = [&](const std::string& what) {
    ++failures;
    std::lock_guard<std::mutex> lock(first_failure_mu);
    if (first_failure.empty()) first_failure = what;
  };
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      Client client(server.port());
      const bool fresh_connections = c % 2 == 1;  // half open a connection per request
      for (int i = 0; i < kRequestsPerClient; ++i) {
        auto inc = client.Send(bh::verb::post, "/t/hot?check=increment",
                               CellSet("hot", "cf:n", "1"), fresh_connections);
        if (!inc || inc->result() != bh::status::ok) {
          fail("increment: " + (inc ? std::to_string(inc->result_int()) : "transport"));
        } else {
          ++increments;
        }
        const std::string row = "c" + std::to_string(c);
        const std::string value = "v" + std::to_string(i);
        auto put =
            client.Send(bh::verb::put, "/t/" + row, CellSet(row, "cf:q", value), fresh_connections);
        if (!put || put->result() != bh::status::ok) {
          fail("put: " + (put ? put->body() : "transport"));
          continue;
        }
        auto get = client.Send(bh::verb::get, "/t/" + row + "/cf:q", "", fresh_connections);
        if (!get || get->result() != bh::status::ok ||
            get->body().find(Base64Encode(value)) == std::string::npos) {
          fail("get after put: " + (get ? get->body() : "transport"));
        }
        if (i % 10 == 0) {
          auto scanner = client.Send(bh::verb::post, "/t/scanner", "{\"batch\":5}");
          if (!scanner || scanner->result() != bh::status::created) {
            fail("scanner: " + (scanner ? scanner->body() : "transport"));
            continue;
          }
          std::string location(scanner->at(bh::field::location));
          std::string path = location.substr(location.find("/t/scanner/"));
          for (int chunk = 0; chunk < 100; ++chunk) {
            auto next = client.Send(bh::verb::get, path);
            if (!next) {
              fail("scanner chunk: transport");
              break;
            }
            if (next->result() == bh::status::no_content) break;
            if (next->result() != bh::status::ok) {
              fail("scanner chunk: " + next->body());
              break;
            }
          }
          auto closed = client.Send(bh::verb::delete_, path);
          if (!closed || closed->result() != bh::status::ok) fail("scanner delete");
        }
      }
    });
  }
  std::thread metrics_reader([&] {
    Client client(server.port());
    while (!stop.load()) {
      auto m = client.Send(bh::verb::get, "/metrics");
      if (!m || m->result() != bh::status::ok) fail("metrics");
    }
  });
  for (auto& th : clients) th.join();
  stop = true;
  metrics_reader.join();

  EXPECT_EQ(failures.load(), 0) << first_failure;
  auto hot = t.Get(Get("hot"));
  ASSERT_OK(hot);
  ASSERT_TRUE(hot->Value("cf", "n"));
  EXPECT_EQ(*DecodeCounter(*hot->Value("cf", "n")), increments.load());
  EXPECT_EQ(increments.load(), kClients * kRequestsPerClient);
  for (int c = 0; c < kClients; ++c) {
    auto r = t.Get(Get("c" + std::to_string(c)));
    ASSERT_OK(r);
    EXPECT_EQ(r->Value("cf", "q"), "v" + std::to_string(kRequestsPerClient - 1));
  }
}

// Each thread runs its own event loop and connections are dealt out to the loops in turn, so a
// handler that blocks holds the connections of its own loop only: another loop's connection is
// answered meanwhile, and the blocked loop's other connections are answered once it returns.
TEST(ServerConcurrencyTest, ASlowRequestHoldsOnlyTheConnectionsOfItsOwnLoop) {
  TestStore store(StoreKind::kMem);
  InProcessServer server(store.conn());
  std::mutex mu;
  std::condition_variable cv;
  bool entered = false, released = false, timed_out = false;
  server.router().Add(bh::verb::get, "/slow", [&](const server::http::RequestContext& ctx) {
    std::unique_lock<std::mutex> lock(mu);
    entered = true;
    cv.notify_all();
    timed_out = !cv.wait_for(lock, std::chrono::seconds(20), [&] { return released; });
    return server::http::MakeResponse(ctx.request, bh::status::ok, "text/plain", "slow");
  });
  ASSERT_OK(server.Start(/*threads=*/2));

  // Accepted in this order, a goes to loop 0, b to loop 1, c to loop 0 again.
  Client a(server.port()), b(server.port()), c(server.port());
  for (Client* client : {&a, &b, &c}) {
    auto r = client->Send(bh::verb::get, "/version");
    ASSERT_TRUE(r && r->result() == bh::status::ok);
  }
  auto slow = std::async(std::launch::async, [&] { return a.Send(bh::verb::get, "/slow"); });
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return entered; }));
  }
  // c shares the blocked loop: its request waits for the slow one.
  auto waiting = std::async(std::launch::async, [&] { return c.Send(bh::verb::get, "/version"); });
  // b's loop is free.
  auto fast = b.Send(bh::verb::get, "/version");
  ASSERT_TRUE(fast && fast->result() == bh::status::ok);
  if (waiting.wait_for(std::chrono::milliseconds(200)) != std::future_status::timeout) {
    auto early = waiting.get();
    ADD_FAILURE() << "answered early: " << (early ? early->body() : "transport error");
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_FALSE(released);
    released = true;
  }
  cv.notify_all();
  auto slow_response = slow.get();
  ASSERT_TRUE(slow_response && slow_response->result() == bh::status::ok);
  EXPECT_EQ(slow_response->body(), "slow");
  auto waited = waiting.get();
  ASSERT_TRUE(waited && waited->result() == bh::status::ok);
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_FALSE(timed_out);
}

}  // namespace
}  // namespace basalt::testing
