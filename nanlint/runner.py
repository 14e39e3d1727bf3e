"""Running the engine over many files: a process pool, and a cache keyed by content.

A handful of files is checked in this process (a pre-commit run pays no pool start-up);
more are split into chunks for worker processes, each of which builds its configuration and
rules once. Results are cached by the hash of the file's bytes, the nanlint version and its
code (an install from a repository keeps its version number from commit to commit), and the
effective configuration for the file, so an unchanged file costs a read and a hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import nanlint
from nanlint import __version__, registry
from nanlint.config import Config, relative_display
from nanlint.engine import lint_bytes
from nanlint.finding import Finding
from nanlint.lookup import Configurations
from nanlint.options import LintOptions
from nanlint.source import read_bytes

CACHE_FOLDER = ".nanlint_cache"
# One configuration for every file, or the configuration in force for each.
Configs = Union[Config, Configurations]
SERIAL_LIMIT = 16  # at most this many files to check: no pool
# Results that do not follow from the file's bytes alone: a crash should be seen again (with
# its traceback under --verbose) until it is fixed, and a timeout depends on the machine.
UNCACHED = frozenset({"internal-error", "timeout"})
_CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                 "# This file is a cache directory tag created by nanlint.\n"
                 "# For information about cache directory tags see https://bford.info/cachedir/\n")


@dataclass
class Outcome:
    findings: List[Finding] = field(default_factory=list)
    files_checked: int = 0
    from_cache: int = 0
    fixed: int = 0  # findings removed by their own fix
    carried: int = 0  # findings without a fix of their own that went with the others'
    files_fixed: int = 0
    diffs: List[str] = field(default_factory=list)
    fixed_codes: Dict[str, List[str]] = field(default_factory=dict)  # path → codes fixed


@dataclass(frozen=True)
class FixMode:
    """``--fix`` / ``--unsafe-fixes`` / ``--diff``: which fixes, and whether to write."""

    safeties: frozenset
    write: bool


# -- fingerprints ----------------------------------------------------------------------------
def code_fingerprint(folders: Sequence[str]) -> str:
    """The Python source under ``folders``: another commit of nanlint (or an edit of an
    editable install) with the same version number is another cache."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.py")):
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"unreadable")
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def _own_code() -> str:
    import nanlint.rules

    return code_fingerprint(sorted({*nanlint.__path__, *nanlint.rules.__path__}))


def options_fingerprint(options: LintOptions) -> str:
    """What, besides the file's bytes, decides its findings."""
    described = {
        "version": __version__,
        "code": _own_code(),
        "finding_fields": [f.name for f in fields(Finding)],  # a new field: a new cache
        "rules": sorted(f"{rule.origin}:{rule.code}" for rule in options.rules),
        "engine": sorted(options.engine_codes),
        "rule_settings": {code: options.rule_settings[code] for code in
                          sorted(options.rule_settings)},
        "settings": {key: sorted(value) if isinstance(value, frozenset) else value
                     for key, value in sorted(vars(options.settings).items())},
        "min_confidence": options.min_confidence,
        "suspects": options.suspects,
        "pending": options.pending,
    }
    text = json.dumps(described, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- the cache -------------------------------------------------------------------------------
class Cache:
    """One JSON file per nanlint version: {file hash + options fingerprint: findings}.

    Written to a temporary file and renamed over the old one, so a concurrent run or a crash
    never leaves a half-written cache; a cache that cannot be read is ignored and rebuilt.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / f"v{__version__}.json"
        self.entries: Dict[str, List[dict]] = {}
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as handle:
                data = json.load(handle)
            if isinstance(data, dict) and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
        except (OSError, ValueError):
            self.entries = {}

    def get(self, key: str) -> Optional[List[dict]]:
        entry = self.entries.get(key)
        return entry if isinstance(entry, list) else None

    def put(self, key: str, findings: List[Finding]) -> None:
        self.entries[key] = [_stored(f) for f in findings]
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tag = self.folder / "CACHEDIR.TAG"
            if not tag.exists():
                tag.write_text(_CACHEDIR_TAG, encoding="utf-8")
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Created by nanlint.\n*\n", encoding="utf-8")
            descriptor, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-",
                                                     suffix=".json")
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump({"nanlint_version": __version__, "entries": self.entries}, handle)
            os.chmod(temporary, 0o644)
            os.replace(temporary, self.path)
        except OSError:
            pass  # a read-only checkout still gets its findings, just no cache


def _stored(finding: Finding) -> dict:
    data = asdict(finding)
    data.pop("path")
    data.pop("detail")
    data["source_lines"] = list(finding.source_lines)
    return data


def _restored(data: dict, path: str) -> Finding:
    values = dict(data)
    values["source_lines"] = tuple(values.get("source_lines", ()))
    values["callers"] = tuple(values.get("callers", ()))
    return Finding(path=path, **values)


def clean(root: Path) -> bool:
    """Remove the cache folder under ``root``; True if there was one."""
    import shutil

    folder = root / CACHE_FOLDER
    if not folder.is_dir():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


# -- running ---------------------------------------------------------------------------------
_WORKER_CONFIG: Optional[Configs] = None
_WORKER_FIX: Optional[FixMode] = None


def _init_worker(config: Configs, local_rule_files: Sequence[str],
                 mode: Optional[FixMode] = None) -> None:
    global _WORKER_CONFIG, _WORKER_FIX
    registry.use_local_rules(local_rule_files)
    _WORKER_CONFIG = config
    _WORKER_FIX = mode


def _lint_chunk(chunk: Sequence[Tuple[str, str, Optional[bytes]]]) -> List[List[Finding]]:
    assert _WORKER_CONFIG is not None
    return [_lint_one(_WORKER_CONFIG, path, display, data) for path, display, data in chunk]


# What remains, the codes fixed, how many went with them, the diff.
Fixed = Tuple[List[Finding], List[str], int, str]


def _fix_chunk(chunk: Sequence[Tuple[str, str]]) -> List[Fixed]:
    assert _WORKER_CONFIG is not None and _WORKER_FIX is not None
    return [_fix_one(_WORKER_CONFIG, _WORKER_FIX, path, display) for path, display in chunk]


def _fix_one(config: Configs, mode: FixMode, path: str, display: str) -> Fixed:
    from nanlint import fixing

    outcome = fixing.fix_file(path, display, options_for(config, path), mode.safeties,
                              write=mode.write)
    diff = "" if mode.write or not outcome.changed else fixing.unified_diff(
        outcome.original, outcome.text, display)
    return outcome.findings, outcome.fixed_codes, outcome.carried, diff


def run_fixes(files: Sequence[Path], config: Configs, mode: FixMode, jobs: int = 0) -> Outcome:
    """Fix every file (or, without ``mode.write``, compute the diffs); no cache."""
    outcome = Outcome(files_checked=len(files))
    work = [(str(path), relative_display(path)) for path in files]
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(work) <= SERIAL_LIMIT:
        results = [_fix_one(config, mode, path, display) for path, display in work]
    else:
        from concurrent.futures import ProcessPoolExecutor

        chunks = _chunks([_size(path) for path, _ in work], jobs)
        results: List[Any] = [None] * len(work)
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                                 initargs=(config, registry.local_rule_files(), mode)) as pool:
            for indices, chunk_result in zip(chunks, pool.map(
                    _fix_chunk, [[work[i] for i in chunk] for chunk in chunks])):
                for index, result in zip(indices, chunk_result):
                    results[index] = result
    for (_, display), (findings, codes, carried, diff) in zip(work, results):
        outcome.findings.extend(findings)
        outcome.fixed += len(codes)
        outcome.carried += carried
        outcome.files_fixed += 1 if codes or carried else 0
        if codes:
            outcome.fixed_codes[display] = codes
        if diff:
            outcome.diffs.append(diff)
    return outcome


def _lint_one(config: Configs, path: Optional[str], display: str, data: Optional[bytes]
              ) -> List[Finding]:
    options = options_for(config, path)
    if data is None:
        assert path is not None
        data, error = read_bytes(path)
        if error is not None:
            return [error.finding(display)] if "NAN000" in options.engine_codes else []
    return lint_bytes(data, display, options)


def options_for(configs: Configs, path: Optional[str]) -> LintOptions:
    """The options for a file (None: standard input without a name) under the configuration
    in force for it."""
    if path is None:
        return configs.for_folder(Path.cwd()).options_for(None)
    return configs.for_path(Path(path)).options_for(Path(path))


def run_stdin(data: bytes, filename: Optional[str], config: Configs) -> List[Finding]:
    """Lint source read from standard input as if it were the file ``filename`` (no cache).

    Without a filename it is reported as ``-`` and only the configuration's select and
    ignore apply; with one, also its per-file-ignores. Exclusion does not apply: the editor
    asked for this file, as a file named on the command line is always checked.
    """
    if filename is None:
        return _lint_one(config, None, "-", data)
    return _lint_one(config, filename, relative_display(Path(filename)), data)


def run(files: Sequence[Path], configs: Configs, jobs: int = 0, use_cache: bool = True,
        advance: Optional[Callable[[int], None]] = None) -> Outcome:
    """Every file's findings; ``advance(n)`` is told each time n more files are done. Each
    file's result is cached in its project's root (its configuration's ``root``)."""
    advance = advance or (lambda count: None)
    outcome = Outcome(files_checked=len(files))
    caches: Dict[Path, Cache] = {}
    todo: List[Tuple[str, str, Optional[bytes], Optional[Tuple[Cache, str]]]] = []
    results: Dict[str, List[Finding]] = {}
    order = []
    for path in files:
        name, display = str(path), relative_display(path)
        order.append(name)
        if not use_cache:
            todo.append((name, display, None, None))
            continue
        data, error = read_bytes(name)
        options = options_for(configs, name)
        if error is not None:
            results[name] = [error.finding(display)] if "NAN000" in options.engine_codes else []
            advance(1)
            continue
        root = configs.for_path(path).root
        cache = caches.get(root) or caches.setdefault(root, Cache(root / CACHE_FOLDER))
        key = hashlib.sha256(data).hexdigest() + ":" + options_fingerprint(options)
        cached = cache.get(key)
        if cached is not None:
            try:
                results[name] = [_restored(item, display) for item in cached]
                outcome.from_cache += 1
                advance(1)
                continue
            except TypeError:
                pass  # an entry from an incompatible layout: lint again
        todo.append((name, display, data, (cache, key)))

    linted = _lint_all([(n, d, b) for n, d, b, _ in todo], configs, jobs, advance)
    for (name, _, _, entry), findings in zip(todo, linted):
        results[name] = findings
        if entry is not None and not any(f.name in UNCACHED for f in findings):
            entry[0].put(entry[1], findings)
    for cache in caches.values():
        cache.save()
    for name in order:
        outcome.findings.extend(results.get(name, []))
    return outcome


def _lint_all(work: List[Tuple[str, str, Optional[bytes]]], config: Configs, jobs: int,
              advance: Callable[[int], None]) -> List[List[Finding]]:
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(work) <= SERIAL_LIMIT:
        results = []
        for path, display, data in work:
            results.append(_lint_one(config, path, display, data))
            advance(1)
        return results
    from concurrent.futures import ProcessPoolExecutor  # not paid by a pre-commit run

    chunks = _chunks([len(data) if data is not None else _size(path)
                      for path, _, data in work], jobs)
    results: List[List[Finding]] = [[] for _ in work]
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                             initargs=(config, registry.local_rule_files())) as pool:
        for indices, chunk_result in zip(chunks, pool.map(
                _lint_chunk, [[work[i] for i in chunk] for chunk in chunks])):
            for index, findings in zip(indices, chunk_result):
                results[index] = findings
            advance(len(chunk_result))
    return results


def _chunks(sizes: List[int], jobs: int) -> List[List[int]]:
    """The work's indices in chunks for a pool of ``jobs`` workers: the largest files first,
    so that no worker is left alone with a big file at the end while the others idle, and
    about eight chunks of similar size per worker (at most 32 files each)."""
    order = sorted(range(len(sizes)), key=lambda index: -sizes[index])
    target = max(1, sum(sizes) // (jobs * 8))
    chunks: List[List[int]] = []
    current: List[int] = []
    total = 0
    for index in order:
        current.append(index)
        total += sizes[index]
        if total >= target or len(current) >= 32:
            chunks.append(current)
            current, total = [], 0
    if current:
        chunks.append(current)
    return chunks


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # unreadable: the worker reports it
