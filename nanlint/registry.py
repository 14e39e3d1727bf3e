"""Which rules exist: the built-in ones, the engine's own codes, and installed plugins.

Built-in rules are listed by module path so that a run imports only the rules it uses.
Third-party rules register under the entry-point group ``nanlint.rules`` of an installed
package: each entry point names a ``Rule`` subclass, a list of them, or a module with a
``RULES`` list. A rule file of one's own is loaded only when ``--load-rules FILE`` names it
on the command line: a configuration file never makes nanlint import code.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import types
from typing import Any, Dict, List, Optional, Sequence, Tuple, Type

from nanlint.finding import SEVERITIES
from nanlint.rule import Rule

BUILTIN: Dict[str, str] = {
    "NAN101": "nanlint.rules.unguarded_division:UnguardedDivision",
    "NAN102": "nanlint.rules.log_of_zero:LogOfZero",
    "NAN103": "nanlint.rules.unstable_softmax_cross_entropy:UnstableSoftmaxCrossEntropy",
    "NAN104": "nanlint.rules.exp_overflow:ExpOverflow",
    "NAN105": "nanlint.rules.vanishing_epsilon:VanishingEpsilon",
    "NAN201": "nanlint.rules.sqrt_zero_gradient:SqrtZeroGradient",
    "NAN202": "nanlint.rules.norm_zero_gradient:NormZeroGradient",
    "NAN203": "nanlint.rules.relu_into_cosine:ReluIntoCosine",
    "NAN204": "nanlint.rules.where_does_not_guard_gradient:WhereDoesNotGuardGradient",
    "NAN205": "nanlint.rules.inverse_trig_domain:InverseTrigDomain",
    "NAN301": "nanlint.rules.large_learning_rate:LargeLearningRate",
    "NAN302": "nanlint.rules.gradient_clip_by_value:GradientClipByValue",
    "NAN303": "nanlint.rules.clip_in_forward_pass:ClipInForwardPass",
    "NAN304": "nanlint.rules.large_init_stddev:LargeInitStddev",
    "NAN401": "nanlint.rules.unnormalized_input:UnnormalizedInput",
    "NAN402": "nanlint.rules.unbounded_relu_stack:UnboundedReluStack",
}
ENTRY_POINT_GROUP = "nanlint.rules"


class ParseError(Rule):
    """
    ## What it does
    Reports a file that nanlint could not read or parse: a syntax error, Python 2 code,
    a file that is not valid in its declared encoding (UTF-8 by default), a binary file,
    an unreadable file. In a file that parses in part, the top-level statements that parse
    are checked (Python 2's print, exec and raise statements, except clauses, backquotes
    and literals read as Python 3 writes them), and one NAN000 says how the file was read
    and names the lines that were skipped (no fix is applied to such a file).

    ## Why is this bad?
    A file that cannot be parsed cannot be checked: every risk in it goes unreported.
    The finding names the problem and its location so that the file can be fixed or
    excluded; the rest of the scan goes on.

    ## Example
    ```python
    print "loss:", loss   # Python 2
    ```

    ## Use instead
    ```python
    print("loss:", loss)
    ```

    ## Fix safety
    No fix.

    ## Options
    None. Exclude files that are not meant to be Python 3 with `exclude`.
    """

    code = "NAN000"
    name = "parse-error"
    severity = "error"
    summary = "file could not be read or parsed"
    VALID = ["print('loss:', 1.0)\n", "def f(x):\n    return x\n"]
    INVALID = ["print 'loss:', 1.0\n", "def f(x:\n    return x\n"]


class InvalidSuppression(Rule):
    """
    ## What it does
    Reports a `# nanlint:` comment that suppresses nothing: one without codes
    (`# nanlint: ignore`), with an unknown code, a misspelled directive, or an
    `ignore-file` that is not at the top of the file. Also an unused suppression: a
    code in `# nanlint: ignore[...]`, `# noqa: ...` or `ignore-file[...]` that is enabled
    for the file but has no finding where the comment applies. A code that is not enabled
    (not selected, ignored, or in the file's per-file-ignores) is not judged, since
    another configuration may enable it; a comment that names NAN001 itself is never
    reported.

    ## Why is this bad?
    A suppression without codes would hide every present and future finding on its line;
    nanlint fails closed instead and tells you, so that the comment can say what it means.
    A suppression that outlived its finding hides the next, different mistake on the same
    line: remove it once the code is fixed.

    ## Example
    ```python
    loss = total / count  # nanlint: ignore
    ```

    ```python
    loss = tf.math.log(p + 1e-7)  # nanlint: ignore[NAN102]  (nothing left to suppress)
    ```

    ## Use instead
    ```python
    loss = total / count  # nanlint: ignore[NAN101]
    loss = tf.math.log(p + 1e-7)
    ```

    ## Fix safety
    No fix.

    ## Options
    None.
    """

    code = "NAN001"
    name = "invalid-suppression"
    severity = "warning"
    summary = "suppression comment that suppresses nothing"
    # With NAN001 alone enabled, a suppression of NAN101 is not judged: VALID.
    VALID = ["x = 1  # nanlint: ignore[NAN101]\n", "x = 1  # noqa\n"]
    INVALID = ["x = 1  # nanlint: ignore\n", "x = 1  # nanlint: ignore[NAN999]\n"]


# Which built-in rules supersede which codes (their `supersedes`), known without importing
# them: a rule switched off still runs silently to hide what it supersedes, and checking one
# file must not import every rule to find out (tests/test_help_and_fixes.py keeps it true).
SUPERSEDED_BY: Dict[str, Tuple[str, ...]] = {"NAN101": ("NAN203", "NAN204"),
                                             "NAN102": ("NAN103",),
                                             "NAN201": ("NAN202",)}

ENGINE: Dict[str, Type[Rule]] = {"NAN000": ParseError, "NAN001": InvalidSuppression}


class RegistryError(Exception):
    """A rule that cannot be loaded or registered, phrased for the user (one line)."""


def load(spec: str) -> Type[Rule]:
    module_name, _, attr = spec.partition(":")
    rule = getattr(importlib.import_module(module_name), attr)
    if not (isinstance(rule, type) and issubclass(rule, Rule)):
        raise RegistryError(f"{spec} is not a nanlint Rule")
    return rule


# -- third-party and local rules -------------------------------------------------------------
_CODE = re.compile(r"^NAN\d{3}$")
_local_files: Tuple[str, ...] = ()
_extra: Optional[Dict[str, Type[Rule]]] = None  # code → rule, from plugins and local files


def use_local_rules(paths: Sequence[str]) -> None:
    """The files named by ``--load-rules``: loaded with the plugins, on first need."""
    global _local_files, _extra
    if tuple(paths) != _local_files:
        _local_files, _extra = tuple(paths), None


def local_rule_files() -> Tuple[str, ...]:
    return _local_files


def extra_rules() -> Dict[str, Type[Rule]]:
    """Rules from installed packages (entry points) and from ``--load-rules`` files."""
    global _extra
    if _extra is None:
        found: Dict[str, Type[Rule]] = {}
        for entry, dist in _entry_points():
            where = f"package `{dist}` (entry point `{entry.name} = {entry.value}`)"
            try:
                target = entry.load()
            except Exception as error:  # noqa: BLE001 — a broken plugin is a one-line error
                raise RegistryError(f"cannot load rules from {where}: "
                                    f"{type(error).__name__}: {error}") from None
            for rule in _rules_in(target, where):
                _register(found, rule, where, dist)
        for path in _local_files:
            where = f"`--load-rules {path}`"
            for rule in _rules_in(_import_file(path), where):
                _register(found, rule, where, path)
        _extra = found
    return _extra


def _entry_points() -> List[Tuple[Any, str]]:
    """(entry point, "distribution version") in the group; no import when none mention it."""
    if not _group_may_be_declared():
        return []
    from importlib.metadata import distributions

    # `python -m nanlint` puts the current folder on sys.path: a package "installed" there
    # would be the scanned repository's code, which is never imported.
    here = os.path.abspath(os.getcwd())
    path = [folder for folder in sys.path if os.path.abspath(folder or ".") != here]
    found = []
    seen = set()
    for dist in distributions(path=path):
        name = dist.metadata["Name"] or "?"
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:  # the same package further down sys.path is shadowed
            continue
        seen.add(key)
        for entry in dist.entry_points:
            if entry.group == ENTRY_POINT_GROUP:
                found.append((entry, f"{name} {dist.version}"))
    return found


def _group_may_be_declared() -> bool:
    """A cheap look at the entry_points.txt files on sys.path before importlib.metadata
    (which costs more than a small file's whole check); a zip on the path gets the full look."""
    here = os.path.abspath(os.getcwd())
    for folder in sys.path:
        folder = folder or "."
        if os.path.abspath(folder) == here:
            continue
        if os.path.isfile(folder):
            return True
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"),
                          encoding="utf-8", errors="replace") as handle:
                    if ENTRY_POINT_GROUP in handle.read():
                        return True
            except OSError:
                continue
    return False


def _rules_in(target: Any, where: str) -> List[Type[Rule]]:
    """The contract: a Rule subclass, a list or tuple of them, or a module with ``RULES``."""
    if isinstance(target, types.ModuleType):
        if not hasattr(target, "RULES"):
            raise RegistryError(f"{where}: the module `{target.__name__}` has no `RULES` list")
        target = target.RULES
    rules = list(target) if isinstance(target, (list, tuple)) else [target]
    for rule in rules:
        if not (isinstance(rule, type) and issubclass(rule, Rule)):
            raise RegistryError(f"{where}: {rule!r} is not a subclass of nanlint.rule.Rule")
    return rules


def _register(found: Dict[str, Type[Rule]], rule: Type[Rule], where: str, origin: str) -> None:
    code = rule.code
    if not isinstance(code, str) or not _CODE.match(code):
        raise RegistryError(f"{where}: rule {rule.__name__} has code {code!r}; a code is NAN "
                            "and three digits")
    if code in ENGINE or code in BUILTIN:
        raise RegistryError(f"{where}: rule {rule.__name__} has code {code}, which is a "
                            "built-in nanlint code; pick another")
    if code in found and found[code] is not rule:
        raise RegistryError(f"{where}: rule {rule.__name__} has code {code}, which "
                            f"{found[code].origin} already uses")
    if rule.severity not in SEVERITIES or not rule.name:
        raise RegistryError(f"{where}: rule {code} needs a name and a severity (one of "
                            f"{', '.join(SEVERITIES)})")
    rule.origin = origin
    found[code] = rule


def _import_file(path: str) -> types.ModuleType:
    where = f"`--load-rules {path}`"
    if not os.path.isfile(path):
        raise RegistryError(f"{where}: no such file")
    name = "nanlint_local_rules_" + re.sub(r"\W", "_", os.path.abspath(path))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise RegistryError(f"{where}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the worker processes and pickled options find it by name
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 — the user's file: a one-line error
        del sys.modules[name]
        raise RegistryError(f"{where}: {type(error).__name__}: {error}") from None
    return module


# -- every code ------------------------------------------------------------------------------
def all_codes() -> List[str]:
    return sorted([*ENGINE, *BUILTIN, *extra_rules()])


def rule_class(code: str) -> Optional[Type[Rule]]:
    """The rule that runs for ``code`` (built-in or third-party); None for engine codes."""
    if code in BUILTIN:
        return load(BUILTIN[code])
    return extra_rules().get(code)


def is_preview(code: str) -> bool:
    """Whether ``code`` is a preview rule (off unless preview is on or its full code is
    selected)."""
    rule = ENGINE.get(code) or rule_class(code)
    return bool(rule is not None and rule.preview)


def rule_classes(codes: List[str]) -> List[Type[Rule]]:
    """The rule classes for ``codes`` (engine codes have no class to run)."""
    found = (rule_class(code) for code in codes)
    return [rule for rule in found if rule is not None]


def every_rule() -> List[Type[Rule]]:
    """Engine codes and every rule, imported — for listings and documentation."""
    return [ENGINE.get(code) or rule_class(code) for code in all_codes()]
