"""Fixes and help that say the same thing: the message names what the code computes, the help
line shows the code the fix writes (with the configured epsilon, in the division's own form,
never cut into unbalanced code), a safe fix is never replaced by an unsafe one, one division
is one finding, and a fix keeps the project's line length."""

import ast
import dataclasses
import re
import textwrap

import pytest

from cli_helpers import make, nanlint  # noqa: F401  (a fixture)
from conftest import FIXTURES, options_for, run_cli
from nanlint.analysis.settings import Settings
from nanlint.engine import lint_source
from nanlint.finding import Finding
from nanlint.fixing import SAFETIES, apply_edits, fix_source

SAFE, UNSAFE = SAFETIES["safe"], SAFETIES["unsafe"]


def _options(codes=None, **settings):
    options = options_for(codes)
    return dataclasses.replace(options, settings=Settings(**settings)) if settings else options


def _lint(source, codes=None, **settings):
    return lint_source(source, "case.py", _options(codes, **settings))


def _fixed(source, codes=None, safeties=UNSAFE, **settings):
    return fix_source(source, "case.py", _options(codes, **settings), safeties)


POWERS = """import tensorflow as tf


def power_loss(y, p):
    d = tf.reduce_sum(tf.square(y - p))
    return tf.pow(d, 0.2) + d ** 0.2


def root_loss(x):
    h = tf.nn.relu(x)
    return tf.reduce_mean(tf.pow(h, 0.5))
"""


def test_a_fractional_power_is_not_called_a_square_root():
    call, operator, root = _lint(POWERS, ["NAN201"])
    for finding in (call, operator):
        assert finding.message.startswith("fractional power 0.2 of `d`"), finding.message
        assert "square root" not in finding.message + finding.suggestion
    assert call.suggestion == "add an epsilon inside the power: `tf.pow(d + 1e-7, 0.2)`"
    assert operator.suggestion == "add an epsilon inside the power: `(d + 1e-7) ** 0.2`"
    assert root.message.startswith("square root of `h`")
    assert root.suggestion == "add an epsilon inside the root: `tf.pow(h + 1e-7, 0.5)`"
    fixed = _fixed(POWERS, ["NAN201"]).text
    assert "tf.pow(d + 1e-7, 0.2) + (d + 1e-7) ** 0.2" in fixed  # what the help shows
    assert "tf.pow(h + 1e-7, 0.5)" in fixed


@pytest.mark.parametrize("source, fused", [
    ("import tensorflow as tf\n\n\ndef one_sided_loss(y, z):\n"
     "    return -tf.reduce_sum(y * tf.math.log(tf.sigmoid(z)))\n", "tf.math.log_sigmoid(z)"),
    ("from keras import ops\n\n\ndef one_sided_loss(y, z):\n"
     "    return -ops.sum(y * ops.log(ops.sigmoid(z)))\n", "ops.log_sigmoid(z)"),
])
def test_a_one_sided_sigmoid_cross_entropy_is_helped_to_log_sigmoid(source, fused):
    [finding] = _lint(source, ["NAN103"])
    assert f"`{fused}`" in finding.suggestion, finding.suggestion
    assert "cross_entropy_with_logits" not in finding.suggestion
    assert "binary_crossentropy" not in finding.suggestion
    assert fused in _fixed(source, ["NAN103"]).text


def _balanced(code: str) -> bool:
    depth = 0
    for char in re.sub(r"'[^']*'|\"[^\"]*\"", "", code):
        depth += (char in "([{") - (char in ")]}")
        if depth < 0:
            return False
    return depth == 0


def test_help_shows_a_long_numerator_whole():
    source = ("import tensorflow as tf\n\n\ndef masked_loss(per_example_loss, labels):\n"
              "    count = tf.reduce_sum(tf.cast(labels > 0, tf.float32))\n"
              "    return tf.reduce_sum(per_example_loss * tf.cast(labels > 0, tf.float32)) "
              "/ count\n")
    [finding] = _lint(source, ["NAN101"])
    assert ("`tf.reduce_sum(per_example_loss * tf.cast(labels > 0, tf.float32)) / "
            "tf.maximum(count, 1)`") in finding.suggestion
    assert "..." not in finding.suggestion


def test_no_help_line_cuts_code_into_unbalanced_brackets():
    """Every piece of code a help line quotes, on every fixture, is balanced."""
    checked = 0
    for path in sorted(FIXTURES.glob("NAN*.py")):
        for finding in lint_source(path.read_text(encoding="utf-8"), path.name,
                                   options_for()):
            for code in re.findall(r"`([^`]+)`", finding.suggestion or ""):
                checked += 1
                assert _balanced(code), (path.name, finding.line, code)
    assert checked > 100


def test_an_augmented_division_is_helped_in_its_own_form():
    source = ("import tensorflow as tf\n\n\ndef mean_loss(x, labels):\n"
              "    total = tf.reduce_sum(x)\n"
              "    total /= tf.reduce_sum(tf.cast(labels > 0, tf.float32))\n"
              "    return total\n\n\ndef norm_loss(x):\n    h = tf.nn.relu(x)\n"
              "    h /= tf.reduce_sum(h)\n    return h\n")
    count, continuous = _lint(source, ["NAN101"])
    assert count.suggestion.startswith(
        "clamp the count: `total /= tf.maximum(tf.reduce_sum(tf.cast(labels > 0, "
        "tf.float32)), 1)`"), count.suggestion
    assert "`total = tf.math.divide_no_nan(total, " in count.suggestion
    assert continuous.suggestion == ("add an epsilon to the denominator: "
                                     "`h /= tf.reduce_sum(h) + 1e-7`")
    assert "h /= tf.reduce_sum(h) + 1e-7\n" in _fixed(source, ["NAN101"]).text


WHERE_COUNT = """import tensorflow as tf


def mean_loss(per_example, labels):
    count = tf.reduce_sum(tf.cast(labels > 0, tf.float32))
    total = tf.reduce_sum(per_example)
    return tf.where(tf.equal(count, 0), 0.0, total / count)
"""


def test_one_division_is_one_finding():
    """A division guarded by a where is NAN204's (the value is guarded, the gradient is not),
    not NAN101's as well."""
    [finding] = _lint(WHERE_COUNT, ["NAN101", "NAN204"])
    assert finding.code == "NAN204"
    # With NAN204 off, the division is NAN101's again.
    assert [f.code for f in _lint(WHERE_COUNT, ["NAN101"])] == ["NAN101"]


def test_a_division_by_a_count_under_a_where_keeps_its_safe_clamp():
    [finding] = _lint(WHERE_COUNT, ["NAN101", "NAN204"])
    assert finding.fix["safety"] == "safe"
    assert finding.suggestion.startswith("clamp the count: `total / tf.maximum(count, 1)`")
    for safeties in (SAFE, UNSAFE):  # --unsafe-fixes does not trade it for the double where
        outcome = _fixed(WHERE_COUNT, ["NAN101", "NAN204"], safeties)
        assert "total / tf.maximum(count, 1))" in outcome.text, outcome.text
        assert "ones_like" not in outcome.text and outcome.findings == []


def test_a_division_by_a_count_assigned_before_the_where_keeps_its_safe_clamp():
    source = WHERE_COUNT.replace("    return tf.where(tf.equal(count, 0), 0.0, total / count)\n",
                                 "    mean = total / count\n"
                                 "    return tf.where(count > 0, mean, 0.0)\n")
    [finding] = _lint(source, ["NAN101", "NAN204"])
    assert finding.code == "NAN204" and finding.fix["safety"] == "safe"
    assert finding.suggestion.startswith("clamp the count: `mean = total / tf.maximum(count, "
                                         "1)`")
    outcome = _fixed(source, ["NAN101", "NAN204"], SAFE)
    assert "    mean = total / tf.maximum(count, 1)\n" in outcome.text
    assert outcome.findings == []


def _finding(line, column, end_column, safety, replacement, code="NAN101"):
    return Finding(code=code, name="x", severity="error", confidence="high", path="a.py",
                   line=line, column=column, end_line=line, end_column=end_column,
                   message="m", fix={"safety": safety, "description": "d", "edits": [
                       {"line": line, "column": column, "end_line": line,
                        "end_column": end_column, "replacement": replacement}]})


def test_an_unsafe_fix_waits_for_an_overlapping_safe_one():
    text = "r = f(a / n)\n"
    unsafe = _finding(1, 5, 13, "unsafe", "g(a / n)", "NAN204")  # starts first
    safe = _finding(1, 11, 12, "safe", "max(n, 1)")
    new, applied, _ = apply_edits(text, [unsafe, safe])
    assert new == "r = f(a / max(n, 1))\n"
    assert [f for f, _ in applied] == [safe]


def test_help_names_the_configured_epsilon():
    source = ("import tensorflow as tf\n\n\ndef losses(y, p, x):\n"
              "    h = tf.nn.relu(x)\n"
              "    a = tf.math.log(h)\n"
              "    b = tf.sqrt(tf.reduce_mean(tf.square(y - p)))\n"
              "    c = tf.sqrt(tf.reduce_sum(tf.square(y - p)))\n"
              "    d = tf.reduce_mean(h) / tf.reduce_sum(h)\n"
              "    return a + b + c + d\n")
    findings = _lint(source, ["NAN101", "NAN102", "NAN201", "NAN202"], fix_epsilon=1e-5)
    assert len(findings) == 4
    for finding in findings:
        assert "1e-5" in finding.suggestion and "1e-7" not in finding.suggestion, (
            finding.code, finding.suggestion)
        assert all("1e-5" in edit["replacement"] for edit in finding.fix["edits"])


# -- line length -----------------------------------------------------------------------------
LONG = """import tensorflow as tf


class Model:
\tdef masked_loss(self, per_example_loss_values, labels):
\t\tpositive = tf.cast(labels > 0, tf.float32)
\t\treturn tf.reduce_sum(per_example_loss_values * positive) / tf.reduce_sum(positive)
"""


def test_a_fix_breaks_inside_brackets_to_keep_the_line_length():
    outcome = _fixed(LONG, ["NAN101"], SAFE)
    assert outcome.fixed == 1
    lines = outcome.text.splitlines()
    assert max(len(line.expandtabs(1)) for line in lines) <= 88, outcome.text
    assert lines[6:] == ["\t\treturn tf.reduce_sum(per_example_loss_values * positive) / "
                         "tf.maximum(",
                         "\t\t\ttf.reduce_sum(positive), 1", "\t\t)"]  # the file's tabs
    ast.parse(outcome.text)


def test_a_line_length_that_fits_writes_one_line():
    outcome = _fixed(LONG, ["NAN101"], SAFE, line_length=120)
    assert outcome.text == LONG.replace("/ tf.reduce_sum(positive)",
                                        "/ tf.maximum(tf.reduce_sum(positive), 1)")


def test_a_fix_breaks_the_outer_brackets_when_its_own_do_not_suffice():
    source = textwrap.dedent("""\
        import tensorflow as tf


        def rmse_loss(y, p):
            return tf.sqrt(tf.reduce_mean(tf.square(y - p)), name="root_mean_squared_error_log")
        """)
    text = _fixed(source, ["NAN201"]).text
    assert text.endswith("    return tf.sqrt(\n        tf.reduce_mean(tf.square(y - p)) + 1e-7, "
                         "name=\"root_mean_squared_error_log\"\n    )\n"), text


@pytest.mark.parametrize("files, length", [
    ({".nanlint.yaml": "line-length: 100\n"}, 100),
    ({".nanlint.yaml": "line-length: 120\n"}, 120),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, 100),
    ({"pyproject.toml": "[tool.black]\nline-length = 100\n"}, 100),
    ({"pyproject.toml": "[tool.ruff]\nline-length = 100\n[tool.black]\nline-length = 130\n"},
     100),
    ({".nanlint.yaml": "line-length: 120\n",
      "pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, 120),
    ({}, 88),
])
def test_the_line_length_comes_from_the_configuration_else_ruff_else_black(
        tmp_path, files, length):
    # Fixed on one line, the division is 114 characters long.
    source = ("import tensorflow as tf\n\n\ndef loss(values, labels):\n"
              "    positive = tf.cast(labels > 0, tf.float32)\n"
              "    return tf.reduce_sum(values * positive) / tf.reduce_sum(positive)"
              "  # the mean loss per positive\n")
    make(tmp_path, {**files, "model.py": source})
    diff = run_cli("check", "--diff", "model.py", cwd=tmp_path)
    written = run_cli("check", "--fix", "model.py", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    text = (tmp_path / "model.py").read_text()
    longest = max(len(line) for line in text.splitlines())
    if length >= 114:
        assert longest == 114, text
    else:
        assert "tf.maximum(\n" in text and longest <= length, text
    for line in text.splitlines()[5:]:  # what --diff showed is what --fix wrote
        assert f"+{line}" in diff.stdout.splitlines(), (line, diff.stdout)


def test_a_line_length_that_is_not_a_number_is_a_one_line_error(tmp_path):
    make(tmp_path, {".nanlint.yaml": "line-length: wide\n", "model.py": "x = 1\n"})
    result = run_cli("check", "model.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "`line-length` must be a whole number" in result.stderr


def test_a_notebook_cell_keeps_its_lines(tmp_path):
    """A cell's fixed code keeps its line count, so a fix in a notebook is not broken."""
    import json

    from nanlint.fixing import fix_notebook

    cell = LONG.replace("\t", "    ").split("\n")
    document = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None,
                           "outputs": [], "source": [line + "\n" for line in cell[:-1]]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    data = json.dumps(document, indent=1).encode()
    outcome = fix_notebook(data, "model.ipynb", _options(["NAN101"]), SAFE)
    assert outcome.fixed == 1, outcome.findings
    assert "/ tf.maximum(tf.reduce_sum(positive), 1)" in outcome.text


@pytest.mark.parametrize("division", [
    "x / d", "tf.divide(x, d)", "tf.math.divide(x, d)", "tf.truediv(x, d)",
    "1.0 / (2.0 * d)", "tf.math.divide_no_nan(x, tf.sigmoid(a) * tf.sigmoid(b))",
    "tf.reduce_sum(x) / tf.reduce_sum(tf.cast(x > 0, tf.float32))",
    "tf.divide(x, tf.reduce_sum(tf.cast(x > 0, tf.float32)))",
])
def test_the_help_shows_the_division_the_fix_writes(division):
    """The epsilon goes where the fix puts it, in the division's own form (inside
    `tf.math.divide(x, d + 1e-7)`, not `x / d + 1e-7`), parentheses and all."""
    source = ("import tensorflow as tf\n\n\ndef f(x, a, b):\n    d = tf.nn.relu(x)\n"
              f"    return {division}\n")
    [finding] = _lint(source, ["NAN101"])
    shown = re.search(r"`([^`]*)`", finding.suggestion).group(1)
    fixed = _fixed(source, ["NAN101"]).text
    assert f"    return {shown}\n" in fixed, (finding.suggestion, fixed)
