#include "linked_list.h"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "basalt/mutation.h"
#include "basalt/scan.h"

namespace basalt::crash {

Status ChainWriter::AppendNode(Table& table) {
  char id[17];
  std::snprintf(id, sizeof(id), "%016llx", static_cast<unsigned long long>(rng_()));
  Status s = table.Put(basalt::Put(id).Add(kListFamily, "p", head_).SetDurability(durability_));
  if (!s.ok()) {
    unknown_.push_back(id);
    return s;
  }
  head_ = id;
  ++acknowledged_;
  return s;
}

Result<ListCounts> VerifyLinkedList(Table& table, const std::set<std::string>& heads,
                                    const std::set<std::string>& unknown) {
  std::unordered_set<std::string> defined;
  std::unordered_set<std::string> named;
  BASALT_ASSIGN_OR_RETURN(auto scanner,
                          table.GetScanner(Scan().AddColumn(kListFamily, "p").SetCaching(1000)));
  RowResult row;
  while (scanner->Next(&row)) {
    defined.insert(row.row());
    auto prev = row.Value(kListFamily, "p");
    if (prev && !prev->empty()) named.emplace(*prev);
  }
  BASALT_RETURN_IF_ERROR(scanner->status());

  ListCounts counts;
  auto example = [&](const std::string& what, const std::string& id) {
    if (counts.examples.size() < 10) counts.examples.push_back(what + " " + id);
  };
  for (const std::string& id : defined) {
    if (named.contains(id)) {
      ++counts.referenced;
      continue;
    }
    ++counts.unreferenced;
    if (!heads.contains(id) && !unknown.contains(id)) {
      ++counts.unexpected_unreferenced;
      example("unreferenced", id);
    }
  }
  for (const std::string& id : named) {
    if (!defined.contains(id)) {
      ++counts.undefined;
      example("undefined", id);
    }
  }
  for (const std::string& id : heads) {
    if (!id.empty() && !defined.contains(id)) {
      ++counts.undefined;
      example("undefined head", id);
    }
  }
  return counts;
}

}  // namespace basalt::crash
