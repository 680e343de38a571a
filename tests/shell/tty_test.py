#!/usr/bin/env python3
"""`basalt shell` on a pseudo-terminal: prompts, Tab completion, line editing (Ctrl-A,
backspace), history (up arrow, and ~/.basalt_history written at exit), multi-line input, Ctrl-C
cancelling a line and stopping a running command, non-ASCII input."""

import argparse
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time


class Terminal:
    """The program on a new pseudo-terminal that is its controlling terminal (so Ctrl-C typed
    there sends SIGINT, as in a real terminal)."""

    def __init__(self, args, env):
        pid, self.master = pty.fork()
        if pid == 0:
            os.execve(args[0], args, env)
        self.pid = pid

    def wait(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:  # keep draining so the child never blocks on a full terminal
                os.read(self.master, 4096)
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError("the shell did not exit")

    def send(self, text):
        os.write(self.master, text.encode())

    def expect(self, pattern, timeout=30):
        """Reads until `pattern` (bytes regex) appears in the output read since the last call."""
        buf = b""
        deadline = time.time() + timeout
        while time.time() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                break
            if not data:
                break
            buf += data
            if re.search(pattern, buf, re.S):
                return buf
        raise AssertionError(f"did not see {pattern!r}; got {buf!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--basalt", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="basalt-tty-") as home:
        env = dict(os.environ, HOME=home, TERM="xterm")
        # A table big enough that scanning it outlasts the terminal's buffer (for Ctrl-C below).
        fill = "create 'big', 'f'\n" + "".join(
            f"put 'big', 'r{i:05d}', 'f:q', '{'v' * 60}'\n" for i in range(3000))
        subprocess.run([args.basalt, "shell", "--data", os.path.join(home, "data")],
                       input=fill.encode(), env=env, check=True, stdout=subprocess.DEVNULL)
        t = Terminal([args.basalt, "shell", "--data", os.path.join(home, "data")], env)
        t.expect(rb"basalt:001:0> ")
        t.send("create 't', 'f'\r")
        t.expect(rb"Created table t\r\nTook [0-9.]+ seconds\r\n.*basalt:002:0> ")
        t.send("put 't', 'r1', 'f:q', 'v'\r")
        t.expect(rb"basalt:003:0> ")
        # Tab completes the command name.
        t.send("sca\t't'\r")
        t.expect(rb"column=f:q, timestamp=\d+, value=v\r\n1 row\(s\).*basalt:004:0> ")
        # After a quote, Tab completes a table name and closes the quote.
        t.send("create 'users', 'f'\r")
        t.expect(rb"Created table users.*basalt:005:0> ")
        t.send("describe 'us\t\r")
        t.expect(rb"Table users is ENABLED.*basalt:006:0> ")
        # Ctrl-A goes to the start of the line; backspace deletes the X.
        t.send("'t', 'r1X\x7f'\x01get \r")
        t.expect(rb"f:q +timestamp=\d+, value=v\r\n1 row\(s\).*basalt:007:0> ")
        # Up arrow recalls the previous command.
        t.send("\x1b[A\r")
        t.expect(rb"f:q +timestamp=\d+, value=v\r\n1 row\(s\).*basalt:008:0> ")
        # An open brace continues the command on the next line.
        t.send("scan 't', {\r")
        t.expect(rb"basalt:008:1\* ")
        t.send("LIMIT => 1}\r")
        t.expect(rb"1 row\(s\).*basalt:009:0> ")
        # Ctrl-C drops the command being typed (here a continued one) and prompts again.
        t.send("scan 't', {\r")
        t.expect(rb"basalt:009:1\* ")
        # As a person would: the interrupt comes after the typed text has been echoed (sent in
        # one write, the interrupt could reach the shell while it was still taking the text).
        t.send("LIM")
        t.expect(rb"LIM")
        t.send("\x03")
        t.expect(rb"basalt:009:0> ")
        t.send("count 't'\r")
        t.expect(rb"1 row\(s\).*basalt:010:0> ")
        # A failed command does not end the session.
        t.send("get 'nope', 'r'\r")
        t.expect(rb"ERROR: NotFound: .*basalt:011:0> ")
        # Ctrl-C stops a running command; the next command then runs (it used to be dropped
        # as if the same Ctrl-C had cancelled it too).
        t.send("scan 'big'\r")
        time.sleep(0.5)  # not reading: the shell fills the terminal's buffer and waits
        t.send("\x03")
        t.expect(rb"ERROR: Aborted: interrupted\r\nbasalt:012:0> ")
        t.send("count 'big'\r")
        t.expect(rb"3000 row\(s\).*basalt:013:0> ")
        # Non-ASCII input reaches the store as UTF-8, whatever the locale (it was dropped).
        t.send("put 't', 'r2', 'f:q', '\u00e9\u20ac'\r")
        t.expect(rb"basalt:014:0> ")
        t.send("get 't', 'r2'\r")
        t.expect(rb"value=\\xC3\\xA9\\xE2\\x82\\xAC\r\n1 row\(s\).*basalt:015:0> ")
        # Ctrl-C arriving while the shell still takes the keys before it (one write) cancels
        # the line at once, not at the next key.
        t.send("LIM\x03")
        t.expect(rb"basalt:015:0> ", timeout=10)
        t.send("exit\r")
        status = t.wait()
        assert status == 0, f"exit status {status}"
        with open(os.path.join(home, ".basalt_history"), "rb") as f:
            history = f.read()
        for command in (b"create", b"sca", b"LIMIT", b"exit"):
            assert command in history, f"{command!r} not in history {history!r}"
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
