"""Which rules exist: the built-in ones, the engine's own codes, and installed plugins.

Built-in rules are listed by module path so that a run imports only the rules it uses.
Third-party rules register under the entry-point group ``nanlint.rules``: each entry point
names a ``Rule`` subclass.
"""

from __future__ import annotations

import importlib
from typing import Dict, List, Type

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
    an unreadable file.

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
    `ignore-file` that is not at the top of the file.

    ## Why is this bad?
    A suppression without codes would hide every present and future finding on its line;
    nanlint fails closed instead and tells you, so that the comment can say what it means.

    ## Example
    ```python
    loss = total / count  # nanlint: ignore
    ```

    ## Use instead
    ```python
    loss = total / count  # nanlint: ignore[NAN101]
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
    VALID = ["x = 1  # nanlint: ignore[NAN101]\n", "x = 1  # noqa\n"]
    INVALID = ["x = 1  # nanlint: ignore\n", "x = 1  # nanlint: ignore[NAN999]\n"]


ENGINE: Dict[str, Type[Rule]] = {"NAN000": ParseError, "NAN001": InvalidSuppression}


class RegistryError(Exception):
    pass


def load(spec: str) -> Type[Rule]:
    module_name, _, attr = spec.partition(":")
    rule = getattr(importlib.import_module(module_name), attr)
    if not (isinstance(rule, type) and issubclass(rule, Rule)):
        raise RegistryError(f"{spec} is not a nanlint Rule")
    return rule


def plugin_specs() -> Dict[str, str]:
    """Entry-point name → ``module:Class`` for installed third-party rules."""
    from importlib.metadata import entry_points

    found = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        found[entry.name] = entry.value
    return found


def all_codes() -> List[str]:
    return sorted([*ENGINE, *BUILTIN])


def rule_classes(codes: List[str]) -> List[Type[Rule]]:
    """The rule classes for ``codes`` (engine codes have no class to run)."""
    return [load(BUILTIN[code]) for code in codes if code in BUILTIN]


def every_rule() -> List[Type[Rule]]:
    """Engine codes and every built-in rule, imported — for listings and documentation."""
    return [ENGINE[code] if code in ENGINE else load(BUILTIN[code]) for code in all_codes()]
