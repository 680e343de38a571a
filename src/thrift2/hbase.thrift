// basalt's description of HBase's Thrift2 protocol (service THBaseService).
//
// Written for basalt from the protocol facts in the HBase reference digest (section 4). What
// matters on the wire is every name's numeric field id, its type and the enum values: they match
// HBase's Thrift2 server exactly, so HBase's own Thrift2 clients talk to basalt's server and
// basalt's client talks to an HBase Thrift2 gateway. Gaps in field ids are HBase's and are kept.
// Never renumber anything here.
//
// `binary` carries raw bytes (Thrift string type 11).

namespace cpp basalt.thrift2

// ---- Enums (i32 on the wire) ----

enum TDeleteType {
  DELETE_COLUMN = 0,          // one version of a column (the newest without a timestamp)
  DELETE_COLUMNS = 1,         // every version of a column at or before the timestamp
  DELETE_FAMILY = 2,          // every column of a family at or before the timestamp
  DELETE_FAMILY_VERSION = 3   // every column of a family at exactly the timestamp
}

enum TDurability {
  USE_DEFAULT = 0,
  SKIP_WAL = 1,
  ASYNC_WAL = 2,
  SYNC_WAL = 3,
  FSYNC_WAL = 4
}

enum TConsistency {
  STRONG = 1,
  TIMELINE = 2
}

enum TReadType {
  DEFAULT = 1,
  STREAM = 2,
  PREAD = 3
}

enum TCompareOperator {
  LESS = 0,
  LESS_OR_EQUAL = 1,
  EQUAL = 2,
  NOT_EQUAL = 3,
  GREATER_OR_EQUAL = 4,
  GREATER = 5,
  NO_OP = 6
}

enum TBloomFilterType {
  NONE = 0,
  ROW = 1,
  ROWCOL = 2,
  ROWPREFIX_FIXED_LENGTH = 3
}

enum TCompressionAlgorithm {
  LZO = 0,
  GZ = 1,
  NONE = 2,
  SNAPPY = 3,
  LZ4 = 4,
  BZIP2 = 5,
  ZSTD = 6
}

enum TDataBlockEncoding {
  NONE = 0,
  PREFIX = 2,
  DIFF = 3,
  FAST_DIFF = 4,
  ROW_INDEX_V1 = 7
}

enum TKeepDeletedCells {
  FALSE = 0,
  TRUE = 1,
  TTL = 2
}

enum TThriftServerType {
  ONE = 1,
  TWO = 2
}

enum TLogType {
  SLOW_LOG = 1,
  LARGE_LOG = 2
}

enum TFilterByOperator {
  AND = 0,
  OR = 1
}

enum TPermissionScope {
  TABLE = 0,
  NAMESPACE = 1
}

// ---- Structs ----

// [minStamp, maxStamp)
struct TTimeRange {
  1: required i64 minStamp,
  2: required i64 maxStamp
}

// A family (no qualifier) or one column.
struct TColumn {
  1: required binary family,
  2: optional binary qualifier,
  3: optional i64 timestamp
}

struct TColumnValue {
  1: required binary family,
  2: required binary qualifier,
  3: required binary value,
  4: optional i64 timestamp,
  5: optional binary tags,
  6: optional i8 type
}

struct TColumnIncrement {
  1: required binary family,
  2: required binary qualifier,
  3: optional i64 amount = 1
}

struct TResult {
  1: optional binary row,
  2: required list<TColumnValue> columnValues,
  3: optional bool stale = false,
  4: optional bool partial = false
}

struct TAuthorization {
  1: optional list<string> labels
}

struct TCellVisibility {
  1: optional string expression
}

struct TGet {
  1: required binary row,
  2: optional list<TColumn> columns,
  3: optional i64 timestamp,
  4: optional TTimeRange timeRange,
  5: optional i32 maxVersions,
  6: optional binary filterString,
  7: optional map<binary, binary> attributes,
  8: optional TAuthorization authorizations,
  9: optional TConsistency consistency,
  10: optional i32 targetReplicaId,
  11: optional bool cacheBlocks,
  12: optional i32 storeLimit,
  13: optional i32 storeOffset,
  14: optional bool existence_only,
  15: optional binary filterBytes
}

struct TPut {
  1: required binary row,
  2: required list<TColumnValue> columnValues,
  3: optional i64 timestamp,
  5: optional map<binary, binary> attributes,
  6: optional TDurability durability,
  7: optional TCellVisibility cellVisibility
}

struct TDelete {
  1: required binary row,
  2: optional list<TColumn> columns,
  3: optional i64 timestamp,
  4: optional TDeleteType deleteType = 1,
  6: optional map<binary, binary> attributes,
  7: optional TDurability durability,
  8: optional TCellVisibility cellVisibility
}

struct TIncrement {
  1: required binary row,
  2: required list<TColumnIncrement> columns,
  4: optional map<binary, binary> attributes,
  5: optional TDurability durability,
  6: optional TCellVisibility cellVisibility,
  7: optional bool returnResults
}

struct TAppend {
  1: required binary row,
  2: required list<TColumnValue> columns,
  3: optional map<binary, binary> attributes,
  4: optional TDurability durability,
  5: optional TCellVisibility cellVisibility,
  6: optional bool returnResults
}

struct TScan {
  1: optional binary startRow,
  2: optional binary stopRow,
  3: optional list<TColumn> columns,
  4: optional i32 caching,
  5: optional i32 maxVersions = 1,
  6: optional TTimeRange timeRange,
  7: optional binary filterString,
  8: optional i32 batchSize,
  9: optional map<binary, binary> attributes,
  10: optional TAuthorization authorizations,
  11: optional bool reversed,
  12: optional bool cacheBlocks,
  13: optional map<binary, TTimeRange> colFamTimeRangeMap,
  14: optional TReadType readType,
  15: optional i32 limit,
  16: optional TConsistency consistency,
  17: optional i32 targetReplicaId,
  18: optional binary filterBytes
}

union TMutation {
  1: TPut put,
  2: TDelete deleteSingle
}

struct TRowMutations {
  1: required binary row,
  2: required list<TMutation> mutations
}

struct THRegionInfo {
  1: required i64 regionId,
  2: required binary tableName,
  3: optional binary startKey,
  4: optional binary endKey,
  5: optional bool offline,
  6: optional bool split,
  7: optional i32 replicaId
}

struct TServerName {
  1: required string hostName,
  2: optional i32 port,
  3: optional i64 startCode
}

struct THRegionLocation {
  1: required TServerName serverName,
  2: required THRegionInfo regionInfo
}

struct TTableName {
  1: optional binary ns,
  2: required binary qualifier
}

struct TColumnFamilyDescriptor {
  1: required binary name,
  2: optional map<binary, binary> attributes,
  3: optional map<string, string> configuration,
  4: optional i32 blockSize,
  5: optional TBloomFilterType bloomnFilterType,
  6: optional TCompressionAlgorithm compressionType,
  7: optional i16 dfsReplication,
  8: optional TDataBlockEncoding dataBlockEncoding,
  9: optional TKeepDeletedCells keepDeletedCells,
  10: optional i32 maxVersions,
  11: optional i32 minVersions,
  12: optional i32 scope,
  13: optional i32 timeToLive,
  14: optional bool blockCacheEnabled,
  15: optional bool cacheBloomsOnWrite,
  16: optional bool cacheDataOnWrite,
  17: optional bool cacheIndexesOnWrite,
  18: optional bool compressTags,
  19: optional bool evictBlocksOnClose,
  20: optional bool inMemory
}

struct TTableDescriptor {
  1: required TTableName tableName,
  2: optional list<TColumnFamilyDescriptor> columns,
  3: optional map<binary, binary> attributes,
  4: optional TDurability durability
}

struct TNamespaceDescriptor {
  1: required string name,
  2: optional map<string, string> configuration
}

struct TLogQueryFilter {
  1: optional string regionName,
  2: optional string clientAddress,
  3: optional string tableName,
  4: optional string userName,
  5: optional i32 limit = 10,
  6: optional TLogType logType = 1,
  7: optional TFilterByOperator filterByOperator = 1
}

struct TOnlineLogRecord {
  1: required i64 startTime,
  2: required i32 processingTime,
  3: required i32 queueTime,
  4: required i64 responseSize,
  5: required string clientAddress,
  6: required string serverClass,
  7: required string methodName,
  8: required string callDetails,
  9: required string param,
  10: required string userName,
  11: required i32 multiGetsCount,
  12: required i32 multiMutationsCount,
  13: required i32 multiServiceCalls,
  14: optional string regionName,
  15: optional i64 blockBytesScanned,
  16: optional i64 fsReadTime
}

struct TAccessControlEntity {
  1: required string username,
  2: required TPermissionScope scope,
  4: required string actions,
  5: optional string tableName,
  6: optional string nsName
}

exception TIOError {
  1: optional string message,
  2: optional bool canRetry
}

exception TIllegalArgument {
  1: optional string message
}

// ---- Service ----

service THBaseService {
  bool exists(1: required binary table, 2: required TGet tget) throws (1: TIOError io)

  list<bool> existsAll(1: required binary table, 2: required list<TGet> tgets)
    throws (1: TIOError io)

  TResult get(1: required binary table, 2: required TGet tget) throws (1: TIOError io)

  list<TResult> getMultiple(1: required binary table, 2: required list<TGet> tgets)
    throws (1: TIOError io)

  void put(1: required binary table, 2: required TPut tput) throws (1: TIOError io)

  bool checkAndPut(1: required binary table, 2: required binary row, 3: required binary family,
                   4: required binary qualifier, 5: binary value, 6: required TPut tput)
    throws (1: TIOError io)

  void putMultiple(1: required binary table, 2: required list<TPut> tputs)
    throws (1: TIOError io)

  void deleteSingle(1: required binary table, 2: required TDelete tdelete)
    throws (1: TIOError io)

  list<TDelete> deleteMultiple(1: required binary table, 2: required list<TDelete> tdeletes)
    throws (1: TIOError io)

  bool checkAndDelete(1: required binary table, 2: required binary row,
                      3: required binary family, 4: required binary qualifier, 5: binary value,
                      6: required TDelete tdelete)
    throws (1: TIOError io)

  TResult increment(1: required binary table, 2: required TIncrement tincrement)
    throws (1: TIOError io)

  TResult append(1: required binary table, 2: required TAppend tappend) throws (1: TIOError io)

  i32 openScanner(1: required binary table, 2: required TScan tscan) throws (1: TIOError io)

  list<TResult> getScannerRows(1: required i32 scannerId, 2: i32 numRows = 1)
    throws (1: TIOError io, 2: TIllegalArgument ia)

  void closeScanner(1: required i32 scannerId) throws (1: TIOError io, 2: TIllegalArgument ia)

  void mutateRow(1: required binary table, 2: required TRowMutations trowMutations)
    throws (1: TIOError io)

  list<TResult> getScannerResults(1: required binary table, 2: required TScan tscan,
                                  3: i32 numRows = 1)
    throws (1: TIOError io)

  THRegionLocation getRegionLocation(1: required binary table, 2: required binary row,
                                     3: bool reload)
    throws (1: TIOError io)

  list<THRegionLocation> getAllRegionLocations(1: required binary table)
    throws (1: TIOError io)

  bool checkAndMutate(1: required binary table, 2: required binary row,
                      3: required binary family, 4: required binary qualifier,
                      5: required TCompareOperator compareOperator, 6: binary value,
                      7: required TRowMutations rowMutations)
    throws (1: TIOError io)

  TTableDescriptor getTableDescriptor(1: required TTableName table) throws (1: TIOError io)

  list<TTableDescriptor> getTableDescriptors(1: required list<TTableName> tables)
    throws (1: TIOError io)

  bool tableExists(1: TTableName tableName) throws (1: TIOError io)

  list<TTableDescriptor> getTableDescriptorsByPattern(1: string regex,
                                                      2: required bool includeSysTables)
    throws (1: TIOError io)

  list<TTableDescriptor> getTableDescriptorsByNamespace(1: required string name)
    throws (1: TIOError io)

  list<TTableName> getTableNamesByPattern(1: string regex, 2: required bool includeSysTables)
    throws (1: TIOError io)

  list<TTableName> getTableNamesByNamespace(1: required string name) throws (1: TIOError io)

  void createTable(1: required TTableDescriptor desc, 2: list<binary> splitKeys)
    throws (1: TIOError io)

  void deleteTable(1: required TTableName tableName) throws (1: TIOError io)

  void truncateTable(1: required TTableName tableName, 2: required bool preserveSplits)
    throws (1: TIOError io)

  void enableTable(1: required TTableName tableName) throws (1: TIOError io)

  void disableTable(1: required TTableName tableName) throws (1: TIOError io)

  bool isTableEnabled(1: required TTableName tableName) throws (1: TIOError io)

  bool isTableDisabled(1: required TTableName tableName) throws (1: TIOError io)

  bool isTableAvailable(1: required TTableName tableName) throws (1: TIOError io)

  bool isTableAvailableWithSplit(1: required TTableName tableName, 2: list<binary> splitKeys)
    throws (1: TIOError io)

  void addColumnFamily(1: required TTableName tableName,
                       2: required TColumnFamilyDescriptor column)
    throws (1: TIOError io)

  void deleteColumnFamily(1: required TTableName tableName, 2: required binary column)
    throws (1: TIOError io)

  void modifyColumnFamily(1: required TTableName tableName,
                          2: required TColumnFamilyDescriptor column)
    throws (1: TIOError io)

  void modifyTable(1: required TTableDescriptor desc) throws (1: TIOError io)

  void createNamespace(1: required TNamespaceDescriptor namespaceDesc) throws (1: TIOError io)

  void modifyNamespace(1: required TNamespaceDescriptor namespaceDesc) throws (1: TIOError io)

  void deleteNamespace(1: required string name) throws (1: TIOError io)

  TNamespaceDescriptor getNamespaceDescriptor(1: required string name) throws (1: TIOError io)

  list<TNamespaceDescriptor> listNamespaceDescriptors() throws (1: TIOError io)

  list<string> listNamespaces() throws (1: TIOError io)

  TThriftServerType getThriftServerType()

  string getClusterId()

  list<TOnlineLogRecord> getSlowLogResponses(1: set<TServerName> serverNames,
                                             2: TLogQueryFilter logQueryFilter)
    throws (1: TIOError io)

  list<bool> clearSlowLogResponses(1: set<TServerName> serverNames) throws (1: TIOError io)

  bool grant(1: TAccessControlEntity info) throws (1: TIOError io)

  bool revoke(1: TAccessControlEntity info) throws (1: TIOError io)
}
