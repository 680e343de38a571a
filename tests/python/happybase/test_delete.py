"""Table.delete: a whole row, columns, families, and with a timestamp."""

import pytest


@pytest.fixture
def table(make_table):
    return make_table({"cf1": dict(max_versions=5), "cf2": dict(max_versions=5)})


def test_delete_of_a_row_removes_every_family(table):
    table.put(b"r", {b"cf1:a": b"1", b"cf1:b": b"2", b"cf2:c": b"3"})
    table.put(b"s", {b"cf1:a": b"kept"})
    table.delete(b"r")
    assert table.row(b"r") == {}
    assert table.row(b"s") == {b"cf1:a": b"kept"}
    assert [key for key, _ in table.scan()] == [b"s"]


def test_delete_of_columns_removes_only_those(table):
    table.put(b"r", {b"cf1:a": b"1", b"cf1:b": b"2", b"cf2:c": b"3", b"cf2:d": b"4"})
    table.delete(b"r", columns=[b"cf1:a"])
    assert table.row(b"r") == {b"cf1:b": b"2", b"cf2:c": b"3", b"cf2:d": b"4"}
    table.delete(b"r", columns=[b"cf2"])  # a family alone: the whole family
    assert table.row(b"r") == {b"cf1:b": b"2"}
    table.delete(b"r", columns=(b"cf1:b", b"cf1:never"))
    assert table.row(b"r") == {}


def test_delete_of_a_column_removes_every_version(table):
    for ts in (10, 20, 30):
        table.put(b"r", {b"cf1:a": b"v%d" % ts, b"cf1:b": b"w%d" % ts}, timestamp=ts)
    table.delete(b"r", columns=[b"cf1:a"])
    assert table.cells(b"r", b"cf1:a") == []
    assert table.cells(b"r", b"cf1:b") == [b"w30", b"w20", b"w10"]


def test_delete_with_a_timestamp_removes_the_versions_at_or_before_it(table):
    for ts in (10, 20, 30):
        table.put(b"r", {b"cf1:a": b"v%d" % ts, b"cf2:c": b"c%d" % ts}, timestamp=ts)
    table.delete(b"r", columns=[b"cf1:a"], timestamp=20)
    assert table.cells(b"r", b"cf1:a", include_timestamp=True) == [(b"v30", 30)]
    assert table.cells(b"r", b"cf2:c") == [b"c30", b"c20", b"c10"]
    # The whole row (each family named by happybase) at or before 25.
    table.delete(b"r", timestamp=25)
    assert table.row(b"r", include_timestamp=True) == {b"cf1:a": (b"v30", 30),
                                                      b"cf2:c": (b"c30", 30)}
    assert table.cells(b"r", b"cf2:c") == [b"c30"]


def test_delete_of_a_missing_row_or_column_is_no_error(table):
    table.delete(b"missing")
    table.delete(b"missing", columns=[b"cf1:a"])
    assert table.row(b"missing") == {}


def test_a_put_after_a_delete_with_an_older_timestamp(target, table):
    table.put(b"r", {b"cf1:a": b"v100"}, timestamp=100)
    table.delete(b"r", columns=[b"cf1:a"])  # a marker at the server's time, now
    table.put(b"r", {b"cf1:a": b"v50"}, timestamp=50)
    if target.is_basalt:
        # docs/data-model.md: a delete hides only what was written before it.
        assert table.row(b"r") == {b"cf1:a": b"v50"}
    else:
        # HBase: the marker masks every version at or before it, even one written after it,
        # until a major compaction removes the marker ("deletes mask puts").
        assert table.row(b"r") == {}
