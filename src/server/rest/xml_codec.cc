#include "server/rest/xml_codec.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <pugixml.hpp>
#include <string_view>

#include "basalt/base64.h"
#include "server/rest/rest_util.h"

namespace basalt::server::rest {

namespace {

// ---- writing ----

// JAXB's declaration, which HBase's answers start with.
constexpr std::string_view kDeclaration =
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";

// The length of the UTF-8 sequence at s[i] that XML 1.0 may carry, or 0.
size_t XmlCharLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
  size_t n = 0;
  uint32_t cp = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF) return 0;  // overlong or out of range
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;   // surrogates
  if (cp == 0xFFFE || cp == 0xFFFF) return 0;   // not XML characters
  return n;
}

// `text` escaped for an attribute value or element content.
void AppendEscaped(std::string* out, std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    size_t n = XmlCharLength(text, i);
    if (n == 0) {
      *out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    switch (text[i]) {
      case '&':
        *out += "&amp;";
        break;
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '"':
        *out += "&quot;";
        break;
      // Kept through attribute-value normalisation.
      case '\t':
        *out += "&#9;";
        break;
      case '\n':
        *out += "&#10;";
        break;
      case '\r':
        *out += "&#13;";
        break;
      default:
        out->append(text.substr(i, n));
    }
    i += n;
  }
}

// Whether `name` may be an attribute's name (XML's Name production, with every non-ASCII byte
// allowed: UTF-8 is checked when the name is written).
bool IsXmlName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    bool ok = std::isalpha(c) || c == '_' || c == ':' || c >= 0x80 ||
              (i > 0 && (std::isdigit(c) || c == '-' || c == '.'));
    if (!ok) return false;
  }
  return true;
}

// A streaming writer: Open, Attr..., then Text or child elements, then Close.
class XmlWriter {
 public:
  XmlWriter() : out_(kDeclaration) {}

  XmlWriter& Open(std::string_view name) {
    FinishStartTag();
    out_ += '<';
    out_ += name;
    stack_.push_back(name);
    start_tag_open_ = true;
    return *this;
  }
  XmlWriter& Attr(std::string_view name, std::string_view value) {
    out_ += ' ';
    AppendEscaped(&out_, name);
    out_ += "=\"";
    AppendEscaped(&out_, value);
    out_ += '"';
    return *this;
  }
  XmlWriter& Attr(std::string_view name, int64_t value) {
    return Attr(name, std::string_view(std::to_string(value)));
  }
  XmlWriter& Text(std::string_view text) {
    FinishStartTag();
    AppendEscaped(&out_, text);
    return *this;
  }
  XmlWriter& Close() {
    if (start_tag_open_) {
      out_ += "/>";
      start_tag_open_ = false;
    } else {
      out_ += "</";
      out_ += stack_.back();
      out_ += '>';
    }
    stack_.pop_back();
    return *this;
  }
  // A whole element holding only text.
  XmlWriter& Element(std::string_view name, std::string_view text) {
    return Open(name).Text(text).Close();
  }
  std::string Take() { return std::move(out_); }

 private:
  void FinishStartTag() {
    if (start_tag_open_) out_ += '>';
    start_tag_open_ = false;
  }

  std::string out_;
  std::vector<std::string_view> stack_;  // names outlive the writer: literals or the models'
  bool start_tag_open_ = false;
};

// A double as Java prints one (1.0, 0.5).
std::string JavaDouble(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : (v > 0 ? "Infinity" : "-Infinity");
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  std::string s(buf, end);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

// ---- reading ----

// The document's root element, which must be named `root`.
Result<pugi::xml_node> ParseDocument(const std::string& body, pugi::xml_document* doc,
                                     const char* root) {
  // parse_default: no DTD is read (a DOCTYPE is skipped whole, so no entity it declares exists)
  // and only XML's own entities and character references are expanded.
  pugi::xml_parse_result parsed =
      doc->load_buffer(body.data(), body.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!parsed) {
    return Status::InvalidArgument(std::string("malformed XML in the request body: ") +
                                   parsed.description() + " at byte " +
                                   std::to_string(parsed.offset));
  }
  // Iterative, so a deep document costs no stack here either.
  int depth = 0;
  pugi::xml_node node = doc->first_child();
  while (node) {
    if (node.first_child()) {
      node = node.first_child();
      if (++depth > kMaxXmlDepth) {
        return Status::InvalidArgument("XML in the request body is nested more than " +
                                       std::to_string(kMaxXmlDepth) + " deep");
      }
      continue;
    }
    while (node && !node.next_sibling()) {
      node = node.parent();
      --depth;
      if (node == *doc) node = pugi::xml_node();
    }
    if (node) node = node.next_sibling();
  }
  pugi::xml_node element = doc->document_element();
  if (std::string_view(element.name()) != root) {
    return Status::InvalidArgument(std::string("the request body's XML must be a <") + root +
                                   ">, not <" + element.name() + ">");
  }
  return element;
}

// The text of an element: its character data and CDATA, in order.
std::string ElementText(const pugi::xml_node& node) {
  std::string text;
  for (pugi::xml_node child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      text += child.value();
    }
  }
  return text;
}

// base64 as JAXB reads it: whitespace anywhere is ignored.
Result<std::string> DecodeBase64(std::string_view text, const std::string& what) {
  std::string compact;
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') compact += c;
  }
  return Base64Decode(compact, what);
}

std::string Trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

Result<int64_t> IntAttribute(const pugi::xml_attribute& a) {
  return ParseInt64(Trimmed(a.value()), std::string("Scanner attribute ") + a.name());
}

Result<bool> BoolAttribute(const pugi::xml_attribute& a) {
  std::string v = Trimmed(a.value());
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  return Status::InvalidArgument(std::string("Scanner attribute ") + a.name() +
                                 " must be true or false");
}

}  // namespace

std::string ToXml(const VersionModel& m) {
  XmlWriter w;
  w.Open("Version")
      .Attr("REST", m.rest)
      .Attr("JVM", m.jvm)
      .Attr("OS", m.os)
      .Attr("Server", m.server)
      .Attr("Jersey", m.jersey)
      .Attr("Version", m.version)
      .Close();
  return w.Take();
}

std::string ToXml(const ClusterVersionModel& m) {
  XmlWriter w;
  w.Open("ClusterVersion").Attr("Version", m.version).Close();
  return w.Take();
}

std::string ToXml(const ClusterStatusModel& m) {
  XmlWriter w;
  w.Open("ClusterStatus")
      .Attr("regions", m.regions)
      .Attr("requests", 0)
      .Attr("averageLoad", JavaDouble(m.average_load));
  w.Open("LiveNodes");
  for (const auto& n : m.live_nodes) {
    w.Open("Node")
        .Attr("name", n.name)
        .Attr("startCode", n.start_code)
        .Attr("requests", 0)
        .Attr("heapSizeMB", 0)
        .Attr("maxHeapSizeMB", 0);
    for (const auto& r : n.regions) {
      w.Open("Region").Attr("name", Base64Encode(r.name)).Attr("stores", r.stores);
      for (const char* zero :
           {"storefiles", "storefileSizeMB", "memStoreSizeMB", "storefileIndexSizeKB",
            "readRequestsCount", "writeRequestsCount", "rootIndexSizeKB", "totalStaticIndexSizeKB",
            "totalStaticBloomSizeKB", "totalCompactingKVs", "currentCompactedKVs"}) {
        w.Attr(zero, 0);
      }
      w.Close();
    }
    w.Close();
  }
  w.Close();
  w.Open("DeadNodes").Close();
  w.Close();
  return w.Take();
}

std::string ToXml(const TableListModel& m) {
  XmlWriter w;
  w.Open("TableList");
  for (const auto& name : m.names) w.Open("table").Attr("name", name).Close();
  w.Close();
  return w.Take();
}

std::string ToXml(const NamespacesModel& m) {
  XmlWriter w;
  w.Open("Namespaces");
  for (const auto& name : m.names) w.Element("Namespace", name);
  w.Close();
  return w.Take();
}

std::string ToXml(const NamespacePropertiesModel& m) {
  XmlWriter w;
  w.Open("NamespaceProperties");
  // JAXB's default mapping of HBase's Map<String, String>; absent when there are none.
  if (!m.properties.empty()) {
    w.Open("properties");
    for (const auto& [k, v] : m.properties) {
      w.Open("entry").Element("key", k).Element("value", v).Close();
    }
    w.Close();
  }
  w.Close();
  return w.Take();
}

std::string ToXml(const TableSchemaModel& m) {
  // Settings are attributes (JAXB's @XmlAnyAttribute): one whose name XML cannot carry, or that
  // would repeat "name", is left out.
  auto settings = [](XmlWriter& w, const std::map<std::string, std::string>& attributes) {
    for (const auto& [k, v] : attributes) {
      if (k != "name" && IsXmlName(k)) w.Attr(k, v);
    }
  };
  XmlWriter w;
  w.Open("TableSchema").Attr("name", m.name);
  settings(w, m.attributes);
  for (const auto& c : m.columns) {
    w.Open("ColumnSchema").Attr("name", c.name);
    settings(w, c.attributes);
    w.Close();
  }
  w.Close();
  return w.Take();
}

std::string ToXml(const TableInfoModel& m) {
  XmlWriter w;
  w.Open("TableInfo").Attr("name", m.name);
  for (const auto& r : m.regions) {
    w.Open("Region")
        .Attr("endKey", Base64Encode(r.end_key))
        .Attr("id", r.id)
        .Attr("location", r.location)
        .Attr("name", r.name)
        .Attr("startKey", Base64Encode(r.start_key))
        .Close();
  }
  w.Close();
  return w.Take();
}

std::string ToXml(const std::vector<RowResult>& rows) {
  XmlWriter w;
  w.Open("CellSet");
  for (const RowResult& r : rows) {
    if (r.empty()) continue;
    std::string key = Base64Encode(r.row());
    w.Open("Row").Attr("key", key);
    for (const Cell& c : r.cells()) {
      w.Open("Cell")
          .Attr("column", Base64Encode(c.family + ":" + c.qualifier))
          .Attr("timestamp", c.timestamp)
          .Text(Base64Encode(c.value))
          .Close();
    }
    w.Close();
  }
  w.Close();
  return w.Take();
}

Status FromXml(const std::string& body, TableSchemaModel* out) {
  pugi::xml_document doc;
  BASALT_ASSIGN_OR_RETURN(pugi::xml_node root, ParseDocument(body, &doc, "TableSchema"));
  for (pugi::xml_attribute a : root.attributes()) {
    if (std::string_view(a.name()) == "name") {
      out->name = a.value();
    } else {
      out->attributes[a.name()] = a.value();
    }
  }
  for (pugi::xml_node c : root.children("ColumnSchema")) {
    pugi::xml_attribute name = c.attribute("name");
    if (!name) return Status::InvalidArgument("each ColumnSchema needs a \"name\"");
    ColumnSchemaModel column;
    column.name = name.value();
    for (pugi::xml_attribute a : c.attributes()) {
      if (std::string_view(a.name()) != "name") column.attributes[a.name()] = a.value();
    }
    out->columns.push_back(std::move(column));
  }
  return Status::OK();
}

Status FromXml(const std::string& body, ScannerModel* m) {
  if (body.empty()) return Status::OK();
  pugi::xml_document doc;
  BASALT_ASSIGN_OR_RETURN(pugi::xml_node root, ParseDocument(body, &doc, "Scanner"));
  for (pugi::xml_attribute a : root.attributes()) {
    std::string_view name = a.name();
    if (name == "startRow") {
      BASALT_ASSIGN_OR_RETURN(m->start_row, DecodeBase64(a.value(), "startRow"));
    } else if (name == "endRow") {
      BASALT_ASSIGN_OR_RETURN(m->end_row, DecodeBase64(a.value(), "endRow"));
    } else if (name == "batch") {
      BASALT_ASSIGN_OR_RETURN(m->batch, IntAttribute(a));
    } else if (name == "startTime") {
      BASALT_ASSIGN_OR_RETURN(m->start_time, IntAttribute(a));
    } else if (name == "endTime") {
      BASALT_ASSIGN_OR_RETURN(m->end_time, IntAttribute(a));
    } else if (name == "maxVersions") {
      BASALT_ASSIGN_OR_RETURN(m->max_versions, IntAttribute(a));
    } else if (name == "caching") {
      BASALT_ASSIGN_OR_RETURN(m->caching, IntAttribute(a));
    } else if (name == "limit") {
      BASALT_ASSIGN_OR_RETURN(m->limit, IntAttribute(a));
    } else if (name == "includeStartRow") {
      BASALT_ASSIGN_OR_RETURN(m->include_start_row, BoolAttribute(a));
    } else if (name == "includeStopRow") {
      BASALT_ASSIGN_OR_RETURN(m->include_stop_row, BoolAttribute(a));
    } else if (name == "reversed") {
      BASALT_ASSIGN_OR_RETURN(m->reversed, BoolAttribute(a));
    }
    // cacheBlocks and anything else: no setting in basalt.
  }
  for (pugi::xml_node c : root.children("column")) {
    BASALT_ASSIGN_OR_RETURN(std::string column, DecodeBase64(ElementText(c), "column"));
    m->columns.push_back(std::move(column));
  }
  if (pugi::xml_node f = root.child("filter")) m->filter = ElementText(f);
  return Status::OK();
}

Status FromXml(const std::string& body, NamespacePropertiesModel* out) {
  pugi::xml_document doc;
  BASALT_ASSIGN_OR_RETURN(pugi::xml_node root, ParseDocument(body, &doc, "NamespaceProperties"));
  for (pugi::xml_node props : root.children("properties")) {
    for (pugi::xml_node entry : props.children("entry")) {
      pugi::xml_node key = entry.child("key");
      if (!key) return Status::InvalidArgument("each property entry needs a <key>");
      out->properties[ElementText(key)] = ElementText(entry.child("value"));
    }
  }
  return Status::OK();
}

Status FromXml(const std::string& body, std::vector<RowModel>* out) {
  pugi::xml_document doc;
  BASALT_ASSIGN_OR_RETURN(pugi::xml_node root, ParseDocument(body, &doc, "CellSet"));
  for (pugi::xml_node r : root.children("Row")) {
    RowModel row;
    if (pugi::xml_attribute key = r.attribute("key")) {
      BASALT_ASSIGN_OR_RETURN(row.key, DecodeBase64(key.value(), "row key"));
    }
    for (pugi::xml_node c : r.children("Cell")) {
      CellModel cell;
      if (pugi::xml_attribute column = c.attribute("column")) {
        BASALT_ASSIGN_OR_RETURN(cell.column, DecodeBase64(column.value(), "column"));
      }
      if (pugi::xml_attribute ts = c.attribute("timestamp")) {
        Result<int64_t> value = ParseInt64(Trimmed(ts.value()), "timestamp");
        if (!value.ok() || *value < 0) {
          return Status::InvalidArgument("timestamp must be a non-negative integer");
        }
        cell.timestamp = *value;
      }
      BASALT_ASSIGN_OR_RETURN(cell.value, DecodeBase64(ElementText(c), "value"));
      row.cells.push_back(std::move(cell));
    }
    out->push_back(std::move(row));
  }
  return Status::OK();
}

}  // namespace basalt::server::rest
