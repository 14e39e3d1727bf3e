"""The progress bar: on a terminal for a long scan, never in pipes, CI or machine formats."""

import os
import pty
import subprocess
import sys
import threading

import pytest

from cli_helpers import make
from nanlint import progress

MANY = progress.MIN_FILES + 1


class Stream:
    def __init__(self, tty):
        self.tty = tty

    def isatty(self):
        return self.tty


@pytest.mark.parametrize("tty, files, output_format, quiet, environ, expected", [
    (True, MANY, "text", False, {}, True),
    (True, MANY, "text", False, {"CI": "false"}, True),
    (True, progress.MIN_FILES, "text", False, {}, False),  # a short scan
    (False, MANY, "text", False, {}, False),  # a pipe or a file
    (True, MANY, "json", False, {}, False),  # machine-readable output
    (True, MANY, "text", True, {}, False),  # --quiet
    (True, MANY, "text", False, {"CI": "true"}, False),  # a CI log
    (True, MANY, "text", False, {"CI": "1"}, False),
    (True, MANY, "text", False, {"TERM": "dumb"}, False),
])
def test_when_a_bar_is_wanted(tty, files, output_format, quiet, environ, expected):
    assert progress.wanted(Stream(tty), files, output_format, quiet, environ) is expected


def test_a_stream_without_isatty_gets_no_bar():
    assert progress.wanted(object(), MANY, "text", False, {}) is False


def _project(tmp_path):
    files = {f"m{index:03}.py": "import tensorflow as tf\nx = tf.exp(y)\n"
             for index in range(MANY + 10)}
    return make(tmp_path, files)


def _environment(**extra):
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "TERM")}
    env.update(extra)
    return env


def _run_with_stderr_on_a_terminal(cwd, env):
    """Run `nanlint check --no-cache` with stderr on a pseudo-terminal: (stdout, terminal)."""
    master, slave = pty.openpty()
    child = subprocess.Popen([sys.executable, "-m", "nanlint", "check", "--no-cache"],
                             cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = []

    def drain():  # read the terminal while the child runs, so that it never blocks on it
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the child closed its side
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    stdout = child.stdout.read().decode()
    child.wait(timeout=300)
    reader.join(timeout=30)
    os.close(master)
    return stdout, b"".join(seen).decode(errors="replace")


def test_a_terminal_shows_the_bar_and_stdout_stays_clean(tmp_path):
    _project(tmp_path)
    stdout, terminal = _run_with_stderr_on_a_terminal(tmp_path, _environment(TERM="xterm"))
    assert f"/{MANY + 10}" in terminal and "checking" in terminal
    assert stdout == f"No findings in {MANY + 10} files.\n"


def test_no_bar_in_ci_even_on_a_terminal(tmp_path):
    _project(tmp_path)
    _, terminal = _run_with_stderr_on_a_terminal(tmp_path, _environment(TERM="xterm",
                                                                        CI="true"))
    assert terminal == ""


def test_no_bar_in_pipes(tmp_path):
    _project(tmp_path)
    result = subprocess.run([sys.executable, "-m", "nanlint", "check", "--no-cache"],
                            cwd=tmp_path, env=_environment(TERM="xterm"), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout == f"No findings in {MANY + 10} files.\n"
