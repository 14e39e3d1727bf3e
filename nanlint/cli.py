"""The command line: its arguments and which subcommand runs (their bodies are in
``nanlint.commands``): ``nanlint check``, ``nanlint rules``, ``nanlint rule CODE``, ...

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error or internal failure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from nanlint import __version__
from nanlint.commands import EXIT_CLEAN, EXIT_ERROR
from nanlint.finding import SEVERITIES
from nanlint.reporters import FORMATS


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
        epilog="Test files are not training code: a scan of a folder skips tests/ and test/ "
        "folders, test_*.py, *_test.py and conftest.py unless the configuration sets "
        "`include-tests: true`. A file named on the command line is always checked (with "
        "--force-exclude, the configuration decides). In a folder scan, code that nothing in "
        "the folder calls is not reported unless `include-uncalled: true`. By default only "
        "the stable rules run (`nanlint rules` shows each rule's tier); --preview runs the "
        "rules still in preview too, and `nanlint suspects` ranks every hazard.")
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
                       help="with --fix, apply the unsafe fixes too; with --diff, show "
                       "them (alone, it changes no file)")
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
            from nanlint.commands import check
            return check.run(args)
        if args.command == "suspects":
            from nanlint.commands import suspects
            return suspects.run(args)
        if args.command == "rules":
            from nanlint.commands import rules
            return rules.list_rules(args)
        if args.command == "rule":
            from nanlint.commands import rules
            return rules.show_rule(args)
        if args.command == "ops":
            from nanlint.commands import ops
            return ops.run(args)
        if args.command == "clean":
            from nanlint.commands import clean
            return clean.run()
        if args.command == "server":
            from nanlint.commands import server
            return server.run()
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
