#include "server/rest/cell_set_cost.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "basalt/mutation.h"
#include "server/rest/models.h"
#include "server/rest/proto/CellMessage.pb.h"
#include "server/rest/proto/CellSetMessage.pb.h"

namespace basalt::server::rest {

namespace {

namespace pb = org::apache::hadoop::hbase::rest::protobuf::generated;
using google::protobuf::internal::WireFormatLite;

// Vectors grow by doubling: an element may cost twice its size. A heap block costs its size and
// about 16 bytes of allocator header; a string of up to 15 bytes needs none (it is held inside
// the std::string).
constexpr uint64_t kGrowth = 2;
constexpr uint64_t kAlloc = 16;
uint64_t StringCost(uint64_t n) {
  return n > 15 ? n + 1 + kAlloc : 0;
}

// A cell once decoded: its CellModel in its row's vector and the Put::Entry made of it, the
// cell's bytes in each (the column split into family and qualifier), and its key and value in
// the write batch.
uint64_t CellCost(uint64_t bytes) {
  return kGrowth * (sizeof(CellModel) + sizeof(Put::Entry)) + 2 * StringCost(bytes) + bytes + 32;
}
// A row once decoded: its RowModel and its Put, its key in each.
uint64_t RowCost(uint64_t key_bytes) {
  return kGrowth * (sizeof(RowModel) + sizeof(Put)) + 2 * StringCost(key_bytes);
}

// JSON: nlohmann's tree (ordered_json, as the CellSet parser reads it), with every object taken
// as a cell (which costs more than a row) and every string's bytes as a cell's.
class JsonCounter {
 public:
  using json = nlohmann::ordered_json;
  uint64_t cost() const { return cost_; }

  bool null() { return Value(); }
  bool boolean(bool) { return Value(); }
  bool number_integer(json::number_integer_t) { return Value(); }
  bool number_unsigned(json::number_unsigned_t) { return Value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return Value(); }
  bool string(json::string_t& s) {
    cost_ += StringCost(s.size()) + 2 * StringCost(s.size()) + s.size();
    return Value();
  }
  bool binary(json::binary_t& b) {
    cost_ += kAlloc + b.size();
    return Value();
  }
  bool start_object(size_t) {
    cost_ += sizeof(json::object_t) + kAlloc + CellCost(0);
    return Value();
  }
  bool key(json::string_t& k) {
    // A member: its slot in the object's vector (key and value), and the key's bytes.
    cost_ += kGrowth * sizeof(json::object_t::value_type) + StringCost(k.size());
    return true;
  }
  bool end_object() { return true; }
  bool start_array(size_t) {
    cost_ += sizeof(json::array_t) + kAlloc;  // a row is an object, counted as a cell
    return Value();
  }
  bool end_array() { return true; }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  bool Value() {
    cost_ += kGrowth * sizeof(json);
    return true;
  }
  uint64_t cost_ = 0;
};

// XML: pugixml copies the document and makes a node for each element and a record for each
// attribute; each <Cell> element is a cell and each <Row> a row once decoded, and every byte
// is taken as a cell's.
uint64_t XmlCost(std::string_view body) {
  constexpr uint64_t kNode = 8 * sizeof(void*);       // pugi::xml_node_struct
  constexpr uint64_t kAttribute = 5 * sizeof(void*);  // pugi::xml_attribute_struct
  uint64_t cost = body.size() + 3 * body.size();
  for (size_t i = body.find('<'); i != std::string_view::npos; i = body.find('<', i + 1)) {
    std::string_view rest = body.substr(i + 1);
    if (rest.empty() || rest[0] == '/') continue;  // a closing tag makes no node
    cost += kNode;
    if (rest.starts_with("Cell")) cost += CellCost(0);
    if (rest.starts_with("Row")) cost += RowCost(0);
  }
  return cost + static_cast<uint64_t>(std::count(body.begin(), body.end(), '=')) * kAttribute;
}

// Protobuf: the CellSet's message objects and their byte fields, then the decoded cells. The
// walk reads the wire format two levels deep (rows, then each row's cells) and stops where it
// breaks.
uint64_t ProtobufCost(std::string_view body) {
  constexpr uint64_t kRowMessage = sizeof(pb::CellSet_Row) + kGrowth * sizeof(void*) + kAlloc;
  constexpr uint64_t kCellMessage = sizeof(pb::Cell) + kGrowth * sizeof(void*) + kAlloc;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(body.data()),
                                            static_cast<int>(body.size()));
  uint64_t cost = 0;
  auto read_length = [&in](uint32_t* length) { return in.ReadVarint32(length); };
  while (uint32_t tag = in.ReadTag()) {
    if (WireFormatLite::GetTagFieldNumber(tag) != 1 ||
        WireFormatLite::GetTagWireType(tag) != WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      if (!WireFormatLite::SkipField(&in, tag)) break;
      continue;
    }
    uint32_t row_length = 0;
    if (!read_length(&row_length)) break;
    auto limit = in.PushLimit(static_cast<int>(row_length));
    uint64_t key_bytes = 0;
    while (uint32_t inner = in.ReadTag()) {
      uint32_t field = WireFormatLite::GetTagFieldNumber(inner);
      bool delimited =
          WireFormatLite::GetTagWireType(inner) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
      if ((field == 1 || field == 2) && delimited) {
        uint32_t length = 0;
        if (!read_length(&length) || !in.Skip(static_cast<int>(length))) break;
        if (field == 1) {
          key_bytes = length;
        } else {
          // The cell's bytes are at most its encoded length, held in its message and decoded.
          cost += kCellMessage + StringCost(length) + CellCost(length);
        }
      } else if (!WireFormatLite::SkipField(&in, inner)) {
        break;
      }
    }
    in.PopLimit(limit);
    cost += kRowMessage + StringCost(key_bytes) + RowCost(key_bytes);
  }
  return cost;
}

}  // namespace

uint64_t CellSetMemoryCost(Representation r, std::string_view body) {
  switch (r) {
    case Representation::kJson: {
      JsonCounter counter;
      nlohmann::ordered_json::sax_parse(body, &counter);
      return counter.cost();
    }
    case Representation::kProtobuf:
      return ProtobufCost(body);
    case Representation::kOctetStream:
      return RowCost(0) + CellCost(body.size());  // the body is one cell's value
    case Representation::kXml:
    case Representation::kText:  // no body is read as text
      break;
  }
  return XmlCost(body);
}

}  // namespace basalt::server::rest
