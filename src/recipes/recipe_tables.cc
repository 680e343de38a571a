#include "recipes/recipe_tables.h"

#include <chrono>

namespace basalt::recipes {

Status EnsureTable(Admin& admin, const TableDescriptor& desc) {
  BASALT_ASSIGN_OR_RETURN(bool exists, admin.TableExists(desc.name));
  if (exists) return Status::OK();
  if (desc.name.ns != kDefaultNamespace) {
    Status s = admin.CreateNamespace(NamespaceDescriptor{desc.name.ns, {}});
    if (!s.ok() && !s.IsAlreadyExists()) return s;
  }
  Status s = admin.CreateTable(desc);
  if (s.IsAlreadyExists()) return Status::OK();  // created by someone else meanwhile
  return s;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace basalt::recipes
