"""Table.batch: send, batch_size, the context manager (with and without transaction=True),
timestamps, deletes. happybase sends a batch as one mutateRows (mutateRowsTs with a timestamp)."""

import pytest


class Boom(Exception):
    pass


@pytest.fixture
def table(make_table):
    return make_table({"cf1": dict(max_versions=3), "cf2": {}})


def test_send_writes_what_was_queued_and_nothing_before(table):
    b = table.batch()
    b.put(b"r1", {b"cf1:a": b"1", b"cf2:b": b"2"})
    b.put(b"r2", {b"cf1:a": b"3"})
    b.put(b"r1", {b"cf1:c": b"4"})
    assert table.row(b"r1") == {} and table.row(b"r2") == {}
    b.send()
    assert table.row(b"r1") == {b"cf1:a": b"1", b"cf1:c": b"4", b"cf2:b": b"2"}
    assert table.row(b"r2") == {b"cf1:a": b"3"}
    b.send()  # nothing queued: no call
    assert len(list(table.scan())) == 2


def test_batch_size_sends_every_time_that_many_mutations_are_queued(table):
    b = table.batch(batch_size=3)
    b.put(b"r1", {b"cf1:a": b"1", b"cf1:b": b"2"})  # 2 mutations: queued
    assert table.row(b"r1") == {}
    b.put(b"r2", {b"cf1:a": b"3"})  # 3: sent
    assert table.row(b"r1") == {b"cf1:a": b"1", b"cf1:b": b"2"}
    assert table.row(b"r2") == {b"cf1:a": b"3"}
    b.delete(b"r1", columns=[b"cf1:a"])
    b.put(b"r3", {b"cf1:a": b"5"})
    assert table.row(b"r3") == {}
    b.send()
    assert table.row(b"r1") == {b"cf1:b": b"2"}
    assert table.row(b"r3") == {b"cf1:a": b"5"}


def test_a_with_block_sends_on_exit(table):
    with table.batch() as b:
        for i in range(50):
            b.put(b"row-%02d" % i, {b"cf1:n": b"%d" % i})
        assert table.row(b"row-00") == {}
    assert [key for key, _ in table.scan()] == [b"row-%02d" % i for i in range(50)]


def test_a_transaction_that_raises_sends_nothing(table):
    table.put(b"kept", {b"cf1:a": b"before"})
    with pytest.raises(Boom):
        with table.batch(transaction=True) as b:
            b.put(b"kept", {b"cf1:a": b"after"})
            b.put(b"new", {b"cf1:a": b"x"})
            b.delete(b"kept", columns=[b"cf2"])
            raise Boom()
    assert table.row(b"kept") == {b"cf1:a": b"before"}
    assert table.row(b"new") == {}


def test_a_transaction_that_completes_sends_everything(table):
    with table.batch(transaction=True) as b:
        b.put(b"r1", {b"cf1:a": b"1"})
        b.put(b"r2", {b"cf1:a": b"2"})
    assert table.rows([b"r1", b"r2"]) == [(b"r1", {b"cf1:a": b"1"}), (b"r2", {b"cf1:a": b"2"})]


def test_without_transaction_a_raising_block_still_sends(table):
    with pytest.raises(Boom):
        with table.batch() as b:
            b.put(b"r1", {b"cf1:a": b"1"})
            raise Boom()
    assert table.row(b"r1") == {b"cf1:a": b"1"}


def test_a_batch_timestamp_applies_to_its_puts_and_deletes(table):
    for ts in (10, 20, 30):
        table.put(b"r", {b"cf1:a": b"v%d" % ts}, timestamp=ts)
    with table.batch(timestamp=25) as b:
        b.put(b"r", {b"cf2:x": b"x"})
        b.delete(b"r", columns=[b"cf1:a"])  # the versions at or before 25
    assert table.row(b"r", include_timestamp=True) == {b"cf1:a": (b"v30", 30),
                                                      b"cf2:x": (b"x", 25)}
    assert table.cells(b"r", b"cf1:a") == [b"v30"]


def test_a_batch_applies_its_puts_before_its_deletes(table):
    table.put(b"r", {b"cf1:a": b"old", b"cf1:b": b"b"})
    # HBase's mutateRows puts every row's cells, then applies every row's deletes, whatever the
    # order they were queued in: the delete queued first removes the put queued after it.
    with table.batch() as b:
        b.delete(b"r", columns=[b"cf1:a"])
        b.put(b"r", {b"cf1:a": b"new"})
        b.put(b"other", {b"cf1:a": b"o"})
    assert table.row(b"r") == {b"cf1:b": b"b"}
    assert table.row(b"other") == {b"cf1:a": b"o"}


def test_a_batch_delete_without_columns_deletes_every_family(table):
    table.put(b"r1", {b"cf1:a": b"1", b"cf2:b": b"2"})
    table.put(b"r2", {b"cf1:a": b"3"})
    with table.batch() as b:
        b.delete(b"r1")  # happybase names each family (getColumnDescriptors, once per batch)
        b.delete(b"r2")
    assert table.rows([b"r1", b"r2"]) == []


def test_a_batch_with_wal_false_writes(table):
    with table.batch(wal=False) as b:
        b.put(b"r1", {b"cf1:a": b"1"})
        b.put(b"r2", {b"cf1:a": b"2"}, wal=True)
    assert len(table.rows([b"r1", b"r2"])) == 2


def test_happybase_refuses_a_transaction_with_a_batch_size(table):
    with pytest.raises(TypeError):
        table.batch(transaction=True, batch_size=10)
