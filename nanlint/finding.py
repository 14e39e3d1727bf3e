"""A finding: one risk at one place, with the evidence behind it and what to do."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

SEVERITIES = ("error", "warning", "info")
CONFIDENCES = ("high", "medium", "low")


@dataclass
class Finding:
    code: str
    name: str
    severity: str
    confidence: str
    path: str
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int  # 1-based, one past the last character (as in SARIF)
    message: str
    suggestion: Optional[str] = None
    fix: Optional[Dict[str, Any]] = None
    # In a notebook: the cell (1-based among all cells, as ruff), and line is within it.
    cell: Optional[int] = None
    # Where the value the message names was produced (the softmax, the mask count):
    # {line, column, end_line, end_column, message} (and cell in a notebook), or None.
    evidence: Optional[Dict[str, Any]] = None
    # The flagged value may reach a differentiated objective (a gradient flows through it).
    gradient: bool = False
    # `nanlint suspects` only: how suspect the line is (higher first) and why, in words.
    score: Optional[float] = None
    why: Optional[str] = None
    # `nanlint suspects` only: the assignments of the names the operand reads, where the
    # value at the bad point is made: {name, line, end_line} (and cell in a notebook).
    origins: Tuple[Dict[str, Any], ...] = ()
    # `nanlint suspects` only: the other places of the same suspect (the same op on the same
    # operand, with the same standing, written again): {line, column, end_line, end_column}
    # (and cell in a notebook), in reading order.
    also: Tuple[Dict[str, Any], ...] = ()
    # `check` of a folder, before the folder's callers are read (``nanlint.callers``): a
    # gradient hazard whose way out is what these functions of its file return.
    callers: Tuple[str, ...] = ()
    # Not serialized: the source lines from `line` to `end_line`, for code frames.
    source_lines: Tuple[str, ...] = field(default=(), repr=False, compare=False)
    # Not serialized, not cached: an internal error's traceback, shown with --verbose.
    detail: Optional[str] = field(default=None, repr=False, compare=False)

    def to_json(self) -> Dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "confidence": self.confidence,
            "path": self.path,
            "cell": self.cell,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "message": self.message,
            "suggestion": self.suggestion,
            "fix": self.fix,
            "evidence": self.evidence,
            "gradient": self.gradient,
        }

    @property
    def location(self) -> str:
        """``path:line:column``, or ``path:cell N:line:column`` in a notebook (ruff's form)."""
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{cell}{self.line}:{self.column}"

    @property
    def sort_key(self) -> Tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.line, self.column, self.code)
