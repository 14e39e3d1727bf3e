"""What ``nanlint check`` does with fixes beyond the report: the fixed text of standard
input (for editors), ``--diff``'s patch and ``--fix-only``'s account."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nanlint.commands import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from nanlint.reporters import headline


def report_fix_only(outcome, args: argparse.Namespace) -> int:
    """``--fix-only``: what was fixed, never what remains (ruff's semantics)."""
    from nanlint.reporters import Scan, fixed_listing, fixed_sentence

    crashes = [f for f in outcome.findings if f.name == "internal-error"]
    for crash in crashes:
        sys.stderr.write(f"nanlint: {crash.path}: {crash.message}\n"
                         + (crash.detail or "" if args.verbose else ""))
    if not args.quiet:
        scan = Scan([], fixed=outcome.fixed, fixed_codes=outcome.fixed_codes)
        lines = fixed_listing(scan) if args.show_fixes else []
        changed = outcome.fixed or outcome.carried
        sys.stdout.write("".join(line + "\n" for line in lines) or (
            fixed_sentence(outcome.fixed, outcome.carried) + ".\n" if changed
            else "No fixes applied.\n"))
    if crashes:
        return EXIT_ERROR
    if args.exit_non_zero_on_fix and (outcome.fixed or outcome.carried) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def fix_stdin(data: bytes, args: argparse.Namespace, config) -> int:
    """As ruff does for editors: the fixed source (or, with --diff, the diff) on stdout,
    the findings that remain on stderr."""
    from nanlint import config as configuration
    from nanlint import runner
    from nanlint.source import SourceError, decode_with_encoding
    from nanlint.fixing import SAFETIES, fix_notebook, fix_source, unified_diff
    from nanlint.notebook import is_notebook

    name = args.stdin_filename
    display = configuration.relative_display(Path(name)) if name else "-"
    options = runner.options_for(config, name)
    safeties = SAFETIES["unsafe" if args.unsafe_fixes else "safe"]
    try:
        source, _ = decode_with_encoding(data)
    except SourceError as error:
        sys.stdout.buffer.write(data)
        finding = error.finding(display)
        sys.stderr.write(headline(finding) + "\n")
        return EXIT_FINDINGS
    if is_notebook(display):  # fixed as `check --fix` fixes the file
        outcome = fix_notebook(data, display, options, safeties)
    else:
        outcome = fix_source(source, display, options, safeties)
    if args.diff:
        sys.stdout.write(unified_diff(source, outcome.text, display) if outcome.changed else "")
        return EXIT_FINDINGS if outcome.changed else EXIT_CLEAN
    if outcome.changed:
        sys.stdout.write(outcome.text)
    else:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    for finding in outcome.findings:
        sys.stderr.write(headline(finding) + "\n")
    return EXIT_FINDINGS if outcome.findings and not args.exit_zero else EXIT_CLEAN


def report_diff(outcome, unsafe_shown: bool) -> int:
    """``--diff``: the patch on stdout, a one-line count on stderr (with the fixes that
    ``--unsafe-fixes`` would add)."""
    for diff in outcome.diffs:
        sys.stdout.write(diff)
    errors = [f for f in outcome.findings if f.code == "NAN000"]
    for finding in errors:
        sys.stderr.write(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} "
                         f"{finding.message}\n")
    from nanlint.reporters import fixed_sentence

    files = "file" if outcome.files_fixed == 1 else "files"
    hidden = 0 if unsafe_shown else sum(1 for f in outcome.findings
                                        if f.fix and f.fix.get("safety") == "unsafe")
    some = outcome.fixed or outcome.carried
    more = (f" {hidden}{' more' if some else ''} fixable with `--unsafe-fixes`."
            if hidden else "")
    sys.stderr.write(f"{fixed_sentence(outcome.fixed, outcome.carried, would=True)} in "
                     f"{outcome.files_fixed} {files}.{more}\n"
                     if some else f"No fixes available.{more}\n")
    if any(f.name == "internal-error" for f in errors):
        return EXIT_ERROR
    return EXIT_FINDINGS if outcome.diffs else EXIT_CLEAN
