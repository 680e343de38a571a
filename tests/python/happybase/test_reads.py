"""Table.put, row, rows and cells: columns, versions, timestamps and include_timestamp."""

import pytest


@pytest.fixture
def table(make_table):
    return make_table({"cf1": dict(max_versions=5), "cf2": dict(max_versions=5)})


def test_put_then_row_returns_every_column(table):
    table.put(b"r1", {b"cf1:a": b"1", b"cf1:b": b"2", b"cf2:c": b"3"})
    assert table.row(b"r1") == {b"cf1:a": b"1", b"cf1:b": b"2", b"cf2:c": b"3"}


def test_row_of_a_missing_row_is_empty(table):
    assert table.row(b"missing") == {}
    assert table.row(b"missing", columns=[b"cf1"]) == {}
    assert table.row(b"missing", timestamp=100) == {}


def test_row_columns_name_families_and_qualifiers(table):
    table.put(b"r1", {b"cf1:a": b"1", b"cf1:b": b"2", b"cf1:": b"empty", b"cf2:c": b"3"})
    assert table.row(b"r1", columns=[b"cf1"]) == {b"cf1:a": b"1", b"cf1:b": b"2",
                                                  b"cf1:": b"empty"}
    assert table.row(b"r1", columns=[b"cf1:a", b"cf2"]) == {b"cf1:a": b"1", b"cf2:c": b"3"}
    assert table.row(b"r1", columns=(b"cf1:b",)) == {b"cf1:b": b"2"}
    # HBase 2's CellUtil.parseColumn: "cf1:" is the empty qualifier, not the family.
    assert table.row(b"r1", columns=[b"cf1:"]) == {b"cf1:": b"empty"}
    assert table.row(b"r1", columns=[b"cf1:nothing"]) == {}
    # An empty list names no column: HBase's Get then reads the whole row.
    assert len(table.row(b"r1", columns=[])) == 4


def test_include_timestamp_returns_value_and_timestamp_pairs(table):
    table.put(b"r1", {b"cf1:a": b"1", b"cf2:c": b"3"}, timestamp=1000)
    assert table.row(b"r1", include_timestamp=True) == {b"cf1:a": (b"1", 1000),
                                                       b"cf2:c": (b"3", 1000)}


def test_put_without_timestamp_takes_the_servers_clock(table):
    table.put(b"r1", {b"cf1:a": b"1"})
    _, ts = table.row(b"r1", include_timestamp=True)[b"cf1:a"]
    assert ts > 1_500_000_000_000  # milliseconds since the epoch, not a count


def versioned(table):
    for ts in (10, 20, 30, 40):
        table.put(b"v", {b"cf1:a": b"a%d" % ts}, timestamp=ts)
    table.put(b"v", {b"cf1:b": b"b25"}, timestamp=25)


def test_cells_returns_versions_newest_first(table):
    versioned(table)
    assert table.cells(b"v", b"cf1:a") == [b"a40", b"a30", b"a20", b"a10"]
    assert table.cells(b"v", b"cf1:a", versions=2) == [b"a40", b"a30"]
    assert table.cells(b"v", b"cf1:a", versions=2, include_timestamp=True) == [(b"a40", 40),
                                                                               (b"a30", 30)]
    assert table.cells(b"v", b"cf1:a", versions=1) == [b"a40"]
    assert table.cells(b"v", b"cf1:missing") == []
    assert table.cells(b"missing", b"cf1:a") == []


def test_cells_with_timestamp_returns_versions_strictly_older(table):
    versioned(table)
    # HBase's getVerTs: setTimeRange(0, timestamp), the upper bound exclusive.
    assert table.cells(b"v", b"cf1:a", timestamp=30) == [b"a20", b"a10"]
    assert table.cells(b"v", b"cf1:a", timestamp=31, versions=1,
                       include_timestamp=True) == [(b"a30", 30)]
    assert table.cells(b"v", b"cf1:a", timestamp=10) == []


def test_cells_keeps_at_most_max_versions(table):
    for ts in range(1, 8):
        table.put(b"v", {b"cf1:a": b"%d" % ts}, timestamp=ts)
    assert table.cells(b"v", b"cf1:a") == [b"7", b"6", b"5", b"4", b"3"]


def test_row_returns_the_newest_version_and_timestamp_goes_back(table):
    versioned(table)
    assert table.row(b"v") == {b"cf1:a": b"a40", b"cf1:b": b"b25"}
    assert table.row(b"v", timestamp=40, include_timestamp=True) == {b"cf1:a": (b"a30", 30),
                                                                    b"cf1:b": (b"b25", 25)}
    assert table.row(b"v", timestamp=25) == {b"cf1:a": b"a20"}
    assert table.row(b"v", columns=[b"cf1:b"], timestamp=26) == {b"cf1:b": b"b25"}
    assert table.row(b"v", timestamp=10) == {}


def test_rows_leaves_out_missing_rows_and_keeps_the_order_asked(table):
    table.put(b"r1", {b"cf1:a": b"1"})
    table.put(b"r2", {b"cf1:a": b"2", b"cf2:c": b"x"})
    assert table.rows([b"r2", b"missing", b"r1"]) == [(b"r2", {b"cf1:a": b"2", b"cf2:c": b"x"}),
                                                     (b"r1", {b"cf1:a": b"1"})]
    assert table.rows([b"missing"]) == []
    # HBase's getRows answers one result per Get: a row asked twice comes twice.
    assert table.rows([b"r1", b"r1"]) == [(b"r1", {b"cf1:a": b"1"})] * 2


def test_rows_with_columns_and_include_timestamp(table):
    table.put(b"r1", {b"cf1:a": b"1", b"cf2:c": b"3"}, timestamp=5)
    table.put(b"r2", {b"cf1:a": b"2"}, timestamp=6)
    assert table.rows([b"r1", b"r2"], columns=[b"cf2"]) == [(b"r1", {b"cf2:c": b"3"})]
    assert table.rows([b"r1", b"r2"], columns=[b"cf1:a"], include_timestamp=True) == [
        (b"r1", {b"cf1:a": (b"1", 5)}), (b"r2", {b"cf1:a": (b"2", 6)})]


def test_rows_with_timestamp_reads_every_family_before_it(table):
    table.put(b"r1", {b"cf1:a": b"old", b"cf2:c": b"c"}, timestamp=100)
    table.put(b"r1", {b"cf1:a": b"new"}, timestamp=300)
    table.put(b"r2", {b"cf1:a": b"later"}, timestamp=400)
    # Without columns happybase sends every family's name, read as the whole family.
    assert table.rows([b"r1", b"r2"], timestamp=200) == [(b"r1", {b"cf1:a": b"old",
                                                                  b"cf2:c": b"c"})]
    assert table.rows([b"r1"], columns=[b"cf1"], timestamp=200) == [(b"r1", {b"cf1:a": b"old"})]
    assert table.rows([b"r1", b"r2"], timestamp=301) == [(b"r1", {b"cf1:a": b"new",
                                                                  b"cf2:c": b"c"})]


def test_put_with_wal_false_is_readable(table):
    table.put(b"r1", {b"cf1:a": b"1"}, wal=False)
    assert table.row(b"r1") == {b"cf1:a": b"1"}

