"""How much of the TensorFlow, Keras and numpy code a folder calls the op table knows.

    .venv/bin/python scripts/op_coverage.py FOLDER [--top 30] [--jobs N]

Counts the call sites of `tf.`, `K.`, `ops.` and `np.` functions in every Python file under
FOLDER, each resolved through its file's imports and aliases by nanlint's own analysis
(`import tensorflow.compat.v1 as tf`, `from keras import backend as K`, `tfm = tf.math`
all count), and prints the share that the table models (an op) or declares not numeric,
then the most common spellings that are neither. A file that does not parse is skipped.

It also measures an older nanlint (one without numpy spellings or declarations): its
numpy calls count, as unknown.
"""

import argparse
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import List, Optional

import libcst as cst

from nanlint import optable
from nanlint.analysis import Analysis

NAMESPACES = ("tf", "K", "ops", "np")


class _Calls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.calls: List[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, (cst.Name, cst.Attribute)):
            self.calls.append(node)


def spelling(qualified: Optional[str]) -> Optional[str]:
    """The table's spelling of a qualified name, if it is in one of NAMESPACES."""
    if not qualified:
        return None
    spelled = optable.spelling_of(qualified)
    if spelled is None and qualified.startswith("numpy."):
        spelled = "np." + qualified[len("numpy."):]
    return spelled if spelled and spelled.split(".", 1)[0] in NAMESPACES else None


def status(spelled: str) -> str:
    if spelled in optable.TABLE.by_spelling:
        return "modeled"
    declared = getattr(optable, "declared", None)
    return "declared" if declared is not None and declared(spelled) else "unknown"


def file_counts(path: str) -> Counter:
    """(status, spelling) → the number of call sites in the file at ``path``."""
    counts: Counter = Counter()
    try:
        module = cst.parse_module(Path(path).read_text(encoding="utf-8"))
    except (cst.ParserSyntaxError, UnicodeDecodeError, OSError, RecursionError):
        return counts
    calls = _Calls()
    module.visit(calls)
    analysis = Analysis(module)
    for call in calls.calls:
        try:
            spelled = spelling(analysis.qualified_at(call.func, analysis.call_place(call)))
        except RecursionError:
            continue
        if spelled is not None:
            counts[(status(spelled), spelled)] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--top", type=int, default=30, help="unknown spellings to list")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    paths = sorted(str(p) for p in Path(args.folder).rglob("*.py") if p.is_file())
    total: Counter = Counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for counts in pool.map(file_counts, paths, chunksize=16):
            total.update(counts)
    by_status = Counter()
    for (state, _), n in total.items():
        by_status[state] += n
    sites = sum(by_status.values())
    known = by_status["modeled"] + by_status["declared"]
    print(f"{len(paths)} files, {sites} call sites of {', '.join(NAMESPACES)}")
    for state in ("modeled", "declared", "unknown"):
        print(f"  {state:9} {by_status[state]:7}  {100 * by_status[state] / max(sites, 1):5.1f} %")
    print(f"  known     {known:7}  {100 * known / max(sites, 1):5.1f} %")
    unknown = Counter({name: n for (state, name), n in total.items() if state == "unknown"})
    if unknown:
        print(f"most common unknown spellings (of {len(unknown)}):")
        for name, n in unknown.most_common(args.top):
            print(f"  {n:6}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
