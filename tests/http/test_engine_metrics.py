"""Engine statistics on /metrics: per table/family figures and the block cache, moving with
what the store holds and does."""

import os
import re
import tempfile

import pytest
import requests

from conftest import Server, b64


def scrape(url):
    """{(name, labels-text): value} of every basalt_engine_ sample on /metrics."""
    out = {}
    for line in requests.get(url + "/metrics").text.splitlines():
        if not line.startswith("basalt_engine_"):
            continue
        m = re.fullmatch(r"([a-z_]+)(\{[^}]*\})? (\S+)", line)
        assert m, line
        out[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return out


def family_value(samples, name, table, family):
    return samples[(name, f'{{table="{table}",family="{family}"}}')]


@pytest.fixture
def data_dir():
    with tempfile.TemporaryDirectory(prefix="basalt-engine-metrics-") as tmp:
        yield os.path.join(tmp, "data")


def put_rows(url, table, n):
    body = {"Row": [{"key": b64(f"row{i:04d}"), "Cell": [
        {"column": b64("cf:q"), "$": b64("v" * 200)}]} for i in range(n)]}
    r = requests.put(f"{url}/{table}/fakerow", json=body)
    assert r.status_code == 200, r.text


def test_engine_metrics_appear_and_move(binary, data_dir):
    s = Server(binary, data_dir)
    try:
        r = requests.put(f"{s.url}/ns_t/schema", json={"ColumnSchema": [{"name": "cf"}]})
        assert r.status_code == 201, r.text
        before = scrape(s.url)
        assert family_value(before, "basalt_engine_estimated_keys", "ns_t", "cf") == 0
        assert family_value(before, "basalt_engine_sst_bytes", "ns_t", "cf") == 0
        assert ("basalt_engine_block_cache_capacity_bytes", "") in before
        assert ("basalt_engine_running_compactions", "") in before
        assert ("basalt_engine_pending_compaction_bytes", '{table="ns_t",family="cf"}') in before

        put_rows(s.url, "ns_t", 500)
        after = scrape(s.url)
        assert family_value(after, "basalt_engine_estimated_keys", "ns_t", "cf") == 500
        assert (family_value(after, "basalt_engine_memtable_bytes", "ns_t", "cf")
                >= family_value(before, "basalt_engine_memtable_bytes", "ns_t", "cf") + 500 * 200)
    finally:
        assert s.stop() == 0

    # A clean stop flushes the memtables: after a restart the rows are in files, and reading
    # them goes through the block cache.
    s = Server(binary, data_dir)
    try:
        reopened = scrape(s.url)
        assert family_value(reopened, "basalt_engine_sst_bytes", "ns_t", "cf") > 500 * 200
        with requests.Session() as http:
            for _ in range(2):
                for i in range(0, 500, 10):
                    r = http.get(f"{s.url}/ns_t/row{i:04d}", headers={"Accept": "application/json"})
                    assert r.status_code == 200, r.text
        read = scrape(s.url)
        hits = read[("basalt_engine_block_cache_hits_total", "")]
        misses = read[("basalt_engine_block_cache_misses_total", "")]
        assert hits > reopened.get(("basalt_engine_block_cache_hits_total", ""), 0)
        assert misses > reopened.get(("basalt_engine_block_cache_misses_total", ""), 0)
        ratio = read[("basalt_engine_block_cache_hit_ratio", "")]
        assert 0 < ratio < 1
        assert ratio == pytest.approx(hits / (hits + misses))
        assert read[("basalt_engine_block_cache_usage_bytes", "")] > 0
    finally:
        assert s.stop() == 0
