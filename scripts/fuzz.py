"""A longer, random run of the property tests in tests/test_properties.py.

    python scripts/fuzz.py --examples 5000

Each strategy (grammar-generated programs, TensorFlow-flavoured programs) gets N random
examples; a failure prints the smallest failing program and exits non-zero.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402

import test_properties as properties  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, metavar="N",
                        help="examples per strategy (default 2000)")
    args = parser.parse_args()
    for name, strategy in properties.STRATEGIES.items():
        print(f"{name}: {args.examples} examples", flush=True)

        @settings(max_examples=args.examples, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(strategy)
        def run(source):
            properties.assert_lints_cleanly(source)

        run()
    print("no failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
