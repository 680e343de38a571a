#include "recipes/table_setup.h"

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

}  // namespace basalt::recipes
