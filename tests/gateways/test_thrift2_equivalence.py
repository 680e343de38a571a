"""Thrift2 (service THBaseService): every method basalt's server implements, called with the same
arguments on HBase's Thrift2 gateway and on basalt's, the outcomes compared: the value returned,
field by field, or the exception raised (its class and fields).

Normalised: timestamps from a server's clock, region ids, server names, ports and start codes,
and the cluster id. An exception's message is each server's own (DIFFERENCES
["exception-messages"]); its class and canRetry must be equal. Not called here: modifyNamespace,
the slow-log methods, grant and revoke (another change is giving them their answers).
"""

import re

import pytest

from conftest import Difference, Differences, normalise_times
from thrift_compare import HBASE2 as H, Pair


def basalt_status(text):
    return bool(re.match(r"(NotFound|InvalidArgument|AlreadyExists|FailedPrecondition|"
                         r"NotSupported|IOError|Busy|Aborted|Corruption|Internal|"
                         r"PermissionDenied): \S", text))


DIFFERENCES = Differences({
    "exception-messages": Difference(
        "A TIOError's message is Status::ToString() in basalt (\"NotFound: table 't' does not "
        "exist\"), which basalt's thrift:// client reads the error class from (docs/hbase.md); "
        "HBase's is the Java exception's text (for a missing table, its name alone; \"t is "
        "disabled.\"). The exception class and canRetry are the same.",
        hbase=lambda o: bool(o.message) and not basalt_status(o.message),
        basalt=lambda o: basalt_status(o.message)),
    "can-retry": Difference(
        "TIOError.canRetry: HBase sets it true for a failure that is a plain IOException, which "
        "includes some no retry mends (maxVersions 0); basalt, only for a busy or failing store.",
        hbase=lambda o: o.fields.get("canRetry") is True,
        basalt=lambda o: o.fields.get("canRetry") is False),
    "bad-arguments": Difference(
        "A malformed argument HBase's gateway does not check (a Put without cells, a bad filter "
        "string, a bad table name pattern): basalt answers TIOError InvalidArgument naming the "
        "mistake; HBase's conversion throws and the client gets TApplicationException "
        "'Internal error processing ...'.",
        hbase=lambda o: o.error == "TApplicationException" and "Internal error" in o.message,
        basalt=lambda o: o.error == "TIOError" and o.message.startswith("InvalidArgument: ")),
    "existence-only": Difference(
        "get with existence_only: basalt answers the row key without cells when the row exists "
        "(an empty result when not); HBase 2.6.1's gateway fails (TApplicationException).",
        hbase=lambda o: o.error == "TApplicationException",
        basalt=lambda o: o.error is None and o.value["row"] == b"r1"
        and o.value["columnValues"] == []),
    "family-descriptor": Difference(
        "A family's descriptor: HBase fills in every field and lists every attribute it keeps "
        "(defaults included); basalt sets the fields it has a setting for (name, blockSize, "
        "bloom filter, compression, keepDeletedCells, maxVersions, minVersions, timeToLive) and "
        "leaves the others unset. Every field both set is equal.",
        hbase=lambda extra: {"attributes", "blockCacheEnabled", "scope"} <= extra,
        basalt=lambda extra: extra == set()),
    "namespace-configuration": Difference(
        "listNamespaceDescriptors: basalt lists its own `app` namespace (docs/security.md); HBase "
        "has no such namespace.",
        hbase=lambda names: "app" not in names, basalt=lambda names: "app" in names),
    "app-namespace-refused": Difference(
        "basalt's `app` namespace is refused to Thrift (TIOError PermissionDenied, "
        "docs/security.md); HBase has no such table (TIOError naming it).",
        hbase=lambda o: o.error == "TIOError" and not o.message.startswith("PermissionDenied"),
        basalt=lambda o: o.error == "TIOError" and o.message.startswith("PermissionDenied: ")),
    "scanner-checked-when-opened": Difference(
        "openScanner on a table that does not exist, or naming a family the table lacks: basalt "
        "answers TIOError NotFound when it is opened; HBase hands out an id "
        "and fails when it is read.",
        hbase=lambda o: o.error is None and isinstance(o.value, int),
        basalt=lambda o: o.error == "TIOError" and basalt_status(o.message)),
    "batch-partial": Difference(
        "A scan with batchSize: where a row's last piece is exactly batchSize cells, basalt "
        "marks it partial (it cannot tell that no more of the row follows before reading on); "
        "HBase does not. The pieces and their cells are the same; basalt's thrift:// client "
        "counts rows by key, so it is exact on both (docs/hbase.md).",
        hbase=lambda pieces: all(not p["partial"] for p in pieces),
        basalt=lambda pieces: any(p["partial"] for p in pieces)),
})


@pytest.fixture(scope="module")
def t2(hbase_ports, basalt_ports, rest):
    """The Thrift pair (`rest` drops what the run made, at the end)."""
    pair = Pair(H.THBaseService, hbase_ports.thrift2, basalt_ports.thrift2)
    yield pair
    pair.close()


def normalise(value):
    value = normalise_times(value)
    if isinstance(value, dict) and {"hostName", "port", "startCode"} <= set(value):
        value = dict(value, hostName="<host>", port="<port>", startCode="<start>")
    if isinstance(value, dict) and {"regionId", "tableName", "startKey"} <= set(value):
        value = dict(value, regionId="<id>")
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def same(pair):
    hbase, basalt = pair
    assert hbase.error == basalt.error, pair
    if hbase.error is None:
        assert normalise(hbase.value) == normalise(basalt.value), pair
        return
    if hbase.message != basalt.message:
        DIFFERENCES.check("exception-messages", hbase, basalt)
    if hbase.fields.get("canRetry") != basalt.fields.get("canRetry"):
        DIFFERENCES.check("can-retry", hbase, basalt)


def raises(pair, error):
    assert pair[0].error == error, pair
    same(pair)


@pytest.fixture(scope="module")
def t(tables):
    return tables["read"].encode()


@pytest.fixture(scope="module")
def w(tables):
    return tables["write"].encode()


@pytest.fixture
def row(request, prefix):
    return f"{prefix}_t2_{re.sub(r'[^A-Za-z0-9]+', '_', request.node.name)}".encode()


def tname(name, ns=None):
    return H.TTableName(ns=ns, qualifier=name)


def col(family, qualifier=None, timestamp=None):
    return H.TColumn(family=family, qualifier=qualifier, timestamp=timestamp)


def cv(family, qualifier, value, timestamp=None):
    return H.TColumnValue(family=family, qualifier=qualifier, value=value, timestamp=timestamp)


# ---- reads ----

GETS = {
    "row": H.TGet(row=b"r1"),
    "versions": H.TGet(row=b"r1", maxVersions=3),
    "family": H.TGet(row=b"r1", columns=[col(b"cf")], maxVersions=5),
    "columns": H.TGet(row=b"r1", columns=[col(b"cf", b"a"), col(b"f2", b"x")]),
    "empty-qualifier": H.TGet(row=b"r1", columns=[col(b"cf", b"")]),
    "timestamp": H.TGet(row=b"r1", timestamp=20, maxVersions=3),
    "time-range": H.TGet(row=b"r1", timeRange=H.TTimeRange(11, 31), maxVersions=3),
    "column-timestamp": H.TGet(row=b"r1", columns=[col(b"cf", b"a", 10)]),
    "filter": H.TGet(row=b"r1", filterString=b"QualifierFilter(=, 'binary:a')", maxVersions=2),
    "store-limit": H.TGet(row=b"r1", storeLimit=1, storeOffset=1),
    "missing-row": H.TGet(row=b"nothing"),
    "missing-column": H.TGet(row=b"r1", columns=[col(b"cf", b"zz")]),
    "binary-row": H.TGet(row=b"bin\x00\xff"),
}


@pytest.mark.parametrize("name", sorted(GETS))
def test_get(t2, t, name):
    tget = GETS[name]
    same(t2.call("get", t, tget))
    same(t2.call("exists", t, tget))
    same(t2.call("getMultiple", t, [tget, H.TGet(row=b"r2"), tget]))
    same(t2.call("existsAll", t, [tget, H.TGet(row=b"nothing")]))


def test_get_errors(t2, t):
    raises(t2.call("get", t, H.TGet(row=b"r1", columns=[col(b"nofam")])), "TIOError")
    raises(t2.call("get", b"no_such_table_gw", H.TGet(row=b"r1")), "TIOError")
    raises(t2.call("get", t, H.TGet(row=b"r1", maxVersions=0)), "TIOError")
    raises(t2.call("getMultiple", t, [H.TGet(row=b"r1", columns=[col(b"nofam")])]), "TIOError")
    DIFFERENCES.check("existence-only", *t2.call("get", t, H.TGet(row=b"r1",
                                                                   existence_only=True)))
    DIFFERENCES.check("bad-arguments", *t2.call("get", t, H.TGet(row=b"r1",
                                                                  filterString=b"Bogus(")))
    DIFFERENCES.check("app-namespace-refused", *t2.call("get", b"app:social_users",
                                                        H.TGet(row=b"r")))


# ---- writes ----

def read_back(t2, table, *rows):
    same(t2.call("getMultiple", table, [H.TGet(row=r, maxVersions=5) for r in rows]))


def test_put_and_delete(t2, w, row):
    same(t2.call("put", w, H.TPut(row=row, columnValues=[cv(b"cf", b"a", b"v1", 10),
                                                         cv(b"cf", b"a", b"v2", 20),
                                                         cv(b"cf", b"b", b"v3", 10),
                                                         cv(b"cf", b"", b"e", 10),
                                                         cv(b"f2", b"x", b"v4", 30)])))
    same(t2.call("put", w, H.TPut(row=row, timestamp=40, columnValues=[cv(b"cf", b"c", b"v5")],
                                  durability=H.TDurability.SKIP_WAL)))
    same(t2.call("put", w, H.TPut(row=row, columnValues=[cv(b"cf", b"now", b"at now")])))
    read_back(t2, w, row)
    for tdelete in (H.TDelete(row=row, columns=[col(b"cf", b"a")],
                              deleteType=H.TDeleteType.DELETE_COLUMN),
                    H.TDelete(row=row, columns=[col(b"cf", b"b", 10)],
                              deleteType=H.TDeleteType.DELETE_COLUMN),
                    H.TDelete(row=row, columns=[col(b"f2")],
                              deleteType=H.TDeleteType.DELETE_FAMILY)):
        same(t2.call("deleteSingle", w, tdelete))
        read_back(t2, w, row)
    same(t2.call("deleteMultiple", w, [H.TDelete(row=row, timestamp=15),
                                       H.TDelete(row=row + b"_x")]))
    read_back(t2, w, row)
    # After the 15 of that delete: HBase's delete markers mask later puts of older versions,
    # basalt's do not (docs/data-model.md).
    same(t2.call("putMultiple", w, [H.TPut(row=row, columnValues=[cv(b"cf", b"m", b"1", 50)]),
                                    H.TPut(row=row + b"_2",
                                           columnValues=[cv(b"f2", b"y", b"2", 6)])]))
    read_back(t2, w, row, row + b"_2")
    same(t2.call("deleteSingle", w, H.TDelete(row=row + b"_2", columns=[col(b"f2", b"y", 6)],
                                              deleteType=H.TDeleteType.DELETE_FAMILY_VERSION)))
    read_back(t2, w, row, row + b"_2")


def test_write_errors(t2, w, row):
    put = H.TPut(row=row, columnValues=[cv(b"nofam", b"a", b"v", 1)])
    raises(t2.call("put", w, put), "TIOError")
    raises(t2.call("putMultiple", w, [put]), "TIOError")
    raises(t2.call("put", b"no_such_table_gw", H.TPut(row=row, columnValues=[
        cv(b"cf", b"a", b"v", 1)])), "TIOError")
    raises(t2.call("deleteSingle", w, H.TDelete(row=row, columns=[col(b"nofam")])), "TIOError")
    raises(t2.call("deleteMultiple", w, [H.TDelete(row=row, columns=[col(b"nofam")])]),
           "TIOError")
    DIFFERENCES.check("bad-arguments", *t2.call("put", w, H.TPut(row=row, columnValues=[])))
    read_back(t2, w, row)


def test_increment_and_append(t2, w, row):
    same(t2.call("increment", w, H.TIncrement(row=row, columns=[
        H.TColumnIncrement(family=b"cf", qualifier=b"n", amount=5),
        H.TColumnIncrement(family=b"cf", qualifier=b"m")])))
    same(t2.call("increment", w, H.TIncrement(row=row, columns=[
        H.TColumnIncrement(family=b"cf", qualifier=b"n", amount=-7)], returnResults=False)))
    same(t2.call("append", w, H.TAppend(row=row, columns=[cv(b"cf", b"s", b"ab"),
                                                          cv(b"f2", b"s", b"x")])))
    same(t2.call("append", w, H.TAppend(row=row, columns=[cv(b"cf", b"s", b"cd")],
                                        returnResults=False)))
    read_back(t2, w, row)
    raises(t2.call("increment", w, H.TIncrement(row=row, columns=[
        H.TColumnIncrement(family=b"cf", qualifier=b"s")])), "TIOError")  # not 8 bytes
    raises(t2.call("increment", w, H.TIncrement(row=row, columns=[
        H.TColumnIncrement(family=b"nofam", qualifier=b"n")])), "TIOError")


def test_check_and_mutate(t2, w, row):
    put = H.TPut(row=row, columnValues=[cv(b"cf", b"a", b"first", 10)])
    same(t2.call("checkAndPut", w, row, b"cf", b"a", b"", put))          # absent: applied
    same(t2.call("checkAndPut", w, row, b"cf", b"a", b"", put))          # present now
    same(t2.call("checkAndPut", w, row, b"cf", b"a", b"first",
                 H.TPut(row=row, columnValues=[cv(b"cf", b"b", b"second", 10)])))
    read_back(t2, w, row)
    same(t2.call("checkAndDelete", w, row, b"cf", b"a", b"nope",
                 H.TDelete(row=row, columns=[col(b"cf", b"b")])))
    same(t2.call("checkAndDelete", w, row, b"cf", b"a", b"first",
                 H.TDelete(row=row, columns=[col(b"cf", b"b")])))
    read_back(t2, w, row)
    mutations = H.TRowMutations(row=row, mutations=[
        H.TMutation(put=H.TPut(row=row, columnValues=[cv(b"cf", b"c", b"third", 20)])),
        H.TMutation(deleteSingle=H.TDelete(row=row, columns=[col(b"cf", b"a")]))])
    for op, value in ((H.TCompareOperator.EQUAL, b"first"), (H.TCompareOperator.LESS, b"a"),
                      (H.TCompareOperator.GREATER, b"a"), (H.TCompareOperator.NOT_EQUAL, b"x")):
        same(t2.call("checkAndMutate", w, row, b"cf", b"a", op, value, mutations))
        read_back(t2, w, row)
    same(t2.call("mutateRow", w, H.TRowMutations(row=row, mutations=[
        H.TMutation(put=H.TPut(row=row, columnValues=[cv(b"f2", b"z", b"z", 5)])),
        H.TMutation(deleteSingle=H.TDelete(row=row, columns=[col(b"cf")],
                                           deleteType=H.TDeleteType.DELETE_FAMILY))])))
    read_back(t2, w, row)
    raises(t2.call("checkAndPut", w, row, b"cf", b"a", b"",
                   H.TPut(row=row + b"_other", columnValues=[cv(b"cf", b"a", b"v", 1)])),
           "TIOError")
    raises(t2.call("checkAndPut", w, row, b"nofam", b"a", b"", put), "TIOError")


# ---- scanners ----

SCANS = {
    "all": H.TScan(),
    "bounds": H.TScan(startRow=b"r1", stopRow=b"s"),
    "columns": H.TScan(columns=[col(b"cf", b"a"), col(b"f2")]),
    "versions": H.TScan(maxVersions=3, startRow=b"r"),
    "time-range": H.TScan(timeRange=H.TTimeRange(11, 31), maxVersions=5),
    "filter": H.TScan(filterString=b"PrefixFilter('r') AND KeyOnlyFilter()"),
    "batch": H.TScan(batchSize=2, maxVersions=3),
    "caching": H.TScan(caching=1),
    "reversed": H.TScan(reversed=True, startRow=b"s", stopRow=b"r1"),
    "limit": H.TScan(limit=2),
    "empty": H.TScan(startRow=b"x", stopRow=b"y"),
}


@pytest.mark.parametrize("rows_per_call", [1, 3, 100])
@pytest.mark.parametrize("name", sorted(SCANS))
def test_scanner(t2, t, name, rows_per_call):
    hbase, basalt = t2.call("openScanner", t, SCANS[name])
    assert hbase.error is None and basalt.error is None, (hbase, basalt)
    for _ in range(60):
        pair = (t2.hbase("getScannerRows", hbase.value, rows_per_call),
                t2.basalt("getScannerRows", basalt.value, rows_per_call))
        same_pieces(pair)
        if not pair[0].value:
            break
    else:
        raise AssertionError("no end of the scan")
    same((t2.hbase("closeScanner", hbase.value), t2.basalt("closeScanner", basalt.value)))
    raises((t2.hbase("getScannerRows", hbase.value, 1),
            t2.basalt("getScannerRows", basalt.value, 1)), "TIllegalArgument")
    same((t2.hbase("closeScanner", hbase.value), t2.basalt("closeScanner", basalt.value)))
    same_pieces(t2.call("getScannerResults", t, SCANS[name], rows_per_call))


def same_pieces(pair):
    """Scanner results, equal but for where basalt marks a row's last piece partial."""
    hbase, basalt = pair
    if hbase.error is None and basalt.error is None and hbase.value != basalt.value:
        unmark = lambda rows: [dict(r, partial=None) for r in rows]
        assert normalise(unmark(hbase.value)) == normalise(unmark(basalt.value)), pair
        h_differ = [h for h, b in zip(hbase.value, basalt.value) if h["partial"] != b["partial"]]
        b_differ = [b for h, b in zip(hbase.value, basalt.value) if h["partial"] != b["partial"]]
        DIFFERENCES.check("batch-partial", h_differ, b_differ)
        return
    same(pair)


def test_scanner_errors(t2, t):
    raises(t2.call("getScannerRows", 123456789, 1), "TIllegalArgument")
    same(t2.call("closeScanner", 123456789))  # quietly, as HBase's Thrift2
    DIFFERENCES.check("scanner-checked-when-opened",
                      *t2.call("openScanner", t, H.TScan(columns=[col(b"nofam")])))
    DIFFERENCES.check("scanner-checked-when-opened",
                      *t2.call("openScanner", b"no_such_table_gw", H.TScan()))
    DIFFERENCES.check("bad-arguments", *t2.call("getScannerResults", t,
                                                H.TScan(filterString=b"Bogus("), 10))


# ---- tables and namespaces ----

def same_descriptor(pair):
    """Both descriptors equal but for the family fields basalt leaves unset (DIFFERENCES)."""
    hbase, basalt = pair
    assert hbase.error is None and basalt.error is None, pair
    h, b = dict(hbase.value), dict(basalt.value)
    h_columns, b_columns = h.pop("columns"), b.pop("columns")
    assert h["tableName"] == b["tableName"], pair
    assert [c["name"] for c in h_columns] == [c["name"] for c in b_columns], pair
    h_extra, b_extra = set(), set()
    for hc, bc in zip(h_columns, b_columns):
        for field in hc:
            if hc[field] is not None and bc[field] is None:
                h_extra.add(field)
            elif hc[field] is None and bc[field] is not None:
                b_extra.add(field)
            elif hc[field] is not None:
                assert hc[field] == bc[field], (hc["name"], field, pair)
    DIFFERENCES.check("family-descriptor", h_extra, b_extra)


def test_table_descriptors(t2, t, tables, prefix):
    same(t2.call("tableExists", tname(t)))
    same(t2.call("tableExists", tname(b"no_such_table_gw")))
    same_descriptor(t2.call("getTableDescriptor", tname(t)))
    same_descriptor(t2.call("getTableDescriptor", tname(t, b"default")))
    hbase, basalt = t2.call("getTableDescriptors", [tname(t)])
    same_descriptor((type(hbase)(value=hbase.value[0]), type(basalt)(value=basalt.value[0])))
    raises(t2.call("getTableDescriptor", tname(b"no_such_table_gw")), "TIOError")
    pattern = f"{prefix}_.*"
    same(t2.call("getTableNamesByPattern", pattern, False))
    same(t2.call("getTableNamesByPattern", pattern, True))
    hbase, basalt = t2.call("getTableDescriptorsByPattern", pattern, False)
    assert len(hbase.value) == len(basalt.value) == len(tables)
    for h, b in zip(hbase.value, basalt.value):
        same_descriptor((type(hbase)(value=h), type(basalt)(value=b)))
    DIFFERENCES.check("bad-arguments", *t2.call("getTableNamesByPattern", "(", False))
    for method in ("isTableEnabled", "isTableDisabled", "isTableAvailable"):
        same(t2.call(method, tname(t)))
    same(t2.call("isTableAvailable", tname(b"no_such_table_gw")))
    same(t2.call("isTableAvailableWithSplit", tname(t), []))
    same(t2.call("getRegionLocation", t, b"r1", False))
    same(t2.call("getAllRegionLocations", t))
    same(t2.call("getThriftServerType"))
    hbase, basalt = t2.call("getClusterId")
    assert hbase.value and basalt.value, (hbase, basalt)


def test_table_lifecycle(t2, prefix):
    name = f"{prefix}_t2life".encode()
    desc = H.TTableDescriptor(tableName=tname(name), columns=[
        H.TColumnFamilyDescriptor(name=b"a", maxVersions=2, timeToLive=86400,
                                  bloomnFilterType=H.TBloomFilterType.ROW),
        H.TColumnFamilyDescriptor(name=b"b")])
    same(t2.call("createTable", desc, [b"m"]))
    raises(t2.call("createTable", desc, []), "TIOError")
    same_descriptor(t2.call("getTableDescriptor", tname(name)))
    same(t2.call("getAllRegionLocations", name))
    same(t2.call("getRegionLocation", name, b"z", False))
    same(t2.call("put", name, H.TPut(row=b"r", columnValues=[cv(b"a", b"q", b"v", 1)])))
    same(t2.call("addColumnFamily", tname(name), H.TColumnFamilyDescriptor(name=b"c",
                                                                         maxVersions=4)))
    same(t2.call("modifyColumnFamily", tname(name), H.TColumnFamilyDescriptor(name=b"b",
                                                                            maxVersions=7)))
    same(t2.call("deleteColumnFamily", tname(name), b"a"))
    same_descriptor(t2.call("getTableDescriptor", tname(name)))
    # modifyTable: the families it lists, changed or added; the others dropped.
    same(t2.call("modifyTable", H.TTableDescriptor(tableName=tname(name), columns=[
        H.TColumnFamilyDescriptor(name=b"b", maxVersions=3),
        H.TColumnFamilyDescriptor(name=b"d", timeToLive=60)])))
    same_descriptor(t2.call("getTableDescriptor", tname(name)))
    raises(t2.call("modifyColumnFamily", tname(name), H.TColumnFamilyDescriptor(name=b"zz")),
           "TIOError")
    same(t2.call("disableTable", tname(name)))
    same(t2.call("isTableEnabled", tname(name)))
    same(t2.call("isTableDisabled", tname(name)))
    raises(t2.call("get", name, H.TGet(row=b"r")), "TIOError")  # disabled
    same(t2.call("enableTable", tname(name)))
    same(t2.call("get", name, H.TGet(row=b"r")))
    same(t2.call("disableTable", tname(name)))
    same(t2.call("truncateTable", tname(name), True))
    same(t2.call("isTableEnabled", tname(name)))
    same(t2.call("getAllRegionLocations", name))
    same(t2.call("getScannerResults", name, H.TScan(), 10))
    same(t2.call("disableTable", tname(name)))
    same(t2.call("deleteTable", tname(name)))
    same(t2.call("tableExists", tname(name)))
    for method in ("deleteTable", "disableTable", "enableTable", "truncateTable"):
        args = (tname(name), True) if method == "truncateTable" else (tname(name),)
        raises(t2.call(method, *args), "TIOError")


def test_namespaces(t2, prefix):
    name = f"{prefix}t2ns"
    hbase, basalt = t2.call("listNamespaces")
    DIFFERENCES.check("namespace-configuration", hbase.value, basalt.value)
    same(t2.call("getNamespaceDescriptor", "default"))
    same(t2.call("createNamespace", H.TNamespaceDescriptor(name=name,
                                                           configuration={"owner": "gw"})))
    raises(t2.call("createNamespace", H.TNamespaceDescriptor(name=name)), "TIOError")
    same(t2.call("getNamespaceDescriptor", name))
    hbase, basalt = t2.call("listNamespaceDescriptors")
    pick = lambda o: [d for d in o.value if d["name"] in ("default", "hbase", name)]
    assert normalise(pick(hbase)) == normalise(pick(basalt)), (hbase, basalt)
    same(t2.call("createTable", H.TTableDescriptor(tableName=tname(b"t", name.encode()),
                                                   columns=[H.TColumnFamilyDescriptor(
                                                       name=b"cf")]), []))
    same(t2.call("getTableNamesByNamespace", name))
    hbase, basalt = t2.call("getTableDescriptorsByNamespace", name)
    same_descriptor((type(hbase)(value=hbase.value[0]), type(basalt)(value=basalt.value[0])))
    raises(t2.call("deleteNamespace", name), "TIOError")  # it holds a table
    same(t2.call("disableTable", tname(b"t", name.encode())))
    same(t2.call("deleteTable", tname(b"t", name.encode())))
    same(t2.call("deleteNamespace", name))
    for method in ("deleteNamespace", "getNamespaceDescriptor", "getTableNamesByNamespace",
                   "getTableDescriptorsByNamespace"):
        raises(t2.call(method, name), "TIOError")


def test_every_expected_difference_was_met():
    assert DIFFERENCES.unmet() == []
