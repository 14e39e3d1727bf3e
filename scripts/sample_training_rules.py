"""Run the training rules on the tutorial-style programs and judge their findings.

    python scripts/sample_training_rules.py            # every finding, with its judgement
    python scripts/sample_training_rules.py --sample 30 --seed 16

The programs are tests/data/tutorials/*.py (written down from the public tutorials' form);
each finding's judgement — real risk or false alarm, and why — is a line of
tests/data/tutorials/judgements.txt: `file:line:CODE real|false  reason`. Preview rules run
too. The table ends with each rule's ratio of real findings: a rule below 2 in 3 belongs in
the preview tier. tests/test_training_sample.py checks the same numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
TUTORIALS = ROOT / "tests" / "data" / "tutorials"
JUDGEMENTS = TUTORIALS / "judgements.txt"
TRAINING_CODES = ("NAN301", "NAN302", "NAN303", "NAN304", "NAN401", "NAN402")


def findings() -> List[Tuple[str, int, str, str]]:
    """(file, line, code, message) of every training-rule finding on the tutorials."""
    from nanlint import registry
    from nanlint.engine import lint_source
    from nanlint.options import LintOptions

    options = LintOptions(rules=registry.rule_classes(list(TRAINING_CODES)),
                          known_codes=frozenset(registry.all_codes()))
    found = []
    for path in sorted(TUTORIALS.glob("*.py")):
        for finding in lint_source(path.read_text(encoding="utf-8"), path.name, options):
            if finding.code in TRAINING_CODES:
                found.append((path.name, finding.line, finding.code, finding.message))
    return found


def judgements() -> Dict[str, Tuple[str, str]]:
    """`file:line:CODE` → ("real" or "false", reason)."""
    table = {}
    for line in JUDGEMENTS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, verdict, *reason = line.split(None, 2)
        table[key] = (verdict, reason[0] if reason else "")
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="a random sample of N findings (default: all)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--messages", action="store_true", help="print each message too")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    found = findings()
    if args.sample and args.sample < len(found):
        found = sorted(random.Random(args.seed).sample(found, args.sample))
    table = judgements()
    real, total = Counter(), Counter()
    print("| # | finding | judgement | why |\n|---|---|---|---|")
    for number, (name, line, code, message) in enumerate(found, 1):
        verdict, reason = table.get(f"{name}:{line}:{code}", ("unjudged", ""))
        total[code] += 1
        real[code] += verdict == "real"
        print(f"| {number} | {name}:{line} {code} | {verdict} | {reason} |")
        if args.messages:
            print(f"|   | {message} | | |")
    print("\n| rule | real | findings | ratio |\n|---|---|---|---|")
    for code in sorted(total):
        print(f"| {code} | {real[code]} | {total[code]} | {real[code] / total[code]:.2f} |")
    print(f"| all | {sum(real.values())} | {sum(total.values())} | "
          f"{sum(real.values()) / max(1, sum(total.values())):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
