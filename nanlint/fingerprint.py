"""Fingerprints of findings that survive edits elsewhere in the file.

A fingerprint is built from the file's path, the rule code, the flagged source text with its
whitespace normalized, and an occurrence index: the first identical finding in a file gets
0, the next 1, and so on. There is no line number in it, so inserting lines above a finding
keeps its fingerprint, and a second copy of the same mistake gets a new one. The baseline
and the SARIF/GitLab reports share it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Callable, List, Optional, Tuple

from nanlint.finding import Finding

Key = Tuple[str, str, str, int]  # path, code, normalized source, occurrence index


def flagged_source(finding: Finding) -> str:
    """The text between the finding's start and end, on one line with single spaces."""
    lines = list(finding.source_lines)
    if not lines:
        return ""
    if len(lines) == 1:
        lines[0] = lines[0][finding.column - 1:finding.end_column - 1]
    else:
        lines[0] = lines[0][finding.column - 1:]
        lines[-1] = lines[-1][:finding.end_column - 1]
    return " ".join(" ".join(lines).split())


def posix(path: str) -> str:
    return path.replace("\\", "/")


def keys(findings: List[Finding], path_of: Optional[Callable[[Finding], str]] = None
         ) -> List[Key]:
    """One key per finding, in the order given; occurrences count in source order."""
    path_of = path_of or (lambda finding: finding.path)
    order = sorted(range(len(findings)), key=lambda i: findings[i].sort_key)
    seen: Counter = Counter()
    result: List[Optional[Key]] = [None] * len(findings)
    for index in order:
        finding = findings[index]
        base = (posix(path_of(finding)), finding.code, flagged_source(finding))
        result[index] = (*base, seen[base])
        seen[base] += 1
    return result  # type: ignore[return-value]  # every slot is filled


def digest(key: Key) -> str:
    path, code, source, occurrence = key
    text = "\0".join((path, code, source, str(occurrence)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprints(findings: List[Finding],
                 path_of: Optional[Callable[[Finding], str]] = None) -> List[str]:
    return [digest(key) for key in keys(findings, path_of)]
