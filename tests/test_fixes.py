"""Fixes: in/out pairs per rule, idempotence, safety levels, --diff, and writes that lose
nothing (unparsable results, CRLF, BOM, encodings, permissions, read-only files)."""

import json
import shutil
import stat
import subprocess
from pathlib import Path

import libcst as cst
import pytest

from conftest import FIXTURES, options_for, run_cli
from nanlint import registry
from nanlint.engine import lint_source
from nanlint.options import LintOptions
from nanlint.fixing import SAFETIES, fix_file, fix_source, write_atomically
from nanlint.rule import Rule

PAIRS = sorted((FIXTURES / "fixes").glob("*.in.py"))
UNSAFE = SAFETIES["unsafe"]
LOG_OF_RELU = "import tensorflow as tf\nh = tf.nn.relu(x)\nloss = tf.math.log(h)\n"
LOG_FIXED = "import tensorflow as tf\nh = tf.nn.relu(x)\nloss = tf.math.log(h + 1e-7)\n"


def _code(pair: Path) -> str:
    return pair.name.split("_", 1)[0]


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_fix_pair(pair):
    source = pair.read_text(encoding="utf-8")
    expected = pair.with_name(pair.name.replace(".in.py", ".out.py")).read_text(
        encoding="utf-8")
    code = _code(pair)
    before = [f for f in lint_source(source, pair.name, options_for()) if f.code == code]
    assert any(f.fix for f in before), f"{pair.name} has no fixable {code} finding"
    outcome = fix_source(source, pair.name, options_for(), UNSAFE)
    assert outcome.problem is None
    assert outcome.text == expected
    assert not [f for f in outcome.findings if f.code == code and f.fix]
    again = fix_source(expected, pair.name, options_for(), UNSAFE)
    assert again.text == expected and again.fixed == 0  # idempotent


def test_every_fixable_rule_has_a_pair():
    fixable = {rule.code for rule in registry.every_rule() if rule.fix_safety}
    paired = {_code(pair) for pair in PAIRS}
    assert fixable, "no rule declares a fix"
    assert fixable <= paired, f"fixable rules without an in/out pair: {fixable - paired}"
    assert paired <= fixable, f"pairs for rules that declare no fix: {paired - fixable}"


@pytest.mark.parametrize("rule", [r for r in registry.every_rule() if r.code[3] != "0"],
                         ids=lambda r: r.code)
def test_fix_safety_is_documented(rule):
    section = rule.documentation().split("## Fix safety", 1)[1].split("##", 1)[0]
    if rule.fix_safety:
        assert (rule.fix_safety_detail or rule.fix_safety).capitalize() in section, section
        assert "No automatic fix" not in section
    else:
        assert "No automatic fix" in section or "no automatic fix" in section, section


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name)
def test_a_rule_with_safe_and_unsafe_fixes_says_when_each(pair):
    """`nanlint rules` must not call a rule's fix "safe" when some of its fixes are unsafe
    (or the other way round): such a rule says which is which in `fix_safety_detail`."""
    code = _code(pair)
    findings = lint_source(pair.read_text(encoding="utf-8"), pair.name, options_for())
    safeties = {f.fix["safety"] for f in findings if f.code == code and f.fix}
    [rule] = [r for r in registry.every_rule() if r.code == code]
    if len(safeties) > 1:
        assert rule.fix_safety_detail, f"{code} has {sorted(safeties)} fixes"
    elif not rule.fix_safety_detail:
        assert safeties == {rule.fix_safety}, (code, rule.fix_safety, safeties)


def test_safe_fixes_only_by_default():
    safe = fix_source(LOG_OF_RELU, "a.py", options_for(), SAFETIES["safe"])
    assert safe.text == LOG_OF_RELU and safe.fixed == 0
    unsafe = fix_source(LOG_OF_RELU, "a.py", options_for(), UNSAFE)
    assert unsafe.text == LOG_FIXED and unsafe.fixed == 1


# -- the command line ------------------------------------------------------------------------
def test_unsafe_fixes_over_the_fixture_files(tmp_path):
    """Issue acceptance: every file still parses, every fixable finding is gone, and a
    second run changes nothing."""
    for path in FIXTURES.glob("NAN*.py"):
        shutil.copy(path, tmp_path / path.name)
    before = json.loads(run_cli("check", "--format", "json", "--no-cache", ".",
                                cwd=tmp_path).stdout)["findings"]
    assert sum(1 for f in before if f["fix"]) >= 10
    result = run_cli("check", "--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    assert "Fixed" in result.stdout and "fix not applied" not in result.stdout
    for path in tmp_path.glob("*.py"):
        cst.parse_module(path.read_text(encoding="utf-8"))
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    after = json.loads(run_cli("check", "--format", "json", "--no-cache", ".",
                               cwd=tmp_path).stdout)["findings"]
    assert [f for f in after if f["fix"]] == []
    assert len(after) < len(before)
    snapshot = {p.name: p.read_bytes() for p in tmp_path.glob("*.py")}
    second = run_cli("check", "--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert "Fixed" not in second.stdout
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.py")} == snapshot


@pytest.mark.parametrize("tool", ["patch", "git"])
def test_diff_applies_like_fix(tmp_path, tool):
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is needed for this test")
    original, fixed = tmp_path / "original", tmp_path / "fixed"
    for folder in (original, fixed):
        folder.mkdir()
        for path in FIXTURES.glob("NAN*.py"):
            shutil.copy(path, folder / path.name)
    diff = run_cli("check", "--diff", "--unsafe-fixes", ".", cwd=original)
    assert diff.returncode == 1, diff.stderr
    assert diff.stdout.startswith("--- ") and "Would fix" in diff.stderr
    snapshot = {p.name: p.read_bytes() for p in original.glob("*.py")}
    assert run_cli("check", "--fix", "--unsafe-fixes", ".", cwd=fixed).returncode in (0, 1)
    assert {p.name: p.read_bytes() for p in original.glob("*.py")} == snapshot  # --diff wrote nothing
    command = (["patch", "-p0", "--quiet"] if tool == "patch"
               else ["git", "apply", "-p0", "--unsafe-paths", "-"])
    applied = subprocess.run(command, cwd=original, input=diff.stdout, text=True,
                             capture_output=True)
    assert applied.returncode == 0, applied.stderr + applied.stdout
    assert {p.name: p.read_bytes() for p in original.glob("*.py")} == {
        p.name: p.read_bytes() for p in fixed.glob("*.py")}


def test_diff_exit_codes_and_safe_default(tmp_path):
    (tmp_path / "a.py").write_text(LOG_OF_RELU, encoding="utf-8")
    plain = run_cli("check", "--diff", "a.py", cwd=tmp_path)  # NAN102's fix is unsafe
    assert (plain.returncode, plain.stdout) == (0, "")
    assert plain.stderr == "No fixes available. 1 fixable with `--unsafe-fixes`.\n"
    unsafe = run_cli("check", "--diff", "--unsafe-fixes", "a.py", cwd=tmp_path)
    assert unsafe.returncode == 1
    assert unsafe.stderr == "Would fix 1 finding in 1 file.\n"
    assert "+loss = tf.math.log(h + 1e-7)" in unsafe.stdout
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == LOG_OF_RELU
    fix = run_cli("check", "--fix", "a.py", cwd=tmp_path)
    assert fix.returncode == 1 and "1 fixable with `--unsafe-fixes`" in fix.stdout
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == LOG_OF_RELU
    done = run_cli("check", "--fix", "--unsafe-fixes", "a.py", cwd=tmp_path)
    assert done.returncode == 0 and "Fixed 1 finding" in done.stdout
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == LOG_FIXED


def test_fix_epsilon_is_configurable(tmp_path):
    (tmp_path / "a.py").write_text(LOG_OF_RELU, encoding="utf-8")
    (tmp_path / ".nanlint.yaml").write_text("fix-epsilon: 1.0e-6\n", encoding="utf-8")
    assert run_cli("check", "--fix", "--unsafe-fixes", "a.py", cwd=tmp_path).returncode == 0
    assert "tf.math.log(h + 1e-6)" in (tmp_path / "a.py").read_text(encoding="utf-8")
    (tmp_path / ".nanlint.yaml").write_text("fix-epsilon: 1.0e-9\n", encoding="utf-8")
    result = run_cli("check", "--fix", "--unsafe-fixes", "a.py", cwd=tmp_path)
    assert result.returncode == 2 and "fix-epsilon" in result.stderr
    assert "vanishes next to 1 in float32" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# -- writing: nothing is ever lost -----------------------------------------------------------
class BrokenFix(Rule):
    """A rule whose fix produces code that does not parse."""

    code = "NAN999"
    name = "broken-fix"
    fix_safety = "safe"

    def visit_Call(self, node):
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "log":
            broken = cst.Attribute(value=cst.Name("tf"), attr=cst.Name("def"))  # `tf.def`
            self.report(node, "log", fix=self.fix("break it", node, broken))


def test_a_fix_that_would_not_parse_is_not_written(tmp_path):
    path = tmp_path / "a.py"
    path.write_bytes(LOG_OF_RELU.encode())
    options = LintOptions(rules=[BrokenFix])
    outcome = fix_file(str(path), "a.py", options, UNSAFE, write=True)
    assert path.read_bytes() == LOG_OF_RELU.encode()
    [finding] = outcome.findings
    assert "(fix not applied: the fixed code would not parse" in finding.message
    assert outcome.fixed == 0 and not outcome.changed


@pytest.mark.parametrize("encoded", [
    LOG_OF_RELU.replace("\n", "\r\n").encode(),
    b"\xef\xbb\xbf" + LOG_OF_RELU.encode(),
    ("# -*- coding: latin-1 -*-\n# caf\u00e9\n" + LOG_OF_RELU).encode("latin-1"),
    LOG_OF_RELU.rstrip("\n").encode(),  # no newline at the end
], ids=["crlf", "bom", "latin-1", "no-final-newline"])
def test_line_endings_bom_and_encoding_survive(tmp_path, encoded):
    path = tmp_path / "a.py"
    path.write_bytes(encoded)
    outcome = fix_file(str(path), "a.py", options_for(), UNSAFE, write=True)
    assert outcome.fixed == 1
    expected = encoded.replace(b"tf.math.log(h)", b"tf.math.log(h + 1e-7)")
    assert path.read_bytes() == expected


def test_permissions_are_kept(tmp_path):
    path = tmp_path / "a.py"
    path.write_text(LOG_OF_RELU, encoding="utf-8")
    path.chmod(0o640)
    fix_file(str(path), "a.py", options_for(), UNSAFE, write=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.read_text(encoding="utf-8") == LOG_FIXED
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]  # no temporary file left


def test_a_read_only_file_is_not_touched(tmp_path):
    path = tmp_path / "a.py"
    path.write_text(LOG_OF_RELU, encoding="utf-8")
    path.chmod(0o444)
    try:
        result = run_cli("check", "--fix", "--unsafe-fixes", "a.py", cwd=tmp_path)
    finally:
        path.chmod(0o644)
    assert path.read_text(encoding="utf-8") == LOG_OF_RELU
    assert result.returncode == 1
    assert "fix not applied: the file is read-only" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_a_file_changed_since_it_was_read_is_not_written(tmp_path):
    path = tmp_path / "a.py"
    path.write_text("edited meanwhile\n", encoding="utf-8")
    problem = write_atomically(str(path), LOG_OF_RELU.encode(), LOG_FIXED.encode())
    assert problem == "the file changed on disk while it was being checked"
    assert path.read_text(encoding="utf-8") == "edited meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]


def test_json_findings_carry_the_fix_edits():
    [finding] = lint_source(LOG_OF_RELU, "a.py", options_for(["NAN102"]))
    assert finding.to_json()["fix"] == {
        "safety": "unsafe", "description": "add an epsilon inside `tf.math.log`",
        "edits": [{"line": 3, "column": 20, "end_line": 3, "end_column": 21,
                   "replacement": "h + 1e-7"}]}


SOFTMAX_LOG = ("import tensorflow as tf\nprobs = tf.nn.softmax(z)\n"
               "loss = tf.math.log(tf.nn.softmax(z)) + tf.math.log(tf.nn.relu(z))\n")


def test_text_marks_fixable_findings_and_counts_them(tmp_path):
    (tmp_path / "a.py").write_text(SOFTMAX_LOG, encoding="utf-8")
    result = run_cli("check", "--no-cache", "a.py", cwd=tmp_path)
    lines = [line for line in result.stdout.splitlines() if line.startswith("a.py:")]
    assert [line.split(" ", 2)[1:2] for line in lines] == [["NAN103"], ["NAN102"]]
    assert lines[0].split()[2] == "[*]"  # safe: --fix applies it
    assert lines[1].split()[2] != "[*]"  # unsafe: only with --unsafe-fixes
    assert result.stdout.rstrip().endswith(
        "[*] 1 fixable with `--fix`. 1 more fixable with `--unsafe-fixes`.")
    shown = run_cli("check", "--no-cache", "--unsafe-fixes", "--diff", "a.py", cwd=tmp_path)
    assert "+loss = tf.nn.log_softmax(z) + tf.math.log(tf.nn.relu(z) + 1e-7)" in shown.stdout


def test_fix_then_report_what_remains(tmp_path):
    (tmp_path / "a.py").write_text(SOFTMAX_LOG, encoding="utf-8")
    result = run_cli("check", "--fix", "--format", "json", "a.py", cwd=tmp_path)
    assert result.returncode == 1
    [left] = json.loads(result.stdout)["findings"]
    assert left["code"] == "NAN102" and left["fix"]["safety"] == "unsafe"
    assert left["line"] == 3 and left["column"] == 31  # its position in the fixed file
    assert "tf.nn.log_softmax(z)" in (tmp_path / "a.py").read_text(encoding="utf-8")


def test_one_fix_set_aside_does_not_stop_the_others(tmp_path):
    options = LintOptions(rules=[BrokenFix, *registry.rule_classes(["NAN103"])])
    source = "import tensorflow as tf\na = tf.math.log(tf.nn.softmax(z))\nb = tf.math.log(x)\n"
    outcome = fix_source(source, "a.py", options, UNSAFE)
    assert "tf.nn.log_softmax(z)" in outcome.text and "b = tf.math.log(x)" in outcome.text
    [left] = [f for f in outcome.findings if f.line == 3]
    assert "fix not applied" in left.message


def test_a_file_over_its_time_budget_is_not_written(tmp_path):
    from dataclasses import replace

    path = tmp_path / "a.py"
    source = LOG_OF_RELU + "".join(f"y{i} = tf.math.log(tf.nn.relu(x{i}))\n" for i in range(3000))
    path.write_text(source, encoding="utf-8")
    options = replace(options_for(), file_timeout=0.05)
    outcome = fix_file(str(path), "a.py", options, UNSAFE, write=True)
    assert path.read_text(encoding="utf-8") == source
    [finding] = outcome.findings
    assert finding.code == "NAN000" and "took longer than 0.05 s" in finding.message


# -- many findings: fixing costs about one lint more than checking ---------------------------
class BrokenOnX(Rule):
    """A rule whose fix of `tf.math.log(x)` (only) produces code that does not parse."""

    code = "NAN998"
    name = "broken-on-x"
    fix_safety = "safe"

    def visit_Call(self, node):
        if (isinstance(node.func, cst.Attribute) and node.func.attr.value == "log"
                and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == "x"):
            broken = cst.Attribute(value=cst.Name("tf"), attr=cst.Name("def"))  # `tf.def`
            self.report(node, "log", fix=self.fix("break it", node, broken))


def test_many_fixes_are_applied_in_one_pass_and_a_broken_one_costs_no_parse_per_fix(
        monkeypatch):
    count = 300
    source = "import tensorflow as tf\n" + "".join(
        f"a{i} = tf.math.log(tf.nn.softmax(z{i}))\n" for i in range(count)) + (
        "b = tf.math.log(x)\n")
    options = LintOptions(rules=[BrokenOnX, *registry.rule_classes(["NAN103"])],
                          engine_codes=frozenset({"NAN000"}))
    parses = []
    real = cst.parse_module
    monkeypatch.setattr(cst, "parse_module", lambda *a, **k: parses.append(1) or real(*a, **k))
    outcome = fix_source(source, "a.py", options, UNSAFE)
    assert outcome.fixed == count
    assert outcome.text.count("tf.nn.log_softmax(") == count
    [left] = outcome.findings
    assert left.code == "NAN998" and "fix not applied: the fixed code would not parse" in (
        left.message)
    assert len(parses) == 2  # the first lint, and the lint of the fixed text: no more


class SlowAfterFix(Rule):
    """A rule that takes forever on code that has been fixed (it contains `1e-7`)."""

    code = "NAN997"
    name = "slow-after-fix"

    def visit_Module(self, node):
        if "1e-7" in node.code:
            while True:
                pass


def test_a_budget_spent_while_fixing_still_reports_the_findings(tmp_path):
    path = tmp_path / "a.py"
    source = LOG_OF_RELU + "".join(f"y{i} = tf.math.log(tf.nn.relu(x{i}))\n" for i in range(5))
    path.write_text(source, encoding="utf-8")
    options = options_for()
    options.rules = [*options.rules, SlowAfterFix]
    options.file_timeout = 3
    outcome = fix_file(str(path), "a.py", options, UNSAFE, write=True)
    assert path.read_text(encoding="utf-8") == source  # untouched
    assert [f.code for f in outcome.findings] == ["NAN102"] * 6 and outcome.fixed == 0
    assert all("(fix not applied: fixing took longer than 3 s; nothing was written)" in f.message
               for f in outcome.findings)
    assert not outcome.changed


NORM_THEN_DIVIDE = """import tensorflow as tf


def inverse_distance_loss(a, b):
    d = tf.norm(a - b)
    return 1.0 / d
"""


@pytest.mark.parametrize("name, data", [
    ("d.py", NORM_THEN_DIVIDE),
    ("d.ipynb", json.dumps({"cells": [{"cell_type": "code", "execution_count": 1,
                                       "metadata": {}, "outputs": [],
                                       "source": NORM_THEN_DIVIDE.splitlines(True)}],
                            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))])
def test_the_fixable_count_is_what_diff_and_fix_fix(tmp_path, name, data):
    # The norm's fix also removes the division's hazard: the division has no fix of its own
    # (no `[*]`), so the counts say 1, and the division is named apart.
    (tmp_path / name).write_text(data)
    (tmp_path / ".nanlint.yaml").write_text("select: [NAN101, NAN202]\n")
    flags = ("--no-cache", "--fix", "--unsafe-fixes")
    check = run_cli("check", "--no-cache", name, cwd=tmp_path).stdout.splitlines()[-1]
    assert check.endswith("1 fixable with `--unsafe-fixes`."), check
    diff = run_cli("check", "--diff", *flags, name, cwd=tmp_path)
    assert diff.stderr == ("Would fix 1 finding (and 1 more that has no fix of its own) in "
                           "1 file.\n")
    fixed = run_cli("check", *flags, name, cwd=tmp_path).stdout.splitlines()[-1]
    assert fixed == ("No findings in 1 file. Fixed 1 finding (and 1 more that had no fix of "
                     "its own).")


def test_unsafe_fixes_alone_changes_no_file(tmp_path):
    # As in ruff: --unsafe-fixes widens --fix and --diff; on its own (in CI, say) it
    # reports and rewrites nothing, and the exit code still says there are findings.
    source = "import tensorflow as tf\np = tf.nn.relu(z)\nloss = tf.math.log(p)\n"
    (tmp_path / "a.py").write_text(source)
    result = run_cli("check", "--unsafe-fixes", "a.py", cwd=tmp_path)
    assert result.returncode == 1 and "NAN102" in result.stdout
    assert (tmp_path / "a.py").read_text() == source
    fixed = run_cli("check", "--fix", "--unsafe-fixes", "a.py", cwd=tmp_path)
    assert fixed.returncode == 0 and (tmp_path / "a.py").read_text() != source
