#include "server/table_name_pattern.h"

namespace basalt::server {

Result<std::unique_ptr<re2::RE2>> CompileTableNamePattern(const std::string& regex) {
  if (regex.size() > kMaxTableNamePatternBytes) {
    return Status::InvalidArgument("table name pattern too long: " + std::to_string(regex.size()) +
                                   " bytes (at most " + std::to_string(kMaxTableNamePatternBytes) +
                                   ")");
  }
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(kMaxTableNamePatternMemory);
  auto pattern = std::make_unique<re2::RE2>(regex, options);
  if (!pattern->ok()) {
    return Status::InvalidArgument("bad table name pattern: " + pattern->error());
  }
  return pattern;
}

}  // namespace basalt::server
