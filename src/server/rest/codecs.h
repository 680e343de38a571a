// One entry point over the codecs: a model written in, or read from, the representation content
// negotiation picked (representation.h). Handlers build a model and call Encode; they read a body
// with Decode.

#ifndef BASALT_SERVER_REST_CODECS_H_
#define BASALT_SERVER_REST_CODECS_H_

#include <string>
#include <vector>

#include "basalt/row_result.h"
#include "basalt/status.h"
#include "server/rest/cell_set.h"
#include "server/rest/json_codec.h"
#include "server/rest/models.h"
#include "server/rest/protobuf_codec.h"
#include "server/rest/representation.h"
#include "server/rest/text_codec.h"
#include "server/rest/xml_codec.h"

namespace basalt::server::rest {

// `model` in `r` (REQUIRES: not kOctetStream; protobuf only for models that have a message, text
// only for those text_codec.h writes).
template <typename Model>
std::string Encode(Representation r, const Model& model) {
  switch (r) {
    case Representation::kJson:
      return ToJson(model);
    case Representation::kProtobuf:
      if constexpr (requires { ToProtobuf(model); }) return ToProtobuf(model);
      break;
    case Representation::kText:
      if constexpr (requires { ToText(model); }) return ToText(model);
      break;
    case Representation::kXml:
    case Representation::kOctetStream:
      break;
  }
  return ToXml(model);
}

// A CellSet of `rows` (rows without cells are left out).
inline std::string Encode(Representation r, const std::vector<RowResult>& rows) {
  switch (r) {
    case Representation::kJson:
      return CellSetJson(rows);
    case Representation::kProtobuf:
      return ToProtobuf(rows);
    case Representation::kXml:
    case Representation::kOctetStream:
    case Representation::kText:
      break;
  }
  return ToXml(rows);
}

// `body` read as `r` (REQUIRES: not kOctetStream) into a fresh Model.
template <typename Model>
Result<Model> Decode(Representation r, const std::string& body) {
  Model model{};
  Status s = Status::OK();
  switch (r) {
    case Representation::kJson:
      s = FromJson(body, &model);
      break;
    case Representation::kProtobuf:
      s = FromProtobuf(body, &model);
      break;
    case Representation::kXml:
    case Representation::kOctetStream:
    case Representation::kText:
      s = FromXml(body, &model);
      break;
  }
  if (!s.ok()) return s;
  return model;
}

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_CODECS_H_
