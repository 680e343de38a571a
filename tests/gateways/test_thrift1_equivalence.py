"""Thrift1 (service Hbase, happybase's): every method basalt's server implements, called with the
same arguments on HBase's Thrift1 gateway and on basalt's, the outcomes compared: the value
returned, field by field, or the exception raised (its class and fields).

Normalised: timestamps from a server's clock, region ids and names, server names and ports, and
the cluster id. An exception's message is each server's own (DIFFERENCES["exception-messages"]);
its class and its other fields must be equal.
"""

import re

import pytest

from conftest import Difference, Differences, normalise_times
from thrift_compare import HBASE1 as H, Pair

REGION_NAME = re.compile(rb"^([^,]*),")


def basalt_status(text):
    """basalt's message: Status::ToString(), "Class: what was wrong"."""
    return bool(re.match(r"(NotFound|InvalidArgument|AlreadyExists|FailedPrecondition|"
                         r"NotSupported|IOError|Busy|Aborted|Corruption|Internal|"
                         r"PermissionDenied): \S", text))


DIFFERENCES = Differences({
    "exception-messages": Difference(
        "An exception's message is Status::ToString() in basalt (\"NotFound: table 't' does not "
        "exist\"), which basalt's own clients read the error class from; HBase's is the Java "
        "exception's text with its stack trace (or its own words: \"t is disabled.\"). The "
        "exception class is the same.",
        hbase=lambda o: bool(o.message) and not basalt_status(o.message),
        basalt=lambda o: basalt_status(o.message)),
    "can-retry": Difference(
        "IOError.canRetry: basalt sets it true only for a busy or failing store; HBase sets it "
        "for every failure that is not a DoNotRetryIOException, which includes some that no "
        "retry mends (versions below 1, a table that does not exist on deleteTable). Where HBase "
        "says false, so does basalt.",
        hbase=lambda o: o.fields.get("canRetry") is True,
        basalt=lambda o: o.fields.get("canRetry") is False),
    "bad-arguments": Difference(
        "A malformed argument HBase's handler does not check (a bad table name on createTable, "
        "a put of a family alone in mutateRows, a family alone as checkAndPut's column, a "
        "negative timestamp on a read): basalt answers IllegalArgument naming the mistake (IOError "
        "InvalidArgument where the method declares no IllegalArgument); HBase's conversion throws "
        "and the client gets TApplicationException 'Internal error processing ...'.",
        hbase=lambda o: o.error == "TApplicationException" and "Internal error" in o.message,
        basalt=lambda o: o.error in ("IllegalArgument", "IOError") and
        o.message.startswith("InvalidArgument: ")),
    "scanner-missing-table": Difference(
        "A scanner on a table that does not exist: basalt answers IOError NotFound when it is "
        "opened; HBase hands out an id (and fails when it is read).",
        hbase=lambda o: o.error is None and isinstance(o.value, int),
        basalt=lambda o: o.error == "IOError" and o.message.startswith("NotFound: ")),
    "grant-revoke": Difference(
        "grant and revoke: HBase 2.6.1's Thrift1 service has no such methods (its IDL gained "
        "them later), so the client gets TApplicationException UNKNOWN_METHOD; basalt's IDL has "
        "them and answers IOError NotSupported (basalt has no users or permissions).",
        hbase=lambda o: o.error == "TApplicationException" and "Invalid method name" in o.message,
        basalt=lambda o: o.error == "IOError" and o.message.startswith("NotSupported: ")),
    "region-info-lookup": Difference(
        "getRegionInfo of a row that is no region name (\"table,row,\"): HBase looks it up in "
        "hbase:meta as the row at or before it, and answers whichever region that is (another "
        "table's); basalt answers IOError NotFound.",
        hbase=lambda o: o.error is None, basalt=lambda o: o.error == "IOError"),
    "app-namespace-refused": Difference(
        "basalt's `app` namespace (the recipes' tables behind /api/v1) is refused to Thrift "
        "(IOError PermissionDenied, docs/security.md) and its tables are listed; HBase has no "
        "such table (IOError TableNotFoundException).",
        hbase=lambda o: o.error == "IOError" and "TableNotFoundException" in o.message,
        basalt=lambda o: o.error == "IOError" and o.message.startswith("PermissionDenied: ")),
})


@pytest.fixture(scope="module")
def t1(hbase_ports, basalt_ports, rest):
    """The Thrift pair (`rest` drops what the run made, at the end)."""
    pair = Pair(H.Hbase, hbase_ports.thrift1, basalt_ports.thrift1)
    yield pair
    pair.close()


def normalise(value):
    """A server's own figures out of a value: clock timestamps, and in region infos the id, the
    name past the table and the server's name and port."""
    value = normalise_times(value)
    if isinstance(value, dict) and {"startKey", "endKey", "id", "name", "serverName"} <= set(value):
        value = dict(value, id="<id>", serverName="<server>", port="<port>",
                     name=REGION_NAME.match(value["name"]).group(1) + b",...")
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def same(pair):
    """Both returned the same, or both raised the same exception class with the same fields but
    the message (and, for IOError, canRetry: DIFFERENCES)."""
    hbase, basalt = pair
    assert hbase.error == basalt.error, pair
    if hbase.error is None:
        assert normalise(hbase.value) == normalise(basalt.value), pair
        return
    if hbase.message != basalt.message:
        DIFFERENCES.check("exception-messages", hbase, basalt)
    if hbase.fields.get("canRetry") != basalt.fields.get("canRetry"):
        DIFFERENCES.check("can-retry", hbase, basalt)
    drop = {"message", "canRetry"}
    assert {k: v for k, v in hbase.fields.items() if k not in drop} == \
        {k: v for k, v in basalt.fields.items() if k not in drop}, pair


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
    return f"{prefix}_t1_{re.sub(r'[^A-Za-z0-9]+', '_', request.node.name)}".encode()


# ---- tables ----

def test_table_listing_and_descriptors(t1, tables, prefix, t):
    def mine(names):
        if isinstance(names, dict):
            return {k: v for k, v in names.items() if k.startswith(prefix.encode())}
        return [n for n in names if n.startswith(prefix.encode())]
    for method in ("getTableNames", "getTableNamesWithIsTableEnabled"):
        hbase, basalt = t1.call(method)
        assert mine(hbase.value) == mine(basalt.value), (hbase, basalt)
        assert {n.encode() for n in tables.values()} <= set(mine(basalt.value))
    same(t1.call("getColumnDescriptors", t))
    same(t1.call("getTableRegions", t))
    same(t1.call("isTableEnabled", t))
    same(t1.call("getTableRegions", b"no_such_table_gw"))  # no regions, not an error
    for method in ("getColumnDescriptors", "isTableEnabled", "enableTable", "disableTable",
                   "deleteTable"):
        raises(t1.call(method, b"no_such_table_gw"), "IOError")
    DIFFERENCES.check("app-namespace-refused",
                      *t1.call("getRow", b"app:social_users", b"r", {}))


def test_table_lifecycle(t1, prefix):
    name = f"{prefix}_t1life".encode()
    families = [H.ColumnDescriptor(name=b"a:", maxVersions=2, timeToLive=86400,
                                   bloomFilterType="ROW", compression="NONE", inMemory=True,
                                   blockCacheEnabled=True),
                H.ColumnDescriptor(name=b"b")]
    same(t1.call("createTable", name, families))
    same(t1.call("getColumnDescriptors", name))
    raises(t1.call("createTable", name, families), "AlreadyExists")
    same(t1.call("mutateRow", name, b"r", [H.Mutation(column=b"a:q", value=b"v")], {}))
    same(t1.call("compact", name))
    same(t1.call("majorCompact", name))
    same(t1.call("disableTable", name))
    same(t1.call("isTableEnabled", name))
    same(t1.call("enableTable", name))
    same(t1.call("disableTable", name))
    same(t1.call("deleteTable", name))
    raises(t1.call("deleteTable", name), "IOError")
    DIFFERENCES.check("bad-arguments", *t1.call("createTable", b"bad name!", families))


# ---- reads ----

COLUMNS = [b"cf:a", b"cf", b"cf:", b"f2:x", b"cf:zz"]


@pytest.mark.parametrize("column", COLUMNS)
def test_get_cells(t1, t, column):
    same(t1.call("get", t, b"r1", column, {}))
    for versions in (1, 2, 5):
        same(t1.call("getVer", t, b"r1", column, versions, {}))
    for ts in (0, 10, 11, 20, 21, 100):
        same(t1.call("getVerTs", t, b"r1", column, ts, 3, {}))
    same(t1.call("get", t, b"nothing", column, {}))


def test_get_cell_errors(t1, t):
    raises(t1.call("get", t, b"r1", b"nofam:a", {}), "IOError")
    raises(t1.call("getVer", t, b"r1", b"cf:a", 0, {}), "IOError")
    DIFFERENCES.check("bad-arguments", *t1.call("getVerTs", t, b"r1", b"cf:a", -1, 1, {}))
    raises(t1.call("get", b"no_such_table_gw", b"r1", b"cf:a", {}), "IOError")


@pytest.mark.parametrize("rows", [[b"r1"], [b"r2", b"r1", b"nothing", b"r2"], [b"nothing"],
                                  [], [b"bin\x00\xff"]])
@pytest.mark.parametrize("columns", [None, [b"cf"], [b"cf:a", b"f2"], [b"cf:"], [b"cf:zz"]])
def test_get_rows(t1, t, rows, columns):
    for ts in (None, 11, 31):
        if len(rows) == 1:
            if columns is None:
                args = ("getRow", t, rows[0]) if ts is None else ("getRowTs", t, rows[0], ts)
            else:
                args = (("getRowWithColumns", t, rows[0], columns) if ts is None else
                        ("getRowWithColumnsTs", t, rows[0], columns, ts))
            same(t1.call(*args, {}))
        if columns is None:
            args = ("getRows", t, rows) if ts is None else ("getRowsTs", t, rows, ts)
        else:
            args = (("getRowsWithColumns", t, rows, columns) if ts is None else
                    ("getRowsWithColumnsTs", t, rows, columns, ts))
        same(t1.call(*args, {}))


def test_get_row_errors(t1, t):
    raises(t1.call("getRowWithColumns", t, b"r1", [b"nofam:a"], {}), "IOError")
    raises(t1.call("getRow", b"no_such_table_gw", b"r1", {}), "IOError")
    DIFFERENCES.check("bad-arguments", *t1.call("getRowsTs", t, [b"r1"], -1, {}))


# ---- writes ----

def read_back(t1, table, *rows):
    same(t1.call("getRowsWithColumnsTs", table, list(rows), [b"cf", b"f2"], 2**62, {}))
    for r in rows:
        for column in (b"cf:a", b"cf:b", b"cf:", b"f2:x", b"cf:n"):
            same(t1.call("getVer", table, r, column, 5, {}))


def test_mutate_row(t1, w, row):
    same(t1.call("mutateRowTs", w, row, [H.Mutation(column=b"cf:a", value=b"v1"),
                                          H.Mutation(column=b"cf:b", value=b"v2"),
                                          H.Mutation(column=b"f2:x", value=b"v3")], 10, {}))
    same(t1.call("mutateRowTs", w, row, [H.Mutation(column=b"cf:a", value=b"v4")], 20, {}))
    read_back(t1, w, row)
    # Deletes first, then puts: a row's mutations in one call.
    same(t1.call("mutateRowTs", w, row, [H.Mutation(isDelete=True, column=b"cf:b"),
                                          H.Mutation(column=b"cf:", value=b"empty")], 30, {}))
    same(t1.call("mutateRow", w, row, [H.Mutation(column=b"cf:a", value=b"now",
                                                  writeToWAL=False),
                                       H.Mutation(column=b"cf", value=b"ignored")], {}))
    read_back(t1, w, row)
    raises(t1.call("mutateRow", w, row, [H.Mutation(column=b"nofam:a", value=b"v")], {}),
           "IOError")
    raises(t1.call("mutateRow", b"no_such_table_gw", row,
                   [H.Mutation(column=b"cf:a", value=b"v")], {}), "IOError")
    read_back(t1, w, row)


def test_mutate_rows(t1, w, row):
    other = row + b"_2"
    same(t1.call("mutateRowsTs", w, [
        H.BatchMutation(row=row, mutations=[H.Mutation(column=b"cf:a", value=b"a")]),
        H.BatchMutation(row=other, mutations=[H.Mutation(column=b"cf:b", value=b"b"),
                                              H.Mutation(column=b"f2:x", value=b"x")])], 5, {}))
    same(t1.call("mutateRows", w, [
        H.BatchMutation(row=other, mutations=[H.Mutation(isDelete=True, column=b"f2"),
                                              H.Mutation(column=b"cf:a", value=b"c")])], {}))
    read_back(t1, w, row, other)
    DIFFERENCES.check("bad-arguments", *t1.call("mutateRows", w, [
        H.BatchMutation(row=row, mutations=[H.Mutation(column=b"cf", value=b"x")])], {}))


def test_deletes(t1, w, row):
    def seed():
        for r in (row, row + b"_b"):
            for ts in (10, 20, 30):
                same(t1.call("mutateRowTs", w, r, [H.Mutation(column=b"cf:a", value=b"a"),
                                                    H.Mutation(column=b"cf:b", value=b"b"),
                                                    H.Mutation(column=b"f2:x", value=b"x")],
                             ts, {}))
    seed()
    same(t1.call("deleteAllTs", w, row, b"cf:a", 20, {}))
    same(t1.call("deleteAll", w, row, b"f2", {}))
    same(t1.call("deleteAllRowTs", w, row + b"_b", 10, {}))
    read_back(t1, w, row, row + b"_b")
    same(t1.call("deleteAll", w, row, b"cf:", {}))
    same(t1.call("deleteAllRow", w, row + b"_b", {}))
    read_back(t1, w, row, row + b"_b")
    raises(t1.call("deleteAll", w, row, b"nofam:a", {}), "IOError")
    raises(t1.call("deleteAllRow", b"no_such_table_gw", row, {}), "IOError")


def test_counters_and_appends(t1, w, row):
    same(t1.call("atomicIncrement", w, row, b"cf:n", 5))
    same(t1.call("atomicIncrement", w, row, b"cf:n", -2))
    same(t1.call("atomicIncrement", w, row, b"cf", 1))  # a family alone: its empty qualifier
    same(t1.call("increment", H.TIncrement(table=w, row=row, column=b"cf:n", ammount=10)))
    same(t1.call("incrementRows", [H.TIncrement(table=w, row=row, column=b"cf:n", ammount=1),
                                   H.TIncrement(table=w, row=row + b"_2", column=b"cf:n",
                                                ammount=7)]))
    same(t1.call("append", H.TAppend(table=w, row=row, columns=[b"cf:a", b"f2:x"],
                                     values=[b"x", b"y"])))
    same(t1.call("append", H.TAppend(table=w, row=row, columns=[b"cf:a"], values=[b"z"])))
    read_back(t1, w, row, row + b"_2")
    same(t1.call("mutateRowTs", w, row, [H.Mutation(column=b"cf:b", value=b"abc")], 5, {}))
    raises(t1.call("atomicIncrement", w, row, b"cf:b", 1), "IOError")  # not 8 bytes
    raises(t1.call("atomicIncrement", w, row, b"nofam:n", 1), "IOError")
    raises(t1.call("atomicIncrement", b"no_such_table_gw", row, b"cf:n", 1), "IOError")


def test_check_and_put(t1, w, row):
    put = H.Mutation(column=b"cf:a", value=b"first")
    same(t1.call("checkAndPut", w, row, b"cf:a", b"", put, {}))      # absent: applied
    same(t1.call("checkAndPut", w, row, b"cf:a", b"", put, {}))      # present now
    same(t1.call("checkAndPut", w, row, b"cf:a", b"first",
                 H.Mutation(column=b"cf:b", value=b"second"), {}))
    same(t1.call("checkAndPut", w, row, b"cf:a", b"nope",
                 H.Mutation(column=b"cf:b", value=b"third"), {}))
    read_back(t1, w, row)
    raises(t1.call("checkAndPut", w, row, b"nofam:a", b"", put, {}), "IOError")
    DIFFERENCES.check("bad-arguments", *t1.call("checkAndPut", w, row, b"cf", b"", put, {}))


# ---- scanners ----

def drain(t1, ids, rows_per_call):
    """Reads both scanners to their end, comparing every answer, then closes them."""
    for _ in range(60):
        pair = (t1.hbase("scannerGetList", ids[0], rows_per_call),
                t1.basalt("scannerGetList", ids[1], rows_per_call))
        same(pair)
        if not pair[0].value:
            break
    else:
        raise AssertionError("no end of the scan")
    same((t1.hbase("scannerGet", ids[0]), t1.basalt("scannerGet", ids[1])))
    same((t1.hbase("scannerClose", ids[0]), t1.basalt("scannerClose", ids[1])))
    raises((t1.hbase("scannerGetList", ids[0], 1), t1.basalt("scannerGetList", ids[1], 1)),
           "IllegalArgument")
    raises((t1.hbase("scannerClose", ids[0]), t1.basalt("scannerClose", ids[1])),
           "IllegalArgument")


SCANS = {
    "open": ("scannerOpen", b"r", [b"cf"]),
    "open-all-columns": ("scannerOpen", b"", []),
    "with-stop": ("scannerOpenWithStop", b"r1", b"s", [b"cf:a", b"f2"]),
    "with-prefix": ("scannerOpenWithPrefix", b"r", [b"cf"]),
    "ts": ("scannerOpenTs", b"", [b"cf"], 16),
    "with-stop-ts": ("scannerOpenWithStopTs", b"r1", b"r3", [], 21),
    "scan": ("scannerOpenWithScan", H.TScan(startRow=b"r1", stopRow=b"s2", columns=[b"cf"])),
    "scan-filter": ("scannerOpenWithScan", H.TScan(filterString=b"PrefixFilter('r')")),
    "scan-batch": ("scannerOpenWithScan", H.TScan(batchSize=2, caching=1)),
    "scan-sorted": ("scannerOpenWithScan", H.TScan(sortColumns=True, columns=[b"cf", b"f2"])),
    "scan-reversed": ("scannerOpenWithScan", H.TScan(reversed=True, startRow=b"s",
                                                     stopRow=b"r1")),
    "scan-timestamp": ("scannerOpenWithScan", H.TScan(timestamp=16)),
}


@pytest.mark.parametrize("rows_per_call", [1, 2, 100])
@pytest.mark.parametrize("name", sorted(SCANS))
def test_scanner(t1, t, name, rows_per_call):
    method, *args = SCANS[name]
    hbase, basalt = t1.call(method, t, *args, {})
    assert hbase.error is None and basalt.error is None, (hbase, basalt)
    drain(t1, (hbase.value, basalt.value), rows_per_call)


def test_scanner_errors(t1, t):
    raises(t1.call("scannerGetList", 123456789, 1), "IllegalArgument")
    raises(t1.call("scannerClose", 123456789), "IllegalArgument")
    DIFFERENCES.check("scanner-missing-table",
                      *t1.call("scannerOpen", b"no_such_table_gw", b"", [], {}))


# ---- the rest ----

def test_server_type_cluster_id_and_regions(t1, t):
    same(t1.call("getThriftServerType"))
    hbase, basalt = t1.call("getClusterId")
    assert hbase.value and basalt.value and isinstance(basalt.value, str), (hbase, basalt)
    same(t1.call("getRegionInfo", t + b",r1,"))
    DIFFERENCES.check("region-info-lookup", *t1.call("getRegionInfo", b"not a region name"))
    entity = H.TAccessControlEntity(username="u", scope=H.TPermissionScope.TABLE, actions="R",
                                    tableName=t)
    for method in ("grant", "revoke"):
        DIFFERENCES.check("grant-revoke", *t1.call(method, entity))


def test_every_expected_difference_was_met():
    assert DIFFERENCES.unmet() == []
