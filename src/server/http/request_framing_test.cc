#include "server/http/request_framing.h"

#include <gtest/gtest.h>

namespace basalt::server::http {
namespace {

namespace bh = boost::beast::http;

Request WithTransferEncoding(std::initializer_list<const char*> lines, unsigned version = 11) {
  Request req{bh::verb::put, "/t/r", version};
  for (const char* line : lines) req.insert(bh::field::transfer_encoding, line);
  return req;
}

TEST(RequestFramingTest, OnlyChunkedAloneFramesABody) {
  EXPECT_FALSE(FramingError(Request{bh::verb::put, "/t/r", 11}).has_value());
  EXPECT_FALSE(FramingError(WithTransferEncoding({"chunked"})).has_value());
  EXPECT_FALSE(FramingError(WithTransferEncoding({" Chunked "})).has_value());
  EXPECT_FALSE(FramingError(WithTransferEncoding({"chunked", ""})).has_value());
  for (auto lines : {std::initializer_list<const char*>{"chunked, identity"},
                     {"identity"},
                     {"xchunked"},
                     {"gzip, chunked"},
                     {"chunked, chunked"},
                     {"chunked", "chunked"},
                     {""},
                     {"chunked;x=1"}}) {
    EXPECT_TRUE(FramingError(WithTransferEncoding(lines)).has_value()) << *lines.begin();
  }
}

TEST(RequestFramingTest, TransferEncodingWithContentLengthOrInHttp10IsRefused) {
  Request req = WithTransferEncoding({"chunked"});
  req.set(bh::field::content_length, "5");
  std::optional<std::string> error = FramingError(req);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("Content-Length"), std::string::npos);
  EXPECT_TRUE(FramingError(WithTransferEncoding({"chunked"}, 10)).has_value());
}

TEST(RequestFramingTest, ObsFoldIsFound) {
  EXPECT_FALSE(HasObsFold("GET / HTTP/1.1\r\nHost: a\r\nX: b c\r\n\r\n"));
  EXPECT_TRUE(HasObsFold("GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n c\r\n\r\n"));
  EXPECT_TRUE(HasObsFold("GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n\tc\r\n\r\n"));
  EXPECT_TRUE(HasObsFold("GET / HTTP/1.1\r\n Host: a\r\n\r\n"));
}

}  // namespace
}  // namespace basalt::server::http
