"""``nanlint suspects``: every operation that can produce inf or NaN, ranked per file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nanlint.commands import EXIT_CLEAN, EXIT_ERROR
from nanlint.commands.paths import configurations, files_to_check


def run(args: argparse.Namespace) -> int:
    from nanlint import config as configuration
    from nanlint import runner, suspects_report
    from nanlint.reporters import write_error

    try:
        config = configurations(args, suspects=True)
    except configuration.ConfigError as error:
        write_error(str(error))
        return EXIT_ERROR
    if args.top < 0 or args.jobs < 0:
        write_error("--top and --jobs must be 0 or more")
        return EXIT_ERROR
    files, failed = files_to_check(args, config)
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
    folders = [Path(p) for p in args.paths or ["."] if Path(p).is_dir()]
    if folders:
        from nanlint.callers import ranked as through_callers
        from nanlint.suspects import uncalled
        from nanlint.uncalled import drop_uncalled

        found = through_callers(found, files, config)
        ran = {id(suspect) for suspect in drop_uncalled(found, folders, config)}
        found = [suspect if id(suspect) in ran else uncalled(suspect) for suspect in found]
    ranked = suspects_report.by_file(found, args.top)
    if args.format == "json":
        suspects_report.report_json(ranked, sys.stdout)
    else:
        suspects_report.report_text(ranked, len(files), sys.stdout)
    return EXIT_ERROR if failed else EXIT_CLEAN
