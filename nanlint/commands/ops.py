"""``nanlint ops``: the op model, as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from nanlint.commands import EXIT_CLEAN


def run(args: argparse.Namespace) -> int:
    from nanlint import opreport

    if args.format == "json":
        json.dump(opreport.as_json(), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(opreport.as_text())
    return EXIT_CLEAN
