// Content negotiation for the REST API, as HBase's REST server does it: which representation a
// response is written in (from Accept) and which one a request body is read in (from
// Content-Type).
//
// Responses: the type the Accept header ranks highest (quality, then the most specific range)
// among those the route offers; among equals, the route's own order, which is the order of HBase's
// @Produces lists and so what Jersey picks for a wildcard: text/plain first where HBase offers it
// (the table list, versions, cluster status, namespaces, schemas, regions), then
// application/octet-stream where the route serves raw cells (rows and scanner chunks: HBase's
// binary method wins a wildcard), then text/xml, application/json, application/x-protobuf,
// application/protobuf and application/xml (basalt's addition; HBase serves XML as text/xml only).
// No Accept header is */*, as it is for Jersey. Protobuf is offered everywhere but
// /version/cluster (HBase has no message for it). Anything else is 406.
//
// Request bodies: text/xml or application/xml, application/json (or a "+json" type), and
// application/x-protobuf or application/protobuf; parameters ("; charset=...") are ignored. A
// missing or other type is 415, so no "simple" cross-site request is read as a body.

#ifndef BASALT_SERVER_REST_REPRESENTATION_H_
#define BASALT_SERVER_REST_REPRESENTATION_H_

#include <optional>
#include <string_view>

#include "server/http/http_types.h"

namespace basalt::server::rest {

enum class Representation { kXml, kJson, kProtobuf, kOctetStream, kText };

struct Negotiated {
  Representation representation;
  // The Content-Type to answer with: "text/xml" or "application/xml" (as asked),
  // "application/json", "application/x-protobuf" or "application/protobuf" (as asked),
  // "application/octet-stream", "text/plain".
  std::string_view content_type;
};

// What a route can answer in besides XML and JSON.
struct Offers {
  bool protobuf = true;
  // application/octet-stream, ahead of the others: a single cell's value.
  bool octet_stream = false;
  // text/plain, ahead of the others: HBase's toString() of the model.
  bool text = false;
};

// The response representation for `accept` (an Accept header's value; nullopt when there is
// none, which accepts anything), or nullopt when nothing offered is acceptable.
std::optional<Negotiated> NegotiateAccept(std::optional<std::string_view> accept,
                                          Offers offers = {});
// The same, from a request's Accept header.
std::optional<Negotiated> NegotiateResponse(const http::Request& req, Offers offers = {});

// The representation of a request body, from its Content-Type; nullopt for a missing or
// unsupported one (415). kOctetStream only for application/octet-stream.
std::optional<Representation> BodyRepresentation(const http::Request& req);

// 406 naming what basalt serves.
http::Response NotAcceptable(const http::Request& req);
// 415 naming what basalt reads; `octet_stream` when the route also reads raw cells.
http::Response UnsupportedMediaType(const http::Request& req, bool octet_stream = false);
// 200 with `body` as `negotiated` says.
http::Response Ok(const http::Request& req, const Negotiated& negotiated, std::string body);

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_REPRESENTATION_H_
