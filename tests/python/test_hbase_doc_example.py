"""docs/hbase.md's happybase example, run as written against a fresh `basalt serve`.

The ```python block after `<!-- happybase-example -->` runs in a subprocess of this Python (the
happybase virtual environment's), with only `port=9091` (basalt's Thrift1 port) replaced by the
test server's; what it prints must be the ```text block after it, exactly. The binary:
$BASALT_BINARY (CTest sets it).
"""

import os
import re
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from basalt_serve import BasaltServe  # noqa: E402

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "hbase.md")
EXAMPLE = re.compile(r"^<!-- happybase-example -->\n```python\n(.*?)^```\n\n```text\n(.*?)^```$",
                     re.M | re.S)



def example():
    with open(DOC, encoding="utf-8") as f:
        found = EXAMPLE.findall(f.read())
    assert len(found) == 1, "docs/hbase.md needs one happybase example followed by its output"
    return found[0]


def test_the_happybase_example_prints_what_docs_hbase_md_says():
    binary = os.environ.get("BASALT_BINARY", "")
    if not binary or not os.access(binary, os.X_OK):
        pytest.fail("set BASALT_BINARY to the basalt binary")
    code, expected = example()
    assert code.count("port=9091") >= 1
    with tempfile.TemporaryDirectory(prefix="basalt-doc-example-") as tmp:
        serve = BasaltServe(binary, os.path.join(tmp, "data"), "buffered", "binary")
        try:
            run = subprocess.run([sys.executable, "-c", code.replace("port=9091",
                                                                     f"port={serve.port}")],
                                 capture_output=True, text=True, timeout=120)
        finally:
            assert serve.stop() == 0
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected
