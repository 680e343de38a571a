"""/{table}/regions of a pre-split table: one region per split range, binary keys included.
The table is created with the `basalt` CLI through the server's Thrift2 port, so the split keys
travel over createTable as a recipe's presplit_regions sends them."""

import subprocess

from conftest import b64, json_rest


def test_regions_follow_split_keys_created_over_thrift2(binary, server, url):
    assert server.thrift_port is not None
    r = subprocess.run([binary, "--server", f"127.0.0.1:{server.thrift_port}", "create",
                        "presplit_t", "f", "--split", r"\x40", "--split", r"\x80",
                        "--split", r"\xC0"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    j = json_rest.get(f"{url}/presplit_t/regions").json()
    bounds = [b"", b"\x40", b"\x80", b"\xc0", b""]
    assert [(reg["startKey"], reg["endKey"]) for reg in j["Region"]] == [
        (b64(bounds[i]), b64(bounds[i + 1])) for i in range(4)]
    assert [reg["id"] for reg in j["Region"]] == [0, 1, 2, 3]
    # Region names print binary keys as HBase does (Bytes.toStringBinary).
    assert [reg["name"] for reg in j["Region"]] == [
        "presplit_t,,0", "presplit_t,@,1", r"presplit_t,\x80,2", r"presplit_t,\xC0,3"]
