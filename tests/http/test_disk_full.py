"""A full disk through `basalt serve` (docs/reliability.md, "Full disk").

The store lives on a 32 MiB file system the test mounts, a tmpfs and ext4 on a loop device (so it
runs as root, as CI does; elsewhere it is skipped). A filler file takes most of it; REST writes
fill the rest. Then: writes fail with 503 and a message saying the disk is full (never a crash),
reads keep working, every acknowledged row is there, and /api/v1's sign-ups and log-ins (which
write an account, a session) answer the same retryable 503; once the filler is deleted writes come
back by themselves, within seconds, without a restart; after the disk is filled again, a kill -9
and a restart on the nearly full disk work and every acknowledged row is still there.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
import requests

from conftest import API, FAST_HASH, PASSWORD, Server, b64

MIB = 1 << 20
VALUE_BYTES = 32 * 1024


def free_bytes(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


@pytest.fixture(params=["tmpfs", "ext4"])
def small_disk(request):
    """A 32 MiB file system, unmounted after the test: a tmpfs, or ext4 on a loop device (where
    fallocate keeps what it got when it fails). Yields (a scratch directory beside it, its mount
    point)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI runs as root)")
    if request.param == "ext4" and shutil.which("mkfs.ext4") is None:
        pytest.skip("no mkfs.ext4 here")
    top = tempfile.mkdtemp(prefix="basalt-diskfull-")
    mnt = os.path.join(top, "mnt")
    os.mkdir(mnt)
    if request.param == "tmpfs":
        cmd = ["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mnt]
    else:
        image = os.path.join(top, "ext4.img")
        with open(image, "wb") as f:
            f.truncate(32 * MIB)
        r = subprocess.run(["mkfs.ext4", "-q", "-F", "-m", "0", image], capture_output=True,
                           text=True)
        cmd = ["mount", "-o", "loop", image, mnt] if r.returncode == 0 else None
    r = subprocess.run(cmd, capture_output=True, text=True) if cmd else r
    if r.returncode != 0:
        shutil.rmtree(top)
        pytest.skip(f"cannot mount a {request.param} here: {r.stderr.strip()}")
    try:
        yield top, mnt
    finally:
        subprocess.run(["umount", "-l", mnt])
        shutil.rmtree(top, ignore_errors=True)


class Writer:
    """Writes rows of incompressible 32 KiB values to table t; remembers the acknowledged ones."""

    def __init__(self, url):
        self.url = url
        self.acked = {}  # row -> value
        self.n = 0

    def put(self):
        row = f"r{self.n:06d}"
        self.n += 1
        value = os.urandom(VALUE_BYTES)
        body = {"Row": [{"key": b64(row), "Cell": [{"column": b64("cf:v"), "$": b64(value)}]}]}
        r = requests.put(f"{self.url}/t/{row}", json=body, timeout=30)
        if r.status_code == 200:
            self.acked[row] = value
        return r

    def fill(self, limit=2000):
        """Writes until a write fails; returns that response."""
        for _ in range(limit):
            r = self.put()
            if r.status_code != 200:
                return r
        pytest.fail(f"{limit} writes of {VALUE_BYTES} bytes fitted on a 32 MiB disk")


def assert_disk_full(r):
    assert r.status_code == 503, (r.status_code, r.text)
    assert "is full" in r.text and "retry" in r.text, r.text


def assert_api_disk_full(r):
    """/api/v1's form of the same answer: 503 "unavailable", the message saying to retry."""
    assert r.status_code == 503, (r.status_code, r.text)
    error = r.json()["error"]
    assert error["code"] == "unavailable", error
    assert "is full" in error["message"] and "retry" in error["message"], error


def assert_all_readable(url, acked):
    for row, value in acked.items():
        r = requests.get(f"{url}/t/{row}/cf:v", headers={"Accept": "application/octet-stream"},
                         timeout=30)
        assert r.status_code == 200, (row, r.status_code, r.text)
        assert r.content == value, row


def test_a_full_disk_is_survivable(binary, small_disk):
    top, mnt = small_disk
    filler = os.path.join(mnt, "filler")
    with open(filler, "wb") as f:
        f.write(b"\0" * (20 * MIB))
    data = os.path.join(mnt, "data")
    server = Server(binary, data, log_dir=top, extra_args=[FAST_HASH])
    try:
        url = server.url
        r = requests.put(f"{url}/t/schema", json={"name": "t", "ColumnSchema": [{"name": "cf"}]})
        assert r.status_code == 201, r.text
        r = requests.post(f"{url}{API}/signup", json={"user": "early", "password": PASSWORD})
        assert r.status_code == 201, r.text
        w = Writer(url)

        # Fill the disk: the first failure is the retryable "disk full" error.
        assert_disk_full(w.fill())
        assert len(w.acked) > 100, len(w.acked)

        # While it is full every write fails the same way, reads work, the process stays up.
        deadline = time.monotonic() + 2
        rows = list(w.acked)
        i = 0
        while time.monotonic() < deadline:
            assert_disk_full(w.put())
            g = requests.get(f"{url}/t/{rows[i % len(rows)]}/cf:v",
                             headers={"Accept": "application/octet-stream"}, timeout=30)
            assert g.status_code == 200, g.text
            i += 1
            time.sleep(0.05)
        assert server.proc.poll() is None, "the server died on a full disk"
        assert_all_readable(url, w.acked)
        # /api/v1 answered these 500 "internal" where REST says 503, retry.
        assert_api_disk_full(requests.post(f"{url}{API}/signup",
                                           json={"user": "late", "password": PASSWORD}))
        assert_api_disk_full(requests.post(f"{url}{API}/login",
                                           json={"user": "early", "password": PASSWORD}))

        # Space is freed: writes come back by themselves, without a restart.
        os.remove(filler)
        freed = time.monotonic()
        while True:
            r = w.put()
            if r.status_code == 200:
                break
            assert_disk_full(r)
            assert time.monotonic() - freed < 10, "writes did not resume 10 s after space was freed"
            time.sleep(0.05)
        print(f"writes resumed {time.monotonic() - freed:.2f} s after space was freed")
        for _ in range(10):
            assert w.put().status_code == 200
        # The resume flushed the memtables and deleted the write-ahead log they came from: the
        # freed space is still there, less the reserve, made again for the next time (RocksDB's
        # preallocation of a new log, 1.1 write buffers, would take all of it on ext4).
        assert os.path.exists(os.path.join(data, "basalt-reserve"))
        assert free_bytes(mnt) > 8 * MIB, free_bytes(mnt)

        # Full again; then kill -9 and a restart on the nearly full disk.
        assert_disk_full(w.fill())
        assert server.proc.poll() is None
        print(f"free at the kill: {free_bytes(mnt)} bytes")
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        server = Server(binary, data, log_dir=top)
        assert_all_readable(server.url, w.acked)
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
