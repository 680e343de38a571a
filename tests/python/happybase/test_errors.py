"""Requests HBase refuses, as happybase makes them: each is an exception the application can
catch, writes nothing, and leaves the connection usable."""

import pytest
from thriftpy2.thrift import TApplicationException, TException

from conftest import IllegalArgument, IOError_


@pytest.fixture
def table(make_table):
    t = make_table({"cf": {}})
    t.put(b"r", {b"cf:a": b"1"})
    return t


@pytest.mark.parametrize("call", [
    lambda t: t.row(b"r", columns=[b"nope:a"]),
    lambda t: t.row(b"r", columns=[b"nope"]),
    lambda t: t.rows([b"r"], columns=[b"nope"]),
    lambda t: t.cells(b"r", b"nope:a"),
    lambda t: list(t.scan(columns=[b"nope"])),
    lambda t: t.put(b"r", {b"nope:a": b"1"}),
    lambda t: t.delete(b"r", columns=[b"nope:a"]),
    lambda t: t.counter_inc(b"r", b"nope:n"),
], ids=["row-column", "row-family", "rows", "cells", "scan", "put", "delete", "counter"])
def test_naming_a_family_the_table_lacks_is_an_ioerror(table, call):
    # HBase: NoSuchColumnFamilyException, an IOException.
    with pytest.raises(IOError_):
        call(table)
    assert table.row(b"r") == {b"cf:a": b"1"}


def test_a_batch_with_a_put_of_a_family_alone_writes_nothing(target, table):
    with pytest.raises(TException) as raised:
        with table.batch() as b:
            b.put(b"good", {b"cf:a": b"1"})
            b.put(b"bad", {b"cf": b"a family, no qualifier"})
    if target.is_basalt:
        # docs/hbase.md: basalt answers IllegalArgument, naming the column.
        assert raised.type is IllegalArgument and b"cf" in raised.value.message
    else:
        # HBase's mutateRowsTs throws IllegalArgumentException("Invalid famAndQf provided.")
        # outside its try, so Thrift answers "Internal error processing mutateRows".
        assert raised.type is TApplicationException
    assert table.rows([b"good", b"bad"]) == []
    assert table.row(b"r") == {b"cf:a": b"1"}
