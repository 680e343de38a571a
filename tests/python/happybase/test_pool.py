"""happybase.ConnectionPool: several threads taking connections and using them at once."""

import threading

import happybase
import pytest

from conftest import IOError_


def run_threads(count, work):
    errors = []

    def wrapped(i):
        try:
            work(i)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_threads_share_a_pool_for_writes_scans_and_counters(target, make_table):
    table = make_table({"cf": {}})
    short = table.name[len(target.prefix) + 1:]
    pool = target.pool(3)
    used = set()
    lock = threading.Lock()
    per_thread = 25

    def work(i):
        for j in range(per_thread):
            with pool.connection() as conn:
                with lock:
                    used.add(id(conn))
                t = conn.table(short)
                t.put(b"t%d-%03d" % (i, j), {b"cf:v": b"%d" % j})
                t.counter_inc(b"counter", b"cf:n")
                if j % 5 == 0:
                    assert list(t.scan(row_prefix=b"t%d-" % i, columns=[b"cf:v"]))[-1] == \
                        (b"t%d-%03d" % (i, j), {b"cf:v": b"%d" % j})

    run_threads(8, work)
    assert len(used) <= 3
    with pool.connection() as conn:
        t = conn.table(short)
        assert t.counter_get(b"counter", b"cf:n") == 8 * per_thread
        assert len(list(t.scan(row_prefix=b"t", batch_size=50))) == 8 * per_thread


def test_a_thread_that_nests_connection_gets_the_same_one(target):
    pool = target.pool(2)
    with pool.connection() as outer:
        with pool.connection() as inner:
            assert inner is outer
            assert isinstance(inner.tables(), list)


def test_a_pool_with_every_connection_taken_times_out(target):
    pool = target.pool(2)
    taken = threading.Barrier(3)
    release = threading.Event()

    def hold(_):
        with pool.connection() as conn:
            conn.tables()
            taken.wait(timeout=30)
            release.wait(timeout=30)

    holders = [threading.Thread(target=hold, args=(i,)) for i in range(2)]
    for h in holders:
        h.start()
    try:
        taken.wait(timeout=30)
        with pytest.raises(happybase.NoConnectionsAvailable):
            with pool.connection(timeout=0.2):
                pass
    finally:
        release.set()
        for h in holders:
            h.join()
    with pool.connection(timeout=5) as conn:
        assert isinstance(conn.tables(), list)


def test_a_connection_that_saw_a_thrift_error_is_replaced_and_works(target, make_table):
    table = make_table({"cf": {}})
    short = table.name[len(target.prefix) + 1:]
    pool = target.pool(1)
    with pytest.raises(IOError_):
        with pool.connection() as conn:
            conn.table("no_such_table").row(b"r")
    # The pool reopened it (its Thrift client refreshed); the next user works.
    with pool.connection() as conn:
        conn.table(short).put(b"r", {b"cf:a": b"1"})
        assert conn.table(short).row(b"r") == {b"cf:a": b"1"}
