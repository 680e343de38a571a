#!/usr/bin/env python3
"""Runs the shell examples of README.md, in order, as a newcomer pasting them would.

  readme_test.py --basalt BIN [--readme README.md]

Every ```sh block is run, one command at a time (a line ending in `\\` continues), unless the line
before its fence is `<!-- readme-test: skip REASON -->` (usage synopses, the set-up commands that
build and serve). The commands a block may hold:

  scripts/run.sh ARGS        runs `BIN --data STORE ARGS` (what scripts/run.sh does), on a fresh
                             temporary STORE shared by the whole README
  basalt ARGS                runs `BIN ARGS`; `thrift://127.0.0.1:9090` is the server below
  curl ARGS                  against a `basalt serve` this test starts on free loopback ports
                             (its own store): `http://127.0.0.1:8080` is replaced by its address

A command fails if it exits non-zero, and a curl if it gets an HTTP status of 400 or more. A
curl's trailing comment is what it should print: a status (`# 201`, `# 201, Location: ...`) or
the body (`# Alice`); comment lines under a curl are its body, with `...` matching anything.
Other trailing comments are explanations. ```cpp blocks are compiled by the build instead
(tests/CMakeLists.txt, target basalt_readme_example). On failure it prints the README line.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile

SKIP = re.compile(r"<!--\s*readme-test:\s*skip\b(.*?)-->")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
DEFAULT_HTTP = "http://127.0.0.1:8080"
DEFAULT_THRIFT = "thrift://127.0.0.1:9090"


class Failure(Exception):
    pass


def split_comment(line):
    """Splits `code  # comment` at the first # that starts a shell comment (outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                continue
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), None


def examples(readme):
    """Yields (line number, command, trailing comment, [comment lines under it]) per command of
    every runnable sh block; lists the blocks skipped and why."""
    text = open(readme, encoding="utf-8").read()
    skipped = []
    for block in FENCE.finditer(text):
        lang, body = block.group(1), block.group(2)
        first = text.count("\n", 0, block.start()) + 2  # line number of the block's first line
        before = text[:block.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if lang != "sh":
            continue
        m = SKIP.search(before)
        if m:
            skipped.append((first - 1, m.group(1).strip()))
            continue
        lines = body.split("\n")
        i = 0
        current = None
        while i < len(lines):
            number, line = first + i, lines[i]
            i += 1
            if not line.strip():
                continue
            if line.lstrip().startswith("#"):
                if current is None:
                    raise Failure(f"README.md:{number}: a comment line under no command: {line}")
                current[3].append(line.lstrip()[1:].strip())
                continue
            while line.endswith("\\") and i < len(lines):
                line = line[:-1] + " " + lines[i].strip()
                i += 1
            code, comment = split_comment(line)
            if current:
                yield current
            current = (number, code, comment, [])
        if current:
            yield current
    for number, reason in skipped:
        print(f"README.md:{number}: block skipped: {reason}")


class Server:
    def __init__(self, binary, data):
        self.proc = subprocess.Popen(
            [binary, "serve", "--data", data, "--port", "0", "--thrift-port", "0",
             "--thrift1-port", "0", "--hbase-rpc-port", "0", "--access-log", os.devnull],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # A line per protocol server (Thrift2 first), then the ready line, or EOF if it failed.
        thrift = re.search(r"thrift2 on ([0-9.]+:\d+)", self.proc.stdout.readline())
        line = self.proc.stdout.readline()
        while line and "listening on" not in line:
            line = self.proc.stdout.readline()
        http = re.search(r"listening on (http://[0-9.]+:\d+)", line)
        if not thrift or not http:
            self.proc.kill()
            raise Failure(f"basalt serve did not start: {self.proc.stderr.read()!r}")
        self.thrift = "thrift://" + thrift.group(1)
        self.http = http.group(1)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("basalt serve did not stop on SIGTERM")
        if status != 0:
            raise Failure(f"basalt serve exited {status} on SIGTERM: {self.proc.stderr.read()}")


def expect_body(body, pattern, where):
    regex = ".*".join(re.escape(part) for part in pattern.split("..."))
    if not re.fullmatch(regex, body.strip(), re.S):
        raise Failure(f"{where}: printed {body.strip()!r}, the README says {pattern!r}")


def run(args, tmp):
    store = os.path.join(tmp, "store")
    out = os.path.join(tmp, "curl.out")
    env = dict(os.environ, BASALT=args.basalt, STORE=store, OUT=out, HOME=tmp)
    server = None
    count = 0
    try:
        for number, code, comment, below in examples(args.readme):
            where = f"README.md:{number}: {code}"
            word = code.split()[0]
            if word in ("curl", "basalt") or DEFAULT_THRIFT in code:
                if server is None:
                    server = Server(args.basalt, os.path.join(tmp, "server"))
                code = code.replace(DEFAULT_HTTP, server.http).replace(DEFAULT_THRIFT, server.thrift)
            if word == "scripts/run.sh":
                command = '"$BASALT" --data "$STORE"' + code[len(word):]
            elif word == "basalt":
                command = '"$BASALT"' + code[len(word):]
            elif word == "curl":
                command = "curl -sS -o \"$OUT\" -w '%{http_code}'" + code[len(word):]
            else:
                raise Failure(f"{where}: not a command this test knows how to run (scripts/run.sh, "
                              "basalt, curl); mark the block <!-- readme-test: skip REASON -->")
            done = subprocess.run(["bash", "-c", command], env=env, cwd=tmp, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            if done.returncode != 0:
                raise Failure(f"{where}: exit status {done.returncode}\n{done.stdout}{done.stderr}")
            if word == "curl":
                status = done.stdout.strip()
                with open(out, encoding="utf-8", errors="replace") as f:
                    body = f.read()
                m = re.match(r"(\d{3})\b", comment or "")
                if (m and status != m.group(1)) or (not m and int(status) >= 400):
                    raise Failure(f"{where}: HTTP {status}, the README says {comment!r}\n{body}")
                if comment and not m:
                    expect_body(body, comment, where)
                for pattern in below:
                    expect_body(body, pattern, where)
            count += 1
    finally:
        if server is not None:
            server.stop()
    if count == 0:
        raise Failure("no example found in the README")
    print(f"{count} README commands ran")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--basalt", required=True)
    parser.add_argument("--readme", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                         "..", "..", "README.md"))
    args = parser.parse_args()
    args.basalt = os.path.abspath(args.basalt)
    with tempfile.TemporaryDirectory(prefix="basalt-readme-") as tmp:
        try:
            run(args, tmp)
        except Failure as e:
            print(f"FAIL {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
