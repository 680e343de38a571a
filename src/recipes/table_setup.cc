#include "recipes/table_setup.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace basalt::recipes {

Status EnsureNamespace(Admin& admin, const std::string& ns) {
  auto existing = admin.GetNamespace(ns);
  if (existing.ok()) return Status::OK();
  if (!existing.status().IsNotFound()) return existing.status();
  Status s = admin.CreateNamespace(NamespaceDescriptor{ns, {}});
  if (s.IsAlreadyExists()) return Status::OK();
  return s;
}

Status EnsureTable(Admin& admin, const TableName& name, const std::vector<std::string>& families,
                   Compression compression, const std::vector<std::string>& split_keys) {
  TableDescriptor desc(name);
  for (const std::string& family : families) {
    FamilyDescriptor f(family);
    f.compression = compression;
    desc.AddFamily(std::move(f));
  }
  Status s = admin.CreateTable(desc, split_keys);
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

Status EnsureTable(Admin& admin, const TableDescriptor& desc,
                   const std::vector<std::string>& split_keys) {
  if (desc.name.ns != kDefaultNamespace)
    BASALT_RETURN_IF_ERROR(EnsureNamespace(admin, desc.name.ns));
  Status s = admin.CreateTable(desc, split_keys);
  if (s.IsAlreadyExists()) return Status::OK();  // there already, or created meanwhile
  return s;
}

Result<std::vector<std::string>> EvenFirstByteSplits(int regions, int first_byte_values,
                                                     std::string_view option) {
  if (regions < 0 || regions > 256) {
    return Status::InvalidArgument(std::string(option) + " outside 0..256");
  }
  const int ranges = std::min(regions, first_byte_values);
  std::vector<std::string> splits;
  for (int i = 1; i < ranges; ++i) {
    // ranges <= first_byte_values <= 256, so the cut points are distinct bytes above 0.
    splits.push_back(std::string(1, static_cast<char>(i * first_byte_values / ranges)));
  }
  return splits;
}

}  // namespace basalt::recipes
