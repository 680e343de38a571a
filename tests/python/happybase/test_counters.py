"""Table.counter_get, counter_set, counter_inc, counter_dec (atomicIncrement), from one thread
and from several."""

import struct
import threading

import pytest

from conftest import IOError_


@pytest.fixture
def table(make_table):
    return make_table({"cf": {}})


def test_a_new_counter_reads_zero(table):
    assert table.counter_get(b"r", b"cf:hits") == 0


def test_inc_and_dec_return_the_new_value(table):
    assert table.counter_inc(b"r", b"cf:hits") == 1
    assert table.counter_inc(b"r", b"cf:hits", value=5) == 6
    assert table.counter_dec(b"r", b"cf:hits") == 5
    assert table.counter_dec(b"r", b"cf:hits", value=10) == -5
    assert table.counter_inc(b"r", b"cf:hits", value=-1) == -6
    assert table.counter_get(b"r", b"cf:hits") == -6
    # An 8-byte big-endian two's complement long, as HBase's Bytes.toBytes(long).
    assert table.row(b"r") == {b"cf:hits": struct.pack(">q", -6)}


def test_counter_set_stores_a_long_that_inc_goes_on_from(table):
    table.counter_set(b"r", b"cf:n", 42)
    assert table.row(b"r") == {b"cf:n": b"\x00\x00\x00\x00\x00\x00\x00\x2a"}
    assert table.counter_get(b"r", b"cf:n") == 42
    assert table.counter_inc(b"r", b"cf:n", value=2**40) == 42 + 2**40
    table.counter_set(b"r", b"cf:n")  # default 0
    assert table.counter_get(b"r", b"cf:n") == 0


def test_counters_reach_the_ends_of_a_signed_long(table):
    table.counter_set(b"r", b"cf:n", 2**63 - 2)
    assert table.counter_inc(b"r", b"cf:n") == 2**63 - 1
    table.counter_set(b"r", b"cf:m", -(2**63))
    assert table.counter_get(b"r", b"cf:m") == -(2**63)


def test_counters_of_a_row_are_independent(table):
    table.counter_inc(b"r", b"cf:a", value=3)
    table.counter_inc(b"r", b"cf:b", value=4)
    table.counter_inc(b"s", b"cf:a", value=5)
    assert [table.counter_get(b"r", b"cf:a"), table.counter_get(b"r", b"cf:b"),
            table.counter_get(b"s", b"cf:a")] == [3, 4, 5]


def test_a_family_alone_counts_in_its_empty_qualifier(table):
    # HBase's atomicIncrement: a column without ':' is the family's empty qualifier.
    assert table.counter_inc(b"r", b"cf", value=7) == 7
    assert table.counter_get(b"r", b"cf:") == 7
    assert table.row(b"r") == {b"cf:": struct.pack(">q", 7)}


def test_incrementing_a_value_that_is_not_a_long_is_an_ioerror(table):
    table.put(b"r", {b"cf:text": b"abc"})
    # HBase: DoNotRetryIOException "Field is not a long, it's 3 bytes wide".
    with pytest.raises(IOError_):
        table.counter_inc(b"r", b"cf:text")
    assert table.row(b"r") == {b"cf:text": b"abc"}


def test_concurrent_increments_from_many_connections_are_all_counted(target, table):
    threads, per_thread = 6, 40
    errors = []

    def work():
        conn = target.connect()
        try:
            t = conn.table(table.name, use_prefix=False)
            for _ in range(per_thread):
                t.counter_inc(b"r", b"cf:n")
                t.counter_dec(b"r", b"cf:down", value=2)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            conn.close()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    assert table.counter_get(b"r", b"cf:n") == threads * per_thread
    assert table.counter_get(b"r", b"cf:down") == -2 * threads * per_thread
