#include "server/http/server_config.h"

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace basalt::server::http {
namespace {

template <typename T>
Status ReadUnsigned(const nlohmann::json& v, const std::string& key, T* out) {
  if (!v.is_number_integer() || v.get<int64_t>() < 0 ||
      static_cast<uint64_t>(v.get<int64_t>()) > std::numeric_limits<T>::max()) {
    return Status::InvalidArgument("config key '" + key + "' must be a non-negative integer");
  }
  *out = static_cast<T>(v.get<int64_t>());
  return Status::OK();
}

Status ReadString(const nlohmann::json& v, const std::string& key, std::string* out) {
  if (!v.is_string()) return Status::InvalidArgument("config key '" + key + "' must be a string");
  *out = v.get<std::string>();
  return Status::OK();
}

Status ReadBool(const nlohmann::json& v, const std::string& key, bool* out) {
  if (!v.is_boolean())
    return Status::InvalidArgument("config key '" + key + "' must be true or false");
  *out = v.get<bool>();
  return Status::OK();
}

Status ReadNumber(const nlohmann::json& v, const std::string& key, double* out) {
  if (!v.is_number()) return Status::InvalidArgument("config key '" + key + "' must be a number");
  *out = v.get<double>();
  return Status::OK();
}

}  // namespace

Status LoadConfigFile(const std::string& path, ServerConfig* config) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot read config file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument("config file '" + path + "' is not a JSON object");
  }
  for (const auto& [raw_key, v] : j.items()) {
    std::string key = raw_key;
    for (char& c : key) {
      if (c == '-') c = '_';
    }
    Status s;
    if (key == "data") {
      s = ReadString(v, key, &config->data);
    } else if (key == "bind") {
      s = ReadString(v, key, &config->bind);
    } else if (key == "port") {
      s = ReadUnsigned(v, key, &config->port);
    } else if (key == "access_log") {
      s = ReadString(v, key, &config->access_log);
    } else if (key == "max_body") {
      s = ReadUnsigned(v, key, &config->max_body);
    } else if (key == "max_header") {
      s = ReadUnsigned(v, key, &config->max_header);
    } else if (key == "read_timeout_seconds") {
      s = ReadUnsigned(v, key, &config->read_timeout_seconds);
    } else if (key == "idle_timeout_seconds") {
      s = ReadUnsigned(v, key, &config->idle_timeout_seconds);
    } else if (key == "shutdown_timeout_seconds") {
      s = ReadUnsigned(v, key, &config->shutdown_timeout_seconds);
    } else if (key == "threads") {
      s = ReadUnsigned(v, key, &config->threads);
    } else if (key == "max_connections") {
      s = ReadUnsigned(v, key, &config->max_connections);
      if (s.ok() && config->max_connections == 0) {
        s = Status::InvalidArgument("config key 'max_connections' must be at least 1");
      }
    } else if (key == "scanner_ttl_seconds") {
      s = ReadUnsigned(v, key, &config->scanner_ttl_seconds);
    } else if (key == "max_scanners") {
      s = ReadUnsigned(v, key, &config->max_scanners);
    } else if (key == "thrift") {
      s = ReadBool(v, key, &config->thrift);
    } else if (key == "thrift_port") {
      s = ReadUnsigned(v, key, &config->thrift_port);
    } else if (key == "thrift_framed") {
      s = ReadBool(v, key, &config->thrift_framed);
    } else if (key == "thrift_compact") {
      s = ReadBool(v, key, &config->thrift_compact);
    } else if (key == "admin_token") {
      s = ReadString(v, key, &config->admin_token);
    } else if (key == "session_ttl_seconds") {
      s = ReadUnsigned(v, key, &config->session_ttl_seconds);
      if (s.ok() && config->session_ttl_seconds == 0) {
        s = Status::InvalidArgument("config key 'session_ttl_seconds' must be at least 1");
      }
    } else if (key == "password_hash_cost") {
      s = ReadString(v, key, &config->password_hash_cost);
      if (s.ok() && config->password_hash_cost != "interactive" &&
          config->password_hash_cost != "minimum") {
        s = Status::InvalidArgument(
            "config key 'password_hash_cost' must be \"interactive\" or \"minimum\"");
      }
    } else if (key == "app_namespace") {
      s = ReadString(v, key, &config->app_namespace);
      if (s.ok() && config->app_namespace.empty()) {
        s = Status::InvalidArgument("config key 'app_namespace' must not be empty");
      }
    } else if (key == "demo") {
      s = ReadBool(v, key, &config->demo);
    } else if (key == "demo_scale") {
      s = ReadNumber(v, key, &config->demo_scale);
    } else {
      s = Status::InvalidArgument("unknown config key '" + raw_key + "'");
    }
    BASALT_RETURN_IF_ERROR(s.WithContext(path));
  }
  return Status::OK();
}

}  // namespace basalt::server::http
