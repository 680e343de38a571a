#include "app/demo_data.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "basalt/recipes/users.h"

namespace basalt::app {
namespace {

constexpr char kMarkerFamily[] = "d";
constexpr char kMarkerRow[] = "loaded";

// The demo writes its users through UserStore's default table prefix.
TableName DemoUsers(const std::string& name_space) {
  return TableName(name_space, recipes::UserStoreOptions().table_prefix + "_users");
}

int32_t Scale(int32_t n, double scale, int32_t at_least) {
  return std::max(at_least, static_cast<int32_t>(std::lround(n * scale)));
}

Result<bool> MarkerPresent(Connection& conn, const std::string& name_space) {
  BASALT_ASSIGN_OR_RETURN(bool exists, conn.admin().TableExists({name_space, kDemoMarkerTable}));
  if (!exists) return false;
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(TableName(name_space, kDemoMarkerTable)));
  return table->Exists(Get(kMarkerRow));
}

Result<bool> HasUsers(Connection& conn, const std::string& name_space) {
  BASALT_ASSIGN_OR_RETURN(bool exists, conn.admin().TableExists(DemoUsers(name_space)));
  if (!exists) return false;
  BASALT_ASSIGN_OR_RETURN(auto table, conn.GetTable(DemoUsers(name_space)));
  // An account is a row with a:pw (users.h); the table's meta row has none.
  BASALT_ASSIGN_OR_RETURN(auto scanner, table->GetScanner(Scan().AddColumn("a", "pw").SetLimit(1)));
  RowResult row;
  if (scanner->Next(&row)) return true;
  BASALT_RETURN_IF_ERROR(scanner->status());
  return false;
}

}  // namespace

Result<recipes::DemoOptions> ScaledDemoOptions(double scale) {
  if (!(scale > 0 && scale <= 100)) {
    return Status::InvalidArgument("demo scale must be in (0, 100]");
  }
  recipes::DemoOptions o;
  o.users = Scale(o.users, scale, 2);
  o.posts = Scale(o.posts, scale, 0);
  o.actions = Scale(o.actions, scale, 0);
  o.items = Scale(o.items, scale, 1);
  o.clicks = Scale(o.clicks, scale, 0);
  return o;
}

Result<std::string> LoadDemoOnFirstStart(Connection& conn, const std::string& name_space,
                                         double scale, const recipes::DemoProgress& progress) {
  BASALT_ASSIGN_OR_RETURN(recipes::DemoOptions options, ScaledDemoOptions(scale));
  options.name_space = name_space;
  BASALT_ASSIGN_OR_RETURN(bool marked, MarkerPresent(conn, name_space));
  if (marked) return std::string("skipped: the demo data set was loaded before");
  BASALT_ASSIGN_OR_RETURN(bool has_users, HasUsers(conn, name_space));
  if (has_users) {
    return "skipped: " + DemoUsers(name_space).ToString() + " holds users already";
  }
  BASALT_ASSIGN_OR_RETURN(recipes::DemoSummary sum, recipes::LoadDemo(conn, options, progress));
  std::string summary = std::to_string(sum.users) + " users, " + std::to_string(sum.follows) +
                        " follows, " + std::to_string(sum.posts) + " posts, " +
                        std::to_string(sum.actions) + " actions, " + std::to_string(sum.clicks) +
                        " clicks";
  Status created = conn.admin().CreateTable(TableDescriptor(TableName(name_space, kDemoMarkerTable))
                                                .AddFamily(FamilyDescriptor(kMarkerFamily)));
  if (!created.ok() && !created.IsAlreadyExists()) return created;
  BASALT_ASSIGN_OR_RETURN(auto marker, conn.GetTable(TableName(name_space, kDemoMarkerTable)));
  const int64_t now = SystemWallMillis();
  BASALT_RETURN_IF_ERROR(marker->Put(Put(kMarkerRow)
                                         .Add(kMarkerFamily, "at", std::to_string(now))
                                         .Add(kMarkerFamily, "summary", summary)));
  return "loaded: " + summary + " (password '" + std::string(recipes::kDemoPassword) + "')";
}

}  // namespace basalt::app
