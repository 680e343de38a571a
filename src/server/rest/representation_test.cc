#include "server/rest/representation.h"

#include <gtest/gtest.h>

namespace basalt::server::rest {
namespace {

// The Content-Type `accept` is answered with, or "406".
std::string Pick(std::optional<std::string_view> accept, Offers offers = {}) {
  auto n = NegotiateAccept(accept, offers);
  return n ? std::string(n->content_type) : "406";
}

TEST(RepresentationTest, NoAcceptOrWildcardPicksTheRoutesFirstTypeAsHBase) {
  // XML where the route offers nothing ahead of it (HBase's multiget, its CellSets).
  EXPECT_EQ(Pick(std::nullopt), "text/xml");
  EXPECT_EQ(Pick(""), "text/xml");
  EXPECT_EQ(Pick("*/*"), "text/xml");
  EXPECT_EQ(Pick("text/*"), "text/xml");
  // text/plain where HBase's resource lists it first (the table list, versions, schemas...).
  Offers text{.text = true};
  EXPECT_EQ(Pick(std::nullopt, text), "text/plain");
  EXPECT_EQ(Pick("*/*", text), "text/plain");
  EXPECT_EQ(Pick("text/*", text), "text/plain");
  EXPECT_EQ(Pick("application/*", text), "application/json");
  // A row or a scanner chunk: HBase's binary method wins the wildcards that cover it.
  Offers cells{.octet_stream = true};
  EXPECT_EQ(Pick(std::nullopt, cells), "application/octet-stream");
  EXPECT_EQ(Pick("*/*", cells), "application/octet-stream");
  EXPECT_EQ(Pick("application/*", cells), "application/octet-stream");
  EXPECT_EQ(Pick("text/*", cells), "text/xml");
}

TEST(RepresentationTest, NamedTypesPickTheirRepresentation) {
  EXPECT_EQ(Pick("text/xml"), "text/xml");
  EXPECT_EQ(Pick("application/xml"), "application/xml");
  EXPECT_EQ(Pick("application/json"), "application/json");
  EXPECT_EQ(Pick("Application/JSON; charset=utf-8"), "application/json");
  EXPECT_EQ(Pick("application/x-protobuf"), "application/x-protobuf");
  EXPECT_EQ(Pick("application/protobuf"), "application/protobuf");
  // application/* prefers JSON, as HBase's resources list it before protobuf.
  EXPECT_EQ(Pick("application/*"), "application/json");
}

TEST(RepresentationTest, QualityThenSpecificityDecide) {
  EXPECT_EQ(Pick("application/json, */*"), "application/json");
  EXPECT_EQ(Pick("*/*, application/json"), "application/json");
  EXPECT_EQ(Pick("application/json;q=0.5, text/xml"), "text/xml");
  EXPECT_EQ(Pick("text/xml;q=0.1, application/x-protobuf;q=0.9"), "application/x-protobuf");
  EXPECT_EQ(Pick("application/json;q=0, */*"), "text/xml");
  // A browser's navigation asks for HTML first, then XML.
  EXPECT_EQ(Pick("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
            "application/xml");
}

TEST(RepresentationTest, UnservedTypesAre406) {
  EXPECT_EQ(Pick("text/plain"), "406");
  EXPECT_EQ(Pick("text/plain", {.text = true}), "text/plain");
  EXPECT_EQ(Pick("text/plain, application/json;q=0.5", {.text = true}), "text/plain");
  EXPECT_EQ(Pick("image/png, text/html"), "406");
  EXPECT_EQ(Pick("text/xml;q=0"), "406");
}

TEST(RepresentationTest, OctetStreamOnlyWhereOffered) {
  EXPECT_EQ(Pick("application/octet-stream"), "406");
  EXPECT_EQ(Pick("application/octet-stream", {.octet_stream = true}), "application/octet-stream");
  EXPECT_EQ(Pick("*/*;q=0.1, application/json", {.octet_stream = true}), "application/json");
}

TEST(RepresentationTest, ProtobufOnlyWhereOffered) {
  EXPECT_EQ(Pick("application/x-protobuf", {.protobuf = false}), "406");
  EXPECT_EQ(Pick("application/x-protobuf, */*;q=0.5", {.protobuf = false}), "text/xml");
}

TEST(RepresentationTest, BodiesAreReadByContentType) {
  auto body = [](const char* type) {
    http::Request req;
    if (type != nullptr) req.set(boost::beast::http::field::content_type, type);
    return BodyRepresentation(req);
  };
  EXPECT_EQ(body("application/json"), Representation::kJson);
  EXPECT_EQ(body("application/vnd.hbase+json; charset=utf-8"), Representation::kJson);
  EXPECT_EQ(body("text/xml"), Representation::kXml);
  EXPECT_EQ(body("application/xml;charset=UTF-8"), Representation::kXml);
  EXPECT_EQ(body("application/x-protobuf"), Representation::kProtobuf);
  EXPECT_EQ(body("application/protobuf"), Representation::kProtobuf);
  EXPECT_EQ(body("application/octet-stream"), Representation::kOctetStream);
  // What a cross-site form may send, and nothing at all, are read as nothing (415).
  EXPECT_EQ(body("text/plain;charset=json"), std::nullopt);
  EXPECT_EQ(body("application/x-www-form-urlencoded"), std::nullopt);
  EXPECT_EQ(body(nullptr), std::nullopt);
}

}  // namespace
}  // namespace basalt::server::rest
