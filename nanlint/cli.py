"""The command line: ``nanlint check``, ``nanlint rules``, ``nanlint rule CODE``.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error or internal failure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from nanlint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print the whole usage
        self.exit(EXIT_ERROR, f"nanlint: error: {message} (see `nanlint --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="nanlint", description="Find the TensorFlow/Keras code that makes "
                     "training produce NaN or Inf.")
    parser.add_argument("--version", action="version", version=f"nanlint {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    check = commands.add_parser("check", help="check files and folders (default: .)")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--select", metavar="CODES",
                       help="codes or prefixes to check, comma-separated (replaces the "
                       "configuration's select)")
    check.add_argument("--ignore", metavar="CODES",
                       help="codes or prefixes to skip, comma-separated (added to the "
                       "configuration's ignore)")
    check.add_argument("--config", metavar="FILE", type=Path,
                       help="use this configuration file instead of the nearest one")
    check.add_argument("--exit-zero", action="store_true",
                       help="exit 0 even when there are findings")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    check.add_argument("--jobs", "-j", type=int, default=0, metavar="N",
                       help="worker processes (default: the number of cores; 1: no pool)")
    check.add_argument("--quiet", "-q", action="store_true",
                       help="print findings only: no code frames, no summary")
    check.add_argument("--verbose", action="store_true",
                       help="show the tracebacks of internal errors (on stderr)")

    rules = commands.add_parser("rules", help="list every rule")
    rules.add_argument("--format", choices=("text", "json"), default="text")

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", metavar="CODE")

    commands.add_parser("clean", help="remove the result cache (.nanlint_cache)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "rules":
            return _rules(args)
        if args.command == "rule":
            return _rule(args)
        if args.command == "clean":
            return _clean()
        parser.print_help(sys.stderr)
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


def _check(args: argparse.Namespace) -> int:
    from nanlint import config as configuration
    from nanlint import runner
    from nanlint.discovery import discover
    from nanlint.reporters import report_json, report_text, write_error

    try:
        config = configuration.load(args.config)
        if args.select:
            config.select = configuration.split_codes(args.select, "--select")
        if args.ignore:
            config.ignore = config.ignore + configuration.split_codes(args.ignore, "--ignore")
    except configuration.ConfigError as error:
        write_error(str(error))
        return EXIT_ERROR

    paths = [Path(p) for p in args.paths]
    files, problems = discover(paths, config.exclude, config.root, config.respect_gitignore)
    for problem in problems:
        write_error(problem)
    if problems:
        return EXIT_ERROR
    if args.jobs < 0:
        write_error("--jobs must be 0 (one per core) or more")
        return EXIT_ERROR
    outcome = runner.run(files, config, jobs=args.jobs, use_cache=not args.no_cache)
    findings = sorted(outcome.findings, key=lambda f: f.sort_key)
    if args.format == "json":
        report_json(findings, len(files), sys.stdout)
    else:
        report_text(findings, len(files), sys.stdout, quiet=args.quiet)
    crashes = [f for f in findings if f.name == "internal-error"]
    if args.verbose:
        for crash in crashes:
            sys.stderr.write(f"nanlint: {crash.path}: {crash.message}\n{crash.detail or ''}")
    if crashes:
        return EXIT_ERROR  # a crash in nanlint is never a clean result, even with --exit-zero
    if findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _clean() -> int:
    from nanlint import config as configuration
    from nanlint import runner

    try:
        config = configuration.load(None)
    except configuration.ConfigError:
        config = configuration.Config()
    removed = runner.clean(config.root)
    sys.stdout.write(f"removed {config.root / runner.CACHE_FOLDER}\n" if removed
                     else "no cache to remove\n")
    return EXIT_CLEAN


def _rules(args: argparse.Namespace) -> int:
    import json

    from nanlint import registry

    rows = []
    for rule in registry.every_rule():
        rows.append({"code": rule.code, "name": rule.name, "severity": rule.severity,
                     "fix": rule.fix_safety or "none", "summary": rule.summary,
                     "origin": rule.origin})
    if args.format == "json":
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_CLEAN
    widths = {key: max(len(key), *(len(row[key]) for row in rows))
              for key in ("code", "name", "severity", "fix")}
    header = "  ".join(key.upper().ljust(widths[key]) for key in widths) + "  SUMMARY"
    sys.stdout.write(header + "\n")
    for row in rows:
        sys.stdout.write("  ".join(row[key].ljust(widths[key]) for key in widths)
                         + f"  {row['summary']}\n")
    return EXIT_CLEAN


def _rule(args: argparse.Namespace) -> int:
    from nanlint import registry
    from nanlint.reporters import write_error

    code = args.code.upper()
    by_code = {rule.code: rule for rule in registry.every_rule()}
    rule = by_code.get(code)
    if rule is None:
        write_error(f"unknown rule `{args.code}`; `nanlint rules` lists them")
        return EXIT_ERROR
    sys.stdout.write(render_rule(rule))
    return EXIT_CLEAN


def render_rule(rule) -> str:
    fix = {"safe": "safe fix available", "unsafe": "unsafe fix available"}.get(
        rule.fix_safety or "", "no automatic fix")
    lines: List[str] = [f"# {rule.name} ({rule.code})", "",
                        f"Severity: {rule.severity}. Fix: {fix}.", "",
                        rule.documentation(), ""]
    return "\n".join(lines)
