"""Annotated fixture files: `# error: CODE` lines must be reported, nothing else may be.

Every code named in a file's annotations is checked on every line of that file, in both
directions: a missing finding and an extra finding both fail.
"""

import pytest

from annotation_reader import compare, read_annotations
from conftest import FIXTURES, options_for
from nanlint.engine import lint_source

FILES = sorted(p for p in FIXTURES.glob("NAN*.py"))


def test_there_are_fixtures():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture(path):
    source = path.read_text(encoding="utf-8")
    notes = read_annotations(source)
    assert notes.expected, "a fixture must require at least one finding"
    assert not notes.missed, "`# miss:` belongs in tests/field/ (real bugs), not in a rule fixture"
    report = compare(source, lint_source(source, path.name, options_for()))
    assert not report, "\n".join(report)
