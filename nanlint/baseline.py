"""The baseline: findings accepted for now, so that a check reports only new ones.

``--write-baseline FILE`` records the fingerprint of every current finding (see
fingerprint.py: path, code, normalized flagged source, occurrence index; no line numbers).
``--baseline FILE`` drops the findings whose fingerprint is recorded. Paths in the file are
relative to the file's own folder, so the check may run from another directory. Internal
errors are never recorded and never suppressed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, List, Set, Tuple

from nanlint import __version__
from nanlint.finding import Finding
from nanlint.fingerprint import digest, keys

FORMAT_VERSION = 1


class BaselineError(Exception):
    pass


def _relative_to(folder: Path) -> Callable[[Finding], str]:
    def path_of(finding: Finding) -> str:
        return os.path.relpath(os.path.abspath(finding.path), folder)
    return path_of


def _folder(path: Path) -> Path:
    return Path(os.path.abspath(path)).parent


def _recordable(finding: Finding) -> bool:
    return finding.name != "internal-error"


def write(path: Path, findings: List[Finding]) -> int:
    """Record ``findings`` in ``path``; the number recorded."""
    findings = [f for f in findings if _recordable(f)]
    entries = []
    for finding, key in zip(findings, keys(findings, _relative_to(_folder(path)))):
        relative, code, source, occurrence = key
        entries.append({"fingerprint": digest(key), "path": relative, "code": code,
                        "name": finding.name, "source": source, "occurrence": occurrence,
                        "line": finding.line, "message": finding.message})
    document = {"nanlint_baseline": FORMAT_VERSION, "nanlint_version": __version__,
                "findings": entries}
    try:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=2)
            handle.write("\n")
    except OSError as error:
        raise BaselineError(f"{path}: cannot write the baseline: "
                            f"{error.strerror or error}") from None
    return len(entries)


def load(path: Path) -> Set[str]:
    """The fingerprints recorded in ``path``."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as error:
        raise BaselineError(f"{path}: cannot read the baseline: "
                            f"{error.strerror or error}") from None
    except UnicodeDecodeError:
        raise BaselineError(f"{path}: not a nanlint baseline (not UTF-8 text)") from None
    except ValueError as error:
        raise BaselineError(f"{path}: not a nanlint baseline (invalid JSON: {error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("findings"), list):
        raise BaselineError(f"{path}: not a nanlint baseline (expected an object with a "
                            "`findings` list, as written by --write-baseline)")
    version = document.get("nanlint_baseline")
    if version != FORMAT_VERSION:
        raise BaselineError(f"{path}: baseline format {version!r} is not supported "
                            f"(expected {FORMAT_VERSION}); write it again with "
                            "--write-baseline")
    recorded = set()
    for number, entry in enumerate(document["findings"], 1):
        fingerprint = entry.get("fingerprint") if isinstance(entry, dict) else None
        if not isinstance(fingerprint, str):
            raise BaselineError(f"{path}: finding {number} has no `fingerprint` string")
        recorded.add(fingerprint)
    return recorded


def apply(path: Path, recorded: Set[str], findings: List[Finding]
          ) -> Tuple[List[Finding], int]:
    """The findings not recorded in the baseline, and how many were."""
    kept = []
    for finding, key in zip(findings, keys(findings, _relative_to(_folder(path)))):
        if _recordable(finding) and digest(key) in recorded:
            continue
        kept.append(finding)
    return kept, len(findings) - len(kept)
