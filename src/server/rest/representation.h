// Content negotiation for the REST API, as HBase's REST server does it: which representation a
// response is written in (from Accept) and which one a request body is read in (from
// Content-Type).
//
// Responses: no Accept header, or one that ranks text/xml (or */*) first, gets XML (text/xml);
// application/json gets JSON; application/x-protobuf or application/protobuf gets HBase's REST
// protobuf messages. Among equally ranked types the most specific range wins, then basalt's own
// order: text/xml, application/json, application/x-protobuf, application/protobuf,
// application/xml (so application/* picks JSON, as HBase's server does). application/octet-stream
// is offered only where the route allows it (single cells) and picked only when asked for by
// name; protobuf is offered everywhere but /version/cluster (HBase has no message for it).
// Anything else is 406.
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

enum class Representation { kXml, kJson, kProtobuf, kOctetStream };

struct Negotiated {
  Representation representation;
  // The Content-Type to answer with: "text/xml" or "application/xml" (as asked),
  // "application/json", "application/x-protobuf" or "application/protobuf" (as asked),
  // "application/octet-stream".
  std::string_view content_type;
};

// What a route can answer in besides XML and JSON.
struct Offers {
  bool protobuf = true;
  bool octet_stream = false;
};

// The response representation for `accept` (an Accept header's value; nullopt when there is
// none), or nullopt when nothing offered is acceptable.
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
