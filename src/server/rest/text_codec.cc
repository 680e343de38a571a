#include "server/rest/text_codec.h"

#include <cstdint>
#include <cstdio>
#include <string_view>

namespace basalt::server::rest {

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0.
size_t Utf8Length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
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
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Java's Bytes.toString, then UTF-8 again: invalid bytes become U+FFFD.
void AppendBytes(std::string* out, std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    size_t n = Utf8Length(bytes, i);
    if (n == 0) {
      *out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out->append(bytes.substr(i, n));
      i += n;
    }
  }
}

// ", KEY => 'VALUE'" for each attribute.
template <typename Map>
void AppendAttributes(std::string* out, const Map& attributes) {
  for (const auto& [key, value] : attributes) {
    *out += ", ";
    *out += key;
    *out += " => '";
    *out += value;
    *out += '\'';
  }
}

}  // namespace

std::string ToText(const VersionModel& m) {
  // HBase also prints "[Revision: ...]", its source revision, which basalt does not have.
  return "rest " + m.rest + " [JVM: " + m.jvm + "] [OS: " + m.os + "] [Server: " + m.server +
         "] [Jersey: " + m.jersey + "] [Version: " + m.version + "]\n";
}

std::string ToText(const ClusterVersionModel& m) {
  return m.version;
}

std::string ToText(const ClusterStatusModel& m) {
  // The figures basalt does not count are zeros, as in the other representations.
  char head[128];
  std::snprintf(head, sizeof(head), "%zu live servers, 0 dead servers, %.4f average load\n\n",
                m.live_nodes.size(), m.average_load);
  std::string out = head;
  if (m.live_nodes.empty()) return out;
  out += std::to_string(m.live_nodes.size()) + " live servers\n";
  for (const auto& node : m.live_nodes) {
    out += "    " + node.name + ' ' + std::to_string(node.start_code) +
           "\n        requests=0, regions=" + std::to_string(node.regions.size()) +
           "\n        heapSizeMB=0\n        maxHeapSizeMB=0\n\n";
    for (const auto& region : node.regions) {
      out += "        ";
      AppendBytes(&out, region.name);
      out += "\n            stores=" + std::to_string(region.stores);
      for (const char* zero :
           {"storefiless", "storefileSizeMB", "memstoreSizeMB", "storefileIndexSizeKB",
            "readRequestsCount", "writeRequestsCount", "rootIndexSizeKB", "totalStaticIndexSizeKB",
            "totalStaticBloomSizeKB", "totalCompactingKVs", "currentCompactedKVs"}) {
        out += "\n            ";
        out += zero;
        out += "=0";
      }
      out += '\n';
    }
    out += '\n';
  }
  return out;
}

std::string ToText(const TableListModel& m) {
  std::string out;
  for (const auto& name : m.names) out += name + '\n';
  return out;
}

std::string ToText(const NamespacesModel& m) {
  std::string out;
  for (const auto& name : m.names) out += name + '\n';
  return out;
}

std::string ToText(const NamespacePropertiesModel& m) {
  std::string out = "{NAME => '" + m.name + '\'';
  AppendAttributes(&out, m.properties);
  return out + '}';
}

std::string ToText(const TableSchemaModel& m) {
  std::string out = "{ NAME=> '" + m.name + '\'';
  AppendAttributes(&out, m.attributes);
  out += ", COLUMNS => [ ";
  for (size_t i = 0; i < m.columns.size(); ++i) {
    out += "{ NAME => '" + m.columns[i].name + '\'';
    AppendAttributes(&out, m.columns[i].attributes);
    out += " }";
    if (i + 1 < m.columns.size()) out += ',';
    out += ' ';
  }
  return out + "] }";
}

std::string ToText(const TableInfoModel& m) {
  std::string out;
  for (const auto& r : m.regions) {
    AppendBytes(&out, r.name);
    out += " [\n  id=" + std::to_string(r.id) + "\n  startKey='";
    AppendBytes(&out, r.start_key);
    out += "'\n  endKey='";
    AppendBytes(&out, r.end_key);
    out += "'\n  location='" + r.location + "'\n]\n\n";
  }
  return out;
}

}  // namespace basalt::server::rest
