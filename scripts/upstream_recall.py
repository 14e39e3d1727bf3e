"""`field_recall.py --upstream`: nanlint on the real upstream files of tests/field/bugs.yaml.

Also the one definition of bugs.yaml's schema (``validate``), which tests/test_field.py
checks. See field_recall.py's docstring for what is reported.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import yaml

ROOT = Path(__file__).resolve().parent.parent
CATEGORIES = ("division", "log", "sqrt", "norm", "exp", "epsilon", "learning-rate",
              "data-scale", "float16", "inverse-trig", "pow")
STYLES = ("tf1", "tf2", "keras", "keras3", "numpy")
REQUIRED = ("id", "repo", "commit", "path", "line", "category", "style", "source", "batch")
OPTIONAL = ("fixed",)
HEX40 = re.compile(r"^[0-9a-f]{40}$")
REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*$")
URL = re.compile(r"^https://github\.com/\S+$")
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# The regex baseline: a line with a log, a square root or a true division, in file order.
NAIVE = re.compile(r"\blog\w*\s*\(|\bsqrt\s*\(|[^/*=]/[^/=]|/=")


def load(path: Path) -> List[dict]:
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle) or []


def validate(entries: List[dict]) -> List[str]:
    """Every problem of the entries' schema, one line each (empty when valid)."""
    problems = []
    seen_ids, seen_sites = set(), set()
    for index, entry in enumerate(entries):
        where = f"entry {index + 1} ({entry.get('id', '?') if isinstance(entry, dict) else '?'})"
        if not isinstance(entry, dict):
            problems.append(f"{where}: not a mapping")
            continue
        missing = [key for key in REQUIRED if key not in entry]
        unknown = [key for key in entry if key not in REQUIRED + OPTIONAL]
        if missing or unknown:
            problems.append(f"{where}: missing {missing}, unknown {unknown}")
            continue
        if not ID.match(str(entry["id"])):
            problems.append(f"{where}: id must be lowercase letters, digits and dashes")
        if not REPO.match(str(entry["repo"])):
            problems.append(f"{where}: repo must be owner/name")
        if not HEX40.match(str(entry["commit"])):
            problems.append(f"{where}: commit must be 40 hex digits")
        if not isinstance(entry["line"], int) or entry["line"] < 1:
            problems.append(f"{where}: line must be a positive integer")
        if not str(entry["path"]).endswith(".py"):
            problems.append(f"{where}: path must be a .py file")
        if entry["category"] not in CATEGORIES:
            problems.append(f"{where}: category must be one of {', '.join(CATEGORIES)}")
        if entry["style"] not in STYLES:
            problems.append(f"{where}: style must be one of {', '.join(STYLES)}")
        if not isinstance(entry["batch"], int) or entry["batch"] < 1:
            problems.append(f"{where}: batch must be a positive integer")
        source = entry["source"]
        if not (isinstance(source, dict) and set(source) == {"url", "evidence"}
                and URL.match(str(source["url"])) and len(str(source["evidence"])) >= 20):
            problems.append(f"{where}: source needs a github url and a sentence of evidence")
        fixed = entry.get("fixed")
        if fixed is not None and not (
                isinstance(fixed, dict) and set(fixed) == {"commit", "path", "line"}
                and HEX40.match(str(fixed["commit"])) and isinstance(fixed["line"], int)):
            problems.append(f"{where}: fixed needs commit (40 hex), path and line")
        if entry["id"] in seen_ids:
            problems.append(f"{where}: duplicate id")
        site = (entry["repo"].lower(), entry["commit"], entry["path"], entry["line"])
        if site in seen_sites:
            problems.append(f"{where}: duplicate of an earlier entry's repo, commit, path, line")
        seen_ids.add(entry["id"])
        seen_sites.add(site)
    return problems


# -- snapshots -------------------------------------------------------------------------------
def snapshot(root: Optional[Path], repo: str) -> Optional[Path]:
    """The git directory of ``repo``'s snapshot under ``root``, or None."""
    if root is None:
        return None
    owner, name = repo.split("/")
    for candidate in (root / f"{owner}+{name}" / "repo", root / f"{owner}+{name}",
                      root / owner / name):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
        if (candidate / ".git").is_dir():
            return candidate / ".git"
    return None


def file_at(git_dir: Path, commit: str, path: str) -> Optional[str]:
    result = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
                            capture_output=True, check=False)
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", errors="replace")


# -- measuring -------------------------------------------------------------------------------
def _findings(source: str, path: str, suspects: bool, preview: bool = True):
    """check's findings (every rule, preview ones too, unless ``preview`` is false: the
    default tier alone) or, with ``suspects``, the hunt's."""
    from nanlint.config import Config
    from nanlint.engine import lint_bytes

    config = Config(suspects=suspects, preview=preview)
    return lint_bytes(source.encode("utf-8"), path, config.options_for(Path(path)))


def _covers(finding, line: int) -> bool:
    return finding.line <= line <= max(finding.line, finding.end_line)


def _names(finding, line: int) -> bool:
    """Whether the finding is on ``line`` or names it as where its evidence is (the
    producer a message points to: `p` is the output of `tf.nn.softmax` (line 64))."""
    evidence = finding.evidence or {}
    first = evidence.get("line")
    return _covers(finding, line) or bool(
        first and first <= line <= max(first, evidence.get("end_line") or first))


def _rank(lines: List[Tuple[int, int]], line: int) -> Optional[int]:
    for rank, (first, last) in enumerate(lines, 1):
        if first <= line <= last:
            return rank
    return None


def _rank_with_origins(suspects, line: int) -> Optional[int]:
    """The rank of the first suspect on ``line`` (its own place or one of its others, as
    `nanlint suspects` shows them) or naming it as where its operand is set (the
    assignments shown with each suspect)."""
    for rank, suspect in enumerate(suspects, 1):
        spans = _places(suspect) + [
            (origin["line"], origin["end_line"]) for origin in suspect.origins]
        if any(first <= line <= max(first, last) for first, last in spans):
            return rank
    return None


def _rank_at(suspects, line: int) -> Optional[int]:
    """The rank of the first suspect on ``line``, its own place or one of its others."""
    for rank, suspect in enumerate(suspects, 1):
        if any(first <= line <= max(first, last) for first, last in _places(suspect)):
            return rank
    return None


def _places(suspect) -> List[Tuple[int, int]]:
    return [(suspect.line, suspect.end_line)] + [
        (place["line"], place["end_line"]) for place in suspect.also]


def naive_order(source: str) -> List[Tuple[int, int]]:
    """The regex baseline's lines, in file order (comments dropped)."""
    found = []
    for number, text in enumerate(source.splitlines(), 1):
        code = text.split("#", 1)[0]
        if NAIVE.search(code):
            found.append((number, number))
    return found


def measure(entry: dict, git_dir: Path) -> Optional[Dict[str, object]]:
    """One bug's figures, or None if its file is not in the snapshot."""
    source = file_at(git_dir, entry["commit"], entry["path"])
    if source is None:
        return None
    line = entry["line"]
    found = [f for f in _findings(source, entry["path"], False) if f.code != "NAN000"]
    default = _findings(source, entry["path"], False, preview=False)
    from nanlint.suspects_report import in_file_order

    suspects = in_file_order([f for f in _findings(source, entry["path"], True)
                              if f.score is not None])
    result: Dict[str, object] = {
        "found": any(_covers(f, line) for f in found),
        "named": any(_names(f, line) for f in found),
        "gate": any(_covers(f, line) for f in default if f.code != "NAN000"),
        "suspect_rank": _rank_with_origins(suspects, line),
        "suspect_line_rank": _rank_at(suspects, line),
        "naive_rank": _rank(naive_order(source), line),
        "fix": None,
    }
    fixed = entry.get("fixed")
    if fixed:
        after = file_at(git_dir, fixed["commit"], fixed["path"])
        if after is not None:
            later = [f for f in _findings(after, fixed["path"], False) if f.code != "NAN000"]
            result["fix"] = ("lowers" if len(later) < len(found) else
                             "same" if len(later) == len(found) else "raises")
    return result


def _seen_projects() -> set:
    projects = set()
    for path in (ROOT / "tests" / "field").glob("*.py"):
        match = re.search(r"^project:\s*(\S+/\S+)\s*$", path.read_text(encoding="utf-8"),
                          re.MULTILINE)
        if match:
            projects.add(match.group(1).lower())
    return projects


def _percent(part: int, whole: int) -> str:
    return f"{part:>3} / {whole:<3} {100 * part / whole:5.1f}%" if whole else "  - / 0"


def _table(title: str, rows: List[Tuple[dict, dict]], key) -> None:
    groups: Dict[str, List[dict]] = {}
    for entry, result in rows:
        groups.setdefault(key(entry), []).append(result)
    print(f"\n{title}: check recall | default tier | suspects top-1, top-3, top-5 | top-3 on the op's "
          "line only | regex top-3")
    width = max(len(k) for k in groups)
    for name in sorted(groups):
        results = groups[name]
        n = len(results)
        counts = [sum(bool(r["found"]) for r in results),
                  sum(bool(r["gate"]) for r in results)]
        counts += [sum(1 for r in results if r["suspect_rank"] and r["suspect_rank"] <= k)
                   for k in (1, 3, 5)]
        counts.append(sum(1 for r in results if r["suspect_line_rank"]
                          and r["suspect_line_rank"] <= 3))
        counts.append(sum(1 for r in results if r["naive_rank"] and r["naive_rank"] <= 3))
        cells = "  ".join(f"{c:>3}" for c in counts)
        print(f"  {name:<{width}}  n={n:<3} {cells}")


def upstream_main(args) -> int:
    if not args.bugs.is_file():
        print(f"no bug list at {args.bugs}", file=sys.stderr)
        return 1
    entries = load(args.bugs)
    problems = validate(entries)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    if args.batch:
        entries = [e for e in entries if e["batch"] in args.batch]
    env = os.environ.get("NANLINT_SNAPSHOTS")
    root = args.snapshots or (Path(env) if env else None)
    missing = sorted({e["repo"] for e in entries if snapshot(root, e["repo"]) is None})
    if missing:
        where = root if root is not None else "DIR (pass --snapshots DIR or set NANLINT_SNAPSHOTS)"
        print(f"{len(missing)} of {len({e['repo'] for e in entries})} repositories have no "
              f"snapshot under {where}; their bugs are left out. Fetch each as a git "
              f"directory named owner+name, e.g. `git clone --mirror "
              f"https://github.com/{missing[0]} {where}/{missing[0].replace('/', '+')}`:",
              file=sys.stderr)
        for repo in missing:
            print(f"  {repo}", file=sys.stderr)
    rows, absent = [], []
    for entry in entries:
        git_dir = snapshot(root, entry["repo"])
        if git_dir is None:
            continue
        result = measure(entry, git_dir)
        if result is None:
            absent.append(entry["id"])
            continue
        rows.append((entry, result))
        if args.verbose:
            print(f"  {entry['id']:<50} found={'yes' if result['found'] else 'no ':<3} "
                  f"gate={'yes' if result['gate'] else 'no ':<3} "
                  f"suspect={result['suspect_rank']} line={result['suspect_line_rank']} "
                  f"regex={result['naive_rank']} "
                  f"fix={result['fix']}")
    for name in absent:
        print(f"  {name}: the commit or path is not in its snapshot", file=sys.stderr)
    if not rows:
        print("no bug could be measured", file=sys.stderr)
        return 1
    seen = _seen_projects()
    n = len(rows)
    found = sum(bool(r["found"]) for _, r in rows)
    ranks = [r["suspect_rank"] for _, r in rows]
    fixes = Counter(r["fix"] for _, r in rows if r["fix"] is not None)
    print(f"bugs measured: {n} from {len({e['repo'] for e, _ in rows})} projects")
    print(f"check recall:      {_percent(found, n)}   (every rule, preview ones too)")
    named = sum(bool(r["named"]) for _, r in rows)
    print(f"  or naming it:    {_percent(named, n)}   (a finding whose evidence is on the "
          "bug's line)")
    gate = sum(bool(r["gate"]) for _, r in rows)
    print(f"check, default:    {_percent(gate, n)}   (the rules on by default)")
    lines = [r["suspect_line_rank"] for _, r in rows]
    for k in (1, 3, 5):
        print(f"suspects top-{k}:    {_percent(sum(1 for r in ranks if r and r <= k), n)}"
              f"   (on the op's line only: "
              f"{_percent(sum(1 for r in lines if r and r <= k), n).strip()})")
    naive = sum(1 for _, r in rows if r["naive_rank"] and r["naive_rank"] <= 3)
    print(f"regex top-3:       {_percent(naive, n)}")
    print(f"fixes: {fixes['lowers']} lower the file's count, {fixes['same']} keep it, "
          f"{fixes['raises']} raise it (of {sum(fixes.values())} with a fixed version)")
    _table("per category", rows, lambda e: e["category"])
    _table("per style", rows, lambda e: e["style"])
    _table("per batch", rows, lambda e: f"batch {e['batch']}")
    _table("projects of the reconstructions (seen) or not", rows,
           lambda e: "seen" if e["repo"].lower() in seen else "unseen")
    if args.verbose:
        _table("per project", rows, lambda e: e["repo"])
    return 0
