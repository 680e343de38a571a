"""Table.scan: bounds, prefixes, columns, filter strings, batch_size, limit, reverse,
sorted_columns, scan_batching, timestamps."""

from collections import OrderedDict

import pytest

KEYS = [b"row-%02d" % i for i in range(20)]


@pytest.fixture(scope="module")
def module_table(target):
    """One table for the read-only scans of this file: rows row-00..row-19 (cf1:a = the number,
    cf1:b = its parity, cf2:c = "c"), and rows "other-1" and "zzz" around them."""
    conn = target.connect()
    name = "scans"
    conn.create_table(name, {"cf1": {}, "cf2": {}})
    table = conn.table(name)
    with table.batch() as b:
        for i, key in enumerate(KEYS):
            b.put(key, {b"cf1:a": b"%d" % i, b"cf1:b": b"even" if i % 2 == 0 else b"odd",
                        b"cf2:c": b"c"})
        b.put(b"other-1", {b"cf1:a": b"o", b"cf1:b": b"odd", b"cf2:c": b"c"})
        b.put(b"zzz", {b"cf1:a": b"z", b"cf1:b": b"odd", b"cf2:c": b"c"})
    yield table
    conn.delete_table(name, disable=True)
    conn.close()


def keys(scan):
    return [key for key, _ in scan]


ALL = [b"other-1"] + KEYS + [b"zzz"]


def test_a_full_scan_returns_every_row_in_order(module_table):
    rows = list(module_table.scan())
    assert keys(rows) == ALL
    assert rows[1] == (b"row-00", {b"cf1:a": b"0", b"cf1:b": b"even", b"cf2:c": b"c"})


def test_row_start_is_inclusive_and_row_stop_exclusive(module_table):
    assert keys(module_table.scan(row_start=b"row-05", row_stop=b"row-08")) == KEYS[5:8]
    assert keys(module_table.scan(row_start=b"row-18")) == KEYS[18:] + [b"zzz"]
    assert keys(module_table.scan(row_stop=b"row-02")) == [b"other-1"] + KEYS[:2]
    # Bounds need not be keys that exist.
    assert keys(module_table.scan(row_start=b"row-05x", row_stop=b"row-07x")) == KEYS[6:8]
    # A start equal to the stop is a one-row scan of it (HBase's deprecated Scan.setStopRow, which
    # its Thrift1 handler calls), whether or not the row exists.
    assert keys(module_table.scan(row_start=b"row-09", row_stop=b"row-09")) == [b"row-09"]
    assert keys(module_table.scan(row_start=b"row-09x", row_stop=b"row-09x")) == []


def test_row_prefix_returns_the_rows_that_start_with_it(module_table):
    assert keys(module_table.scan(row_prefix=b"row-1")) == KEYS[10:]
    assert keys(module_table.scan(row_prefix=b"row-0")) == KEYS[:10]
    assert keys(module_table.scan(row_prefix=b"row-07")) == [b"row-07"]
    assert keys(module_table.scan(row_prefix=b"nothing")) == []
    with pytest.raises(TypeError):  # happybase's own check
        list(module_table.scan(row_prefix=b"row", row_start=b"row-1"))


def test_columns_select_families_and_qualifiers(module_table):
    rows = list(module_table.scan(row_prefix=b"row-0", columns=[b"cf2"]))
    assert rows == [(key, {b"cf2:c": b"c"}) for key in KEYS[:10]]
    rows = list(module_table.scan(row_start=b"row-03", row_stop=b"row-05",
                                  columns=[b"cf1:a", b"cf2:c"]))
    assert rows == [(b"row-03", {b"cf1:a": b"3", b"cf2:c": b"c"}),
                    (b"row-04", {b"cf1:a": b"4", b"cf2:c": b"c"})]
    assert list(module_table.scan(columns=[b"cf1:nothing"])) == []


def test_filter_strings_in_hbases_filter_language(module_table):
    scan = module_table.scan
    rows = list(scan(row_prefix=b"row-0", filter=b"KeyOnlyFilter()"))
    assert rows[0] == (b"row-00", {b"cf1:a": b"", b"cf1:b": b"", b"cf2:c": b""})
    assert keys(scan(filter=b"SingleColumnValueFilter('cf1', 'a', =, 'binary:7')")) == [b"row-07"]
    assert keys(scan(filter=b"PrefixFilter('row-1')")) == KEYS[10:]
    rows = list(scan(row_prefix=b"row-1", filter=b"ColumnPrefixFilter('b')"))
    assert rows == [(key, {b"cf1:b": b"even" if i % 2 == 0 else b"odd"})
                    for i, key in enumerate(KEYS[10:])]
    rows = list(scan(filter=b"PrefixFilter('row-0') AND FirstKeyOnlyFilter()"))
    assert rows == [(key, {b"cf1:a": b"%d" % i}) for i, key in enumerate(KEYS[:10])]
    # One region: the page is the scan's first three rows.
    assert keys(scan(filter=b"PageFilter(3)")) == ALL[:3]
    assert keys(scan(row_prefix=b"row-", filter=b"ValueFilter(=, 'regexstring:^1[0-3]$')")) \
        == KEYS[10:14]
    assert keys(scan(filter=b"SingleColumnValueFilter('cf1', 'b', =, 'binary:even') AND "
                            b"RowFilter(<, 'binary:row-06')")) == KEYS[0:6:2]


def test_a_bad_filter_string_is_an_error(module_table):
    from thriftpy2.thrift import TException
    with pytest.raises(TException):
        list(module_table.scan(filter=b"NoSuchFilter(1)"))
    # The connection still works.
    assert keys(module_table.scan(row_prefix=b"row-07")) == [b"row-07"]


@pytest.mark.parametrize("batch_size", [1, 2, 7, 1000])
def test_batch_size_changes_the_calls_not_the_rows(module_table, batch_size):
    assert keys(module_table.scan(batch_size=batch_size)) == ALL
    assert keys(module_table.scan(row_prefix=b"row-1", batch_size=batch_size,
                                  limit=4)) == KEYS[10:14]


def test_limit_stops_after_that_many_rows(module_table):
    assert keys(module_table.scan(limit=3)) == ALL[:3]
    assert keys(module_table.scan(row_start=b"row-15", limit=100)) == KEYS[15:] + [b"zzz"]
    assert keys(module_table.scan(row_prefix=b"row-0", limit=1)) == [b"row-00"]


def test_reverse_scans_from_row_start_down_to_row_stop(module_table):
    assert keys(module_table.scan(reverse=True)) == ALL[::-1]
    # Reversed, row_start is the larger key (inclusive) and row_stop the smaller (exclusive).
    assert keys(module_table.scan(row_start=b"row-05", row_stop=b"row-02",
                                  reverse=True)) == KEYS[5:2:-1]
    assert keys(module_table.scan(row_prefix=b"row-1", reverse=True)) == KEYS[:9:-1]
    assert keys(module_table.scan(reverse=True, limit=2, batch_size=1)) == [b"zzz", b"row-19"]


def test_reverse_row_prefix_starts_at_the_key_after_the_prefix(make_table):
    table = make_table({"cf": {}})
    for key in (b"ab", b"ab1", b"ab2", b"ac", b"ac1"):
        table.put(key, {b"cf:x": key})
    assert keys(table.scan(row_prefix=b"ab")) == [b"ab", b"ab1", b"ab2"]
    # happybase scans from bytes_increment(prefix) = "ac" (a reversed scan's start is inclusive)
    # down to the prefix itself (its stop, exclusive), as HBase then answers.
    assert keys(table.scan(row_prefix=b"ab", reverse=True)) == [b"ac", b"ab2", b"ab1"]


def test_sorted_columns_returns_ordered_dicts_in_hbases_column_order(make_table):
    table = make_table({"b": {}, "a": {}})
    table.put(b"r", {b"b:z": b"1", b"b:a": b"2", b"a:y": b"3", b"a:\x00": b"4", b"a:": b"5"},
              timestamp=7)
    [(key, data)] = list(table.scan(sorted_columns=True))
    assert key == b"r" and isinstance(data, OrderedDict)
    assert list(data.items()) == [(b"a:", b"5"), (b"a:\x00", b"4"), (b"a:y", b"3"),
                                  (b"b:a", b"2"), (b"b:z", b"1")]
    [(_, data)] = list(table.scan(sorted_columns=True, include_timestamp=True,
                                  columns=[b"b"]))
    assert list(data.items()) == [(b"b:a", (b"2", 7)), (b"b:z", (b"1", 7))]


def test_scan_batching_splits_wide_rows_into_parts(make_table):
    table = make_table({"cf": {}})
    table.put(b"wide", {b"cf:c%d" % i: b"%d" % i for i in range(5)})
    table.put(b"narrow", {b"cf:c0": b"n"})
    parts = list(table.scan(scan_batching=2))
    assert parts == [(b"narrow", {b"cf:c0": b"n"}),
                     (b"wide", {b"cf:c0": b"0", b"cf:c1": b"1"}),
                     (b"wide", {b"cf:c2": b"2", b"cf:c3": b"3"}),
                     (b"wide", {b"cf:c4": b"4"})]
    # limit and batch_size count the parts.
    assert list(table.scan(row_start=b"wide", scan_batching=2, batch_size=1, limit=2)) == parts[1:3]


def test_scan_timestamp_and_include_timestamp(make_table):
    table = make_table({"cf": dict(max_versions=3)})
    table.put(b"r1", {b"cf:a": b"old"}, timestamp=10)
    table.put(b"r1", {b"cf:a": b"new"}, timestamp=30)
    table.put(b"r2", {b"cf:a": b"only-new"}, timestamp=40)
    assert list(table.scan(include_timestamp=True)) == [(b"r1", {b"cf:a": (b"new", 30)}),
                                                        (b"r2", {b"cf:a": (b"only-new", 40)})]
    # TScan.timestamp: HBase's setTimeRange(0, timestamp).
    assert list(table.scan(timestamp=30, include_timestamp=True)) == [
        (b"r1", {b"cf:a": (b"old", 10)})]
    assert list(table.scan(timestamp=10)) == []



@pytest.mark.parametrize("compat", ["0.90", "0.92", "0.94", "0.96", "0.98"])
def test_every_compat_mode_scans_alike(target, module_table, compat):
    # compat 0.90 scans with scannerOpen, scannerOpenWithStop, scannerOpenTs and
    # scannerOpenWithStopTs (no filters); the others with scannerOpenWithScan.
    conn = target.connect(compat=compat)
    try:
        table = conn.table(module_table.name, use_prefix=False)
        assert keys(table.scan()) == ALL
        assert keys(table.scan(row_start=b"row-05", row_stop=b"row-08")) == KEYS[5:8]
        assert keys(table.scan(row_prefix=b"row-1", columns=[b"cf2"], limit=3)) == KEYS[10:13]
        assert list(table.scan(row_start=b"row-19", timestamp=2**62, columns=[b"cf1:a"])) == [
            (b"row-19", {b"cf1:a": b"19"}), (b"zzz", {b"cf1:a": b"z"})]
        assert list(table.scan(row_start=b"row-00", row_stop=b"row-01", timestamp=1)) == []
    finally:
        conn.close()
