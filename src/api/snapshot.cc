#include "basalt/snapshot.h"

#include <cctype>

namespace basalt {

Status ValidateSnapshotName(std::string_view name) {
  if (name.empty() || name.size() > kMaxSnapshotNameLength) {
    return Status::InvalidArgument("snapshot name must be 1-" +
                                   std::to_string(kMaxSnapshotNameLength) + " characters: '" +
                                   std::string(name) + "'");
  }
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool word = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    if (word || (i > 0 && (c == '-' || c == '.'))) continue;
    return Status::InvalidArgument("illegal character in snapshot name '" + std::string(name) +
                                   "': it must match [a-zA-Z_0-9][a-zA-Z_0-9-.]*");
  }
  return Status::OK();
}

}  // namespace basalt
