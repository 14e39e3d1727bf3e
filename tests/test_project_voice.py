"""The project speaks of itself only: its documentation, code and tests say what nanlint is
and what was measured on it, never who worked on it in which sitting."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXTS = sorted({*ROOT.glob("*.md"), *ROOT.glob("*.yml"), *ROOT.glob("*.yaml"),
                *(path for folder in ("docs", "nanlint", "rules", "tests", "benchmarks",
                                      "scripts", "examples")
                  for suffix in ("*.md", "*.py") for path in (ROOT / folder).rglob(suffix))}
               - {Path(__file__).resolve()})
# Words about a sitting of work, not about the project: "this session's code", "the
# previous session's machine", "the last round", "before this work".
SITTING = re.compile(r"\b(?:this|that|the previous|previous|the same|last|this past) "
                     r"(?:session|round)\b|\bsession's\b|\b(?:before|after|during|of) this work\b",
                     re.IGNORECASE)


def test_the_texts_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in TEXTS}
    assert {"README.md", "CHANGELOG.md", "docs/how-it-works.md", "action.yml"} <= names


def test_no_text_speaks_of_a_sitting_of_work():
    found = []
    for path in TEXTS:
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: "
                  f"{match.group(0)}" for match in SITTING.finditer(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("sentence,flagged", [
    ("22:25 (this session's end)", True), ("on the previous session's machine", True),
    ("(1.24 on the commit before this work)", True), ("in the last round", True),
    ("a pasted session (`>>> `)", False), ("once the session starts", False),
    ("median of 5 rounds", False), ("a loop's next round", False),
])
def test_the_pattern_tells_a_sitting_from_the_project(sentence, flagged):
    assert bool(SITTING.search(sentence)) == flagged
