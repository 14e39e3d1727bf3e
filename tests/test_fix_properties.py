"""Fixes never lose data: property tests over generated TF programs, and SIGKILL while
`--fix` runs over many files."""

import difflib
import os
import random
import signal
import subprocess
import sys
import time

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import libcst as cst
from libcst.helpers import parse_template_expression
import pytest

from conftest import FIXTURES, options_for
from nanlint.engine import lint_source
from nanlint.options import LintOptions
from nanlint.parsing import parse
from nanlint.fixing import SAFETIES, fix_source
from nanlint.rule import Rule

UNSAFE = SAFETIES["unsafe"]
NAMES = st.sampled_from(["x", "z", "logits", "h", "d", "counts", "scale", "a_b"])
# Statements that nanlint flags (most of them fixable), and harmless ones around them.
FRAGMENTS = [
    "{a} = tf.nn.relu({b})",
    "{a} = tf.nn.softmax({b}, axis=-1)",
    "{a} = tf.sigmoid({b})",
    "{a} = tf.math.log({b})",
    "{a} = tf.math.log(tf.nn.softmax({b}))",
    "{a} = tf.math.log(1 - tf.sigmoid({b} + 1))",
    "{a} = tf.reduce_sum({b}) / tf.reduce_sum(tf.cast({b} > 0, tf.float32))",
    "{a} = tf.sqrt(tf.reduce_mean(tf.square({a} - {b})))",
    "{a} = tf.norm({a} - {b}, axis=-1)",
    "{a} = tf.where({b} > 0, tf.math.log({b}), tf.zeros_like({b}))",
    "{a} = tf.math.log(tf.reduce_sum(tf.exp({b}), axis=-1))",
    "{a} = tf.exp({b}) / tf.reduce_sum(tf.exp({b}), axis=-1, keepdims=True)",
    "{a} = tf.math.log(1e-10 + 1 - tf.sigmoid({b}))",
    "{a} = tf.sqrt(tf.exp({b}))",
    "{a} /= tf.reduce_sum(tf.nn.relu({b}))",
    "{a} = ({b}  # a comment inside\n     + 1.0)",
    "{a} = {b} * 2.0  # nothing to fix",
    "pass",
]


@st.composite
def programs(draw):
    lines = ["import tensorflow as tf", "", "", "def step({}):".format(
        ", ".join(sorted(set(draw(st.lists(NAMES, min_size=1, max_size=3))))))]
    body = []
    for _ in range(draw(st.integers(1, 12))):
        fragment = draw(st.sampled_from(FRAGMENTS))
        text = fragment.format(a=draw(NAMES), b=draw(NAMES))
        body.extend("    " + line for line in text.split("\n"))
    lines.extend(body)
    lines.append("    return 0")
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline


def _fixed_lines(findings):
    return {line for f in findings if f.fix
            for edit in f.fix["edits"] for line in range(edit["line"], edit["end_line"] + 1)}


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_unsafe_fixes_parse_are_idempotent_and_touch_only_fixed_lines(source):
    findings = lint_source(source, "p.py", options_for())
    outcome = fix_source(source, "p.py", options_for(), UNSAFE)
    parse(outcome.text)
    compile(outcome.text, "p.py", "exec")
    again = fix_source(outcome.text, "p.py", options_for(), UNSAFE)
    assert again.text == outcome.text and again.fixed == 0
    assert not [f for f in outcome.findings if f.fix and "fix not applied" not in f.message]
    # Lines that held no fixable finding (in the first round) come through unchanged,
    # except where a later round fixed a finding that an earlier fix revealed.
    before, after = source.splitlines(), outcome.text.splitlines()
    touched = _fixed_lines(findings)
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after,
                                                     autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            changed = set(range(i1 + 1, i2 + 1))
            assert changed <= touched, (changed - touched, source, outcome.text)
    assert ("\r\n" in source) == ("\r\n" in outcome.text)


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_fixing_any_program_never_raises_and_never_breaks_it(source):
    """Grammar-generated programs (analysed as if they used TensorFlow): fixing never raises,
    and whatever it returns still parses and fixes to itself."""
    options = options_for()
    options = LintOptions(rules=options.rules, known_codes=options.known_codes,
                          engine_codes=options.engine_codes, check_all_files=True)
    try:
        parse(source)
    except Exception:  # noqa: BLE001 — a program libcst cannot read is NAN000's business
        return
    outcome = fix_source(source, "p.py", options, UNSAFE)
    parse(outcome.text)
    assert fix_source(outcome.text, "p.py", options, UNSAFE).text == outcome.text


# -- SIGKILL ---------------------------------------------------------------------------------
def test_sigkill_during_fix_leaves_every_file_whole(tmp_path):
    """Kill `--unsafe-fixes` at random moments: each file is wholly original or wholly fixed."""
    sources = sorted(FIXTURES.glob("NAN*.py"))
    originals = {path.name: path.read_bytes() for path in sources}
    command = [sys.executable, "-m", "nanlint", "check", "--fix", "--unsafe-fixes", "--jobs", "2", "."]

    def populate(folder):
        folder.mkdir()
        for copy in range(4):
            for name, data in originals.items():
                (folder / f"c{copy}_{name}").write_bytes(data)

    reference = tmp_path / "reference"
    populate(reference)
    started = time.monotonic()
    subprocess.run(command, cwd=reference, capture_output=True, timeout=300)
    duration = time.monotonic() - started  # kills land within it
    fixed = {name: (reference / f"c0_{name}").read_bytes() for name in originals}
    assert sum(fixed[n] != originals[n] for n in originals) >= 5
    rng = random.Random(20261203)
    mixed = 0  # trials killed in the middle: some files fixed, some not yet
    for trial in range(3):
        folder = tmp_path / f"trial{trial}"
        populate(folder)
        process = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0.4, 0.95) * duration)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        states = set()
        for path in folder.glob("c*_NAN*.py"):
            name = path.name.split("_", 1)[1]
            data = path.read_bytes()
            assert data in (originals[name], fixed[name]), f"{path.name} is damaged"
            if originals[name] != fixed[name]:
                states.add(data == fixed[name])
        mixed += states == {True, False}
    assert mixed >= 1, "no kill landed while files were being written: widen the window"


@pytest.mark.parametrize("text", [
    "{x} + 1e-7",
    "tf.math.log({x} + eps)",
    "tf.nn.softmax_cross_entropy_with_logits(labels={y}, logits={x}, axis=-1)",
    "({x}) * ({y})",
    "tf.where({x} > 0, {x}, tf.ones_like({x}))",
    "[{x}, {y}][0]",
])
@pytest.mark.parametrize("x, y", [("a", "b"), ("f(a, b=1)", "a[..., 2:] * 3"),
                                  ("(a + b)", "-(c)")])
def test_a_template_fills_in_as_libcst_does(text, x, y):
    # Rule.template shares the parts instead of deep-cloning them: the same code comes out.
    parts = {name: cst.parse_expression(part) for name, part in (("x", x), ("y", y))
             if "{" + name + "}" in text}
    expected = parse_template_expression(text, **parts)
    got = Rule.template(text, **parts)
    module = cst.Module(body=[])
    assert module.code_for_node(got) == module.code_for_node(expected)
    assert got.deep_equals(expected)
