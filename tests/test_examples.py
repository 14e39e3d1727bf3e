"""Proof under TensorFlow: every rule's example really fails, and its fix really works.

`examples/NANxxx_<name>/bad.py` holds the mistake (the flagged line carries `# error: CODE`)
and `fixed.py` the same program after nanlint's fix (`# fixed: CODE`), or, for a rule
without an automatic fix, after the change its documentation recommends. Each exposes
`run()`, which runs a few gradient evaluations or training steps on tiny tensors and returns
the values to check. A module may set `EXPECT`:

- "non-finite" (the default): bad.py gives at least one NaN or Inf, fixed.py none;
- "loss-above": bad.py's last `loss` is above `BOUND` (or some loss is not finite): it
  diverged, or never converged; fixed.py's losses are finite and its last is below `BOUND`;
- "zero-gradients": bad.py's `gradients` are all exactly 0, fixed.py's are finite and not.
"""

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, options_for
from nanlint import registry
from nanlint.engine import lint_source
from nanlint.fixing import SAFETIES, fix_source

EXAMPLES = sorted((ROOT / "examples").glob("NAN*_*"))
MARK = re.compile(r"#\s*(error|fixed):\s*(NAN\d{3})")
ENGINE = {"NAN000", "NAN001"}


def _code(example: Path) -> str:
    return example.name.split("_", 1)[0]


def _marked_line(text: str, kind: str, code: str) -> int:
    lines = [number for number, line in enumerate(text.splitlines(), start=1)
             for found_kind, found in MARK.findall(line) if (found_kind, found) == (kind, code)]
    assert len(lines) == 1, f"expected one `# {kind}: {code}` line, found {lines}"
    return lines[0]


@pytest.fixture(scope="module")
def tf():
    import tensorflow  # the test extra installs tensorflow-cpu: CI runs these

    return tensorflow


def _run(example: Path, kind: str):
    spec = importlib.util.spec_from_file_location(f"example_{example.name}_{kind}",
                                                  example / f"{kind}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    values = {name: np.asarray(value, dtype=np.float64) if not isinstance(value, list)
              else [np.asarray(v, dtype=np.float64) for v in value]
              for name, value in module.run().items()}
    return module, values


def _arrays(values):
    for value in values.values():
        yield from (value if isinstance(value, list) else [value])


def _finite(values) -> bool:
    return all(np.all(np.isfinite(array)) for array in _arrays(values))


def test_every_rule_has_an_example():
    codes = {rule.code for rule in registry.every_rule()} - ENGINE
    assert codes == {_code(example) for example in EXAMPLES}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_nanlint_flags_bad_and_not_fixed(example):
    code = _code(example)
    bad = (example / "bad.py").read_text(encoding="utf-8")
    line = _marked_line(bad, "error", code)
    found = lint_source(bad, "bad.py", options_for())
    assert (line, code) in {(f.line, f.code) for f in found}, [
        (f.line, f.code) for f in found]
    fixed = (example / "fixed.py").read_text(encoding="utf-8")
    _marked_line(fixed, "fixed", code)
    assert lint_source(fixed, "fixed.py", options_for()) == []


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_fixed_is_nanlint_fix_of_bad(example):
    rule = registry.rule_classes([_code(example)])[0]
    bad = (example / "bad.py").read_text(encoding="utf-8")
    fixed = (example / "fixed.py").read_text(encoding="utf-8")
    if rule.fix_safety is None:
        assert "error:" not in fixed, "a hand-written fixed.py keeps no error mark"
        return  # written by hand, after the rule's documentation
    outcome = fix_source(bad, "bad.py", options_for(), SAFETIES["unsafe"])
    assert MARK.sub(lambda m: f"# fixed: {m.group(2)}", outcome.text) == fixed, (
        "fixed.py differs from nanlint's fix of bad.py: regenerate it with "
        "`nanlint check --fix --unsafe-fixes` on a copy of bad.py and review the change")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_bad_fails_and_fixed_works_under_tensorflow(tf, example):
    module, bad = _run(example, "bad")
    _, fixed = _run(example, "fixed")
    expect = getattr(module, "EXPECT", "non-finite")
    if expect == "non-finite":
        assert not _finite(bad), f"bad.py stayed finite: {bad}"
        assert _finite(fixed), f"fixed.py is not finite: {fixed}"
    elif expect == "loss-above":
        bound = module.BOUND
        losses = np.asarray(bad["loss"])
        assert not np.all(np.isfinite(losses)) or losses[-1] > bound, losses
        assert _finite(fixed), fixed
        assert np.asarray(fixed["loss"])[-1] < bound, fixed["loss"]
    elif expect == "zero-gradients":
        assert all(np.all(array == 0) for array in bad["gradients"]), bad
        assert _finite(fixed) and any(np.any(array != 0) for array in fixed["gradients"])
    else:
        pytest.fail(f"unknown EXPECT {expect!r} in {example.name}/bad.py")
