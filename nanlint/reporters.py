"""Output formats: readable text with code frames, JSON for scripts, and the formats CI
systems read: SARIF 2.1.0, GitHub workflow commands, JUnit XML and GitLab Code Quality.

Every reporter takes a ``Scan`` and a stream. They read only the documented fields of a
finding (``Finding.to_json`` keys), so new fields do not break them.
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Dict, List, Optional
from urllib.parse import quote

from nanlint import __version__, documentation
from nanlint.ci_reports import github_error, report_github, report_gitlab, report_junit
from nanlint.finding import SEVERITIES, Finding
from nanlint.fingerprint import fingerprints, posix

_MAX_FRAME_LINES = 6
_TAB = 8  # tab stops of the code frame, as a terminal sets them


def _cells(text: str) -> int:
    """The width of ``text`` on a terminal, in cells."""
    text = text.expandtabs(_TAB)
    if text.isascii():  # no wide and no combining characters: one cell each
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF"
               else 1 for c in text)


@dataclass
class Scan:
    """What a run found: the findings to report and the files that were checked."""

    findings: List[Finding]
    files: List[str] = field(default_factory=list)  # display paths, in order
    baselined: int = 0  # findings hidden by --baseline
    uncalled: int = 0  # findings in code nothing in the checked folders calls (not shown)
    baseline: Optional[str] = None  # the baseline file, if one was used
    fixed: int = 0  # findings removed by --fix, by their own fix
    carried: int = 0  # findings without a fix of their own that the fixes removed too
    unsafe_shown: bool = False  # --unsafe-fixes: unsafe fixes count as available
    fixed_codes: Dict[str, List[str]] = field(default_factory=dict)  # --show-fixes: per path


def use_colour(stream: IO[str]) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def report_json(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    document: Dict[str, Any] = {
        "nanlint_version": __version__,
        "files_scanned": len(scan.files),
        "findings": [finding.to_json() for finding in scan.findings],
    }
    if scan.baseline is not None:
        document["suppressed_by_baseline"] = scan.baselined
    if scan.uncalled:
        document["in_uncalled_code"] = scan.uncalled
    _dump(document, stream)


def _dump(document: Any, stream: IO[str]) -> None:
    json.dump(document, stream, indent=2)
    stream.write("\n")


def frame(finding: Finding) -> List[str]:
    """The offending lines with a gutter and a caret underline, as plain text."""
    lines = list(finding.source_lines[:_MAX_FRAME_LINES])
    if not lines:
        return []
    width = len(str(finding.line + len(lines) - 1))
    gutter = " " * width + " |"
    out = [gutter]
    for offset, text in enumerate(lines):
        number = finding.line + offset
        text = text.rstrip()
        out.append(f"{number:>{width}} | {text.expandtabs(_TAB)}")
        start = finding.column - 1 if offset == 0 else len(text) - len(text.lstrip())
        end = finding.end_column - 1 if number == finding.end_line else len(text)
        # Carets go under the characters as a terminal shows them: tabs expanded, wide
        # (East Asian) characters two cells, combining marks none.
        left = _cells(text[:start])
        right = max(_cells(text[:max(end, start)]), left + 1)
        out.append(f"{gutter} {' ' * left}{'^' * (right - left)}")
    if len(finding.source_lines) > _MAX_FRAME_LINES:
        out.append(f"{gutter} ...")
    return out


def marker(finding: Finding, unsafe_shown: bool) -> str:
    """`` [*]`` after the code of a finding that `--fix` (or `--unsafe-fixes`) would fix."""
    fix = finding.fix
    if not fix or (fix.get("safety") != "safe" and not unsafe_shown):
        return ""
    return " [*]"


def headline(finding: Finding, mark: str = "") -> str:
    """``path:line:column: CODE [*] severity: message``: the code where flake8-style tools
    look for it, the severity as compilers write it (what ``--fail-on`` compares)."""
    return f"{finding.location}: {finding.code}{mark} {finding.severity}: {finding.message}"


def fixed_sentence(fixed: int, carried: int = 0, would: bool = False) -> str:
    """``Fixed 2 findings (and 1 more that had no fix of their own).``: the first number is
    that of the ``[*]`` findings the fixes removed, so it matches the count `check` gave."""
    verb = "Would fix" if would else "Fixed"
    text = f"{verb} {fixed} finding{'s' if fixed != 1 else ''}"
    if carried:
        had = "had" if not would else "has" if carried == 1 else "have"
        their = "its" if carried == 1 else "their"
        text += f" (and {carried} more that {had} no fix of {their} own)"
    return text


def fix_summary(findings: List[Finding], fixed: int, unsafe_shown: bool,
                carried: int = 0) -> str:
    """What was fixed, and what could be: ruff's wording."""
    safe = sum(1 for f in findings if f.fix and f.fix.get("safety") == "safe")
    unsafe = sum(1 for f in findings if f.fix and f.fix.get("safety") == "unsafe")
    parts = []
    if fixed or carried:
        parts.append(fixed_sentence(fixed, carried) + ".")
    if unsafe_shown:
        safe, unsafe = safe + unsafe, 0
    if safe:
        flag = "--unsafe-fixes" if unsafe_shown else "--fix"
        parts.append(f"[*] {safe} fixable with `{flag}`.")
    if unsafe:
        more = " more" if safe else ""
        parts.append(f"{unsafe}{more} fixable with `--unsafe-fixes`.")
    return " ".join(parts)


def fixed_listing(scan: Scan) -> List[str]:
    """``--show-fixes``: the findings fixed, per file and code (ruff's layout)."""
    if not scan.fixed_codes:
        return []
    from nanlint import registry

    total = sum(len(codes) for codes in scan.fixed_codes.values())
    lines = [f"Fixed {total} finding{'s' if total != 1 else ''}:"]
    for path in sorted(scan.fixed_codes):
        lines.append(f"- {path}:")
        for code, count in sorted(Counter(scan.fixed_codes[path]).items()):
            rule = registry.rule_class(code)
            lines.append(f"    {count} × {code} ({rule.name if rule else code})")
    return lines + [""]


def summary(scan: Scan) -> str:
    findings, files_scanned = scan.findings, len(scan.files)
    files = "file" if files_scanned == 1 else "files"
    if not findings:
        text = f"No findings in {files_scanned} {files}."
    else:
        by_severity = Counter(f.severity for f in findings)
        parts = []
        for severity in SEVERITIES:
            count = by_severity.get(severity, 0)
            if count:
                plural = "s" if count != 1 and severity != "info" else ""
                parts.append(f"{count} {severity}{plural}")
        affected = len({f.path for f in findings})
        noun = "finding" if len(findings) == 1 else "findings"
        text = (f"Found {len(findings)} {noun} ({', '.join(parts)}) in {affected} of "
                f"{files_scanned} {files}.")
    if scan.baseline is not None:
        noun = "finding" if scan.baselined == 1 else "findings"
        text += f" {scan.baselined} {noun} suppressed by the baseline ({scan.baseline})."
    if scan.uncalled:
        noun = "finding" if scan.uncalled == 1 else "findings"
        text += (f" {scan.uncalled} {noun} in code nothing calls not shown "
                 "(`include-uncalled: true` shows them).")
    fixes = fix_summary(findings, scan.fixed, scan.unsafe_shown, scan.carried)
    return f"{text} {fixes}" if fixes else text


def report_text(scan: Scan, stream: IO[str], quiet: bool = False,
                colour: Optional[bool] = None) -> None:
    if colour is None:
        colour = use_colour(stream)
    if colour:
        _report_rich(scan, stream, quiet)
        return
    write = stream.write
    for finding in scan.findings:
        write(headline(finding, marker(finding, scan.unsafe_shown)) + "\n")
        if quiet:
            continue
        for line in frame(finding):
            write(line.rstrip() + "\n")
        if finding.suggestion:
            write(f"  help: {finding.suggestion}\n")
        write("\n")
    if not quiet:
        for line in fixed_listing(scan):
            write(line + "\n")
        write(summary(scan) + "\n")


def report_concise(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    """One line per finding, ``path:line:column: CODE [*] message`` (ruff's ``concise``): no
    severity, code frame or help; then the summary, unless ``quiet``."""
    for finding in scan.findings:
        mark = marker(finding, scan.unsafe_shown)
        stream.write(f"{finding.location}: {finding.code}{mark} {finding.message}\n")
    if not quiet:
        stream.write(summary(scan) + "\n")


_STYLES = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


def _report_rich(scan: Scan, stream: IO[str], quiet: bool) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
    for finding in scan.findings:
        head = Text()
        head.append(f"{finding.location}:", style="bold")
        head.append(" ")
        head.append(finding.code, style=_STYLES.get(finding.severity, "bold"))
        head.append(marker(finding, scan.unsafe_shown), style="bold cyan")
        head.append(f" {finding.severity}:", style=_STYLES.get(finding.severity, "bold"))
        head.append(f" {finding.message}")
        console.print(head)
        if quiet:
            continue
        for line in frame(finding):
            style = "red" if line.strip().endswith("^") and "|" in line else "dim"
            if line.split("|", 1)[0].strip().isdigit():
                number, _, code = line.partition("|")
                text = Text(number + "|", style="dim")
                text.append(code)
                console.print(text)
            else:
                console.print(Text(line, style=style))
        if finding.suggestion:
            text = Text("  help: ", style="bold cyan")
            text.append(finding.suggestion)
            console.print(text)
        console.print()
    if not quiet:
        for line in fixed_listing(scan):
            console.print(Text(line))
        console.print(Text(summary(scan), style="bold red" if scan.findings else "bold green"))


# -- SARIF 2.1.0 -----------------------------------------------------------------------------
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}
FINGERPRINT_KEY = "nanlint/v1"  # in partialFingerprints; the baseline uses the same digest
_SOURCE_ROOT = "%SRCROOT%"


def _sarif_rule(rule) -> Dict[str, Any]:
    text = rule.documentation()
    entry = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "fullDescription": {"text": rule.section("What it does") or rule.summary or rule.name},
        "help": {"text": text or rule.summary, "markdown": text or rule.summary},
        "defaultConfiguration": {"level": SARIF_LEVELS.get(rule.severity, "warning")},
        "properties": {"origin": rule.origin, "fix": rule.fix_safety or "none"},
    }
    url = documentation.documentation_url(rule, published=True)  # read on another machine
    if url:
        entry["helpUri"] = url
    return entry


def _artifact(path: str) -> Dict[str, str]:
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(posix(path)), "uriBaseId": _SOURCE_ROOT}


def _sarif_result(finding: Finding, rule_index: Optional[int], fingerprint: str
                  ) -> Dict[str, Any]:
    data = finding.to_json()
    text = data["message"]
    if data.get("suggestion"):
        text += f"\nhelp: {data['suggestion']}"
    region: Dict[str, Any] = {"startLine": data["line"], "startColumn": data["column"],
                              "endLine": data["end_line"], "endColumn": data["end_column"]}
    if finding.source_lines:
        region["snippet"] = {"text": "\n".join(finding.source_lines)}
    properties = {key: data[key] for key in ("name", "confidence", "suggestion", "fix",
                                             "gradient") if data.get(key) is not None}
    result: Dict[str, Any] = {
        "ruleId": data["code"],
        "level": SARIF_LEVELS.get(data["severity"], "warning"),
        "message": {"text": text},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(data["path"]),
                                            "region": region}}],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        "properties": properties,
    }
    fix = data.get("fix")
    if fix and data.get("cell") is None:
        replacements = [{"deletedRegion": {"startLine": e["line"], "startColumn": e["column"],
                                           "endLine": e["end_line"],
                                           "endColumn": e["end_column"]},
                         "insertedContent": {"text": e["replacement"]}}
                        for e in fix["edits"]]
        result["fixes"] = [{"description": {"text": f"{fix['description']} "
                                                    f"({fix['safety']} fix)"},
                            "artifactChanges": [{"artifactLocation": _artifact(data["path"]),
                                                 "replacements": replacements}]}]
    if data.get("cell") is not None:
        # SARIF has no cells: the region is the line inside the cell, and the cell is named
        # in the location's properties, as a logical location and in the message, so a
        # viewer can still say where it is.
        properties["cell"] = data["cell"]
        result["locations"][0]["properties"] = {"cell": data["cell"]}
        result["locations"][0]["logicalLocations"] = [{"name": f"cell {data['cell']}",
                                                       "kind": "module"}]
        result["message"]["text"] = f"cell {data['cell']}: {text}"
    evidence = data.get("evidence")
    if evidence:
        result["relatedLocations"] = [_related(data["path"], evidence)]
    if rule_index is not None:
        result["ruleIndex"] = rule_index
    return result


def _related(path: str, evidence: Dict[str, Any]) -> Dict[str, Any]:
    """The evidence (the producer the message names) as a SARIF related location."""
    region = {"startLine": evidence["line"], "startColumn": evidence["column"],
              "endLine": evidence["end_line"], "endColumn": evidence["end_column"]}
    related: Dict[str, Any] = {
        "id": 1, "message": {"text": evidence.get("message") or "evidence"},
        "physicalLocation": {"artifactLocation": _artifact(path), "region": region}}
    if evidence.get("cell") is not None:
        related["properties"] = {"cell": evidence["cell"]}
    return related


def report_sarif(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    from nanlint import registry

    rules = [_sarif_rule(rule) for rule in registry.every_rule()]
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    driver: Dict[str, Any] = {"name": "nanlint", "version": __version__,
                              "semanticVersion": __version__, "rules": rules}
    url = documentation.project_url()
    if url:
        driver["informationUri"] = url
    results = [_sarif_result(finding, index.get(finding.code), fingerprint)
               for finding, fingerprint in zip(scan.findings, fingerprints(scan.findings))]
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {_SOURCE_ROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    _dump({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, stream)


# -- statistics ------------------------------------------------------------------------------
def statistics(findings: List[Finding], unsafe_shown: bool = False) -> List[Dict[str, Any]]:
    """Findings per code and name, the most frequent first, with how many of them have a fix
    that is offered (a safe one, or any with ``--unsafe-fixes``), as the summary counts."""
    offered = ("safe", "unsafe") if unsafe_shown else ("safe",)
    counts = Counter((f.code, f.name) for f in findings)
    fixable = Counter((f.code, f.name) for f in findings
                      if f.fix and f.fix.get("safety") in offered)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [{"code": code, "name": name, "count": count, "fixable": fixable[(code, name)]}
            for (code, name), count in ordered]


def report_statistics_text(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    """One line per rule; ``[*]`` marks a rule with findings ``--fix`` can fix, as in the
    summary."""
    rows = statistics(scan.findings, scan.unsafe_shown)
    width = max((len(str(row["count"])) for row in rows), default=1)
    marks = any(row["fixable"] for row in rows)
    for row in rows:
        mark = ("[*] " if row["fixable"] else "    ") if marks else ""
        stream.write(f"{row['count']:>{width}}  {row['code']}  {mark}{row['name']}\n")
    if not quiet:
        stream.write(summary(scan) + "\n")


def report_statistics_json(scan: Scan, stream: IO[str], quiet: bool = False) -> None:
    _dump(statistics(scan.findings, scan.unsafe_shown), stream)


Reporter = Callable[[Scan, IO[str], bool], None]
FORMATS: Dict[str, Reporter] = {"text": report_text, "concise": report_concise,
                                "json": report_json, "sarif": report_sarif,
                                "github": report_github, "junit": report_junit,
                                "gitlab": report_gitlab}
STATISTICS_FORMATS: Dict[str, Reporter] = {"text": report_statistics_text,
                                           "json": report_statistics_json}


def write_error(message: str) -> None:
    sys.stderr.write(f"nanlint: error: {message}\n")


def write_path_error(path: Path, problem: str, output_format: str = "text") -> None:
    """An error about a path given, on standard error: under ``--format github`` a workflow
    command, which GitHub shows as an annotation of that path, as it shows the findings."""
    if output_format == "github":
        sys.stderr.write(github_error(str(path), f"{path}: {problem}"))
    else:
        write_error(f"{path}: {problem}")
