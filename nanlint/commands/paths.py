"""The paths a command is given: the configuration for each, and the files under them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import List


def configurations(args: argparse.Namespace, suspects: bool = False, pending: bool = False):
    """The configuration for each path (``--config`` for all), with the command line's codes;
    raises ConfigError. ``pending``: see LintOptions.pending."""
    from nanlint import config as configuration
    from nanlint import lookup

    def codes(option: str) -> List[str]:
        found = []
        for text in getattr(args, option.lstrip("-").replace("-", "_"), None) or []:
            given = configuration.split_codes(text, option)
            if not given:
                raise configuration.ConfigError(
                    f"{option} {text!r} names no code; give codes such as NAN101, prefixes "
                    "such as NAN1, or ALL")
            found += given
        return found

    changes = lookup.Changes(
        select=codes("--select") if getattr(args, "select", None) else None,
        extend_select=codes("--extend-select"), ignore=codes("--ignore"),
        preview=getattr(args, "preview", False), suspects=suspects, pending=pending)
    return lookup.Configurations(args.config, changes)


def files_to_check(args: argparse.Namespace, configs, force_exclude: bool = False):
    """The files to check under the paths given, and whether a path was missing or empty
    (reported here; the others are still checked). No files and a problem: None."""
    from nanlint import config as configuration
    from nanlint.discovery import discover
    from nanlint.reporters import write_error, write_path_error

    try:
        files, missing, empty = discover([Path(p) for p in args.paths or ["."]], configs,
                                          force_exclude)
        for path in files:  # every configuration read now: a broken one stops the run
            configs.for_path(path)
    except configuration.ConfigError as error:
        write_error(str(error))
        return None, True
    output_format = getattr(args, "format", "text")
    for path in missing:
        write_path_error(path, "no such file or folder", output_format)
    for folder in empty:  # a CI gate must not pass on nothing: an error, exit 2
        write_path_error(folder, "no Python file or notebook to check", output_format)
    failed = bool(missing or empty)
    return (None if failed and not files else files), failed
