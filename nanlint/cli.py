"""The command line: ``nanlint check``, ``nanlint rules``, ``nanlint rule CODE``.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error or internal failure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from nanlint import __version__
from nanlint.finding import SEVERITIES
from nanlint.reporters import FORMATS, STATISTICS_FORMATS, headline

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print the whole usage
        self.exit(EXIT_ERROR, f"nanlint: error: {message} (see `nanlint --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="nanlint", description="Find the TensorFlow/Keras code that makes "
                     "training produce NaN or Inf.")
    parser.add_argument("--version", action="version", version=f"nanlint {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    check = commands.add_parser(
        "check", help="check files and folders (default: .)",
        epilog="Test files are not training code: a scan of a folder skips tests/ folders, "
        "test_*.py, *_test.py and conftest.py unless the configuration sets "
        "`include-tests: true`. A file named on the command line is always checked (with "
        "--force-exclude, the configuration decides).")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="files and folders to check (default: .); `-` reads standard input")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="the path to report standard input as; its configuration "
                       "(per-file-ignores) applies, and it is checked even if excluded")
    check.add_argument("--format", "--output-format", dest="format", choices=tuple(FORMATS),
                       default="text", help="output format (default: text)")
    check.add_argument("--output-file", "-o", metavar="FILE", type=Path,
                       help="write the report to FILE instead of standard output")
    check.add_argument("--statistics", action="store_true",
                       help="print the number of findings per rule instead of the findings "
                       "(text or json)")
    check.add_argument("--fail-on", choices=SEVERITIES, default="info",
                       help="exit 1 only for findings of this severity or worse "
                       "(default: info, any finding)")
    recorded = check.add_mutually_exclusive_group()
    recorded.add_argument("--baseline", metavar="FILE", type=Path,
                          help="report only findings not recorded in this baseline file")
    recorded.add_argument("--write-baseline", metavar="FILE", type=Path,
                          help="record the current findings in FILE and report nothing")
    check.add_argument("--select", metavar="CODES", action="append",
                       help="codes or prefixes to check, comma-separated, `ALL` for every "
                       "code (replaces the configuration's select; repeatable, adds up)")
    check.add_argument("--extend-select", metavar="CODES", action="append",
                       help="codes or prefixes to check in addition to the configuration's "
                       "select (or --select); repeatable")
    check.add_argument("--ignore", metavar="CODES", action="append",
                       help="codes or prefixes to skip, comma-separated (added to the "
                       "configuration's ignore; repeatable)")
    check.add_argument("--preview", action="store_true",
                       help="also run the preview rules (off by default: see `nanlint rules`)")
    check.add_argument("--config", metavar="FILE", type=Path,
                       help="use this configuration file for every path instead of the "
                       "nearest one to each")
    check.add_argument("--force-exclude", action="store_true",
                       help="apply the configuration's exclude to the paths given too (for "
                       "pre-commit, which names every changed file)")
    check.add_argument("--exit-zero", action="store_true",
                       help="exit 0 even when there are findings")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    check.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                       help="worker processes (default: the number of cores; 1: no pool)")
    check.add_argument("--quiet", "-q", action="store_true",
                       help="print findings only: no code frames, no summary")
    check.add_argument("--fix", action="store_true",
                       help="apply the safe fixes (files are rewritten in place)")
    check.add_argument("--unsafe-fixes", action="store_true",
                       help="apply the unsafe fixes too (implies --fix; with --diff, show "
                       "them)")
    check.add_argument("--fix-only", action="store_true",
                       help="apply the fixes (as --fix) but do not report the findings that "
                       "remain; exit 0 unless --exit-non-zero-on-fix")
    check.add_argument("--show-fixes", action="store_true",
                       help="with --fix: list the findings that were fixed, per file")
    check.add_argument("--exit-non-zero-on-fix", action="store_true",
                       help="exit 1 if a fix changed a file, even if no finding remains")
    check.add_argument("--add-noqa", action="store_true",
                       help="write `# nanlint: ignore[CODE]` on the line of every finding "
                       "(merged into an existing suppression comment) and report nothing")
    check.add_argument("--diff", action="store_true",
                       help="print a unified diff of what --fix would change and write "
                       "nothing (exit 1 if there is something to fix)")
    check.add_argument("--verbose", action="store_true",
                       help="show the tracebacks of internal errors (on stderr)")

    suspects = commands.add_parser(
        "suspects", help="training printed NaN: every line that can produce it, best first",
        description="List every operation that can produce inf or NaN in a value or a "
        "gradient, including those `check` is silent on for lack of evidence, ranked within "
        "each file: evidence first, then whether a gradient reaches it, guards, and its "
        "place in training (loss, model, data, metric). Exit 0 unless it could not run.")
    suspects.add_argument("paths", nargs="*", metavar="PATH",
                          help="files and folders to search (default: .)")
    suspects.add_argument("--format", choices=("text", "json"), default="text",
                          help="output format (default: text)")
    suspects.add_argument("--top", type=int, default=10, metavar="N",
                          help="the N best suspects of each file (default: 10; 0: all)")
    suspects.add_argument("--no-cache", action="store_true",
                          help="do not read or write the cache")
    suspects.add_argument("--config", metavar="FILE", type=Path,
                          help="use this configuration file for every path instead of the "
                          "nearest one to each")
    suspects.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                          help="worker processes (default: the number of cores; 1: no pool)")

    rules = commands.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=("text", "json"), default="text")

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", metavar="CODE", nargs="?")
    rule.add_argument("--all", action="store_true", help="every rule's documentation")
    rule.add_argument("--format", choices=("text", "markdown"), default="text",
                      help="markdown: one document with a table of rules (docs/rules.md)")

    ops = commands.add_parser("ops", help="print the op model: what nanlint knows of each "
                              "TensorFlow, Keras and numpy function")
    ops.add_argument("--format", choices=("text", "json"), default="text")

    server = commands.add_parser(
        "server", help="run the language server (LSP over stdin/stdout) for editors; needs "
        "`pip install 'nanlint[server]'`")

    for command in (check, suspects, rules, rule, server):
        command.add_argument("--load-rules", action="append", default=[], metavar="FILE",
                             help="also load the rules in this Python file (its RULES list); "
                             "repeatable. Imports and runs FILE: only for files you trust")

    commands.add_parser("clean", help="remove the result cache (.nanlint_cache)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from nanlint import registry

    try:
        registry.use_local_rules(getattr(args, "load_rules", []))
        if args.command == "check":
            return _check(args)
        if args.command == "suspects":
            return _suspects(args)
        if args.command == "rules":
            return _rules(args)
        if args.command == "rule":
            return _rule(args)
        if args.command == "ops":
            return _ops(args)
        if args.command == "clean":
            return _clean()
        if args.command == "server":
            return _server()
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    except registry.RegistryError as error:
        sys.stderr.write(f"nanlint: error: {error}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_CLEAN
    except Exception as error:  # noqa: BLE001 — the last line of defence: never a traceback
        if getattr(args, "verbose", False):
            raise
        sys.stderr.write(f"nanlint: internal error: {type(error).__name__}: {error} "
                         "(run with --verbose for the traceback)\n")
        return EXIT_ERROR


def _configurations(args: argparse.Namespace, suspects: bool = False):
    """The configuration for each path (``--config`` for all), with the command line's codes;
    raises ConfigError."""
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
        preview=getattr(args, "preview", False), suspects=suspects)
    return lookup.Configurations(args.config, changes)


def _discover(args: argparse.Namespace, configs, force_exclude: bool = False):
    """The files to check under the paths given, and whether a path was missing or empty
    (reported here; the others are still checked). No files and a problem: None."""
    from nanlint import config as configuration
    from nanlint.discovery import discover
    from nanlint.reporters import write_error

    try:
        files, problems, empty = discover([Path(p) for p in args.paths or ["."]], configs,
                                          force_exclude)
        for path in files:  # every configuration read now: a broken one stops the run
            configs.for_path(path)
    except configuration.ConfigError as error:
        write_error(str(error))
        return None, True
    for problem in problems:
        write_error(problem)
    for folder in empty:  # a CI gate must not pass on nothing
        sys.stderr.write(f"nanlint: warning: No Python files found under {folder}\n")
    failed = bool(problems or empty)
    return (None if failed and not files else files), failed


def _check(args: argparse.Namespace) -> int:
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

    try:
        config = _configurations(args)
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
    stdin = "-" in args.paths or (args.stdin_filename is not None and not args.paths)
    fixing = args.diff or args.fix or args.unsafe_fixes or args.fix_only
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
            return _fix_stdin(data, args, config)
        else:
            findings = runner.run_stdin(data, args.stdin_filename, config)
            displayed = [args.stdin_filename or "-"]
        outcome = runner.Outcome(findings=findings, files_checked=len(displayed))
    else:
        if args.stdin_filename is not None:
            write_error("--stdin-filename needs `-` as the path to check")
            return EXIT_ERROR
        files, args.paths_failed = _discover(args, config, args.force_exclude)
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
                return _report_diff(outcome)
            if args.fix_only:
                return _report_fix_only(outcome, args)
        elif progress.wanted(sys.stderr, len(files), args.format, args.quiet):
            with progress.bar(sys.stderr, len(files)) as advance:
                outcome = runner.run(files, config, jobs=args.jobs,
                                     use_cache=not args.no_cache, advance=advance)
        else:
            outcome = runner.run(files, config, jobs=args.jobs, use_cache=not args.no_cache)
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
                fixed_codes=outcome.fixed_codes if args.show_fixes else {})
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


def _report_fix_only(outcome, args: argparse.Namespace) -> int:
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


def _fix_stdin(data: bytes, args: argparse.Namespace, config) -> int:
    """As ruff does for editors: the fixed source (or, with --diff, the diff) on stdout,
    the findings that remain on stderr."""
    from nanlint import config as configuration
    from nanlint import runner
    from nanlint.engine import SourceError, decode_with_encoding
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


def _report_diff(outcome) -> int:
    """``--diff``: the patch on stdout, a one-line count on stderr."""
    for diff in outcome.diffs:
        sys.stdout.write(diff)
    errors = [f for f in outcome.findings if f.code == "NAN000"]
    for finding in errors:
        sys.stderr.write(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} "
                         f"{finding.message}\n")
    from nanlint.reporters import fixed_sentence

    files = "file" if outcome.files_fixed == 1 else "files"
    sys.stderr.write(f"{fixed_sentence(outcome.fixed, outcome.carried, would=True)} in "
                     f"{outcome.files_fixed} {files}.\n"
                     if outcome.fixed or outcome.carried else "No fixes available.\n")
    if any(f.name == "internal-error" for f in errors):
        return EXIT_ERROR
    return EXIT_FINDINGS if outcome.diffs else EXIT_CLEAN


def _suspects(args: argparse.Namespace) -> int:
    from nanlint import config as configuration
    from nanlint import runner, suspects_report
    from nanlint.reporters import write_error

    try:
        config = _configurations(args, suspects=True)
    except configuration.ConfigError as error:
        write_error(str(error))
        return EXIT_ERROR
    if args.top < 0 or args.jobs < 0:
        write_error("--top and --jobs must be 0 or more")
        return EXIT_ERROR
    files, failed = _discover(args, config)
    if files is None:
        return EXIT_ERROR
    outcome = runner.run(files, config, jobs=args.jobs, use_cache=not args.no_cache)
    found = []
    for finding in outcome.findings:
        if finding.score is None:  # a file that cannot be read or parsed: say so, go on
            sys.stderr.write(f"nanlint: {finding.location}: {finding.code} "
                             f"{finding.message}\n")
        else:
            found.append(finding)
    ranked = suspects_report.by_file(found, args.top)
    if args.format == "json":
        suspects_report.report_json(ranked, sys.stdout)
    else:
        suspects_report.report_text(ranked, len(files), sys.stdout)
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


def _server() -> int:
    from nanlint.reporters import write_error

    try:
        from nanlint import server
    except ImportError as error:
        write_error(f"`nanlint server` needs pygls and lsprotocol ({error}); install them with "
                    "`pip install 'nanlint[server]'`")
        return EXIT_ERROR
    return server.serve()


def _clean() -> int:
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


def _rules(args: argparse.Namespace) -> int:
    import json

    from nanlint import registry

    rows = []
    for rule in registry.every_rule():
        rows.append({"code": rule.code, "name": rule.name, "severity": rule.severity,
                     "fix": rule.fix_safety or "none", "summary": rule.summary,
                     "fix_detail": fix_column(rule),
                     "tier": "preview" if rule.preview else "stable",
                     "origin": rule.origin})
    if args.format == "json":
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_CLEAN
    columns = {"code": "code", "name": "name", "severity": "severity", "fix": "fix_detail",
               "origin": "origin", "tier": "tier"}  # heading: the row's key
    widths = {key: max(len(heading), *(len(row[key]) for row in rows))
              for heading, key in columns.items()}
    header = "  ".join(heading.upper().ljust(widths[key])
                       for heading, key in columns.items()) + "  SUMMARY"
    sys.stdout.write(header + "\n")
    for row in rows:
        sys.stdout.write("  ".join(row[key].ljust(widths[key]) for key in columns.values())
                         + f"  {row['summary']}\n")
    return EXIT_CLEAN


def _ops(args: argparse.Namespace) -> int:
    import json

    from nanlint import opreport

    if args.format == "json":
        json.dump(opreport.as_json(), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(opreport.as_text())
    return EXIT_CLEAN


def _rule(args: argparse.Namespace) -> int:
    from nanlint import registry
    from nanlint.reporters import write_error

    if args.all == (args.code is not None):
        write_error("give either a rule CODE or --all")
        return EXIT_ERROR
    every = registry.every_rule()
    if args.all:
        chosen = every
    else:
        chosen = [rule for rule in every if rule.code == args.code.upper()]
        if not chosen:
            write_error(f"unknown rule `{args.code}`; `nanlint rules` lists them")
            return EXIT_ERROR
    if args.format == "markdown":
        sys.stdout.write(render_markdown(chosen, listing=args.all))
    else:
        sys.stdout.write("\n".join(render_rule(rule) for rule in chosen))
    return EXIT_CLEAN


def fix_column(rule) -> str:
    """The fix safety as `nanlint rules` shows it: the rule's word, or its detail where the
    safety depends on the case."""
    return rule.fix_safety_detail or rule.fix_safety or "none"


def _fix_words(rule) -> str:
    if rule.fix_safety_detail:
        return rule.fix_safety_detail
    return {"safe": "safe fix available", "unsafe": "unsafe fix available"}.get(
        rule.fix_safety or "", "no automatic fix")


def render_rule(rule) -> str:
    lines: List[str] = [f"# {rule.name} ({rule.code})", "",
                        f"Severity: {rule.severity}. Fix: {_fix_words(rule)}."
                        + (" Preview: off by default (`--preview`)." if rule.preview else ""), "",
                        rule.documentation(), ""]
    return "\n".join(lines)


MARKDOWN_NOTE = ("<!-- Generated by `nanlint rule --all --format markdown > docs/rules.md`. "
                 "Do not edit: change the rule's docstring and generate it again. -->")


def render_markdown(rules, listing: bool) -> str:
    """Rule documentation as Markdown; with ``listing``, the whole docs/rules.md page."""
    lines: List[str] = []
    if listing:
        lines += ["# nanlint rules", "", MARKDOWN_NOTE, "",
                  "| code | name | severity | fix | summary |", "|---|---|---|---|---|"]
        for rule in rules:
            anchor = f"{rule.code}-{rule.name}".lower()
            summary = rule.summary.replace("|", "\\|")
            lines.append(f"| [{rule.code}](#{anchor}) | {rule.name} | {rule.severity} | "
                         f"{fix_column(rule)} | "
                         + ("preview: " if rule.preview else "") + f"{summary} |")
        lines.append("")
    for rule in rules:
        lines += [f"## {rule.code} {rule.name}", "",
                  f"Severity: {rule.severity}. Fix: {_fix_words(rule)}. "
                  f"Origin: {rule.origin}."
                  + (" Preview: off by default (`--preview`)." if rule.preview else ""), ""]
        in_code = False
        for line in rule.documentation().splitlines():
            in_code ^= line.startswith("```")
            lines.append("#" + line if line.startswith("## ") and not in_code else line)
        lines.append("")
    return "\n".join(lines)
