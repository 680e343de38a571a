#include "recipes/table_setup.h"

#include <chrono>

namespace basalt::recipes {

Status EnsureNamespace(Admin& admin, const std::string& ns) {
  auto existing = admin.GetNamespace(ns);
  if (existing.ok()) return Status::OK();
  if (!existing.status().IsNotFound()) return existing.status();
  Status s = admin.CreateNamespace(NamespaceDescriptor{ns, {}});
  if (s.IsAlreadyExists()) return Status::OK();
  return s;
}

Status EnsureTable(Admin& admin, const TableName& name, const std::vector<std::string>& families) {
  TableDescriptor desc(name);
  for (const std::string& family : families) desc.AddFamily(FamilyDescriptor(family));
  Status s = admin.CreateTable(desc);
  if (s.ok()) return s;
  if (!s.IsAlreadyExists()) return s;
  BASALT_ASSIGN_OR_RETURN(TableInfo info, admin.DescribeTable(name));
  for (const std::string& family : families) {
    if (info.descriptor.FindFamily(family) == nullptr) {
      return Status::FailedPrecondition("table " + name.ToString() + " exists without family '" +
                                        family + "'");
    }
  }
  return Status::OK();
}

Status EnsureTable(Admin& admin, const TableDescriptor& desc) {
  if (desc.name.ns != kDefaultNamespace)
    BASALT_RETURN_IF_ERROR(EnsureNamespace(admin, desc.name.ns));
  Status s = admin.CreateTable(desc);
  if (s.IsAlreadyExists()) return Status::OK();  // there already, or created meanwhile
  return s;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace basalt::recipes
