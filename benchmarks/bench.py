"""How fast is nanlint, against the floors it cannot beat? One run measures everything.

    python benchmarks/bench.py CORPUS [--jobs N] [--runs 5]

CORPUS is a folder of Python source; the reference is the source of the pip-installed keras
package, copied out of the virtual environment first (a venv inside a git checkout is
git-ignored, so a scan there checks nothing):

    cp -r "$(python -c 'import keras, os; print(os.path.dirname(keras.__file__))')" /tmp/keras
    python benchmarks/bench.py /tmp/keras

Each measurement is a whole process, timed from outside. ``--runs`` rounds each measure
everything once, in turn; a figure is the median of its runs, and a ratio the median of the
rounds' ratios (two runs of one round are close in time, so a machine whose speed drifts
skews no ratio):

- parse floor: libcst parsing every file, with the same number of processes as nanlint;
- cold: ``nanlint check CORPUS --no-cache``, with a configuration that includes test files
  (the floor parses every file);
- warm: ``nanlint check CORPUS`` with a filled cache and nothing changed;
- one file: ``nanlint check SMALL.py`` (a small TensorFlow file);
- start-up floor: ``python -c "import libcst"``;
- dense file: ``nanlint check --no-cache DENSE.py``, a generated 18,000-line TensorFlow file
  with one finding per function, against libcst parsing that one file (``dense parse``);
- every rule: ``nanlint check --preview --no-cache DENSE.py``, the preview rules too;
- suspects: ``nanlint suspects --no-cache DENSE.py`` against ``check --preview`` on the same
  file, which runs the same rules (the hunt ranks every hazard of the file, the gate
  reports the findings), and against the default ``check`` for information;
- big file: the peak memory of ``nanlint check --no-cache BIG.py``, the same kind of file
  with 60,000 lines, against libcst parsing it (``big parse``). Memory only, and measured
  once: its peak does not drift from run to run as time does.

Peak memory is the largest resident set of any one process of the command (workers
included). The ratios are the acceptance figures of the speed issue.

nanlint's own modules are byte-compiled first, as ``pip install`` does: an editable install
run with ``PYTHONDONTWRITEBYTECODE=1`` (as on this project's machines) has no ``.pyc`` files
and compiles every module at each start, about 0.2 s that an installed nanlint never spends.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Tuple

SMALL_FILE = '''import tensorflow as tf


def loss_fn(labels, logits):
    probs = tf.nn.softmax(logits)
    return -tf.reduce_sum(labels * tf.math.log(probs + 1e-7), axis=-1)
'''


DENSE_FUNCTION = '''def f{i}(a):
    p = tf.nn.softmax(a)
    return tf.math.log(p) / tf.norm(a)


'''


BIG_LINES = 60000  # the big file: a size found in the field, where memory is the limit


def dense_source(lines: int = 18000) -> str:
    """A dense TensorFlow file: ``lines`` lines, one finding (log of a softmax) per function."""
    count = (lines - 2) // DENSE_FUNCTION.count("\n")
    return "import tensorflow as tf\n\n\n" + "".join(DENSE_FUNCTION.format(i=i)
                                                     for i in range(count))


def _parse_worker(paths: List[str]) -> int:
    import libcst

    parsed = 0
    for path in paths:
        try:
            with open(path, "rb") as handle:
                libcst.parse_module(handle.read().decode("utf-8"))
            parsed += 1
        except Exception:  # noqa: BLE001 — the floor parses what parses
            pass
    return parsed


def parse_only(corpus: str, jobs: int) -> None:
    """The floor: find the .py files and parse each with libcst, in `jobs` processes."""
    from concurrent.futures import ProcessPoolExecutor

    files = ([corpus] if corpus.endswith(".py") else
             sorted(str(p) for p in Path(corpus).rglob("*.py")))
    size = max(1, min(32, len(files) // (jobs * 4)))
    chunks = [files[i:i + size] for i in range(0, len(files), size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        total = sum(pool.map(_parse_worker, chunks))
    print(f"parsed {total} of {len(files)} files")


def every_file_config(work: str) -> Path:
    """A configuration under which a scan checks every file the parse floor parses: test
    files too."""
    path = Path(work, "every-file.yaml")
    path.write_text("include-tests: true\n", encoding="utf-8")
    return path


def byte_compile() -> List[str]:
    """Byte-compile the nanlint packages this interpreter imports, as ``pip install`` does;
    the folders compiled."""
    folders = []
    for package in ("nanlint", "nanlint.rules"):
        spec = importlib.util.find_spec(package)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=1)
            folders.append(folder)
    return folders


def measure(command: List[str], cwd: str) -> Tuple[float, int]:
    """Wall time of the command and the peak RSS (KiB) of its largest process."""
    probe = ("import resource, subprocess, sys, time\n"
             "start = time.perf_counter()\n"
             "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)\n"
             "elapsed = time.perf_counter() - start\n"
             "print(elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", probe, *command], cwd=cwd, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--parse-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    corpus = os.path.abspath(args.corpus)
    if args.parse_only:
        parse_only(corpus, args.jobs)
        return 0

    byte_compile()
    nanlint = [sys.executable, "-m", "nanlint", "check", "--quiet", "--exit-zero",
               f"--jobs={args.jobs}"]
    work = tempfile.mkdtemp(prefix="nanlint-bench-")
    try:
        small = Path(work, "small.py")
        small.write_text(SMALL_FILE, encoding="utf-8")
        dense = Path(work, "dense.py")
        dense.write_text(dense_source(), encoding="utf-8")
        big = Path(work, "big.py")
        big.write_text(dense_source(BIG_LINES), encoding="utf-8")
        scan = [*nanlint, f"--config={every_file_config(work)}"]
        commands = {
            "parse_floor": [sys.executable, os.path.abspath(__file__), "--parse-only",
                            f"--jobs={args.jobs}", corpus],
            "cold": [*scan, "--no-cache", corpus],
            "warm": [*scan, corpus],
            "one_file": [*nanlint, str(small)],
            "import_floor": [sys.executable, "-c", "import libcst"],
            "dense_parse": [sys.executable, os.path.abspath(__file__), "--parse-only",
                            "--jobs=1", str(dense)],
            "dense": [*nanlint[:-1], "--jobs=1", "--no-cache", str(dense)],
            "dense_preview": [*nanlint[:-1], "--jobs=1", "--no-cache", "--preview",
                              str(dense)],
            "suspects": [sys.executable, "-m", "nanlint", "suspects", "--jobs=1",
                         "--no-cache", "--top=0", str(dense)],
        }
        measure(commands["warm"], work)  # fill the cache (in `work`, the current folder)
        # Rounds, each measuring everything once: a ratio compares two runs made close in
        # time, so a machine that slows down or speeds up midway skews no ratio.
        samples: Dict[str, List[Tuple[float, int]]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                samples[name].append(measure(command, work))
        once = {"big_parse": [sys.executable, os.path.abspath(__file__), "--parse-only",
                              "--jobs=1", str(big)],
                "big": [*nanlint[:-1], "--jobs=1", "--no-cache", str(big)]}
        for name, command in once.items():
            samples[name] = [measure(command, work)]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    figures = {name: (statistics.median(t for t, _ in runs), max(p for _, p in runs))
               for name, runs in samples.items()}

    rounds: Dict[str, List[float]] = {}  # each round's ratio, to show the spread

    def ratio(numerator: str, denominator: str) -> float:
        """The median over the rounds of the round's ratio."""
        each = [a[0] / b[0] for a, b in zip(samples[numerator], samples[denominator])]
        rounds[f"{numerator} / {denominator}"] = each
        return statistics.median(each)

    ratios = {
        "cold / parse floor": ratio("cold", "parse_floor"),
        "warm / cold": ratio("warm", "cold"),
        "one file / import floor": ratio("one_file", "import_floor"),
        "peak memory cold / parse floor": figures["cold"][1] / figures["parse_floor"][1],
        "dense file / its parse": ratio("dense", "dense_parse"),
        "dense file, every rule / its parse": ratio("dense_preview", "dense_parse"),
        "suspects / check, every rule (dense file)": ratio("suspects", "dense_preview"),
        "suspects / default check (dense file)": ratio("suspects", "dense"),
        "peak memory big file / its parse": figures["big"][1] / figures["big_parse"][1],
    }
    limits = {"cold / parse floor": 1.3, "warm / cold": 0.1, "one file / import floor": 2.0,
              "peak memory cold / parse floor": 1.2, "dense file / its parse": 1.5,
              "suspects / check, every rule (dense file)": 1.2,
              "peak memory big file / its parse": 1.5}
    files = sum(1 for _ in Path(corpus).rglob("*.py"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps({"corpus": corpus, "files": files, "jobs": args.jobs,
                          "runs": args.runs, "load_average": load,
                          "seconds": {k: v[0] for k, v in figures.items()},
                          "peak_kib": {k: v[1] for k, v in figures.items()},
                          "ratios": ratios, "ratios_by_round": rounds}, indent=2))
        return 0
    print(f"corpus: {corpus} ({files} files), jobs={args.jobs}, median of {args.runs} runs, "
          f"load average at the end {load}")
    for name, (seconds, peak) in figures.items():
        print(f"  {name:<14} {seconds:8.2f} s   peak {peak / 1024:7.1f} MiB")
    for name, ratio in ratios.items():
        if name not in limits:
            print(f"  {name:<41} {ratio:6.2f}  (no limit: for information)")
            continue
        verdict = "ok" if ratio <= limits[name] else "over"
        print(f"  {name:<41} {ratio:6.2f}  (limit {limits[name]}: {verdict})")
    for name, each in rounds.items():
        print(f"  by round, {name}: {', '.join(f'{r:.2f}' for r in each)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
