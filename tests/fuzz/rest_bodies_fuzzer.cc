// libFuzzer target for the REST request-body decoders (server/rest/codecs.h): the CellSet,
// TableSchema, Scanner and NamespaceProperties models, each in XML, JSON and protobuf.
//
// The first byte picks the decoder (byte % 12: model = byte % 4, representation = byte / 4 % 3),
// the rest is the body. Checked on every input: nothing crashes; every failure is
// InvalidArgument; a decoded TableSchema or NamespaceProperties written back in each
// representation (XML, JSON, protobuf) decodes again, so the writers never emit what the readers
// refuse (text that is not UTF-8 or not XML, attribute names XML cannot carry).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "server/rest/codecs.h"

namespace {

using basalt::server::rest::Decode;
using basalt::server::rest::Encode;
using basalt::server::rest::NamespacePropertiesModel;
using basalt::server::rest::Representation;
using basalt::server::rest::RowModel;
using basalt::server::rest::ScannerModel;
using basalt::server::rest::TableSchemaModel;

void Check(bool property) {
  if (!property) __builtin_trap();
}

constexpr Representation kRepresentations[] = {Representation::kXml, Representation::kJson,
                                               Representation::kProtobuf};

template <typename Model>
basalt::Result<Model> Fuzz(Representation r, const std::string& body) {
  auto model = Decode<Model>(r, body);
  if (!model.ok()) Check(model.status().IsInvalidArgument());
  return model;
}

template <typename Model>
void FuzzWrittenBack(Representation r, const std::string& body) {
  auto model = Fuzz<Model>(r, body);
  if (!model.ok()) return;
  for (Representation out : kRepresentations) {
    auto again = Decode<Model>(out, Encode(out, *model));
    Check(again.ok());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const Representation r = kRepresentations[data[0] / 4 % 3];
  switch (data[0] % 4) {
    case 0:
      (void)Fuzz<std::vector<RowModel>>(r, body);
      break;
    case 1:
      FuzzWrittenBack<TableSchemaModel>(r, body);
      break;
    case 2:
      (void)Fuzz<ScannerModel>(r, body);
      break;
    default:
      FuzzWrittenBack<NamespacePropertiesModel>(r, body);
      break;
  }
  return 0;
}
