"""``nanlint check``: find, report (or record in a baseline), and the entry of ``--fix``,
``--diff`` and ``--add-noqa``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nanlint.commands import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from nanlint.commands.fix import fix_stdin, report_diff, report_fix_only
from nanlint.commands.paths import configurations, files_to_check
from nanlint.finding import SEVERITIES
from nanlint.reporters import FORMATS, STATISTICS_FORMATS


def run(args: argparse.Namespace) -> int:
    """``nanlint check``; a path that was missing or held nothing makes the exit code 2,
    after the others are checked and reported."""
    from nanlint.config import ConfigError
    from nanlint.reporters import write_error

    args.paths_failed = False
    try:
        code = _check_paths(args)
    except ConfigError as error:  # met late: the configuration of standard input's file
        write_error(str(error))
        return EXIT_ERROR
    return EXIT_ERROR if args.paths_failed else code


def _check_paths(args: argparse.Namespace) -> int:
    from nanlint import baseline
    from nanlint import config as configuration
    from nanlint import progress, runner
    from nanlint.discovery import force_excluded
    from nanlint.reporters import Scan, write_error

    stdin = "-" in args.paths or (args.stdin_filename is not None and not args.paths)
    # As in ruff, `--unsafe-fixes` only widens what `--fix` applies and `--diff` shows: on
    # its own it changes no file (a CI job given it must not rewrite and pass).
    fixing = args.diff or args.fix or args.fix_only
    folders = [Path(p) for p in args.paths or ["."] if Path(p).is_dir()]
    try:
        # A scan of folders settles the gradient hazards whose way out is in other files
        # (nanlint.callers); fixes, `--add-noqa` and standard input see one file at a time.
        config = configurations(args, pending=bool(folders) and not (
            stdin or fixing or args.add_noqa))
    except configuration.ConfigError as error:
        write_error(str(error))
        return EXIT_ERROR
    if args.statistics and args.format not in STATISTICS_FORMATS:
        write_error(f"--statistics works with --format {' or '.join(STATISTICS_FORMATS)}, "
                    f"not {args.format}")
        return EXIT_ERROR
    recorded = None
    if args.baseline is not None:
        try:
            recorded = baseline.load(args.baseline)
        except baseline.BaselineError as error:
            write_error(str(error))
            return EXIT_ERROR

    if args.jobs < 0:
        write_error("--jobs must be 0 (one per core) or more")
        return EXIT_ERROR
    if args.add_noqa and (fixing or stdin or args.write_baseline is not None):
        write_error("--add-noqa cannot be combined with --fix, --diff, --write-baseline or "
                    "standard input")
        return EXIT_ERROR
    if stdin:
        if args.paths not in ([], ["-"]):
            write_error("`-` (standard input) cannot be combined with other paths")
            return EXIT_ERROR
        data = sys.stdin.buffer.read()
        if (args.force_exclude and args.stdin_filename is not None
                and force_excluded(Path(args.stdin_filename), config)):
            if fixing and not args.diff:
                sys.stdout.buffer.write(data)  # an editor replaces the buffer with this
                return EXIT_CLEAN
            findings, displayed = [], []
        elif fixing:
            return fix_stdin(data, args, config)
        else:
            findings = runner.run_stdin(data, args.stdin_filename, config)
            displayed = [args.stdin_filename or "-"]
        outcome = runner.Outcome(findings=findings, files_checked=len(displayed))
    else:
        if args.stdin_filename is not None:
            write_error("--stdin-filename needs `-` as the path to check")
            return EXIT_ERROR
        files, args.paths_failed = files_to_check(args, config, args.force_exclude)
        if files is None:
            return EXIT_ERROR
        displayed = [configuration.relative_display(path) for path in files]
        if args.add_noqa:
            return _add_noqa(files, config, args)
        if fixing:
            from nanlint.fixing import SAFETIES

            mode = runner.FixMode(SAFETIES["unsafe" if args.unsafe_fixes else "safe"],
                                  write=not args.diff)
            outcome = runner.run_fixes(files, config, mode, jobs=args.jobs)
            if args.diff:
                return report_diff(outcome, args.unsafe_fixes)
            if args.fix_only:
                return report_fix_only(outcome, args)
        elif progress.wanted(sys.stderr, len(files), args.format, args.quiet):
            with progress.bar(sys.stderr, len(files)) as advance:
                outcome = runner.run(files, config, jobs=args.jobs,
                                     use_cache=not args.no_cache, advance=advance)
        else:
            outcome = runner.run(files, config, jobs=args.jobs, use_cache=not args.no_cache)
    uncalled = 0  # findings left out as code nothing in the folders given calls
    if not stdin:
        from nanlint.callers import settle
        from nanlint.uncalled import drop_uncalled

        outcome.findings = settle(outcome.findings, files, config)
        kept = drop_uncalled(outcome.findings, folders, config)
        uncalled, outcome.findings = len(outcome.findings) - len(kept), kept
    findings = sorted(outcome.findings, key=lambda f: f.sort_key)
    crashed = any(f.name == "internal-error" for f in findings)
    if args.write_baseline is not None:
        try:
            count = baseline.write(args.write_baseline, findings)
        except baseline.BaselineError as error:
            write_error(str(error))
            return EXIT_ERROR
        noun = "finding" if count == 1 else "findings"
        sys.stdout.write(f"Recorded {count} {noun} in {args.write_baseline}.\n")
        return EXIT_ERROR if crashed else EXIT_CLEAN
    scan = Scan(findings, displayed, fixed=outcome.fixed, carried=outcome.carried,
                unsafe_shown=args.unsafe_fixes,
                fixed_codes=outcome.fixed_codes if args.show_fixes else {}, uncalled=uncalled)
    if recorded is not None:
        scan.findings, scan.baselined = baseline.apply(args.baseline, recorded, findings)
        scan.baseline = str(args.baseline)
    if not _report(scan, args):
        return EXIT_ERROR
    if args.verbose:
        for crash in (f for f in findings if f.name == "internal-error"):
            sys.stderr.write(f"nanlint: {crash.path}: {crash.message}\n{crash.detail or ''}")
    if crashed:
        return EXIT_ERROR  # a crash in nanlint is never a clean result, even with --exit-zero
    if args.exit_zero:
        return EXIT_CLEAN
    changed = outcome.fixed or outcome.carried
    if _fails(scan.findings, args.fail_on) or (args.exit_non_zero_on_fix and changed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _add_noqa(files, config, args: argparse.Namespace) -> int:
    """``--add-noqa``: a suppression comment on the line of every finding, so that a legacy
    code base starts clean and only new code is checked (the other way is the baseline)."""
    from nanlint import runner
    from nanlint.config import relative_display
    from nanlint.noqa import add_suppressions

    outcome = runner.run(files, config, jobs=args.jobs, use_cache=not args.no_cache)
    by_path = {}
    for finding in outcome.findings:
        by_path.setdefault(finding.path, []).append(finding)
    added, changed, failed = 0, 0, False
    for path in files:
        findings = by_path.get(relative_display(path), [])
        count, problem = add_suppressions(str(path), findings,
                                          runner.options_for(config, str(path)))
        if problem is not None:
            sys.stderr.write(f"nanlint: {relative_display(path)}: {problem}\n")
            failed = True
        added += count
        changed += 1 if count else 0
    if not args.quiet:
        noun = "finding" if added == 1 else "findings"
        files_noun = "file" if changed == 1 else "files"
        sys.stdout.write(f"Added suppression comments for {added} {noun} in {changed} "
                         f"{files_noun}.\n")
    return EXIT_ERROR if failed else EXIT_CLEAN


def _report(scan, args: argparse.Namespace) -> bool:
    """Write the report to standard output or --output-file; False if it cannot be written."""
    import functools
    import io

    from nanlint.reporters import report_text, write_error

    reporter = (STATISTICS_FORMATS if args.statistics else FORMATS)[args.format]
    if args.output_file is None:
        reporter(scan, sys.stdout, args.quiet)
        return True
    if reporter is report_text:
        reporter = functools.partial(report_text, colour=False)  # a file gets no colour codes
    buffer = io.StringIO()
    reporter(scan, buffer, args.quiet)
    try:
        with open(args.output_file, "w", encoding="utf-8") as handle:
            handle.write(buffer.getvalue())
    except OSError as error:
        write_error(f"cannot write {args.output_file}: {error.strerror or error}")
        return False
    return True


def _fails(findings, fail_on: str) -> bool:
    """Is any finding at least as severe as ``fail_on``? (An unknown severity counts.)"""
    rank = {severity: position for position, severity in enumerate(SEVERITIES)}
    return any(rank.get(finding.severity, 0) <= rank[fail_on] for finding in findings)
