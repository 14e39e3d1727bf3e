"""What one lint runs: the rules, their settings, the engine's own codes, the time budget."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Sequence, Type

from nanlint.analysis import Settings
from nanlint.rule import Rule


@dataclass
class LintOptions:
    rules: Sequence[Type[Rule]] = ()
    # Rules switched off that supersede an enabled code: they run, and their reports only
    # hide what they supersede (ignoring NAN103 must not bring its expressions back as NAN102).
    silent_rules: Sequence[Type[Rule]] = ()
    rule_settings: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    settings: Settings = field(default_factory=Settings)
    min_confidence: str = "low"
    known_codes: FrozenSet[str] = frozenset()
    engine_codes: FrozenSet[str] = frozenset({"NAN000", "NAN001"})  # enabled engine codes
    check_all_files: bool = False  # also analyse files that never mention TensorFlow/Keras
    file_timeout: float = 0.0  # seconds one file may take (lint_bytes, lint_file); 0: no limit
    # `nanlint suspects`: every hazard ranked (nanlint.suspects) instead of the findings
    suspects: bool = False
    # `check` of a folder: gradient hazards whose way out only other files' calls show are
    # kept as findings with ``callers``, for ``nanlint.callers`` to settle.
    pending: bool = False

