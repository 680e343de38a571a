// Pins the wire format of basalt's hbase.thrift to HBase's: enum values and the field ids and
// types each struct puts on the wire (reference digest §4.2-4.4). A renumbered field would still
// round-trip between basalt's own client and server, so only a check like this catches it.

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <utility>
#include <vector>

#include "thrift2/codec.h"
#include "thrift2/gen/hbase_types.h"

namespace basalt::testing {
namespace {

using namespace ::basalt::thrift2;  // NOLINT: the generated types are this test's vocabulary
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TType;
using apache::thrift::transport::TMemoryBuffer;

using Fields = std::vector<std::pair<int16_t, TType>>;

// The (field id, wire type) of each top-level field `value` writes, in order.
template <class T>
Fields WireFields(const T& value) {
  auto buffer = std::make_shared<TMemoryBuffer>();
  TBinaryProtocol out(buffer);
  value.write(&out);
  TBinaryProtocol in(buffer);
  std::string name;
  in.readStructBegin(name);
  Fields fields;
  while (true) {
    TType type;
    int16_t id;
    in.readFieldBegin(name, type, id);
    if (type == apache::thrift::protocol::T_STOP) break;
    fields.emplace_back(id, type);
    in.skip(type);
    in.readFieldEnd();
  }
  return fields;
}

constexpr TType kString = apache::thrift::protocol::T_STRING;
constexpr TType kI32 = apache::thrift::protocol::T_I32;
constexpr TType kI64 = apache::thrift::protocol::T_I64;
constexpr TType kBool = apache::thrift::protocol::T_BOOL;
constexpr TType kList = apache::thrift::protocol::T_LIST;
constexpr TType kStruct = apache::thrift::protocol::T_STRUCT;
constexpr TType kByte = apache::thrift::protocol::T_BYTE;
constexpr TType kMap = apache::thrift::protocol::T_MAP;

TEST(Thrift2WireFormat, EnumValuesAreHBases) {
  EXPECT_EQ(TDeleteType::DELETE_COLUMN, 0);
  EXPECT_EQ(TDeleteType::DELETE_COLUMNS, 1);
  EXPECT_EQ(TDeleteType::DELETE_FAMILY, 2);
  EXPECT_EQ(TDeleteType::DELETE_FAMILY_VERSION, 3);
  EXPECT_EQ(TDurability::USE_DEFAULT, 0);
  EXPECT_EQ(TDurability::FSYNC_WAL, 4);
  EXPECT_EQ(TConsistency::STRONG, 1);
  EXPECT_EQ(TReadType::PREAD, 3);
  EXPECT_EQ(TCompareOperator::LESS, 0);
  EXPECT_EQ(TCompareOperator::GREATER, 5);
  EXPECT_EQ(TCompareOperator::NO_OP, 6);
  EXPECT_EQ(TBloomFilterType::ROWPREFIX_FIXED_LENGTH, 3);
  EXPECT_EQ(TCompressionAlgorithm::LZO, 0);
  EXPECT_EQ(TCompressionAlgorithm::NONE, 2);
  EXPECT_EQ(TCompressionAlgorithm::ZSTD, 6);
  EXPECT_EQ(TDataBlockEncoding::ROW_INDEX_V1, 7);
  EXPECT_EQ(TKeepDeletedCells::TTL, 2);
  EXPECT_EQ(TThriftServerType::TWO, 2);
  EXPECT_EQ(TLogType::LARGE_LOG, 2);
  EXPECT_EQ(TFilterByOperator::OR, 1);
  EXPECT_EQ(TPermissionScope::NAMESPACE, 1);
}

TEST(Thrift2WireFormat, TPutHasNoFieldFourAndDurabilityIsSix) {
  TPut put;
  put.row = "r";
  put.__set_timestamp(1);
  put.__set_attributes({{"k", "v"}});
  put.__set_durability(TDurability::SKIP_WAL);
  put.__set_cellVisibility(TCellVisibility());
  EXPECT_EQ(WireFields(put),
            (Fields{{1, kString}, {2, kList}, {3, kI64}, {5, kMap}, {6, kI32}, {7, kStruct}}));
}

TEST(Thrift2WireFormat, TDeleteHasNoFieldFiveAndDefaultsToDeleteColumns) {
  TDelete del;
  EXPECT_EQ(del.deleteType, TDeleteType::DELETE_COLUMNS);
  del.row = "r";
  del.__set_columns({});
  del.__set_timestamp(1);
  del.__set_deleteType(TDeleteType::DELETE_FAMILY);
  del.__set_attributes({});
  del.__set_durability(TDurability::SYNC_WAL);
  EXPECT_EQ(WireFields(del),
            (Fields{{1, kString}, {2, kList}, {3, kI64}, {4, kI32}, {6, kMap}, {7, kI32}}));
}

TEST(Thrift2WireFormat, TIncrementHasNoFieldThree) {
  TIncrement inc;
  inc.row = "r";
  inc.__set_durability(TDurability::SYNC_WAL);
  inc.__set_returnResults(false);
  EXPECT_EQ(WireFields(inc), (Fields{{1, kString}, {2, kList}, {5, kI32}, {7, kBool}}));
  EXPECT_EQ(TColumnIncrement().amount, 1);
}

TEST(Thrift2WireFormat, TColumnValueTypeIsAByteAtSix) {
  TColumnValue cv;
  cv.__set_timestamp(1);
  cv.__set_tags("t");
  cv.__set_type(4);
  EXPECT_EQ(
      WireFields(cv),
      (Fields{{1, kString}, {2, kString}, {3, kString}, {4, kI64}, {5, kString}, {6, kByte}}));
}

TEST(Thrift2WireFormat, TScanFieldsAndMaxVersionsDefault) {
  EXPECT_EQ(TScan().maxVersions, 1);
  Scan scan;
  scan.WithStartRow("a").WithStopRow("z").AddFamily("f").SetCaching(10).ReadVersions(2);
  scan.SetTimeRange(1, 5).SetBatch(3).SetReversed(true).SetLimit(7);
  scan.SetFilter(std::make_shared<KeyOnlyFilter>());
  auto t = ToThrift(scan);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(WireFields(*t), (Fields{{1, kString},
                                    {2, kString},
                                    {3, kList},
                                    {4, kI32},
                                    {5, kI32},
                                    {6, kStruct},
                                    {7, kString},
                                    {8, kI32},
                                    {11, kBool},
                                    {15, kI32}}));
}

TEST(Thrift2WireFormat, TGetFieldsUpToStoreOffset) {
  Get get("r");
  get.AddColumn("f", "q").ReadVersions(3).SetTimeRange(1, 2);
  get.SetMaxResultsPerColumnFamily(4).SetRowOffsetPerColumnFamily(1);
  get.SetFilter(std::make_shared<KeyOnlyFilter>());
  auto t = ToThrift(get);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(WireFields(*t), (Fields{{1, kString},
                                    {2, kList},
                                    {4, kStruct},
                                    {5, kI32},
                                    {6, kString},
                                    {12, kI32},
                                    {13, kI32}}));
}

TEST(Thrift2WireFormat, ColumnFamilyDescriptorFieldIds) {
  FamilyDescriptor family("f");
  EXPECT_EQ(WireFields(ToThrift(family)), (Fields{{1, kString},
                                                  {4, kI32},
                                                  {5, kI32},
                                                  {6, kI32},
                                                  {9, kI32},
                                                  {10, kI32},
                                                  {11, kI32},
                                                  {13, kI32}}));
}

TEST(Thrift2WireFormat, AccessControlEntityHasNoFieldThree) {
  TAccessControlEntity acl;
  acl.__set_tableName("t");
  acl.__set_nsName("n");
  EXPECT_EQ(WireFields(acl),
            (Fields{{1, kString}, {2, kI32}, {4, kString}, {5, kString}, {6, kString}}));
}

TEST(Thrift2Codec, ADeleteMixingKindsBecomesOneTDeletePerRunInOrder) {
  Delete del("r");
  del.AddColumn("f", "a", 5).AddColumn("f", "b").AddFamily("g").AddColumns("f", "c", 9);
  auto t = ToThrift(del);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->size(), 3u);
  EXPECT_EQ((*t)[0].deleteType, TDeleteType::DELETE_COLUMN);
  ASSERT_EQ((*t)[0].columns.size(), 2u);
  EXPECT_EQ((*t)[0].columns[0].timestamp, 5);
  EXPECT_FALSE((*t)[0].columns[1].__isset.timestamp);
  EXPECT_EQ((*t)[1].deleteType, TDeleteType::DELETE_FAMILY);
  EXPECT_FALSE((*t)[1].columns[0].__isset.qualifier);
  EXPECT_EQ((*t)[2].deleteType, TDeleteType::DELETE_COLUMNS);
  EXPECT_EQ((*t)[2].columns[0].qualifier, "c");
}

}  // namespace
}  // namespace basalt::testing
