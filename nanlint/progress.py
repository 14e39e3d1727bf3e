"""A progress bar on stderr for long scans: only for a person watching a terminal.

Never in a pipe or a file, in CI logs (the CI variable), for machine-readable output or with
--quiet, and not for a scan too short to need one. rich is imported only when it is shown.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import IO, Callable, Iterator, Mapping, Optional

MIN_FILES = 50  # more files than this: a bar is worth drawing

Advance = Callable[[int], None]


def wanted(stream: IO[str], files: int, output_format: str, quiet: bool,
           environ: Optional[Mapping[str, str]] = None) -> bool:
    """Whether a scan of ``files`` files shows a progress bar on ``stream``."""
    environ = os.environ if environ is None else environ
    if output_format != "text" or quiet or files <= MIN_FILES:
        return False
    if environ.get("CI", "").lower() not in ("", "0", "false"):
        return False
    if environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def bar(stream: IO[str], total: int) -> Iterator[Advance]:
    """A transient bar: it disappears when the scan ends, before the findings are printed."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.progress import TimeElapsedColumn

    console = Console(file=stream)
    with Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task("checking", total=total)
        yield lambda count: progress.advance(task, count)
