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
    assert "recall: 1 / 3 = 33.3%  (2 projects, 2 files; every rule)" in out
    assert "the rules on by default: 0 / 3 = 0.0%" in out  # NAN101 is a preview rule
    assert "NAN101    0 / 2" in out and "NAN102    1 / 1" in out
    assert "o/a  " in out and "o/b  " in out
    assert "    2  mask count\n" in out
    assert "a.py:7  NAN101  mask count: a mask parameter" in out
    ranked = tmp_path / "ranked"
    ranked.mkdir()
    (ranked / "c.py").write_text(
        '"""x\n\nproject: o/c\nsource: https://example.org/3\n"""\n'
        "import tensorflow as tf\n"
        "y = tf.math.log(tf.nn.softmax(z))  # error: NAN103\n"
        "w = c / d  # miss: NAN101 -- unknown: a parameter\n"
        "v = tf.math.log(p + 1.0)\n", encoding="utf-8")
    assert field_recall.main(["--field", str(ranked), "--suspects"]) == 0
    out = capsys.readouterr().out
    assert "where the bug's line ranks in its file (2 bug lines)" in out
    assert "  NAN103   1      1      1      1" in out  # first: check's own finding
    assert "  NAN101   1      0      1      1" in out  # second
    assert "  all      2      1      2      2" in out


def test_a_found_miss_asks_for_promotion():
    source = "import tensorflow as tf\n\ndef f(z):\n    return tf.math.log(tf.nn.softmax(z))  # miss: NAN103\n"
    report = compare(source, lint_source(source, "x.py", options_for()))
    assert len(report) == 1 and "promote" in report[0] and "# error: NAN103" in report[0]


def test_a_miss_that_stays_missed_passes():
    source = "import tensorflow as tf\n\ndef f(a, b):\n    return a / b  # miss: NAN101\n"
    assert compare(source, lint_source(source, "x.py", options_for())) == []


# -- the upstream set: references to real files at real commits (tests/field/bugs.yaml) -------
def _upstream_recall():
    import importlib.util
    import sys

    scripts = FIELD.parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    spec = importlib.util.spec_from_file_location("upstream_recall",
                                                  scripts / "upstream_recall.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_upstream_references_follow_the_schema():
    upstream = _upstream_recall()
    entries = upstream.load(FIELD / "bugs.yaml")
    assert upstream.validate(entries) == []
    assert len(entries) >= 150
    assert len({entry["repo"].lower() for entry in entries}) >= 100


def test_every_batch_has_its_first_look_in_the_history():
    import re

    entries = _upstream_recall().load(FIELD / "bugs.yaml")
    history = (FIELD / "HISTORY.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## Batch (\d+) .*?\n(.*?)(?=^## |\Z)", history,
                               re.MULTILINE | re.DOTALL))
    batches = {entry["batch"] for entry in entries}
    assert len(batches) >= 4
    for batch in batches:
        size = sum(1 for entry in entries if entry["batch"] == batch)
        assert str(batch) in sections, f"batch {batch} has no section in HISTORY.md"
        assert "First look, at commit" in sections[str(batch)]
        assert f"| {size} |" in sections[str(batch)], f"batch {batch}: {size} bugs"


def test_the_schema_rejects_what_it_should():
    upstream = _upstream_recall()
    good = {"id": "a-b-log", "repo": "a/b", "commit": "0" * 40, "path": "x.py", "line": 3,
            "category": "log", "style": "tf1", "batch": 1,
            "source": {"url": "https://github.com/a/b/issues/1",
                       "evidence": "The fix adds an epsilon to this log and names NaN."}}
    assert upstream.validate([good]) == []
    bad = [dict(good, commit="abc"), dict(good, category="logs"), dict(good, style="torch"),
           dict(good, id="Upper"), dict(good, path="x.ipynb"), dict(good, line=0),
           dict(good, source={"url": "https://example.org/1", "evidence": "x"}),
           dict(good, fixed={"commit": "1" * 40, "path": "x.py"})]
    for entry in bad:
        assert len(upstream.validate([entry])) == 1, entry
    problems = upstream.validate([good, dict(good, id="a-b-other")])
    assert problems == ["entry 2 (a-b-other): duplicate of an earlier entry's repo, commit, "
                        "path, line"]
    missing = dict(good)
    del missing["batch"]
    assert "missing ['batch']" in upstream.validate([missing])[0]


def _git(*args, cwd):
    import subprocess

    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd,
                   check=True, capture_output=True)


def test_upstream_recall_lints_the_files_of_the_snapshots_and_names_the_missing(
        tmp_path, capsys):
    import subprocess

    import yaml

    field_recall = _field_recall()
    repo = tmp_path / "snapshots" / "someone+project"
    repo.mkdir(parents=True)
    _git("init", "-q", cwd=repo)
    (repo / "loss.py").write_text(
        "import tensorflow as tf\n\n\ndef loss(labels, logits):\n"
        "    probs = tf.nn.softmax(logits)\n"
        "    return -tf.reduce_sum(labels * tf.math.log(probs))\n", encoding="utf-8")
    _git("add", ".", cwd=repo)
    _git("commit", "-qm", "bug", cwd=repo)
    bug = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                         text=True).stdout.strip()
    (repo / "loss.py").write_text(
        "import tensorflow as tf\n\n\ndef loss(labels, logits):\n"
        "    return tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)\n",
        encoding="utf-8")
    _git("commit", "-qam", "fix", cwd=repo)
    fix = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                         text=True).stdout.strip()
    source = {"url": "https://github.com/someone/project/pull/1",
              "evidence": "The fix replaces this hand-written cross-entropy, named NaN."}
    entries = [
        {"id": "someone-project-log", "repo": "someone/project", "commit": bug,
         "path": "loss.py", "line": 6, "category": "log", "style": "tf2", "batch": 1,
         "source": source, "fixed": {"commit": fix, "path": "loss.py", "line": 5}},
        # the line that makes the value: the suspect's origin (where `probs` is set)
        {"id": "someone-project-softmax", "repo": "someone/project", "commit": bug,
         "path": "loss.py", "line": 5, "category": "log", "style": "tf2", "batch": 1,
         "source": source},
        {"id": "nobody-else-log", "repo": "nobody/else", "commit": bug, "path": "loss.py",
         "line": 6, "category": "log", "style": "tf2", "batch": 1, "source": source}]
    bugs = tmp_path / "bugs.yaml"
    bugs.write_text(yaml.safe_dump(entries), encoding="utf-8")
    assert field_recall.main(["--upstream", "--bugs", str(bugs), "--snapshots",
                              str(tmp_path / "snapshots")]) == 0
    captured = capsys.readouterr()
    assert "1 of 2 repositories have no snapshot" in captured.err
    assert "  nobody/else" in captured.err and "git clone --mirror" in captured.err
    assert "bugs measured: 2 from 1 projects" in captured.out
    assert "check recall:        1 / 2" in captured.out
    # the finding on line 6 names line 5 (the softmax) as where its evidence is
    assert "  or naming it:      2 / 2" in captured.out
    assert "suspects top-1:      2 / 2   100.0%   (on the op's line only: 1 / 2" in captured.out
    assert "fixes: 1 lower the file's count" in captured.out
    # Without any snapshot: a clear message and exit 1, no traceback.
    assert field_recall.main(["--upstream", "--bugs", str(bugs), "--snapshots",
                              str(tmp_path / "none")]) == 1
    captured = capsys.readouterr()
    assert "2 of 2 repositories have no snapshot" in captured.err
    assert "no bug could be measured" in captured.err


def _field_recall():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "field_recall", FIELD.parent.parent / "scripts" / "field_recall.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
