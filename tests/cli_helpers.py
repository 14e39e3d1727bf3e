"""Helpers shared by the command-line tests: temporary projects and in-process runs."""

import json
import re
from pathlib import Path

import pytest

from conftest import run_cli
from nanlint.cli import main

# One NAN102 finding at line 3, column 8 (end column 22).
TF_LOG = "import tensorflow as tf\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n"
# One finding of a stable rule (on by default): NAN103 at line 3, column 8.
TF_SOFTMAX_LOG = "import tensorflow as tf\np = tf.nn.softmax(z)\nloss = tf.math.log(p)\n"
# Nothing to report.
TF_CLEAN = "import tensorflow as tf\nloss = tf.nn.log_softmax(z)\n"
# NAN101 and NAN102 (high) at line 4, NAN102 (low) at line 8, NAN201 (medium) at line 12.
TF_MIXED = """import tensorflow as tf
c = tf.reduce_sum(tf.cast(y > 0, tf.float32))
p = tf.nn.relu(z)
r = tf.math.log(p) / c


def my_loss(y_true, y_pred):
    return tf.reduce_mean(tf.math.log(y_pred))


def rmse(y_true, y_pred):
    return tf.sqrt(tf.reduce_mean(tf.square(y_true - y_pred)))
"""
# NAN101 on line 4 only while `check-divide-no-nan` is on.
TF_DIVIDE_NO_NAN = """import tensorflow as tf
def ratio_loss(target, logits_a, logits_b):
    p_joint = tf.sigmoid(logits_a) * tf.sigmoid(logits_b)
    return tf.reduce_mean(tf.math.divide_no_nan(target, p_joint))
"""

FINDING_KEYS = {"code", "name", "severity", "confidence", "path", "cell", "line", "column",
                "end_line", "end_column", "message", "suggestion", "fix", "evidence",
                "gradient"}
FINDING_LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<column>\d+): (?P<code>NAN\d{3})"
                          r"(?P<marker> \[\*\])? (?P<severity>error|warning|info): "
                          r"(?P<message>\S.*)$")


def make(root: Path, files: dict, git: bool = True) -> Path:
    """Write ``files`` (name → str or bytes) under ``root``.

    With ``git``, ``root`` gets a ``.git`` folder: the configuration search and the
    .gitignore chain stop there, so nothing outside the temporary folder leaks in.
    """
    root.mkdir(parents=True, exist_ok=True)
    if git:
        (root / ".git").mkdir(exist_ok=True)
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def with_preview(args) -> list:
    """``args`` of a `check` with `--preview` added (the other commands as they are)."""
    args = list(args)
    if args[:1] == ["check"] and "--preview" not in args:
        return ["check", "--preview", *args[1:]]
    return args


def check_json(*args, cwd):
    """`nanlint check --format json ARGS` in a subprocess: (result, parsed document)."""
    result = run_cli("check", "--format", "json", *args, cwd=cwd)
    assert result.stdout, f"no JSON on stdout; exit {result.returncode}, stderr {result.stderr!r}"
    return result, json.loads(result.stdout)


def codes_at(document):
    """(path, line, code) of every finding in a JSON document, sorted."""
    return sorted((f["path"], f["line"], f["code"]) for f in document["findings"])


def assert_one_line_error(stderr: str, *fragments: str) -> None:
    """stderr is one `nanlint: error: ...` line containing every fragment, no traceback."""
    assert "Traceback" not in stderr, stderr
    assert stderr.startswith("nanlint: error: "), stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, f"not one line: {stderr!r}"
    for fragment in fragments:
        assert fragment in stderr, f"{fragment!r} not in {stderr!r}"


@pytest.fixture
def nanlint(monkeypatch, capsys):
    """Run ``nanlint.cli.main(args)`` in this process from ``cwd``: (exit code, out, err).
    `check` runs every rule, preview ones too (these tests exercise the command line with
    the rules as examples); ``preview=False`` runs it as a user's default does."""
    def run(*args, cwd, preview=True):
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        try:
            code = main(with_preview(args) if preview else list(args))
        except SystemExit as exit_:  # argparse errors and --version
            code = exit_.code
        out, err = capsys.readouterr()
        return code, out, err
    return run


@pytest.fixture(autouse=True)
def _no_colour_variables(monkeypatch):
    """The tests decide about colour, not the environment they run in."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
