// The REST resources as plain values, one struct per HBase REST model, independent of how they
// are written: handlers fill them from the public API, and the JSON, XML and protobuf codecs
// (json_codec.h, xml_codec.h, protobuf_codec.h; dispatched by codecs.h) turn them into bytes and
// back. Bytes (row keys, columns, values) are held decoded; each codec applies its own encoding
// (base64 in JSON and XML, raw in protobuf).
//
// Field names follow HBase's models so that a reader can match them to the wire names.

#ifndef BASALT_SERVER_REST_MODELS_H_
#define BASALT_SERVER_REST_MODELS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace basalt::server::rest {

// A cell of a CellSet (a put's body). The row is the RowModel's.
struct CellModel {
  std::optional<std::string> column;  // "family:qualifier", decoded; nullopt when absent
  std::optional<int64_t> timestamp;
  std::string value;  // decoded
};

struct RowModel {
  std::optional<std::string> key;  // decoded; nullopt when absent
  std::vector<CellModel> cells;
};

// GET /version (VersionModel). `version` is the server's release (HBase's "Version"); HBase's
// "Revision" (its source revision) has no basalt counterpart and is left out.
struct VersionModel {
  std::string rest, jvm, os, server, jersey, version;
};

// GET /version/cluster (StorageClusterVersionModel).
struct ClusterVersionModel {
  std::string version;
};

// GET /status/cluster (StorageClusterStatusModel). basalt is one node; the counters it has no
// equivalent for are zero.
struct ClusterStatusModel {
  struct Region {
    std::string name;  // bytes
    int32_t stores = 0;
  };
  struct Node {
    std::string name;  // host:port
    int64_t start_code = 0;
    std::vector<Region> regions;
  };
  std::vector<Node> live_nodes;
  int32_t regions = 0;
  double average_load = 0;
};

// GET / and /namespaces/{ns}/tables (TableListModel).
struct TableListModel {
  std::vector<std::string> names;
};

// GET /namespaces (NamespacesModel).
struct NamespacesModel {
  std::vector<std::string> names;
};

// GET and the body of POST/PUT /namespaces/{ns} (NamespacesInstanceModel). `name` is only
// written (text/plain names the namespace); bodies do not carry it.
struct NamespacePropertiesModel {
  std::string name;
  std::map<std::string, std::string> properties;
};

// A family of a TableSchema (ColumnSchemaModel): every setting is a named text attribute.
struct ColumnSchemaModel {
  std::string name;
  std::map<std::string, std::string> attributes;
};

// GET and the body of PUT/POST /{table}/schema (TableSchemaModel).
struct TableSchemaModel {
  std::string name;
  std::map<std::string, std::string> attributes;  // IS_META, DURABILITY, ...
  std::vector<ColumnSchemaModel> columns;
};

// GET /{table}/regions (TableInfoModel of TableRegionModels).
struct TableInfoModel {
  struct Region {
    int64_t id = 0;
    std::string start_key, end_key;  // bytes
    std::string location;            // host:port
    std::string name;                // printable region name
  };
  std::string name;
  std::vector<Region> regions;
};

// The body of POST/PUT /{table}/scanner (ScannerModel): what the client sent, unchecked; the
// scanner handler turns it into a Scan and checks the values.
struct ScannerModel {
  std::optional<std::string> start_row, end_row;  // bytes
  std::vector<std::string> columns;               // "family" or "family:qualifier", bytes
  std::optional<int64_t> batch, start_time, end_time, max_versions, caching, limit;
  std::optional<bool> include_start_row, include_stop_row, reversed;
  std::optional<std::string> filter;  // HBase's JSON filter model (filter_json.h), as text
};

}  // namespace basalt::server::rest

#endif  // BASALT_SERVER_REST_MODELS_H_
