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
    for (line, code) in notes.missed:
        text = source.splitlines()[line - 1]
        assert " -- " in text.split("miss:", 1)[1], (
            f"line {line}: say what the analysis lacks: `# miss: {code} -- class: detail`")
    report = compare(source, lint_source(source, path.name, options_for()))
    assert not report, "\n".join(report)


def test_the_recall_script_counts_errors_misses_and_classes(tmp_path, capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "field_recall", FIELD.parent.parent / "scripts" / "field_recall.py")
    field_recall = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(field_recall)
    (tmp_path / "a.py").write_text(
        '"""x\n\nproject: o/a\nsource: https://example.org/1\n"""\n'
        "y = tf.log(p)  # error: NAN102\n"
        "z = a / b  # miss: NAN101 -- mask count: a mask parameter\n", encoding="utf-8")
    (tmp_path / "b.py").write_text(
        '"""x\n\nproject: o/b\nsource: https://example.org/2\n"""\n'
        "w = c / d  # miss: NAN101 -- mask count: another one\n", encoding="utf-8")
    assert field_recall.main(["--field", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "recall: 1 / 3 = 33.3%  (2 projects, 2 files)" in out
    assert "NAN101    0 / 2" in out and "NAN102    1 / 1" in out
    assert "o/a  " in out and "o/b  " in out
    assert "    2  mask count\n" in out
    assert "a.py:7  NAN101  mask count: a mask parameter" in out


def test_a_found_miss_asks_for_promotion():
    source = "import tensorflow as tf\n\ndef f(z):\n    return tf.math.log(tf.nn.softmax(z))  # miss: NAN103\n"
    report = compare(source, lint_source(source, "x.py", options_for()))
    assert len(report) == 1 and "promote" in report[0] and "# error: NAN103" in report[0]


def test_a_miss_that_stays_missed_passes():
    source = "import tensorflow as tf\n\ndef f(a, b):\n    return a / b  # miss: NAN101\n"
    assert compare(source, lint_source(source, "x.py", options_for())) == []
