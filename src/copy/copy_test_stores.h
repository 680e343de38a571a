// What the copy tools' tests share: an in-memory store holding table "t", and every cell of it.

#ifndef BASALT_COPY_COPY_TEST_STORES_H_
#define BASALT_COPY_COPY_TEST_STORES_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "basalt/basalt.h"

namespace basalt::copy::test {

// A "mem:" store with table default:t of `families`, three versions each.
inline std::unique_ptr<Connection> MakeStore(const std::vector<std::string>& families = {"a",
                                                                                         "b"}) {
  auto conn = Connection::Open("mem:");
  EXPECT_TRUE(conn.ok()) << conn.status().ToString();
  TableDescriptor desc(TableName("default", "t"));
  for (const std::string& f : families) {
    FamilyDescriptor fd;
    fd.name = f;
    fd.max_versions = 3;
    desc.AddFamily(fd);
  }
  EXPECT_TRUE((*conn)->admin().CreateTable(desc).ok());
  return std::move(*conn);
}

// Every version of every cell of t, in scan order.
inline std::vector<Cell> AllCells(Connection& c) {
  auto t = c.GetTable("t");
  auto s = (*t)->GetScanner(Scan().ReadAllVersions());
  std::vector<Cell> out;
  RowResult r;
  while ((*s)->Next(&r)) out.insert(out.end(), r.cells().begin(), r.cells().end());
  EXPECT_TRUE((*s)->status().ok());
  return out;
}

}  // namespace basalt::copy::test

#endif  // BASALT_COPY_COPY_TEST_STORES_H_
