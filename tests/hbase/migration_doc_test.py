#!/usr/bin/env python3
"""docs/operations.md's "Moving to HBase", run as written against a real HBase (label hbase).

  tests/hbase/migration_doc_test.py BASALT_BINARY [OPERATIONS_MD]

The section's ```sh blocks are joined, in order, into one bash script (`set -euo pipefail`), so
that variables and background servers carry from one block to the next as in an operator's
shell. The block after `<!-- doc-test: set by the test -->` (the names the commands use) is
replaced by this test's values; a `<!-- doc-test: hook NAME -->` line runs this file with
`--hook NAME` at that point, which checks the app over HTTP:

  before the script    a store with the demo data, served by `basalt serve --backup-dir` (the
                       app "as it runs today"), whose pid is BASALT_PID
  write-during-copy    user0001 posts through the app after the bulk copy: a write the backup
                       lacks, which the repair must bring to HBase
  app-on-hbase         the app now on HBase serves that post and a demo user's timeline;
                       user0001 posts again, on HBase
  app-rolled-back      the app on the rolled-back store serves both posts

After the script, the hash-keyed tables on HBase must be pre-split as the section asks. The app's
namespace is dropped from HBase before and after. Needs BASALT_TEST_THRIFT_TARGET (as
scripts/hbase.sh start prints it); fails without it.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import hbase_test_util

SECTION = "## Moving to HBase"
SET_BY_TEST = "<!-- doc-test: set by the test -->"
HOOK = re.compile(r"^<!--\s*doc-test:\s*hook\s+([\w-]+)\s*-->$")
DEMO_PASSWORD = "basalt-demo-password"
DURING_COPY_TEXT = "written during the move"
ON_HBASE_TEXT = "written on HBase after the switch"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def script_of(markdown):
    """The section's blocks and hooks as one bash script (the variables block left out)."""
    start = markdown.index(SECTION + "\n")
    end = markdown.find("\n## ", start + len(SECTION))
    lines = markdown[start:end if end >= 0 else len(markdown)].splitlines()
    out, i, blocks, hooks = [], 0, 0, []
    skip_next_block = False
    while i < len(lines):
        line = lines[i]
        if line.strip() == SET_BY_TEST:
            skip_next_block = True
        elif HOOK.match(line.strip()):
            name = HOOK.match(line.strip()).group(1)
            hooks.append(name)
            out.append('"$DOC_TEST_PYTHON" "$DOC_TEST" --hook %s' % name)
        elif line.startswith("```sh"):
            body = []
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            if skip_next_block:
                skip_next_block = False
            else:
                blocks += 1
                out.append("# --- block %d" % blocks)
                out.extend(body)
        i += 1
    return "\n".join(out) + "\n", blocks, hooks


# --- the hooks: run by the script, with its variables in the environment ---------------------

def call(method, path, body=None, token=None):
    """(status, parsed JSON body) of a call to the app on APP_PORT."""
    req = urllib.request.Request("http://127.0.0.1:%s%s" % (os.environ["APP_PORT"], path),
                                 method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    req.add_header("Accept", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def log_in(user):
    status, body = call("POST", "/api/v1/login", {"user": user, "password": DEMO_PASSWORD})
    if status != 200:
        raise AssertionError("log-in of %s: %s %s" % (user, status, body))
    return body["token"]


def post(user, text, id_file):
    status, body = call("POST", "/api/v1/posts", {"text": text}, log_in(user))
    if status != 201:
        raise AssertionError("post by %s: %s %s" % (user, status, body))
    with open(os.path.join(os.environ["WORK"], id_file), "w") as f:
        f.write(body["id"])


def expect_post(id_file, text):
    with open(os.path.join(os.environ["WORK"], id_file)) as f:
        post_id = f.read()
    status, body = call("GET", "/api/v1/posts/" + post_id)
    if status != 200 or body.get("text") != text:
        raise AssertionError("post %s (%r): %s %s" % (post_id, text, status, body))


def run_hook(name):
    if name == "write-during-copy":
        post("user0001", DURING_COPY_TEXT, "during-copy.id")
    elif name == "app-on-hbase":
        expect_post("during-copy.id", DURING_COPY_TEXT)
        status, body = call("GET", "/api/v1/timeline", token=log_in("user0002"))
        if status != 200 or not body.get("items"):
            raise AssertionError("a demo user's timeline on HBase: %s %s" % (status, body))
        post("user0001", ON_HBASE_TEXT, "on-hbase.id")
    elif name == "app-rolled-back":
        expect_post("during-copy.id", DURING_COPY_TEXT)
        expect_post("on-hbase.id", ON_HBASE_TEXT)
    else:
        raise AssertionError("unknown hook " + name)
    print("doc-test hook %s: ok" % name, flush=True)


# --- the test --------------------------------------------------------------------------------

basalt_run = hbase_test_util.basalt


def drop_app_namespace(basalt, hbase):
    listed = basalt_run(basalt, "--data", hbase, "list", "app", check=False)
    for t in [line.strip() for line in listed.splitlines() if line.startswith("app:")]:
        basalt_run(basalt, "--data", hbase, "drop", t, check=False)
    basalt_run(basalt, "--data", hbase, "drop-namespace", "app", check=False)


def wait_for_http(port, proc, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("basalt serve exited with %d" % proc.returncode)
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/version/cluster" % port, timeout=2)
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise RuntimeError("basalt serve did not answer within %d s" % seconds)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--hook":
        run_hook(sys.argv[2])
        return 0
    if len(sys.argv) not in (2, 3):
        print(__doc__)
        return 2
    basalt = os.path.abspath(sys.argv[1])
    doc = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "operations.md")
    found = hbase_test_util.hbase_from_environment()
    if found is None:
        return 1
    hbase = found[0]
    with open(doc) as f:
        script, blocks, hooks = script_of(f.read())
    if blocks < 5 or hooks != ["write-during-copy", "app-on-hbase", "app-rolled-back"]:
        print("FAIL: the section has %d blocks and hooks %s" % (blocks, hooks))
        return 1

    top = tempfile.mkdtemp(prefix="basalt_migration_doc_")
    bin_dir = os.path.join(top, "bin")
    os.mkdir(bin_dir)
    os.symlink(basalt, os.path.join(bin_dir, "basalt"))
    env = dict(os.environ)
    env.update({
        "PATH": bin_dir + os.pathsep + env.get("PATH", ""),
        "DATA": os.path.join(top, "data"),
        "BACKUPS": os.path.join(top, "backups"),
        "APP_PORT": str(free_port()),
        "HBASE": hbase,
        "WORK": os.path.join(top, "work"),
        "ROLLBACK": os.path.join(top, "rollback"),
        "DOC_TEST": os.path.abspath(__file__),
        "DOC_TEST_PYTHON": sys.executable,
    })
    app = None
    script_proc = None
    try:
        drop_app_namespace(basalt, hbase)
        basalt_run(basalt, "--data", env["DATA"], "demo", "load", "--users", "40", "--posts",
                   "200", "--actions", "500", "--items", "30", "--clicks", "500")
        app = subprocess.Popen(
            [basalt, "serve", "--data", env["DATA"], "--port", env["APP_PORT"],
             "--thrift-port", "0", "--thrift1-port", "0", "--hbase-rpc-port", "0",
             "--backup-dir", env["BACKUPS"]],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_http(int(env["APP_PORT"]), app)
        # Reaped as soon as it exits, so that the script's `kill -0` loop sees it gone.
        threading.Thread(target=app.wait, daemon=True).start()
        env["BASALT_PID"] = str(app.pid)

        t0 = time.monotonic()
        script_proc = subprocess.Popen(["bash", "-c", "set -euo pipefail\n" + script], env=env,
                                       cwd=top, start_new_session=True)
        rc = script_proc.wait(timeout=900)
        print("the section's %d blocks ran in %.1f s, exit %d" %
              (blocks, time.monotonic() - t0, rc), flush=True)
        if rc != 0:
            print("FAIL: the section's script exited with %d; the script was:\n%s" % (rc, script))
            return 1

        # Step 2's pre-split: the follow graph's tables start with 8 regions on HBase.
        desc = json.loads(basalt_run(basalt, "--data", hbase, "--json", "describe",
                                     "app:follow_follows"))
        splits = desc.get("split_keys", [])
        if len(splits) != 7:
            print("FAIL: app:follow_follows on HBase has split keys %s, not 7" % splits)
            return 1
    finally:
        if script_proc is not None and script_proc.poll() is None:
            os.killpg(script_proc.pid, signal.SIGKILL)
        if script_proc is not None:
            try:
                os.killpg(script_proc.pid, signal.SIGTERM)  # a server the script left running
            except ProcessLookupError:
                pass
        if app is not None and app.poll() is None:
            app.kill()
        drop_app_namespace(basalt, hbase)
        shutil.rmtree(top, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
