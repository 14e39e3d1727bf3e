"""Output formats: readable text with code frames, and JSON for scripts."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from typing import IO, List, Optional

from nanlint import __version__
from nanlint.finding import Finding

_MAX_FRAME_LINES = 6


def use_colour(stream: IO[str]) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def report_json(findings: List[Finding], files_scanned: int, stream: IO[str]) -> None:
    document = {
        "nanlint_version": __version__,
        "files_scanned": files_scanned,
        "findings": [finding.to_json() for finding in findings],
    }
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
        out.append(f"{number:>{width}} | {text.rstrip()}")
        start = finding.column - 1 if offset == 0 else len(text) - len(text.lstrip())
        if number == finding.end_line:
            end = finding.end_column - 1
        else:
            end = len(text.rstrip())
        end = max(end, start + 1)
        out.append(f"{gutter} {' ' * start}{'^' * (end - start)}")
    if len(finding.source_lines) > _MAX_FRAME_LINES:
        out.append(f"{gutter} ...")
    return out


def summary(findings: List[Finding], files_scanned: int) -> str:
    files = "file" if files_scanned == 1 else "files"
    if not findings:
        return f"No findings in {files_scanned} {files}."
    by_severity = Counter(f.severity for f in findings)
    parts = []
    for severity, word in (("error", "error"), ("warning", "warning"), ("info", "info")):
        count = by_severity.get(severity, 0)
        if count:
            parts.append(f"{count} {word}{'s' if count != 1 and word != 'info' else ''}")
    affected = len({f.path for f in findings})
    noun = "finding" if len(findings) == 1 else "findings"
    return (f"Found {len(findings)} {noun} ({', '.join(parts)}) in {affected} of "
            f"{files_scanned} {files}.")


def report_text(findings: List[Finding], files_scanned: int, stream: IO[str],
                quiet: bool = False, colour: Optional[bool] = None) -> None:
    if colour is None:
        colour = use_colour(stream)
    if colour:
        _report_rich(findings, files_scanned, stream, quiet)
        return
    write = stream.write
    for finding in findings:
        write(f"{finding.location}: {finding.code} "
              f"{finding.message}\n")
        if quiet:
            continue
        for line in frame(finding):
            write(line.rstrip() + "\n")
        if finding.suggestion:
            write(f"  help: {finding.suggestion}\n")
        write("\n")
    if not quiet:
        write(summary(findings, files_scanned) + "\n")


_STYLES = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


def _report_rich(findings: List[Finding], files_scanned: int, stream: IO[str],
                 quiet: bool) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
    for finding in findings:
        head = Text()
        head.append(f"{finding.location}:", style="bold")
        head.append(" ")
        head.append(finding.code, style=_STYLES.get(finding.severity, "bold"))
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
        console.print(Text(summary(findings, files_scanned),
                           style="bold red" if findings else "bold green"))


def write_error(message: str) -> None:
    sys.stderr.write(f"nanlint: error: {message}\n")
