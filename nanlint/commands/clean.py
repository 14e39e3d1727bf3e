"""``nanlint clean``: remove the result cache."""

from __future__ import annotations

import sys
from pathlib import Path

from nanlint.commands import EXIT_CLEAN


def run() -> int:
    from nanlint import config as configuration
    from nanlint import lookup, runner

    try:  # the project's root, where the cache is, even if its configuration is broken
        root = lookup.nearest(Path.cwd().resolve())[1] or Path.cwd()
    except configuration.ConfigError:
        root = Path.cwd()
    removed = runner.clean(root)
    sys.stdout.write(f"removed {root / runner.CACHE_FOLDER}\n" if removed
                     else "no cache to remove\n")
    return EXIT_CLEAN
