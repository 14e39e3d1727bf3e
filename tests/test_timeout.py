"""The per-file time budget (`file-timeout`): a file that takes too long is one NAN000
finding, in this process and in the worker pool, and the scan goes on."""

import json
import signal
import subprocess
import sys
import threading
import time

import pytest

from cli_helpers import TF_LOG, make
from conftest import options_for
from nanlint import budget, parsing, runner
from nanlint.budget import FileTimeout, within_budget
from nanlint.config import Config
from nanlint.engine import lint_bytes, lint_text
from nanlint.rule import Rule

# About 1 MB of TF code: seconds to analyse, far more than the budgets used here.
BIG = "import tensorflow as tf\n" + (
    "p = tf.nn.relu(z)\nx = tf.math.log(p) / tf.reduce_sum(p)\n" * 20_000)


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "finished"


def test_work_within_the_budget_returns_its_result():
    assert within_budget(5, lambda: spin(0.01)) == "finished"
    assert within_budget(0, lambda: spin(0.3)) == "finished"  # 0: no limit
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_the_budget_interrupts_and_restores_the_previous_handler_and_timer():
    calls = []
    previous = signal.signal(signal.SIGALRM, lambda *_: calls.append("theirs"))
    try:
        signal.setitimer(signal.ITIMER_REAL, 100)
        started = time.monotonic()
        with pytest.raises(FileTimeout):
            within_budget(0.05, lambda: spin(30))
        assert time.monotonic() - started < 10
        assert signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 90 < remaining < 100  # their timer goes on, less the time spent
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        spin(0.2)
        assert calls == ["theirs"]  # and their handler is back
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("work", [lambda: "finished", lambda: spin(30)])
def test_a_late_alarm_while_the_budget_closes_does_not_leave_it_running(monkeypatch, work):
    # The repeating alarm can land after the work, before the budget is disarmed; its
    # FileTimeout must not leave the timer repeating into the caller's code.
    close = budget._close_budget
    late = []

    def alarm_then_close(*args):
        if not late:
            late.append(True)
            raise FileTimeout()  # what _expire raises when the alarm lands here
        close(*args)

    monkeypatch.setattr(budget, "_close_budget", alarm_then_close)
    try:
        result = within_budget(0.05, work)
    except FileTimeout:
        result = "timed out"
    assert late and result in ("finished", "timed out")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL and not budget._alarm_armed[0]


def test_an_alarm_in_a_gc_callback_is_not_lost(capsys):
    """Python swallows an exception raised in a gc callback (or a ``__del__``): when every
    alarm lands there, the work that comes back late is still a timeout, and nothing is
    printed about the swallowed ones."""
    import gc

    def slow_callback(phase, info):
        if phase == "start":
            spin(0.1)

    def collect_again_and_again():
        for _ in range(10):
            gc.collect()
        return "finished"

    hook = sys.unraisablehook
    gc.callbacks.append(slow_callback)
    try:
        with pytest.raises(FileTimeout):
            within_budget(0.05, collect_again_and_again)
    finally:
        gc.callbacks.remove(slow_callback)
    assert "Exception ignored" not in capsys.readouterr().err
    assert sys.unraisablehook is hook
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert within_budget(5, lambda: "finished") == "finished"  # the next budget starts anew


def test_no_budget_outside_the_main_thread():
    results = []
    thread = threading.Thread(target=lambda: results.append(within_budget(0.01,
                                                                          lambda: spin(0.2))))
    thread.start()
    thread.join()
    assert results == ["finished"]


class Swallows(Rule):
    """A rule that loops forever and catches every Exception on the way."""

    code = "NAN997"

    def visit_Module(self, node):
        while True:
            try:
                spin(1)
            except Exception:  # noqa: BLE001 — what the budget must get through
                pass


def test_a_timeout_is_one_nan000_even_through_except_exception():
    options = options_for(["NAN000", "NAN102"])
    options.rules = [Swallows, *options.rules]
    options.file_timeout = 0.2
    [finding] = lint_bytes(TF_LOG.encode(), "stuck.py", options)
    assert (finding.code, finding.name, finding.line) == ("NAN000", "timeout", 1)
    assert finding.message == ("took longer than 0.2 s; not checked (raise `file-timeout` in "
                               "the configuration, or exclude the file)")
    options.engine_codes = frozenset()
    assert lint_bytes(TF_LOG.encode(), "stuck.py", options) == []  # NAN000 ignored


def test_decoded_text_has_the_same_budget():
    """lint_text (an editor's buffer, already decoded) times out like lint_bytes."""
    options = options_for(["NAN000", "NAN102"])
    options.rules = [Swallows, *options.rules]
    options.file_timeout = 0.2
    [finding] = lint_text(TF_LOG, "stuck.py", options)
    assert (finding.code, finding.name) == ("NAN000", "timeout")
    options.rules = options.rules[1:]
    assert [f.code for f in lint_text(TF_LOG, "fine.py", options)] == ["NAN102"]


def test_the_configuration_sets_the_budget():
    assert Config().options_for(None).file_timeout == 60
    assert Config(file_timeout=0.5).options_for(None).file_timeout == 0.5


@pytest.mark.parametrize("jobs, count", [("1", 3), ("2", runner.SERIAL_LIMIT + 4)])
def test_big_file_times_out_and_the_scan_goes_on(tmp_path, jobs, count):
    files = {f"good_{index:02}.py": TF_LOG for index in range(count)}
    make(tmp_path, {**files, "big.py": BIG, ".nanlint.yaml": "file-timeout: 1\n"})
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "nanlint", "check", "--preview", "--format", "json",
                             "--jobs", jobs], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120)
    assert time.monotonic() - started < 60
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert [(f["path"], f["code"]) for f in findings] == [("big.py", "NAN000")] + [
        (name, "NAN102") for name in sorted(files)]
    assert findings[0]["message"].startswith("took longer than 1 s; not checked")
    # A timeout depends on the machine's load: it is not cached, the good files are.
    entries = json.loads(next((tmp_path / ".nanlint_cache").glob("v*.json")).read_text())
    assert len(entries["entries"]) == 1


# -- the parse is under the budget too -------------------------------------------------------
def long_expression(terms):
    """One statement of ``terms`` terms on one line: libcst's native parse of it takes time
    that grows faster than linearly (2,000 terms, 80 KB: several seconds; from about 3,000
    Python itself cannot compile it), and no alarm stops it."""
    return ("import tensorflow as tf\nloss = " + " + ".join(
        f"tf.math.log(tf.nn.relu(weights_{i}) * scale_{i})" for i in range(terms)) + "\n")


def test_a_stuck_native_parse_is_reported_at_the_limit():
    from dataclasses import replace

    limit = 2.0
    options = replace(options_for(), file_timeout=limit)
    # Calibration in this run: a statement long enough to be parsed the same way (in a
    # child process), but quick; what it costs on this machine now bounds the overhead.
    started = time.monotonic()
    calibration = lint_bytes(long_expression(60).encode(), "short.py", options)
    overhead = time.monotonic() - started
    assert [f.code for f in calibration] == ["NAN102"] * 60
    started = time.monotonic()
    [finding] = lint_bytes(long_expression(2000).encode(), "huge.py", options)
    elapsed = time.monotonic() - started
    assert (finding.code, finding.name) == ("NAN000", "timeout")
    assert elapsed < limit + max(0.5, 2 * overhead), (elapsed, overhead)


def test_a_file_parsed_in_a_child_process_has_the_same_findings():
    from dataclasses import replace

    source = long_expression(60).encode()
    assert len(source) > parsing.LONG_STATEMENT
    budget = lint_bytes(source, "a.py", replace(options_for(), file_timeout=60))
    assert budget == lint_bytes(source, "a.py", options_for())  # no budget: no child
    assert len(budget) == 60 and budget[0].source_lines


def test_a_short_file_is_not_parsed_in_a_child(monkeypatch):
    from dataclasses import replace

    monkeypatch.setattr(budget, "in_child", lambda *args: pytest.fail("forked"))
    assert lint_bytes(TF_LOG.encode(), "a.py", replace(options_for(), file_timeout=60))
    long_docstring = 'import tensorflow as tf\n"""' + "words " * 1000 + '"""\n' + TF_LOG
    long_docstring += "match x:\n    case 1:\n        y = 2\n"
    assert lint_bytes(long_docstring.encode(), "a.py", replace(options_for(), file_timeout=60))
