"""Suppression comments and NAN001, through the command line."""

import json

import pytest

from cli_helpers import TF_LOG, _no_colour_variables, check_json, make, nanlint

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

HEAD = "import tensorflow as tf\np = tf.nn.relu(z)\n"
# Line 4 of HEAD + this has NAN101 and NAN102 on the same node.
BOTH = "c = tf.reduce_sum(tf.cast(y > 0, tf.float32))\nr = tf.math.log(p) / c"


@pytest.fixture
def check(tmp_path, nanlint):
    """Lint one file `example.py` through the CLI: a list of (line, code), and the findings."""
    make(tmp_path, {})

    def run(source, *options):
        (tmp_path / "example.py").write_text(source, encoding="utf-8")
        code, out, err = nanlint("check", "--format", "json", *options, "example.py",
                                 cwd=tmp_path)
        assert err == ""
        findings = json.loads(out)["findings"]
        assert code == (1 if findings else 0)
        return [(f["line"], f["code"]) for f in findings], findings
    return run


def test_unsuppressed_baseline(check):
    assert check(TF_LOG)[0] == [(3, "NAN102")]
    assert check(HEAD + BOTH + "\n")[0] == [(4, "NAN101"), (4, "NAN102")]


@pytest.mark.parametrize("comment", [
    "# nanlint: ignore[NAN102]",
    "# noqa: NAN102",
    "#noqa:NAN102",
    "# NOQA: E501, NAN102",
    "# nanlint: ignore[nan102]",
    "#nanlint:ignore[ NAN102 ]",
    "# nanlint: ignore[NAN102]  # noqa: E501",  # another tool's comment after it
    "# type: ignore  # nanlint: ignore[NAN102]",
])
def test_comment_on_the_reported_line_suppresses(check, comment):
    assert check(HEAD + f"loss = tf.math.log(p)  {comment}\n")[0] == []


@pytest.mark.parametrize("comment, unused", [
    ("# nanlint: ignore[NAN101]", True),  # another code: and that one is unused
    ("# noqa: NAN101", True),
    ("# noqa: E501", False),  # another tool's code: neither honoured nor reported
    ("# noqa", False),  # bare noqa: neither honoured nor reported
    ("# NOQA", False),
    ("# type: ignore", False),
])
def test_comment_that_does_not_name_the_code_does_not_suppress(check, comment, unused):
    reported = check(HEAD + f"loss = tf.math.log(p)  {comment}\n")[0]
    assert reported == [(3, "NAN102")] + ([(3, "NAN001")] if unused else [])


def test_comment_on_another_statement_does_not_suppress(check):
    source = HEAD + "# nanlint: ignore[NAN102]\nloss = tf.math.log(p)\nx = 1  # noqa: NAN102\n"
    assert check(source)[0] == [(3, "NAN001"), (4, "NAN102"), (5, "NAN001")]  # both unused


@pytest.mark.parametrize("source", [
    HEAD + "loss = tf.reduce_sum(  # nanlint: ignore[NAN102]\n    tf.math.log(p),\n)\n",
    HEAD + "loss = tf.reduce_sum(\n    tf.math.log(p),  # noqa: NAN102\n)\n",
    HEAD + "loss = tf.reduce_sum(\n    tf.math.log(p),\n)  # nanlint: ignore[NAN102]\n",
    HEAD + "loss = tf.reduce_sum(\n    tf.math.log(\n        p\n    )\n)  # noqa: NAN102\n",
])
def test_comment_on_any_line_of_a_multiline_statement_suppresses(check, source):
    reported = check(source.replace("# nanlint: ignore[NAN102]", "").replace(
        "# noqa: NAN102", ""))[0]
    assert reported == [(4, "NAN102")], reported
    assert check(source)[0] == []


def test_several_codes_in_one_comment(check):
    assert check(HEAD + BOTH + "  # nanlint: ignore[NAN101, NAN102]\n")[0] == []
    assert check(HEAD + BOTH + "  # noqa: NAN101,NAN102\n")[0] == []
    assert check(HEAD + BOTH + "  # nanlint: ignore[NAN101]\n")[0] == [(4, "NAN102")]


def test_ignore_file_at_the_top_suppresses_the_whole_file(check):
    body = HEAD + "a = tf.math.log(p)\n" + BOTH + "\n"
    assert check(body)[0] == [(3, "NAN102"), (5, "NAN101"), (5, "NAN102")]
    headed = '#!/usr/bin/env python\n"""Docstring."""\n# nanlint: ignore-file[NAN102]\n'
    assert check(headed + body)[0] == [(8, "NAN101")]  # only the named code
    assert check("# nanlint: ignore-file[NAN101, NAN102]\n" + body)[0] == []


def _nan001(findings, line):
    [problem] = [f for f in findings if f["code"] == "NAN001"]
    assert problem["line"] == line
    assert problem["name"] == "invalid-suppression" and problem["severity"] == "warning"
    assert "\n" not in problem["message"]
    return problem


def test_ignore_without_codes_suppresses_nothing_and_is_nan001(check):
    reported, findings = check(HEAD + "loss = tf.math.log(p)  # nanlint: ignore\n")
    assert reported == [(3, "NAN102"), (3, "NAN001")]
    problem = _nan001(findings, 3)
    assert problem["column"] == len("loss = tf.math.log(p)  ") + 1  # where the comment starts
    assert "names no code" in problem["message"]


def test_nan001_without_any_other_finding(check):
    reported, findings = check("x = 1  # nanlint: ignore\n")
    assert reported == [(1, "NAN001")]


@pytest.mark.parametrize("comment, fragment", [
    ("# nanlint: ignore[NAN999]", "unknown code NAN999"),
    ("# nanlint: ignore[NAN1]", "unknown code NAN1"),
    ("# nanlint: ignore[E501]", "unknown code E501"),
    ("# noqa: NAN999", "unknown code NAN999"),
    ("# nanlint: ignroe[NAN102]", "unknown nanlint directive"),
    ("# nanlint: ignore[NAN102] because softmax", "unknown nanlint directive"),
    ("# nanlint: ignore[NAN102]  # nanlint: ignore[NAN101]", "unknown nanlint directive"),
])
def test_bad_suppression_suppresses_nothing_and_is_nan001(check, comment, fragment):
    reported, findings = check(HEAD + f"loss = tf.math.log(p)  {comment}\n")
    assert reported == [(3, "NAN102"), (3, "NAN001")]
    assert fragment in _nan001(findings, 3)["message"]


def test_unknown_code_next_to_a_known_one(check):
    reported, findings = check(HEAD + "loss = tf.math.log(p)  # nanlint: ignore[NAN102, NAN9]\n")
    assert reported == [(3, "NAN001")]  # NAN102 is suppressed, NAN9 reported
    assert "NAN9" in _nan001(findings, 3)["message"]


def test_ignore_file_after_code_is_nan001_and_suppresses_nothing(check):
    source = "import tensorflow as tf\n# nanlint: ignore-file[NAN102]\n" \
             "p = tf.nn.relu(z)\nloss = tf.math.log(p)\n"
    reported, findings = check(source)
    assert reported == [(2, "NAN001"), (4, "NAN102")]
    assert "top of the file" in _nan001(findings, 2)["message"]


def test_ignore_file_without_codes_is_nan001(check):
    reported, _ = check("# nanlint: ignore-file\n" + TF_LOG)
    assert reported == [(1, "NAN001"), (4, "NAN102")]


def test_the_same_words_inside_a_string_do_nothing(check):
    source = (HEAD + 's = "# nanlint: ignore[NAN102]"; loss = tf.math.log(p)\n'
              + 't = "# nanlint: ignore"; u = "# noqa: NAN102"; v = tf.math.log(p)\n')
    assert check(source)[0] == [(3, "NAN102"), (4, "NAN102")]
    header = '"""\n# nanlint: ignore-file[NAN102]\n"""\n'
    assert check(header + TF_LOG)[0] == [(6, "NAN102")]
    fstring = HEAD + 'loss = tf.math.log(p); msg = f"{loss} # noqa: NAN102"\n'
    assert check(fstring)[0] == [(3, "NAN102")]


def test_nan001_can_be_ignored(check):
    source = HEAD + "loss = tf.math.log(p)  # nanlint: ignore\n"
    assert check(source, "--ignore", "NAN001")[0] == [(3, "NAN102")]
    assert check(source, "--select", "NAN001")[0] == [(3, "NAN001")]


def test_suppression_end_to_end(tmp_path):
    make(tmp_path, {"a.py": HEAD + "loss = tf.math.log(p)  # nanlint: ignore[NAN102]\n",
                    "b.py": HEAD + "loss = tf.math.log(p)  # noqa\n",
                    "c.py": "# nanlint: ignore-file[NAN102]\n" + TF_LOG,
                    "d.py": HEAD + "loss = tf.math.log(p)  # nanlint: ignore\n"})
    result, document = check_json(cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == ""
    assert [(f["path"], f["line"], f["code"]) for f in document["findings"]] == [
        ("b.py", 3, "NAN102"), ("d.py", 3, "NAN102"), ("d.py", 3, "NAN001")]


# -- unused suppressions: NAN001 -------------------------------------------------------------
def test_unused_suppression_is_nan001_at_the_comment(check):
    source = "import tensorflow as tf\nx = tf.exp(y)  # nanlint: ignore[NAN102]\n"
    reported, findings = check(source)
    assert reported == [(2, "NAN001")]
    problem = _nan001(findings, 2)
    assert problem["column"] == len("x = tf.exp(y)  ") + 1
    assert problem["message"] == ("unused suppression `# nanlint: ignore[NAN102]`: no NAN102 "
                                  "finding where it applies; remove the comment")


def test_unused_noqa_code_is_nan001(check):
    reported, findings = check("import tensorflow as tf\nx = tf.exp(y)  # noqa: E501, NAN102\n")
    assert reported == [(2, "NAN001")]
    assert "no NAN102 finding" in _nan001(findings, 2)["message"]


def test_one_unused_code_next_to_a_used_one(check):
    reported, findings = check(HEAD + "loss = tf.math.log(p)  # nanlint: ignore[NAN102, NAN101]\n")
    assert reported == [(3, "NAN001")]
    assert _nan001(findings, 3)["message"].startswith(
        "unused code NAN101 in `# nanlint: ignore[NAN102, NAN101]`")


def test_unused_ignore_file_is_nan001(check):
    reported, findings = check("# nanlint: ignore-file[NAN201, NAN102]\n" + TF_LOG)
    assert reported == [(1, "NAN001")]
    assert "unused code NAN201" in _nan001(findings, 1)["message"]
    assert "in this file" in _nan001(findings, 1)["message"]


def test_unused_suppression_in_a_file_without_tensorflow(check):
    # Such a file is only syntax-checked: no rule can report anything in it.
    assert check("x = a / b  # nanlint: ignore[NAN101]\n")[0] == [(1, "NAN001")]


def test_a_suppression_of_nan000_is_unused(check):
    assert check("x = 1  # nanlint: ignore[NAN000]\n")[0] == [(1, "NAN001")]


@pytest.mark.parametrize("options", [
    ("--select", "NAN001,NAN102"),  # NAN101 not selected
    ("--ignore", "NAN101"),
])
def test_a_suppression_of_a_code_that_is_not_enabled_is_not_judged(check, options):
    source = HEAD + "loss = tf.math.log(p)  # nanlint: ignore[NAN101]\n"
    assert check(source, *options)[0] == [(3, "NAN102")]
    assert check(source)[0] == [(3, "NAN102"), (3, "NAN001")]  # enabled: unused


def test_a_suppression_of_a_code_ignored_for_the_file_is_not_judged(tmp_path):
    make(tmp_path, {".nanlint.yaml": 'per-file-ignores:\n  "legacy/*": [NAN101]\n',
                    "legacy/a.py": TF_LOG.replace("(p)\n", "(p)  # nanlint: ignore[NAN101]\n"),
                    "src/a.py": TF_LOG.replace("(p)\n", "(p)  # nanlint: ignore[NAN101]\n")})
    _, document = check_json(cwd=tmp_path)
    assert [(f["path"], f["line"], f["code"]) for f in document["findings"]] == [
        ("legacy/a.py", 3, "NAN102"), ("src/a.py", 3, "NAN102"), ("src/a.py", 3, "NAN001")]


def test_a_finding_below_min_confidence_still_uses_its_suppression(check, tmp_path):
    # NAN102 at line 3 has low confidence (y_pred is a probability only by convention).
    source = ("import tensorflow as tf\ndef my_loss(y_true, y_pred):\n"
              "    return tf.reduce_mean(tf.math.log(y_pred))  # nanlint: ignore[NAN102]\n")
    assert check(source.replace("  # nanlint: ignore[NAN102]", ""))[1][0]["confidence"] == "low"
    assert check(source)[0] == []
    (tmp_path / ".nanlint.yaml").write_text("min-confidence: high\n", encoding="utf-8")
    assert check(source)[0] == []


@pytest.mark.parametrize("comment", [
    "# nanlint: ignore[NAN101, NAN001]",
    "# nanlint: ignore[NAN001, NAN999]",  # as ruff's `# noqa: RUF100`: not reported at all
    "# noqa: NAN101, NAN001",
])
def test_a_comment_naming_nan001_is_never_reported(check, comment):
    assert check(f"import tensorflow as tf\nx = tf.exp(y)  {comment}\n")[0] == []


def test_two_comments_on_one_statement_are_both_used(check):
    source = (HEAD + "loss = tf.reduce_sum(  # noqa: NAN102\n"
              "    tf.math.log(p),  # nanlint: ignore[NAN102]\n)\n")
    assert check(source)[0] == []


def test_unused_suppression_can_be_ignored_with_nan001(check):
    source = "import tensorflow as tf\nx = tf.exp(y)  # nanlint: ignore[NAN102]\n"
    assert check(source, "--ignore", "NAN001")[0] == []
