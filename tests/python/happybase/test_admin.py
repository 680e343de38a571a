"""Connection's table administration and Table's schema calls, as an application makes them."""

import time

import pytest

from conftest import FOREVER, AlreadyExists, IOError_, short_name


def test_tables_lists_the_tables_under_the_connections_prefix(target, connection, make_table):
    a = make_table({"cf": {}})
    b = make_table({"cf": {}})
    # happybase strips the prefix and leaves out every table without it.
    assert sorted(connection.tables()) == sorted([short_name(target, a), short_name(target, b)])
    unprefixed = target.connect(table_prefix=None)
    try:
        names = unprefixed.tables()
    finally:
        unprefixed.close()
    assert a.name in names and b.name in names


def test_create_table_keeps_each_familys_options(make_table):
    table = make_table({
        "opts": dict(max_versions=10, compression="GZ", in_memory=True,
                     bloom_filter_type="ROWCOL", block_cache_enabled=False, time_to_live=3600),
        "plain": dict(),
        "row": dict(max_versions=1, bloom_filter_type="ROW", block_cache_enabled=True,
                    in_memory=False, compression="NONE", time_to_live=0),
    })
    families = table.families()
    # HBase's getColumnDescriptors (ThriftUtilities.colDescFromHbase): the name with its ':',
    # what colDescFromThrift kept, and the bloom filter sizes, which HBase no longer has, as the
    # struct's defaults.
    assert families == {
        b"opts": {"name": b"opts:", "max_versions": 10, "compression": b"GZ",
                  "in_memory": True, "bloom_filter_type": b"ROWCOL",
                  "bloom_filter_vector_size": 0, "bloom_filter_nb_hashes": 0,
                  "block_cache_enabled": False, "time_to_live": 3600},
        # happybase's IDL defaults: 3 versions, no compression, not in memory, no bloom filter,
        # block cache off, TTL -1 (which HBase takes as forever).
        b"plain": {"name": b"plain:", "max_versions": 3, "compression": b"NONE",
                   "in_memory": False, "bloom_filter_type": b"NONE",
                   "bloom_filter_vector_size": 0, "bloom_filter_nb_hashes": 0,
                   "block_cache_enabled": False, "time_to_live": FOREVER},
        b"row": {"name": b"row:", "max_versions": 1, "compression": b"NONE",
                 "in_memory": False, "bloom_filter_type": b"ROW",
                 "bloom_filter_vector_size": 0, "bloom_filter_nb_hashes": 0,
                 "block_cache_enabled": True, "time_to_live": FOREVER},
    }


def test_max_versions_caps_the_versions_a_read_returns(make_table):
    table = make_table({"one": dict(max_versions=1), "three": dict(max_versions=3)})
    for ts in (10, 20, 30, 40, 50):
        table.put(b"r", {b"one:c": b"v%d" % ts, b"three:c": b"v%d" % ts}, timestamp=ts)
    assert table.cells(b"r", b"one:c", include_timestamp=True) == [(b"v50", 50)]
    assert table.cells(b"r", b"three:c") == [b"v50", b"v40", b"v30"]


def test_time_to_live_hides_cells_older_than_it(make_table):
    table = make_table({"cf": dict(time_to_live=3600)})
    now_ms = int(time.time() * 1000)
    table.put(b"r", {b"cf:old": b"two hours ago"}, timestamp=now_ms - 2 * 3600 * 1000)
    table.put(b"r", {b"cf:new": b"a minute ago"}, timestamp=now_ms - 60 * 1000)
    assert table.row(b"r") == {b"cf:new": b"a minute ago"}
    assert table.cells(b"r", b"cf:old") == []


def test_create_table_refuses_an_existing_name(target, connection, make_table):
    table = make_table({"cf": {}})
    with pytest.raises(AlreadyExists):
        connection.create_table(short_name(target, table), {"other": {}})
    assert list(table.families()) == [b"cf"]


def test_disable_enable_and_is_table_enabled(target, connection, make_table):
    table = make_table({"cf": {}})
    name = short_name(target, table)
    table.put(b"r", {b"cf:a": b"1"})
    assert connection.is_table_enabled(name) is True
    connection.disable_table(name)
    assert connection.is_table_enabled(name) is False
    # HBase: TableNotEnabledException, an IOError on Thrift1.
    with pytest.raises(IOError_):
        table.row(b"r")
    with pytest.raises(IOError_):
        table.put(b"r", {b"cf:a": b"2"})
    connection.enable_table(name)
    assert connection.is_table_enabled(name) is True
    assert table.row(b"r") == {b"cf:a": b"1"}


def test_delete_table_with_disable_drops_an_enabled_table(target, connection, make_table):
    table = make_table({"cf": {}})
    name = short_name(target, table)
    table.put(b"r", {b"cf:a": b"1"})
    connection.delete_table(name, disable=True)
    assert name not in connection.tables()
    with pytest.raises(IOError_):
        table.row(b"r")
    # A table of the same name starts empty.
    connection.create_table(name, {"cf": {}})
    assert table.row(b"r") == {}
    connection.delete_table(name, disable=True)


def test_delete_table_refuses_an_enabled_table_without_disable(target, connection, make_table):
    table = make_table({"cf": {}})
    name = short_name(target, table)
    # HBase: TableNotDisabledException.
    with pytest.raises(IOError_):
        connection.delete_table(name)
    assert name in connection.tables()
    connection.disable_table(name)
    connection.delete_table(name)
    assert name not in connection.tables()


def test_reading_a_missing_table_is_an_ioerror(connection):
    with pytest.raises(IOError_):
        connection.table("no_such_table").row(b"r")
    with pytest.raises(IOError_):
        connection.table("no_such_table").put(b"r", {b"cf:a": b"1"})


def test_compact_table_minor_and_major_keep_the_live_data(target, connection, make_table):
    table = make_table({"cf": dict(max_versions=2)})
    name = short_name(target, table)
    for ts in (1, 2, 3):
        table.put(b"r", {b"cf:a": b"v%d" % ts}, timestamp=ts)
    table.put(b"gone", {b"cf:a": b"x"})
    table.delete(b"gone")
    connection.compact_table(name)
    connection.compact_table(name, major=True)
    assert table.cells(b"r", b"cf:a") == [b"v3", b"v2"]
    assert table.row(b"gone") == {}
    assert [key for key, _ in table.scan()] == [b"r"]


def test_regions_of_a_new_table_is_one_region_over_every_row(target, make_table):
    before_ms = int(time.time() * 1000)
    table = make_table({"cf": {}})
    regions = table.regions()
    assert len(regions) == 1
    region = regions[0]
    assert set(region) == {"start_key", "end_key", "id", "name", "version", "server_name",
                           "port"}
    assert region["start_key"] == b"" and region["end_key"] == b""
    # HBase's region name: "table,startKey,regionId.encodedName.".
    assert region["name"].startswith(table.name + b",,")
    assert region["version"] == 1  # HBase's HREGION_VERSION
    assert region["server_name"] and region["port"] > 0
    if target.is_basalt:
        # docs/hbase.md: a region's id is its index, and the name ends with it.
        assert region["id"] == 0 and region["name"] == table.name + b",,0"
    else:
        # HBase's region id: when the region was made, in ms.
        assert before_ms - 60000 <= region["id"] <= int(time.time() * 1000) + 60000


def test_regions_of_a_missing_table_is_empty(connection):
    assert connection.table("no_such_table").regions() == []
