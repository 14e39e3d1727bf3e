"""Recall of nanlint on the real-bug set in tests/field/ (see tests/field/README.md).

    .venv/bin/python scripts/field_recall.py [--field DIR]

A bug is one `# error:` (found today) or `# miss:` (known false negative) annotation.
Recall = errors / (errors + misses), printed overall, per code and per project, then the
misses grouped by the class written after them (`# miss: NAN201 -- what the analysis
lacks`) and the list of misses with their line. The annotations are kept honest by
tests/test_field.py, so this script only counts them; it does not run the linter.
"""

import argparse
import os
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

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
    args = parser.parse_args(argv)
    bugs = collect(args.field)
    if not bugs:
        print(f"no annotated bugs in {args.field}", file=sys.stderr)
        return 1
    found = sum(b[4] for b in bugs)
    projects = len({b[3] for b in bugs})
    print(f"recall: {found} / {len(bugs)} = {100 * found / len(bugs):.1f}%"
          f"  ({projects} projects, {len({b[0] for b in bugs})} files)")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
