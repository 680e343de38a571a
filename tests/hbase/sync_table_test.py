#!/usr/bin/env python3
"""hash-table and sync-table against a real HBase (label hbase).

An embedded store gets the recipes' demo data (`basalt demo load`); every demo table is created on
HBase with the same families and copied there with copy-table. hash-table on the embedded side and
sync-table against HBase must find every range equal, and hash-table run on HBase itself must write
the same hashes. Then a value is changed, a row deleted and a row added on HBase: sync-table
--dryrun must report exactly the ranges holding them (and write nothing), sync-table must repair
them, and a second hash and sync must find everything equal again. The tables are dropped at the
end.

  tests/hbase/sync_table_test.py BASALT_BINARY

Needs BASALT_TEST_THRIFT_TARGET (thrift://HOST:PORT of HBase's Thrift2 gateway) and
HBASE_REST_PORT (its REST gateway, on the same host), as scripts/hbase.sh start prints them; fails
without them. The tables are created through REST because Thrift2 cannot set NEW_VERSION_BEHAVIOR:
without it a cell put back under a newer delete marker (the deleted row) stays hidden on HBase.
"""

import json
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import hbase_test_util

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)


def run(basalt, *args, expect_ok=True):
    return hbase_test_util.basalt(basalt, *args, check=expect_ok)


def rest(host, port, method, path, body=None):
    req = urllib.request.Request("http://%s:%d%s" % (host, port, path), method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    req.add_header("Accept", "application/json")
    with urllib.request.urlopen(req, timeout=120) as resp:
        return resp.status


def unescape(text):
    """hash-table's row escapes (copy/hash_table.h) back to bytes."""
    if text == '""':
        return b""
    return re.sub(rb"\\x([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  text.encode())


def read_ranges(hash_dir):
    ranges = []
    with open(os.path.join(hash_dir, "hashes")) as f:
        for line in f:
            start, stop, digest = line.split()
            ranges.append((start, stop, digest))
    return ranges


def range_of(ranges, row):
    for start, stop, _ in ranges:
        if unescape(start) <= row and (stop == '""' or row < unescape(stop)):
            return (start, stop)
    raise AssertionError("no range holds %r" % row)


def sync(basalt, data, target, hash_dir, table, dry_run):
    args = ["sync-table", "--source", data, "--target", target, hash_dir, table]
    if dry_run:
        args.append("--dryrun")
    out = run(basalt, *args)
    differs = set()
    for line in out.splitlines():
        if line.startswith("differs: "):
            start, stop = line[len("differs: "):].split()
            differs.add((start, stop))
    m = re.search(r"ranges: (\d+) checked, (\d+) matched, (\d+) differing", out)
    cells = re.search(r"cells: (?:would )?put (\d+) in \d+ row\(s\), (?:would delete|deleted) (\d+)",
                      out)
    return {"checked": int(m.group(1)), "matched": int(m.group(2)),
            "differing": int(m.group(3)), "put": int(cells.group(1)),
            "deleted": int(cells.group(2)), "ranges": differs, "out": out}


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    basalt = sys.argv[1]
    found = hbase_test_util.hbase_from_environment("HBASE_REST_PORT")
    if found is None:
        return 1
    target, rest_port = found
    host = urllib.parse.urlparse(target).hostname
    rest_port = int(rest_port)

    work = tempfile.mkdtemp(prefix="basalt_sync_hbase_")
    data = os.path.join(work, "data")
    ns = "synctest%d" % os.getpid()
    tables = []
    ns_created = False
    try:
        t0 = time.monotonic()
        run(basalt, "--data", data, "demo", "load", "--namespace", ns, "--users", "60",
            "--posts", "300", "--actions", "2000", "--items", "60", "--clicks", "2000")
        tables = [line.strip() for line in run(basalt, "--data", data, "list").splitlines()
                  if line.strip().startswith(ns + ":")]
        check(len(tables) >= 10, "the demo wrote %d tables" % len(tables))
        print("demo data: %d tables in %.1f s" % (len(tables), time.monotonic() - t0), flush=True)

        run(basalt, "--data", target, "create-namespace", ns)
        ns_created = True
        families = {}
        for t in tables:
            desc = json.loads(run(basalt, "--data", data, "--json", "describe", t))
            families[t] = [f["name"] for f in desc["families"]]
            rest(host, rest_port, "PUT", "/%s/schema" % t, {
                "name": t,
                "ColumnSchema": [{"name": f["name"], "VERSIONS": str(f["versions"]),
                                  "TTL": str(f["ttl"]), "NEW_VERSION_BEHAVIOR": "true"}
                                 for f in desc["families"]]})
        t0 = time.monotonic()
        for t in tables:
            run(basalt, "--data", data, "copy-table", t, "--peer.adr", target, "--versions", "10")
        print("copy-table of every table to HBase: %.1f s" % (time.monotonic() - t0), flush=True)

        def hash_all(label):
            out_dir = os.path.join(work, label)
            os.mkdir(out_dir)
            t0 = time.monotonic()
            for t in tables:
                run(basalt, "--data", data, "hash-table", t, os.path.join(out_dir, t),
                    "--versions", "10", "--batchsize", "4000")
            print("hash-table (embedded) of every table: %.2f s" % (time.monotonic() - t0),
                  flush=True)
            return out_dir

        def sync_all(hashes, dry_run):
            t0 = time.monotonic()
            results = {t: sync(basalt, data, target, os.path.join(hashes, t), t, dry_run)
                       for t in tables}
            print("sync-table%s against HBase of every table: %.2f s, %d ranges" %
                  (" --dryrun" if dry_run else "", time.monotonic() - t0,
                   sum(r["checked"] for r in results.values())), flush=True)
            return results

        hashes = hash_all("hash1")
        for t, r in sync_all(hashes, dry_run=False).items():
            check(r["checked"] > 0 and r["differing"] == 0 and r["matched"] == r["checked"],
                  "%s equal after copy-table: %s" % (t, r["out"]))
            check(r["put"] == 0 and r["deleted"] == 0, "%s: nothing to repair" % t)

        # The same data hashes the same on HBase.
        hb_hashes = os.path.join(work, "hbase_hash")
        os.mkdir(hb_hashes)
        t0 = time.monotonic()
        for t in tables:
            run(basalt, "--data", target, "hash-table", t, os.path.join(hb_hashes, t),
                "--versions", "10", "--batchsize", "4000")
        print("hash-table (over Thrift2 from HBase) of every table: %.2f s" %
              (time.monotonic() - t0), flush=True)
        for t in tables:
            with open(os.path.join(hashes, t, "hashes")) as a, \
                    open(os.path.join(hb_hashes, t, "hashes")) as b:
                check(a.read() == b.read(), "%s: HBase's hashes equal the embedded ones" % t)

        # Change HBase: a value, a row deleted, a row added, in three tables.
        users = "%s:social_users" % ns
        posts = "%s:feed_posts" % ns
        totals = "%s:clicks_totals" % ns
        for t in (users, posts, totals):
            check(t in tables, "the demo has %s" % t)
        user = json.loads(run(basalt, "--data", target, "--json", "get", users, "user0003"))
        cell = [c for c in user[0]["cells"] if c["qualifier"] == "name"][0] \
            if isinstance(user, list) else [c for c in user["cells"] if c["qualifier"] == "name"][0]
        run(basalt, "--data", target, "put", users, "user0003", "p:name", "Changed on HBase",
            "--ts", str(cell["timestamp"]))
        post_rows = json.loads(run(basalt, "--data", target, "--json", "scan", posts,
                                   "--limit", "5"))
        deleted = post_rows[2]
        deleted_cells = len(deleted["cells"])
        run(basalt, "--data", target, "delete", posts, deleted["row"])
        added_family = families[totals][0]
        run(basalt, "--data", target, "put", totals, "zz-added-on-hbase", added_family + ":q",
            "extra")

        expected = {
            users: {range_of(read_ranges(os.path.join(hashes, users)), b"user0003")},
            posts: {range_of(read_ranges(os.path.join(hashes, posts)),
                             unescape(deleted["row"]))},
            totals: {range_of(read_ranges(os.path.join(hashes, totals)),
                              b"zz-added-on-hbase")},
        }
        dry = sync_all(hashes, dry_run=True)
        for t in tables:
            want = expected.get(t, set())
            check(dry[t]["ranges"] == want,
                  "%s: --dryrun finds %s, not %s" % (t, sorted(dry[t]["ranges"]), sorted(want)))
        check(dry[users]["put"] == 1 and dry[users]["deleted"] == 0,
              "the changed value: one put (%s)" % dry[users]["out"])
        check(dry[posts]["put"] == deleted_cells and dry[posts]["deleted"] == 0,
              "the deleted row: %d puts (%s)" % (deleted_cells, dry[posts]["out"]))
        check(dry[totals]["put"] == 0 and dry[totals]["deleted"] == 1,
              "the added row: one delete (%s)" % dry[totals]["out"])
        # --dryrun wrote nothing: the same again.
        again = sync_all(hashes, dry_run=True)
        for t in tables:
            check(again[t]["ranges"] == dry[t]["ranges"], "%s: --dryrun changed nothing" % t)

        fixed = sync_all(hashes, dry_run=False)
        for t in tables:
            check(fixed[t]["ranges"] == expected.get(t, set()), "%s: sync repairs them" % t)

        hashes2 = hash_all("hash2")
        for t, r in sync_all(hashes2, dry_run=True).items():
            check(r["differing"] == 0 and r["matched"] == r["checked"],
                  "%s equal after the repair: %s" % (t, r["out"]))
    finally:
        for t in tables:
            if ns_created:
                run(basalt, "--data", target, "drop", t, expect_ok=False)
        if ns_created:
            run(basalt, "--data", target, "drop-namespace", ns, expect_ok=False)
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
