#include "server/rest/representation.h"

#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace basalt::server::rest {

namespace bh = boost::beast::http;

namespace {

// The media type of a Content-Type or Accept element, lower case, without parameters.
std::string MediaType(std::string_view value) {
  return http::AsciiLower(http::TrimWhitespace(value.substr(0, value.find(';'))));
}

struct Candidate {
  std::string_view type;
  Representation representation;
};

// Every type basalt answers in, in the order a route offers them (see the header): the first
// two only where the route offers them.
constexpr std::array<Candidate, 7> kCandidates = {{
    {"text/plain", Representation::kText},
    {"application/octet-stream", Representation::kOctetStream},
    {"text/xml", Representation::kXml},
    {"application/json", Representation::kJson},
    {"application/x-protobuf", Representation::kProtobuf},
    {"application/protobuf", Representation::kProtobuf},
    {"application/xml", Representation::kXml},
}};

// One element of an Accept header: a media range with its quality (0..1000).
struct Range {
  std::string type;  // "text/xml", "text/*", "*/*"
  int quality = 1000;
};

// The quality in thousandths of "q=0.5"; an unreadable one counts as 1 (RFC 9110 asks the
// server to be lenient).
int ParseQuality(std::string_view q) {
  q = http::TrimWhitespace(q);
  if (q.empty() || (q[0] != '0' && q[0] != '1')) return 1000;
  int whole = q[0] - '0';
  int thousandths = 0;
  if (q.size() > 1) {
    if (q[1] != '.') return 1000;
    int scale = 100;
    for (size_t i = 2; i < q.size() && i < 5; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(q[i]))) return 1000;
      thousandths += (q[i] - '0') * scale;
      scale /= 10;
    }
  }
  int value = whole * 1000 + thousandths;
  return value > 1000 ? 1000 : value;
}

std::vector<Range> ParseAccept(std::string_view accept) {
  std::vector<Range> ranges;
  size_t start = 0;
  while (start <= accept.size()) {
    size_t comma = accept.find(',', start);
    std::string_view element = accept.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    Range range;
    range.type = MediaType(element);
    // Parameters: only q matters.
    size_t semi = element.find(';');
    while (semi != std::string_view::npos) {
      size_t next = element.find(';', semi + 1);
      std::string_view param = http::TrimWhitespace(element.substr(
          semi + 1, next == std::string_view::npos ? std::string_view::npos : next - semi - 1));
      if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        range.quality = ParseQuality(param.substr(2));
      }
      semi = next;
    }
    if (!range.type.empty()) ranges.push_back(std::move(range));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return ranges;
}

// How specifically `range` names `type`: 3 exactly, 2 by "text/*", 1 by "*/*", 0 not at all.
int Specificity(const std::string& range, std::string_view type) {
  if (range == type) return 3;
  if (range == "*/*" || range == "*") return 1;
  if (range.size() > 2 && range.ends_with("/*")) {
    std::string_view major = std::string_view(range).substr(0, range.size() - 1);  // "text/"
    if (type.starts_with(major)) return 2;
  }
  return 0;
}

}  // namespace

std::optional<Negotiated> NegotiateAccept(std::optional<std::string_view> accept, Offers offers) {
  std::vector<Range> ranges;
  if (accept && !http::TrimWhitespace(*accept).empty()) {
    ranges = ParseAccept(*accept);
  } else {
    ranges.push_back({.type = "*/*"});
  }
  const Candidate* best = nullptr;
  int best_quality = 0, best_specificity = 0;
  for (const Candidate& c : kCandidates) {
    if (c.representation == Representation::kText && !offers.text) continue;
    if (c.representation == Representation::kOctetStream && !offers.octet_stream) continue;
    if (c.representation == Representation::kProtobuf && !offers.protobuf) continue;
    // The quality the client gives this type: that of the most specific range naming it.
    int quality = 0, specificity = 0;
    for (const Range& r : ranges) {
      int s = Specificity(r.type, c.type);
      if (s > specificity) {
        specificity = s;
        quality = r.quality;
      }
    }
    if (quality <= 0) continue;
    if (quality > best_quality || (quality == best_quality && specificity > best_specificity)) {
      best = &c;
      best_quality = quality;
      best_specificity = specificity;
    }
  }
  if (best == nullptr) return std::nullopt;
  return Negotiated{best->representation, best->type};
}

std::optional<Negotiated> NegotiateResponse(const http::Request& req, Offers offers) {
  auto it = req.find(bh::field::accept);
  if (it == req.end()) return NegotiateAccept(std::nullopt, offers);
  return NegotiateAccept(std::string_view(it->value().data(), it->value().size()), offers);
}

std::optional<Representation> BodyRepresentation(const http::Request& req) {
  auto it = req.find(bh::field::content_type);
  if (it == req.end()) return std::nullopt;
  // The media type without its parameters: a type that merely contains "json"
  // (text/plain;charset=json) is one a cross-site form or fetch may send without CORS.
  std::string type = MediaType(std::string_view(it->value().data(), it->value().size()));
  constexpr std::string_view kJsonSuffix = "+json";
  if (type == "application/json" ||
      (type.size() > kJsonSuffix.size() && type.ends_with(kJsonSuffix))) {
    return Representation::kJson;
  }
  if (type == "text/xml" || type == "application/xml") return Representation::kXml;
  if (type == "application/x-protobuf" || type == "application/protobuf") {
    return Representation::kProtobuf;
  }
  if (type == "application/octet-stream") return Representation::kOctetStream;
  return std::nullopt;
}

http::Response NotAcceptable(const http::Request& req) {
  return http::MakeResponse(req, bh::status::not_acceptable, "text/plain",
                            "Not acceptable: basalt serves text/xml, application/json and "
                            "application/x-protobuf (and application/octet-stream for single "
                            "cells, text/plain for the resources HBase writes as text)\r\n");
}

http::Response UnsupportedMediaType(const http::Request& req, bool octet_stream) {
  return http::MakeResponse(req, bh::status::unsupported_media_type, "text/plain",
                            octet_stream ? "Unsupported media type: send text/xml, "
                                           "application/json, application/x-protobuf or "
                                           "application/octet-stream\r\n"
                                         : "Unsupported media type: send text/xml, "
                                           "application/json or application/x-protobuf\r\n");
}

http::Response Ok(const http::Request& req, const Negotiated& negotiated, std::string body) {
  return http::MakeResponse(req, bh::status::ok, std::string(negotiated.content_type),
                            std::move(body));
}

}  // namespace basalt::server::rest
