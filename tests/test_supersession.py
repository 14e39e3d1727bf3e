"""A finding another rule replaces (``Rule.supersedes``) is dropped, and the rule that would
make it can skip the work (``Rule.superseded``): superseding rules run first at each node."""

import libcst as cst
import pytest

from nanlint.engine import lint_source
from nanlint.options import LintOptions
from nanlint.rule import Rule

SOURCE = "import tensorflow as tf\n\nx = f(1)\ny = g(2)\n"


def _rules(confidence):
    work = []

    class Replaced(Rule):  # the general diagnosis: every call
        code, name, summary = "NAN992", "any-call", "a call"

        def visit_Call(self, node):
            if self.superseded(node):
                return
            work.append(node.func.value)
            self.report(node, "a call")

    class Replacing(Rule):  # the precise one: calls of `f`
        code, name, summary = "NAN991", "call-of-f", "a call of f"
        supersedes = frozenset({"NAN992"})

        def visit_Call(self, node):
            if isinstance(node.func, cst.Name) and node.func.value == "f":
                self.report(node, "a call of f", confidence=confidence)

    return Replaced, Replacing, work


@pytest.mark.parametrize("confidence, skipped", [("high", True), ("low", False)])
def test_a_finding_already_replaced_is_not_worked_out(confidence, skipped):
    replaced, replacing, work = _rules(confidence)
    # Listed after the rule it supersedes: the engine still runs it first.
    options = LintOptions(rules=[replaced, replacing], min_confidence="medium",
                          check_all_files=True)
    findings = lint_source(SOURCE, "s.py", options)
    codes = sorted((f.line, f.code) for f in findings)
    if skipped:  # replaced, so `f(1)` costs the replaced rule nothing
        assert work == ["g"] and codes == [(3, "NAN991"), (4, "NAN992")]
    else:  # a low-confidence finding, below min-confidence, replaces nothing
        assert work == ["f", "g"] and codes == [(3, "NAN992"), (4, "NAN992")]
