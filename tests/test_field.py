"""Real NaN bugs from public TensorFlow/Keras projects (tests/field/, see its README).

Each file is checked like a rule fixture, in both directions, with one more annotation:
`# miss: CODE` marks a real bug that nanlint does not find yet. The test requires that a
miss is still not reported, so that the day the analysis finds it, this test fails and
asks for the annotation to be promoted to `# error:` (recall only goes up on purpose).
"""

import re
from collections import Counter
from pathlib import Path

import pytest

from annotation_reader import compare, read_annotations
from conftest import options_for
from nanlint.engine import lint_source

FIELD = Path(__file__).resolve().parent / "field"
FILES = sorted(FIELD.glob("*.py"))


def project_of(source):
    """The `project: owner/name` line of a field file's docstring."""
    match = re.search(r"^project:\s*(\S+/\S+)\s*$", source, re.MULTILINE)
    return match and match.group(1)


def test_the_field_set_is_large_and_varied():
    bugs = Counter()
    for path in FILES:
        source = path.read_text(encoding="utf-8")
        notes = read_annotations(source)
        bugs[project_of(source)] += sum(notes.expected.values()) + sum(notes.missed.values())
    assert sum(bugs.values()) >= 40
    assert len(bugs) >= 25, "at least 25 projects"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_field_file(path):
    source = path.read_text(encoding="utf-8")
    notes = read_annotations(source)
    assert notes.expected or notes.missed, "a field file holds at least one bug"
    assert project_of(source), "the docstring names the project: `project: owner/name`"
    assert re.search(r"^source:\s*https://", source, re.MULTILINE), "and the public source"
    report = compare(source, lint_source(source, path.name, options_for()))
    assert not report, "\n".join(report)


def test_a_found_miss_asks_for_promotion():
    source = "import tensorflow as tf\n\ndef f(z):\n    return tf.math.log(tf.nn.softmax(z))  # miss: NAN103\n"
    report = compare(source, lint_source(source, "x.py", options_for()))
    assert len(report) == 1 and "promote" in report[0] and "# error: NAN103" in report[0]


def test_a_miss_that_stays_missed_passes():
    source = "import tensorflow as tf\n\ndef f(a, b):\n    return a / b  # miss: NAN101\n"
    assert compare(source, lint_source(source, "x.py", options_for())) == []
