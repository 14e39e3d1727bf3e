"""The baseline: --write-baseline records the current findings, --baseline reports only new
ones. Fingerprints carry no line numbers but count identical findings."""

import json

import pytest

from cli_helpers import (TF_LOG, TF_MIXED, _no_colour_variables, assert_one_line_error,
                         check_json, codes_at, make, nanlint)
from conftest import run_cli
from nanlint import baseline
from nanlint.finding import Finding

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

# NAN103 at line 5 (`tf.math.log(probs)` of a softmax).
TRAIN = """import tensorflow as tf


def cross_entropy(labels, logits):
    probs = tf.nn.softmax(logits); return -tf.reduce_sum(labels * tf.math.log(probs))
"""


def write_baseline(cwd, *args, name="baseline.json"):
    result = run_cli("check", "--no-cache", "--write-baseline", name, *args, cwd=cwd)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def check_with_baseline(cwd, *args, name="baseline.json"):
    return check_json("--no-cache", "--baseline", name, *args, cwd=cwd)


def test_a_baselined_finding_is_not_reported_and_the_summary_says_so(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    written = write_baseline(tmp_path)
    assert written.stdout == "Recorded 1 finding in baseline.json.\n"
    result = run_cli("check", "--no-cache", "--baseline", "baseline.json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout == ("No findings in 1 file. 1 finding suppressed by the baseline "
                             "(baseline.json).\n")


def test_edits_elsewhere_keep_the_old_finding_hidden_and_a_second_copy_is_new(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    write_baseline(tmp_path)
    lines = TRAIN.splitlines(keepends=True)
    mistake = lines[-1]
    edited = (lines[:2] + ["# three new lines above the finding\n", "SCALE = 2.0\n", "\n"]
              + lines[2:] + ["\n\n", "def again(labels, logits):\n", mistake])
    (tmp_path / "train.py").write_text("".join(edited), encoding="utf-8")
    result, document = check_with_baseline(tmp_path)
    assert result.returncode == 1
    assert codes_at(document) == [("train.py", 12, "NAN103")]  # the copy, nothing else
    assert document["suppressed_by_baseline"] == 1
    text = run_cli("check", "--no-cache", "--baseline", "baseline.json", cwd=tmp_path).stdout
    assert "Found 1 finding (1 error) in 1 of 1 file. 1 finding suppressed by the baseline" in text


def test_one_baselined_finding_never_hides_two_new_identical_ones(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    write_baseline(tmp_path)
    mistake = TRAIN.splitlines(keepends=True)[-1]
    copies = "".join(f"\n\ndef copy_{n}(labels, logits):\n{mistake}" for n in (1, 2))
    (tmp_path / "train.py").write_text(TRAIN + copies, encoding="utf-8")
    _, document = check_with_baseline(tmp_path)
    assert codes_at(document) == [("train.py", 9, "NAN103"), ("train.py", 13, "NAN103")]
    assert document["suppressed_by_baseline"] == 1


def test_new_findings_in_other_files_and_of_other_rules_are_reported(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    write_baseline(tmp_path)
    make(tmp_path, {"other.py": TRAIN, "mixed.py": TF_MIXED})
    _, document = check_with_baseline(tmp_path)
    assert codes_at(document) == [("mixed.py", 4, "NAN101"), ("mixed.py", 4, "NAN102"),
                                  ("mixed.py", 8, "NAN102"), ("mixed.py", 12, "NAN201"),
                                  ("other.py", 5, "NAN103")]


def test_a_fixed_finding_leaves_nothing_to_report(tmp_path):
    make(tmp_path, {"train.py": TRAIN, "bad.py": TF_LOG})
    write_baseline(tmp_path)
    (tmp_path / "bad.py").write_text("import tensorflow as tf\n", encoding="utf-8")
    result, document = check_with_baseline(tmp_path)
    assert result.returncode == 0 and document["findings"] == []
    assert document["suppressed_by_baseline"] == 1


def test_baseline_paths_are_relative_to_the_baseline_file(tmp_path):
    make(tmp_path, {"pkg/train.py": TRAIN, "ci/.keep": ""})
    write_baseline(tmp_path, name="ci/baseline.json")
    recorded = json.loads((tmp_path / "ci" / "baseline.json").read_text(encoding="utf-8"))
    assert [entry["path"] for entry in recorded["findings"]] == ["../pkg/train.py"]
    result, document = check_with_baseline(tmp_path / "pkg", ".", name="../ci/baseline.json")
    assert result.returncode == 0 and document["findings"] == []
    assert document["suppressed_by_baseline"] == 1


def test_the_baseline_file_format(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    write_baseline(tmp_path)
    document = json.loads((tmp_path / "baseline.json").read_text(encoding="utf-8"))
    assert set(document) == {"nanlint_baseline", "nanlint_version", "findings"}
    assert document["nanlint_baseline"] == 1
    [entry] = document["findings"]
    assert set(entry) == {"fingerprint", "path", "code", "name", "source", "occurrence",
                          "line", "message"}
    assert (entry["path"], entry["code"], entry["source"], entry["occurrence"],
            entry["line"]) == ("train.py", "NAN103", "tf.math.log(probs)", 0, 5)
    assert len(entry["fingerprint"]) == 64


def test_the_baseline_fingerprint_is_the_sarif_fingerprint(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    write_baseline(tmp_path)
    [entry] = json.loads((tmp_path / "baseline.json").read_text(encoding="utf-8"))["findings"]
    sarif = json.loads(run_cli("check", "--no-cache", "--format", "sarif",
                               cwd=tmp_path).stdout)
    [result] = sarif["runs"][0]["results"]
    assert result["partialFingerprints"]["nanlint/v1"] == entry["fingerprint"]


def test_internal_errors_are_never_recorded_or_suppressed(tmp_path):
    crash = Finding(code="NAN000", name="internal-error", severity="error", confidence="high",
                    path=str(tmp_path / "x.py"), line=1, column=1, end_line=1, end_column=2,
                    message="internal error in NAN101: boom")
    path = tmp_path / "baseline.json"
    assert baseline.write(path, [crash]) == 0
    assert baseline.apply(path, baseline.load(path), [crash]) == ([crash], 0)


@pytest.mark.parametrize("content, fragment", [
    (None, "cannot read the baseline"),
    ("{", "invalid JSON"),
    ("[]", "not a nanlint baseline"),
    ('{"findings": {}}', "not a nanlint baseline"),
    ('{"nanlint_baseline": 7, "findings": []}', "format 7 is not supported"),
    ('{"nanlint_baseline": 1, "findings": [{"path": "a.py"}]}', "finding 1 has no"),
    (b"\xff\xfe\x00", "not UTF-8"),
])
def test_a_bad_or_missing_baseline_is_a_one_line_error(tmp_path, content, fragment):
    make(tmp_path, {"train.py": TRAIN})
    if isinstance(content, bytes):
        (tmp_path / "baseline.json").write_bytes(content)
    elif content is not None:
        (tmp_path / "baseline.json").write_text(content, encoding="utf-8")
    result = run_cli("check", "--baseline", "baseline.json", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, "baseline.json", fragment)


def test_a_baseline_that_cannot_be_written_is_a_one_line_error(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    result = run_cli("check", "--write-baseline", "missing/baseline.json", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, "missing/baseline.json", "cannot write")


def test_baseline_and_write_baseline_exclude_each_other(tmp_path):
    result = run_cli("check", "--baseline", "a.json", "--write-baseline", "b.json",
                     cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "--write-baseline", "--baseline")


def test_without_a_baseline_the_json_document_is_unchanged(tmp_path):
    make(tmp_path, {"train.py": TRAIN})
    _, document = check_json("--no-cache", cwd=tmp_path)
    assert "suppressed_by_baseline" not in document
