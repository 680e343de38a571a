"""What the tests against a real HBase share: running the basalt binary and finding the HBase
that scripts/hbase.sh started (its `start` prints the variables these read)."""

import os
import subprocess


def basalt(binary, *args, check=True, timeout=300):
    """Runs `binary args...`; its stdout. With `check`, a non-zero exit raises, with its output."""
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise RuntimeError("basalt %s failed (%d): %s%s" % (" ".join(args), p.returncode,
                                                            p.stdout, p.stderr))
    return p.stdout


def hbase_from_environment(*names):
    """The values of BASALT_TEST_THRIFT_TARGET (thrift://HOST:PORT of HBase's Thrift2 gateway)
    and of the other `names` (e.g. HBASE_REST_PORT), or None after saying what is missing."""
    wanted = ("BASALT_TEST_THRIFT_TARGET",) + names
    values = [os.environ.get(n, "") for n in wanted]
    missing = [n for n, v in zip(wanted, values) if not v]
    if missing:
        print("%s must be set: start HBase with scripts/hbase.sh (docs/hbase.md)" %
              " and ".join(missing))
        return None
    return values
