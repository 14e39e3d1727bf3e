"""The output of `nanlint suspects`: each file's suspects ranked, as text or JSON.

The engine gives every suspect a ``score`` and a ``why`` (``nanlint.suspects``); here they
get their rank within their file, files are ordered by their best suspect, and ``top``
keeps the best of each file.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import IO, Any, Dict, List, Tuple

from nanlint.finding import Finding
from nanlint.reporters import frame

FRAMES = 3  # code frames for this many of each file's best suspects (text)


def by_file(suspects: List[Finding], top: int) -> List[Tuple[str, List[Finding]]]:
    """Each file's suspects, best first (ties in reading order), the files by their best
    suspect; ``top`` > 0 keeps that many per file."""
    files: Dict[str, List[Finding]] = {}
    for suspect in suspects:
        files.setdefault(suspect.path, []).append(suspect)
    ranked = []
    for path, found in files.items():
        found = in_file_order(found)
        ranked.append((path, found[:top] if top > 0 else found))
    ranked.sort(key=lambda item: (-(item[1][0].score or 0.0), item[0]))
    return ranked


_PLACES = re.compile(r"\b(?:cell|line)s? \d+(?::\d+)?")


def copy_key(code: str, message: str) -> Tuple[str, str]:
    """What makes two suspects one hazard written twice: the same code and the same words
    (the same op on the same operand), the places the message names aside (each copy's
    producer is its own). Where each copy stands does not count: the best names the others
    among its places."""
    return code, _PLACES.sub("", message)


def in_file_order(found: List[Finding]) -> List[Finding]:
    """One file's suspects, best first (ties in reading order), one entry per hazard: a
    suspect that is a copy of a better one (``copy_key``: the same op on the same operand,
    written again elsewhere) is that one's, named among its other places (``also``). A
    line has one entry of its own: a line's second suspect is kept only where its best is a
    copy of another's."""
    ordered = sorted(found, key=lambda s: (-(s.score or 0.0), s.cell or 0, s.line, s.column))
    entries: Dict[Tuple[str, str], Finding] = {}
    lines = set()  # the lines that have their own entry: one each
    for suspect in ordered:
        key = copy_key(suspect.code, suspect.message)
        first = entries.get(key)
        if first is None:
            if (suspect.cell, suspect.line) not in lines:
                # (a line's second suspect stands in only where its best is a copy)
                lines.add((suspect.cell, suspect.line))
                entries[key] = suspect
            continue
        place = {"line": suspect.line, "column": suspect.column,
                 "end_line": suspect.end_line, "end_column": suspect.end_column}
        if suspect.cell is not None:
            place["cell"] = suspect.cell
        entries[key] = replace(first, also=first.also + (place,))
    return list(entries.values())  # insertion order: best first


def to_json(path_suspects: List[Tuple[str, List[Finding]]]) -> Dict[str, Any]:
    rows = []
    for _, found in path_suspects:
        for rank, suspect in enumerate(found, 1):
            rows.append({
                "path": suspect.path, "cell": suspect.cell, "line": suspect.line,
                "column": suspect.column, "end_line": suspect.end_line,
                "end_column": suspect.end_column, "rank": rank,
                "score": round(suspect.score or 0.0, 2), "code": suspect.code,
                "message": suspect.message, "why": suspect.why,
                "evidence": suspect.evidence, "gradient": suspect.gradient,
                "origins": [dict(origin) for origin in suspect.origins],
                "also": [dict(place) for place in suspect.also]})
    rows.sort(key=lambda row: (-row["score"], row["path"], row["rank"]))
    return {"suspects": rows}


def report_json(path_suspects: List[Tuple[str, List[Finding]]], stream: IO[str]) -> None:
    json.dump(to_json(path_suspects), stream, indent=2, ensure_ascii=False)
    stream.write("\n")


def report_text(path_suspects: List[Tuple[str, List[Finding]]], files: int,
                stream: IO[str]) -> None:
    total = 0
    for path, found in path_suspects:
        stream.write(f"{path}\n")
        for rank, suspect in enumerate(found, 1):
            total += 1
            stream.write(f"{rank:>4}. {suspect.location}  {suspect.code}  "
                         f"{suspect.message}\n")
            stream.write(f"      why: {suspect.why} (score {suspect.score or 0.0:.1f})\n")
            if suspect.origins:
                stream.write(f"      from: {_origins(suspect.origins)}\n")
            if suspect.also:
                stream.write(f"      also: {_places(suspect.also)}\n")
            if rank <= FRAMES:
                for line in frame(suspect):
                    stream.write(f"      {line}\n")
        stream.write("\n")
    noun = "file" if files == 1 else "files"
    if total:
        stream.write(f"{total} suspect{'s' if total != 1 else ''} shown in "
                     f"{len(path_suspects)} of {files} {noun}, best first in each file.\n")
    else:
        stream.write(f"No operation that can produce NaN or inf in {files} {noun}.\n")




def _places(places: Tuple[Dict[str, Any], ...]) -> str:
    """``lines 12, 40``; in a notebook ``cell 2:5, cell 3:1``."""
    spans = [f"cell {place['cell']}:{place['line']}" if place.get("cell") is not None
             else str(place["line"]) for place in places]
    word = "" if spans[0].startswith("cell") else "lines " if len(spans) > 1 else "line "
    return word + ", ".join(spans)


def _origins(origins: Tuple[Dict[str, Any], ...]) -> str:
    """``den (lines 9, 8), EPS (line 3)``: where the operand's names are set, nearest
    first; in a notebook ``count (cell 1:2)``, as locations name a cell."""
    spans: Dict[str, List[str]] = {}
    for origin in origins:
        last = origin["end_line"]
        span = f"{origin['line']}" + (f"-{last}" if last != origin["line"] else "")
        if origin.get("cell") is not None:
            span = f"cell {origin['cell']}:{span}"
        spans.setdefault(origin["name"], []).append(span)
    parts = []
    for name, at in spans.items():
        word = "" if at[0].startswith("cell") else "lines " if len(at) > 1 else "line "
        parts.append(f"`{name}` ({word}{', '.join(at)})")
    return ", ".join(parts)
