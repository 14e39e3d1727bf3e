"""Recall of nanlint on the real-bug set in tests/field/ (see tests/field/README.md).

    .venv/bin/python scripts/field_recall.py [--field DIR]
    .venv/bin/python scripts/field_recall.py --upstream [--snapshots DIR] [--batch N]

Without `--upstream` it counts the reconstructions' annotations: a bug is one `# error:`
(found today) or `# miss:` (known false negative) annotation, and recall = errors /
(errors + misses), printed overall, per code and per project, then the misses grouped by
the class written after them (`# miss: NAN201 -- what the analysis lacks`). The annotations
are kept honest by tests/test_field.py, so this mode does not run the linter.

With `--upstream` it reads tests/field/bugs.yaml (references to real files at real
commits) and lints each file as it was upstream, from snapshots of the repositories (never
committed; `--snapshots DIR` or $NANLINT_SNAPSHOTS, laid out as DIR/owner+name, a git
directory or a folder holding one). For each bug it reports whether `check` finds a
finding on the bug's line, whether the fix lowers the file's count, where the line ranks
in `nanlint suspects` (top 1, 3, 5), and where it ranks in a regex baseline (every line
with a log, sqrt or `/`, in file order); per category, per style and per project. Bugs of
projects that tests/field's reconstructions come from are counted apart as "seen".
"""

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from annotation_reader import read_annotations  # noqa: E402


def project_of(source):
    match = re.search(r"^project:\s*(\S+/\S+)\s*$", source, re.MULTILINE)
    return match.group(1) if match else "?"


MISS_CLASS = re.compile(r"#\s*miss:\s*NAN\d{3}(?:\s*,\s*NAN\d{3})*\s*--\s*(.+?)\s*$")


def miss_class(text):
    match = MISS_CLASS.search(text)
    return match.group(1) if match else "(no class given)"


def collect(field):
    """One record (file, line, code, project, found, text) per annotated bug."""
    bugs = []
    for path in sorted(field.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        notes = read_annotations(source)
        project = project_of(source)
        lines = source.splitlines()
        for found, counter in ((True, notes.expected), (False, notes.missed)):
            for (line, code), n in counter.items():
                bugs += [(path.name, line, code, project, found, lines[line - 1].strip())] * n
    return bugs


def table(title, bugs, key):
    found, total = Counter(), Counter()
    for bug in bugs:
        total[key(bug)] += 1
        found[key(bug)] += bug[4]
    print(f"\n{title}")
    width = max(len(k) for k in total)
    for k in sorted(total):
        print(f"  {k:<{width}}  {found[k]:>3} / {total[k]:<3} {100 * found[k] / total[k]:5.1f}%")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", type=Path, default=ROOT / "tests" / "field")
    parser.add_argument("--upstream", action="store_true",
                        help="lint the real upstream files of tests/field/bugs.yaml")
    parser.add_argument("--bugs", type=Path, default=ROOT / "tests" / "field" / "bugs.yaml")
    parser.add_argument("--snapshots", type=Path, default=None,
                        help="where the repositories' snapshots are (default: "
                        "$NANLINT_SNAPSHOTS)")
    parser.add_argument("--batch", type=int, action="append",
                        help="only the bugs of this batch (repeatable)")
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per bug")
    parser.add_argument("--suspects", action="store_true",
                        help="with the reconstructions: where each bug's line ranks in its "
                        "file's `nanlint suspects` (top 1, 3, 5), per code")
    args = parser.parse_args(argv)
    if args.upstream:
        from upstream_recall import upstream_main

        return upstream_main(args)
    bugs = collect(args.field)
    if not bugs:
        print(f"no annotated bugs in {args.field}", file=sys.stderr)
        return 1
    found = sum(b[4] for b in bugs)
    projects = len({b[3] for b in bugs})
    print(f"recall: {found} / {len(bugs)} = {100 * found / len(bugs):.1f}%"
          f"  ({projects} projects, {len({b[0] for b in bugs})} files; every rule)")
    from nanlint import registry

    gate = sum(b[4] for b in bugs if not registry.is_preview(b[2]))
    print(f"the rules on by default: {gate} / {len(bugs)} = {100 * gate / len(bugs):.1f}%")
    table("per code", bugs, key=lambda b: b[2])
    table("per project", bugs, key=lambda b: b[3])
    misses = [b for b in bugs if not b[4]]
    by_class = Counter(miss_class(b[5]).split(":")[0] for b in misses)
    print(f"\nmisses by class ({len(by_class)} classes; the class is the text before ':'):")
    for text, n in sorted(by_class.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:>3}  {text}")
    print(f"\nmisses ({len(misses)}):")
    for name, line, code, _, _, text in sorted(misses):
        where = os.path.relpath(args.field / name)
        print(f"  {where}:{line}  {code}  {miss_class(text)}")
    if args.suspects:
        suspect_ranks(args.field, bugs)
    return 0


def suspect_ranks(field, bugs):
    """Where each bug's line ranks among its file's suspects, per code (a line that holds
    two bugs of one code counts once)."""
    from nanlint.suspects_report import in_file_order
    from upstream_recall import _findings, _rank_at

    ranks = {}
    for name in sorted({b[0] for b in bugs}):
        source = (field / name).read_text(encoding="utf-8")
        found = in_file_order([f for f in _findings(source, name, True)
                               if f.score is not None])
        for bug in bugs:
            if bug[0] == name:
                ranks[(name, bug[1], bug[2])] = _rank_at(found, bug[1])
    print(f"\nsuspects: where the bug's line ranks in its file ({len(ranks)} bug lines)")
    print("  code     n  top-1  top-3  top-5")
    for code in sorted({key[2] for key in ranks}) + ["all"]:
        mine = [r for key, r in ranks.items() if code in ("all", key[2])]
        counts = [sum(1 for r in mine if r and r <= k) for k in (1, 3, 5)]
        print(f"  {code:<6} {len(mine):>3}  " + "  ".join(f"{c:>5}" for c in counts))


if __name__ == "__main__":
    sys.exit(main())
