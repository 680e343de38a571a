#include "server/http/server_config.h"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <fstream>
#include <limits>
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

}  // namespace

Status ReadConfigValue(const nlohmann::json& v, const std::string& key, std::string* out) {
  if (!v.is_string()) return Status::InvalidArgument("config key '" + key + "' must be a string");
  *out = v.get<std::string>();
  return Status::OK();
}

Status ReadConfigValue(const nlohmann::json& v, const std::string& key, bool* out) {
  if (!v.is_boolean())
    return Status::InvalidArgument("config key '" + key + "' must be true or false");
  *out = v.get<bool>();
  return Status::OK();
}

Status ReadConfigValue(const nlohmann::json& v, const std::string& key, double* out) {
  if (!v.is_number()) return Status::InvalidArgument("config key '" + key + "' must be a number");
  *out = v.get<double>();
  return Status::OK();
}

Status ReadConfigValue(const nlohmann::json& v, const std::string& key, uint16_t* out) {
  return ReadUnsigned(v, key, out);
}

Status ReadConfigValue(const nlohmann::json& v, const std::string& key, uint32_t* out) {
  return ReadUnsigned(v, key, out);
}

Status ReadConfigValue(const nlohmann::json& v, const std::string& key, uint64_t* out) {
  return ReadUnsigned(v, key, out);
}

Status ReadConfigValue(const nlohmann::json& v, const std::string& key,
                       std::vector<std::string>* out) {
  if (!v.is_array() ||
      !std::all_of(v.begin(), v.end(), [](const auto& e) { return e.is_string(); })) {
    return Status::InvalidArgument("config key '" + key + "' must be a list of strings");
  }
  *out = v.get<std::vector<std::string>>();
  return Status::OK();
}

uint64_t RequestMemoryLimit(const ServerConfig& config) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t expanded = config.max_body > kMax / 32 ? kMax : config.max_body * 32;
  return std::min(std::max(expanded, uint64_t{64} << 20), config.request_memory_budget);
}

Status CheckLimits(const ServerConfig& config) {
  if (config.request_memory_budget < config.max_body) {
    return Status::InvalidArgument(
        "request_memory_budget (" + std::to_string(config.request_memory_budget) +
        " bytes) must be at least max_body (" + std::to_string(config.max_body) +
        " bytes): no body the server accepts could be read");
  }
  return Status::OK();
}

bool IsLoopbackBind(const std::string& bind) {
  boost::system::error_code ec;
  boost::asio::ip::address address = boost::asio::ip::make_address(bind, ec);
  return !ec && address.is_loopback();
}

Status CheckExposure(const ServerConfig& config) {
  if (config.insecure_no_auth || IsLoopbackBind(config.bind)) return Status::OK();
  if (config.admin_token.empty()) {
    return Status::FailedPrecondition(
        "refusing to listen on " + config.bind +
        " without an admin token: anyone who can reach it could read, write and drop every "
        "table. Set --admin-token (or $BASALT_ADMIN_TOKEN), bind to 127.0.0.1, or pass "
        "--insecure-no-auth to accept that (docs/security.md)");
  }
  struct ThriftPort {
    bool on;
    const char* name;
    const char* off_flag;
  };
  for (const ThriftPort& t :
       {ThriftPort{config.thrift, "Thrift2", "--no-thrift"},
        ThriftPort{config.thrift1, "Thrift1", "--no-thrift1"},
        ThriftPort{config.hbase_rpc, "HBase's native RPC", "--no-hbase-rpc"}}) {
    if (!t.on) continue;
    return Status::FailedPrecondition(
        std::string("refusing to serve ") + t.name + " on " + config.bind + ": " + t.name +
        " has no credentials (the admin token covers REST only), so anyone who can reach it "
        "could read, write and drop every table. Pass " +
        t.off_flag +
        ", bind to 127.0.0.1, or pass --insecure-no-auth to accept that (docs/security.md)");
  }
  return Status::OK();
}

std::optional<Status> ReadServerConfigKey(const std::string& key, const nlohmann::json& v,
                                          ServerConfig* config) {
  if (key == "data") return ReadConfigValue(v, key, &config->data);
  if (key == "bind") return ReadConfigValue(v, key, &config->bind);
  if (key == "port") return ReadConfigValue(v, key, &config->port);
  if (key == "access_log") return ReadConfigValue(v, key, &config->access_log);
  if (key == "max_body") return ReadConfigValue(v, key, &config->max_body);
  if (key == "request_memory_budget") {
    return ReadConfigValue(v, key, &config->request_memory_budget);
  }
  if (key == "max_header") return ReadConfigValue(v, key, &config->max_header);
  if (key == "read_timeout_seconds") return ReadConfigValue(v, key, &config->read_timeout_seconds);
  if (key == "idle_timeout_seconds") return ReadConfigValue(v, key, &config->idle_timeout_seconds);
  if (key == "shutdown_timeout_seconds") {
    return ReadConfigValue(v, key, &config->shutdown_timeout_seconds);
  }
  if (key == "threads") return ReadConfigValue(v, key, &config->threads);
  if (key == "max_connections") {
    Status s = ReadConfigValue(v, key, &config->max_connections);
    if (s.ok() && config->max_connections == 0) {
      s = Status::InvalidArgument("config key 'max_connections' must be at least 1");
    }
    return s;
  }
  if (key == "scanner_ttl_seconds") return ReadConfigValue(v, key, &config->scanner_ttl_seconds);
  if (key == "max_scanners") return ReadConfigValue(v, key, &config->max_scanners);
  if (key == "max_scanners_per_client") {
    return ReadConfigValue(v, key, &config->max_scanners_per_client);
  }
  if (key == "thrift") return ReadConfigValue(v, key, &config->thrift);
  if (key == "thrift_port") return ReadConfigValue(v, key, &config->thrift_port);
  if (key == "thrift_framed") return ReadConfigValue(v, key, &config->thrift_framed);
  if (key == "thrift_compact") return ReadConfigValue(v, key, &config->thrift_compact);
  if (key == "thrift1") return ReadConfigValue(v, key, &config->thrift1);
  if (key == "thrift1_port") return ReadConfigValue(v, key, &config->thrift1_port);
  if (key == "thrift1_framed") return ReadConfigValue(v, key, &config->thrift1_framed);
  if (key == "thrift1_compact") return ReadConfigValue(v, key, &config->thrift1_compact);
  if (key == "hbase_rpc") return ReadConfigValue(v, key, &config->hbase_rpc);
  if (key == "hbase_rpc_port") return ReadConfigValue(v, key, &config->hbase_rpc_port);
  if (key == "thrift_spin_us") {
    Status s = ReadConfigValue(v, key, &config->thrift_spin_us);
    if (s.ok() && config->thrift_spin_us > kMaxThriftSpinUs) {
      s = Status::InvalidArgument("config key 'thrift_spin_us' must be at most " +
                                  std::to_string(kMaxThriftSpinUs));
    }
    return s;
  }
  if (key == "thrift_max_connections") {
    return ReadConfigValue(v, key, &config->thrift_max_connections);
  }
  if (key == "thrift_max_connections_per_client") {
    return ReadConfigValue(v, key, &config->thrift_max_connections_per_client);
  }
  if (key == "admin_token") return ReadConfigValue(v, key, &config->admin_token);
  if (key == "allowed_hosts") return ReadConfigValue(v, key, &config->allowed_hosts);
  if (key == "insecure_no_auth") return ReadConfigValue(v, key, &config->insecure_no_auth);
  return std::nullopt;
}

Status ReadConfigFile(const std::string& path, const ConfigKeyReader& read) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot read config file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument("config file '" + path + "' is not a JSON object");
  }
  for (const auto& [raw_key, v] : j.items()) {
    // JSON has no comments: a key starting with "//" is one, so that a config file (the one the
    // Debian package installs) can explain each setting and hold commented-out ones ("//port").
    // Every other unknown key is still an error, so a misspelt setting is not silently ignored.
    if (raw_key.starts_with("//")) continue;
    std::string key = raw_key;
    for (char& c : key) {
      if (c == '-') c = '_';
    }
    std::optional<Status> s = read(key, v);
    if (!s) s = Status::InvalidArgument("unknown config key '" + raw_key + "'");
    BASALT_RETURN_IF_ERROR(s->WithContext(path));
  }
  return Status::OK();
}

}  // namespace basalt::server::http
