"""The public face for rule authors: the base class, options, and the analysis questions.

A rule is one small class: its metadata as class attributes, its documentation as the class
docstring (ruff's sections), VALID and INVALID examples, and ``visit_<Node>`` methods that
ask the shared analysis (``self.analysis``) what values can be and call ``self.report``.
A rule never reads files, configuration or output formats.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, ClassVar, Dict, FrozenSet, List, Optional, Tuple

import libcst as cst

from nanlint.optable import Op
from nanlint.scopes import Binding
from nanlint.values import CONFIDENCE_ORDER, Analysis, Evidence, Number, Place, Value

__all__ = ["Rule", "Option", "Analysis", "Binding", "Evidence", "Number", "Place", "Value", "Op",
           "Report"]

DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety",
                "Options")


@dataclass(frozen=True)
class Option:
    """A per-rule setting: ``rules: {NAN101: {name: value}}`` in the configuration."""

    default: Any
    type: type
    doc: str


@dataclass
class Report:
    """A finding before positions are known: the engine turns it into a ``Finding``."""

    rule: "Rule"
    node: cst.CSTNode
    message: str  # may contain "{evidence}", rendered once positions are known
    confidence: str
    evidence: Optional[Evidence]
    suggestion: Optional[str]
    statement: Optional[cst.CSTNode]


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[str] = "error"
    summary: ClassVar[str] = ""
    fix_safety: ClassVar[Optional[str]] = None  # "safe", "unsafe" or None (no fix)
    options: ClassVar[Dict[str, Option]] = {}
    # Codes whose finding on the same node this rule's finding replaces (a more precise
    # diagnosis of the same expression, e.g. NAN103 `log(softmax(z))` over NAN102).
    supersedes: ClassVar[FrozenSet[str]] = frozenset()
    VALID: ClassVar[List[str]] = []
    INVALID: ClassVar[List[str]] = []
    origin: ClassVar[str] = "nanlint"  # where the rule comes from (built-in or a package)

    def __init__(self, analysis: Analysis, reports: List[Report],
                 settings: Optional[Dict[str, Any]] = None) -> None:
        self.analysis = analysis
        self._reports = reports
        values = {name: option.default for name, option in self.options.items()}
        values.update(settings or {})
        self.settings = values

    def report(self, node: cst.CSTNode, message: str, *, evidence: Optional[Evidence] = None,
               confidence: Optional[str] = None, suggestion: Optional[str] = None) -> None:
        if confidence is None:
            confidence = evidence.confidence if evidence is not None else "high"
        statements = self.analysis.cursor.statements
        self._reports.append(Report(self, node, message, confidence, evidence, suggestion,
                                    statements[-1] if statements else None))

    # -- helpers every rule may use ---------------------------------------------------------
    def source(self, node: cst.CSTNode) -> str:
        return " ".join(self.analysis.module.code_for_node(node).split())

    def compact(self, node: cst.CSTNode, limit: int = 60) -> str:
        """The node's source on one line, without comments, shortened for a message."""
        lines = []
        for line in self.analysis.module.code_for_node(node).splitlines():
            if "#" in line and "'" not in line and '"' not in line:
                line = line[: line.index("#")]
            lines.append(line)
        text = " ".join(" ".join(lines).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."

    @staticmethod
    def stronger(evidence: Optional[Evidence], other: Optional[Evidence]) -> Optional[Evidence]:
        if evidence is None:
            return other
        if other is None:
            return evidence
        if CONFIDENCE_ORDER[other.confidence] > CONFIDENCE_ORDER[evidence.confidence]:
            return other
        return evidence

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def handlers(cls) -> List[Tuple[type, str]]:
        """(libcst node type, method name) for each ``visit_<Node>`` the rule defines."""
        found = []
        for attr in dir(cls):
            if attr.startswith("visit_"):
                node_type = getattr(cst, attr[len("visit_"):], None)
                if node_type is None:
                    raise TypeError(f"{cls.__name__}.{attr}: no libcst node of that name")
                found.append((node_type, attr))
        return found
