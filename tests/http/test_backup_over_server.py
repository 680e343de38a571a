"""Backups of a running server's store: POST /api/v1/admin/backups and `basalt backup --via`,
taken during a write load, each restored with `basalt restore` and checked against the writes
acknowledged before its call began (docs/operations.md, "Backups")."""

import os
import re
import subprocess
import tempfile
import threading

import pytest
import requests

from conftest import API, Server, b64

TOKEN = "backup-admin-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


def put_row(url, table, i):
    row = f"r{i:06d}"
    body = {"Row": [{"key": b64(row), "Cell": [{"column": b64("f:v"), "$": b64(str(i))}]}]}
    r = requests.put(f"{url}/{table}/{row}", json=body, headers=ADMIN, timeout=30)
    assert r.status_code == 200, r.text


def restored_rows(binary, backup_dir, backup_id, target):
    subprocess.run([binary, "restore", backup_dir, target, "--id", str(backup_id)], check=True,
                   capture_output=True, text=True)
    out = subprocess.run([binary, "--data", target, "scan", "loaded"], check=True,
                         capture_output=True, text=True).stdout
    return {int(m.group(1)) for m in re.finditer(r"^ r(\d{6}) ", out, re.MULTILINE)}


@pytest.fixture(scope="module")
def backing(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-backup-") as tmp:
        backups = os.path.join(tmp, "backups")
        s = Server(binary, os.path.join(tmp, "data"),
                   extra_args=["--admin-token", TOKEN, "--backup-dir", backups])
        yield s, backups, tmp
        s.stop()


def test_backups_need_the_admin_token(backing):
    server, _, _ = backing
    r = requests.post(f"{server.url}{API}/admin/backups")
    assert r.status_code == 401, r.text
    assert r.json()["error"]["code"] == "unauthorized"
    r = requests.get(f"{server.url}{API}/admin/backups", headers={"X-Basalt-Admin": "wrong"})
    assert r.status_code == 401, r.text


def test_a_server_without_a_backup_dir_refuses_with_the_reason(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-nobackup-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"))
        try:
            r = requests.post(f"{s.url}{API}/admin/backups")
            assert r.status_code == 409, r.text
            assert "--backup-dir" in r.json()["error"]["message"]
            cli = subprocess.run([binary, "backup", "--via", s.url], capture_output=True, text=True)
            assert cli.returncode == 1
            assert "409" in cli.stderr and "--backup-dir" in cli.stderr, cli.stderr
        finally:
            assert s.stop() == 0


def test_backups_during_writes_restore_every_acknowledged_write(binary, backing):
    server, backups, tmp = backing
    url = server.url
    r = requests.put(f"{url}/loaded/schema",
                     json={"name": "loaded", "ColumnSchema": [{"name": "f"}]}, headers=ADMIN)
    assert r.status_code == 201, r.text

    acknowledged = [0]  # rows r000000 .. acknowledged[0]-1 are written
    stop = threading.Event()
    errors = []

    def writer():
        try:
            i = 0
            while not stop.is_set():
                put_row(url, "loaded", i)
                i += 1
                acknowledged[0] = i
        except Exception as e:  # reported by the main thread
            errors.append(e)

    thread = threading.Thread(target=writer)
    thread.start()
    taken = []  # (backup id, rows acknowledged before the call)
    try:
        for k in range(4):
            while acknowledged[0] < 50 * (k + 1) and not errors:
                stop.wait(0.01)
            before = acknowledged[0]
            if k == 3:
                env = dict(os.environ, BASALT_ADMIN_TOKEN=TOKEN)
                cli = subprocess.run([binary, "backup", "--via", url], capture_output=True,
                                     text=True, env=env)
                assert cli.returncode == 0, cli.stderr
                m = re.match(rf"backup (\d+) through {re.escape(url)}: \d+ file\(s\), \d+ bytes",
                             cli.stdout)
                assert m, cli.stdout
                taken.append((int(m.group(1)), before))
            else:
                r = requests.post(f"{url}{API}/admin/backups", headers=ADMIN)
                assert r.status_code == 201, r.text
                body = r.json()
                assert body["files"] > 0 and body["size_bytes"] > 0
                taken.append((body["id"], before))
    finally:
        stop.set()
        thread.join()
    assert not errors, errors
    assert [t[0] for t in taken] == [1, 2, 3, 4]

    r = requests.get(f"{url}{API}/admin/backups", headers=ADMIN)
    assert r.status_code == 200, r.text
    assert [b["id"] for b in r.json()["backups"]] == [1, 2, 3, 4]

    verify = subprocess.run([binary, "backup", "verify", backups], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stderr
    written = acknowledged[0]
    for backup_id, before in taken:
        rows = restored_rows(binary, backups, backup_id, os.path.join(tmp, f"restored{backup_id}"))
        missing = set(range(before)) - rows
        assert not missing, f"backup {backup_id} lacks acknowledged rows {sorted(missing)[:5]}"
        assert rows <= set(range(written)), f"backup {backup_id} holds rows never written"
