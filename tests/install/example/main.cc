// A user's program against an installed basalt (tests/install/install_test.py builds it with
// find_package and with pkg-config): the embedded store on RocksDB, the filter language and a
// recipe, so that every part of libbasalt is linked and runs.
#include <cstdio>
#include <string>

#include "basalt/basalt.h"
#include "basalt/recipes/follow_graph.h"

namespace {

int Fail(const char* what, const basalt::Status& s) {
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
    return 2;
  }
  auto conn = basalt::Connection::Open(argv[1]);
  if (!conn.ok()) return Fail("open", conn.status());

  basalt::TableDescriptor desc(basalt::TableName("default", "users"));
  desc.AddFamily(basalt::FamilyDescriptor("info"));
  if (basalt::Status s = (*conn)->admin().CreateTable(desc); !s.ok()) return Fail("create", s);
  auto users = (*conn)->GetTable("users");
  if (!users.ok()) return Fail("table", users.status());
  if (basalt::Status s = (*users)->Put(basalt::Put("alice").Add("info", "name", "Alice"));
      !s.ok()) {
    return Fail("put", s);
  }
  auto row = (*users)->Get(basalt::Get("alice"));
  if (!row.ok()) return Fail("get", row.status());
  auto name = row->Value("info", "name");

  auto filter = basalt::ParseFilter("PrefixFilter('al') AND KeyOnlyFilter()");
  if (!filter.ok()) return Fail("filter", filter.status());

  auto graph = basalt::recipes::FollowGraph::Open(**conn);
  if (!graph.ok()) return Fail("follow graph", graph.status());
  if (basalt::Status s = (*graph)->Follow("alice", "bob"); !s.ok()) return Fail("follow", s);
  auto followers = (*graph)->FollowerCount("bob");
  if (!followers.ok()) return Fail("count", followers.status());

  std::printf("name=%s filter=%s followers=%lld\n", name ? std::string(*name).c_str() : "(none)",
              basalt::FilterToString(**filter).c_str(), static_cast<long long>(*followers));
  return 0;
}
