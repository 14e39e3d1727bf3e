"""Safe fixes are exact, checked under TensorFlow.

A fix is safe only where its result equals the old one wherever the old one was finite. For
every safe fix that the rule fixtures (tests/fixtures), the examples (examples/) and the
field reconstructions (tests/field) produce, this runs the function the fix changes, before
and after the fix, on the same random inputs, and compares the outputs where the original's
are finite.

The function is called generically: the file's imports, its module-level functions and its
assignments without calls make its namespace; each parameter without a default gets a
random tensor of a small shape (a few shapes and kinds of values are tried, the first the
original accepts is used); a method gets an empty object for `self`, and what it stores
there is compared too. A nested function is called through the function around it (which
gives it its inputs), or alone where that one cannot be called. A function that cannot be
called that way (it needs a session, a layer's state, an argument of a particular form) is
skipped, and the test requires that most safe fixes were really executed, so that it
cannot pass by skipping them all.
"""

import ast
import os
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

from conftest import FIXTURES, ROOT, options_for
from nanlint.engine import lint_source
from nanlint.fixing import apply_edits

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

SOURCES = sorted([*FIXTURES.rglob("*.py"), *(ROOT / "examples").rglob("*.py"),
                  *(ROOT / "tests" / "field").glob("*.py")])
# Inputs tried in turn, the same for every parameter: (dtype kind, shape).
INPUTS = [("normal", (4, 4)), ("normal", (4,)), ("unit", (4, 4)), ("normal", (2, 4, 4)),
          ("labels", (4,)), ("labels", (4, 4)), ("normal", ())]
DRAWS = 4  # random inputs per fix, once the original accepts the kind
RTOL, ATOL = 1e-4, 1e-5
MIN_EXECUTED = 0.7  # of the safe fixes, the share that must really run


@dataclass
class Outcome:
    where: str
    executed: bool = False
    skipped: str = ""  # why it could not be called
    mismatches: List[str] = field(default_factory=list)


def _safe_fixes():
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for finding in lint_source(text, str(path), options_for()):
            if finding.fix and finding.fix.get("safety") == "safe":
                yield path, text, finding


def _functions(tree: ast.Module) -> List[ast.FunctionDef]:
    """Every function of the module, in source order (a fix adds or removes none)."""
    found = [node for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def _enclosing(functions: List[ast.FunctionDef], lines: Tuple[int, int]) -> List[int]:
    """The indexes of the functions that contain the lines, outermost first: a nested
    function gets its inputs from the one around it, which is what really runs."""
    first, last = lines
    inside = [index for index, node in enumerate(functions)
              if node.lineno <= first and last <= node.end_lineno]
    return sorted(inside, key=lambda index: functions[index].lineno)


def _namespace(tree: ast.Module, path: Path) -> Dict[str, object]:
    """The module's imports, functions and call-free assignments (each on its own, so
    that one that fails costs only itself); nothing else of the module runs."""
    namespace: Dict[str, object] = {"__name__": "safe_fix_check", "__file__": str(path)}
    for statement in tree.body:
        runnable = isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef)) or (
            isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None
            and not any(isinstance(node, ast.Call) for node in ast.walk(statement.value)))
        if runnable:
            try:
                exec(compile(ast.Module([statement], []), str(path), "exec"), namespace)
            except Exception:  # an optional import, a name defined elsewhere
                pass
    return namespace


def _callable(node: ast.FunctionDef, namespace: Dict[str, object], path: Path):
    """The function made from its definition alone, in the module's namespace."""
    scope = dict(namespace)
    exec(compile(ast.Module([node], []), str(path), "exec"), scope)
    return scope[node.name]


def _inputs(node: ast.FunctionDef, kind: str, shape: Tuple[int, ...], seed: int):
    rng = np.random.default_rng(seed)
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    required = positional[:len(positional) - len(arguments.defaults)]
    keyword = [arg for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults)
               if default is None]

    def draw():
        if kind == "normal":
            return rng.standard_normal(shape).astype(np.float32)
        if kind == "unit":
            return rng.uniform(0.0, 1.0, shape).astype(np.float32)
        return rng.integers(0, 4, shape).astype(np.int32)

    args = [types.SimpleNamespace() if index == 0 and arg.arg in ("self", "cls") else draw()
            for index, arg in enumerate(required)]
    return args, {arg.arg: draw() for arg in keyword}


def _numbers(result) -> Optional[List[np.ndarray]]:
    import tensorflow as tf

    items = [item for item in tf.nest.flatten(result) if item is not None]
    numbers = []
    for item in items:
        if tf.is_tensor(item) or isinstance(item, (np.ndarray, float, int, np.generic)):
            numbers.append(np.asarray(item, dtype=np.float64))
        else:
            return None  # a function, a layer, an op: nothing to compare
    return numbers or None


def _call(function, node: ast.FunctionDef, kind: str, shape, seed: int):
    import tensorflow as tf
    import keras

    args, kwargs = _inputs(node, kind, shape, seed)
    keras.utils.set_random_seed(seed)  # the same random ops give the same values
    args = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]
    kwargs = {k: tf.constant(v) for k, v in kwargs.items()}
    result = function(*args, **kwargs)
    if args and isinstance(args[0], types.SimpleNamespace):
        # a method: what it stored on `self` is an output too (a metric's update_state)
        result = [result, *(value for _, value in sorted(vars(args[0]).items()))]
    return _numbers(result)


def _compare(old: List[np.ndarray], new: List[np.ndarray]) -> Tuple[bool, str]:
    """(whether some finite output was compared, the mismatch or "")."""
    if len(old) != len(new):
        return True, f"{len(old)} outputs before the fix, {len(new)} after"
    compared = False
    for index, (before, after) in enumerate(zip(old, new)):
        if before.shape != after.shape:
            return True, f"output {index}: shape {before.shape} became {after.shape}"
        finite = np.isfinite(before)
        if not finite.any():
            continue
        compared = True
        if not np.allclose(after[finite], before[finite], rtol=RTOL, atol=ATOL):
            worst = np.max(np.abs(after[finite] - before[finite]))
            return True, f"output {index} differs where it was finite (by up to {worst:g})"
    return compared, ""


def _check(path: Path, text: str, finding) -> Outcome:
    where = (f"{path.relative_to(ROOT)}:{finding.line} {finding.code} "
             f"({finding.fix['description']})")
    outcome = Outcome(where)
    fixed, applied, _ = apply_edits(text, [finding])
    assert applied, f"{where}: the fix does not apply alone"
    old_tree, new_tree = ast.parse(text), ast.parse(fixed)
    old_functions, new_functions = _functions(old_tree), _functions(new_tree)
    assert [f.name for f in old_functions] == [f.name for f in new_functions], where
    lines = (min(e["line"] for e in finding.fix["edits"]),
             max(e["end_line"] for e in finding.fix["edits"]))
    chain = _enclosing(old_functions, lines)
    if not chain:
        outcome.skipped = "not inside a function"
        return outcome
    old_namespace, new_namespace = _namespace(old_tree, path), _namespace(new_tree, path)
    for index in chain:  # the outermost function that can be called by itself
        old_node, new_node = old_functions[index], new_functions[index]
        try:
            before = _callable(old_node, old_namespace, path)
            after = _callable(new_node, new_namespace, path)
        except Exception as error:
            outcome.skipped = f"`{old_node.name}` cannot be defined alone: {error!r}"
            continue
        accepted = None
        for kind, shape in INPUTS:
            try:
                if _call(before, old_node, kind, shape, 0) is not None:
                    accepted = (kind, shape)
                    break
            except Exception as error:
                if "rejects" not in outcome.skipped:  # the first reason: the likeliest input
                    outcome.skipped = f"`{old_node.name}` rejects random inputs: {error!r}"[:200]
        if accepted is None:
            continue
        for seed in range(DRAWS):
            try:
                old = _call(before, old_node, *accepted, seed)
            except Exception:
                continue  # this draw is outside what the original accepts
            try:
                new = _call(after, new_node, *accepted, seed)
            except Exception as error:
                outcome.mismatches.append(f"the fixed function raises {error!r}"[:300])
                break
            if old is None or new is None:
                continue
            compared, mismatch = _compare(old, new)
            outcome.executed = outcome.executed or compared
            if mismatch:
                outcome.mismatches.append(f"inputs {accepted}, seed {seed}: {mismatch}")
        if outcome.executed or outcome.mismatches:
            outcome.skipped = ""
            return outcome
    return outcome


def test_every_safe_fix_keeps_the_finite_outputs_of_its_function():
    pytest.importorskip("tensorflow")  # the test extra installs it: CI runs this
    fixes = list(_safe_fixes())
    assert len(fixes) > 20, "the fixtures, examples and field files give few safe fixes"
    outcomes = [_check(path, text, finding) for path, text, finding in fixes]
    wrong = [f"{o.where}: {m}" for o in outcomes for m in o.mismatches]
    assert not wrong, "safe fixes that change a finite result:\n" + "\n".join(wrong)
    executed = [o for o in outcomes if o.executed]
    skipped = "\n".join(f"{o.where}: {o.skipped or 'no finite output'}"
                        for o in outcomes if not o.executed)
    assert len(executed) >= MIN_EXECUTED * len(outcomes), (
        f"only {len(executed)} of {len(outcomes)} safe fixes were executed; skipped:\n"
        + skipped)


def test_the_check_catches_a_clamp_of_a_fraction():
    """The harness itself: the count clamp applied to a fraction (what `--fix` once did to
    a DropBlock rescaling) is reported as changing a finite result."""
    pytest.importorskip("tensorflow")
    text = ("import tensorflow as tf\n\n\ndef rescale(x, keep):\n"
            "    fraction = tf.reduce_mean(tf.cast(keep > 0, tf.float32))\n"
            "    return x / fraction\n")
    line = text.splitlines()[5]
    start = line.index("fraction", line.index("/")) + 1
    fix = {"description": "clamp the count with `tf.maximum`", "safety": "safe",
           "edits": [{"line": 6, "column": start, "end_line": 6,
                      "end_column": start + len("fraction"),
                      "replacement": "tf.maximum(fraction, 1.0)"}]}
    path = ROOT / "tests" / "clamped_fraction.py"  # only named, never written
    finding = types.SimpleNamespace(line=6, column=start, code="NAN101", fix=fix)
    outcome = _check(path, text, finding)
    assert outcome.executed and outcome.mismatches, outcome


@pytest.mark.parametrize("pair, function", [
    ("NAN103_unstable_softmax_cross_entropy", "named"),
    ("NAN103_unstable_softmax_cross_entropy", "named_by_position"),
    ("NAN104_exp_overflow", "named_log_partition"),
    ("NAN104_exp_overflow", "named_softmax"),
    ("NAN104_exp_overflow", "named_softplus"),
])
def test_a_fused_op_keeps_the_name_of_the_op_it_replaces(pair, function):
    """In a graph (a `tf.function`, TF1 code) the fixed code's result is the op of the
    name the original gave its outermost call, and its value is the same."""
    import tensorflow as tf

    from nanlint.fixing import SAFETIES, fix_source

    path = FIXTURES / "fixes" / f"{pair}.in.py"
    source = path.read_text(encoding="utf-8")
    fixed = fix_source(source, path.name, options_for(), SAFETIES["unsafe"]).text
    results = []
    for text in (source, fixed):
        namespace: Dict[str, object] = {}
        exec(compile(text, str(path), "exec"), namespace)
        with tf.Graph().as_default():
            called = namespace[function]
            arguments = [tf.constant([[0.5, -1.0], [2.0, 0.25]])] * called.__code__.co_argcount
            output = called(*arguments)
            with tf.compat.v1.Session() as session:
                results.append((output.op.name, session.run(output)))
    (name, before), (fixed_name, after) = results
    assert fixed != source and fixed_name == name, fixed
    np.testing.assert_allclose(after, before, rtol=RTOL, atol=ATOL)
