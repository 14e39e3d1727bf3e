"""The command line end to end: exit codes, output formats, code selection, discovery,
unreadable files and the rule listings. Configuration files: test_config.py; suppression
comments: test_suppression.py."""

import json
import os
import re

import pytest

from cli_helpers import (FINDING_KEYS, FINDING_LINE, TF_CLEAN, TF_LOG, TF_MIXED,
                         _no_colour_variables, assert_one_line_error, check_json, codes_at,
                         make, nanlint)
from conftest import ROOT, run_cli
from nanlint import __version__, registry

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

ANSI = "\x1b["


# -- exit codes ------------------------------------------------------------------------------
def test_exit_0_when_clean(tmp_path):
    make(tmp_path, {"clean.py": TF_CLEAN})
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "No findings in 1 file.\n"
    assert result.stderr == ""


def test_exit_1_with_findings(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "clean.py": TF_CLEAN})
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    assert "bad.py:3:8: NAN102 " in result.stdout


def test_exit_zero_gives_0_and_still_reports(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    result = run_cli("check", "--exit-zero", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "bad.py:3:8: NAN102 " in result.stdout
    assert "Found 1 finding (1 error) in 1 of 1 file." in result.stdout


def test_default_path_is_the_current_folder(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "pkg/mod.py": TF_LOG})
    result, document = check_json(cwd=tmp_path)
    assert result.returncode == 1
    assert document["files_scanned"] == 2
    assert codes_at(document) == [("bad.py", 3, "NAN102"), ("pkg/mod.py", 3, "NAN102")]


@pytest.mark.parametrize("args, fragment", [
    (["check", "--bogus"], "unrecognized arguments: --bogus"),
    (["check", "--format", "xml"], "invalid choice: 'xml'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path, args, fragment):
    make(tmp_path, {"bad.py": TF_LOG})
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, fragment)


def test_no_command_prints_help_and_exits_2(tmp_path):
    result = run_cli(cwd=tmp_path)
    assert result.returncode == 2
    assert "usage: nanlint" in result.stderr
    assert "check" in result.stderr and "rules" in result.stderr


def test_version(tmp_path):
    result = run_cli("--version", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"nanlint {__version__}"


def test_a_missing_path_is_reported_the_others_are_checked_and_the_exit_is_2(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "clean.py": TF_CLEAN})
    result = run_cli("check", "bad.py", "missing.py", "clean.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "bad.py:3:8: NAN102 " in result.stdout and "in 1 of 2 files" in result.stdout
    assert_one_line_error(result.stderr, "missing.py", "no such file or folder")
    result = run_cli("check", "missing.py", cwd=tmp_path)  # nothing left to check
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, "missing.py", "no such file or folder")


def test_an_empty_folder_among_paths_is_reported_and_the_others_are_checked(tmp_path):
    make(tmp_path, {"src/bad.py": TF_LOG, "empty/.keep": ""})
    result = run_cli("check", "--format", "json", "empty", "src", cwd=tmp_path)
    assert result.returncode == 2
    assert [f["path"] for f in json.loads(result.stdout)["findings"]] == ["src/bad.py"]
    assert result.stderr == "nanlint: error: empty: no Python file or notebook to check\n"
    result = run_cli("suspects", "src", "missing", cwd=tmp_path)
    assert result.returncode == 2 and "src/bad.py" in result.stdout
    assert_one_line_error(result.stderr, "missing", "no such file or folder")


# -- JSON ------------------------------------------------------------------------------------
def test_json_document(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "clean.py": TF_CLEAN})
    result, document = check_json(cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == ""
    assert set(document) == {"nanlint_version", "files_scanned", "findings"}
    assert document["nanlint_version"] == __version__
    assert document["files_scanned"] == 2
    [finding] = document["findings"]
    assert set(finding) == FINDING_KEYS
    assert finding == {
        "code": "NAN102",
        "name": "log-of-zero",
        "severity": "error",
        "confidence": "high",
        "path": "bad.py",
        "cell": None,  # a notebook cell; none in a .py file
        "line": 3,
        "column": 8,  # 1-based: `tf.math.log(p)` starts at the 8th character
        "end_line": 3,
        "end_column": 22,  # one past the last character
        "message": finding["message"],
        "suggestion": finding["suggestion"],
        "fix": {"safety": "unsafe", "description": "add an epsilon inside `tf.math.log`",
                "edits": [{"line": 3, "column": 20, "end_line": 3, "end_column": 21,
                           "replacement": "p + 1e-7"}]},
        # Where the value the message names was produced: `tf.nn.relu(z)` on line 2.
        "evidence": {"line": 2, "column": 5, "end_line": 2, "end_column": 18,
                     "message": finding["evidence"]["message"]},
        "gradient": True,  # where the value goes is not known: it may take a gradient
    }
    assert "tf.math.log" in finding["message"] and "relu" in finding["message"]
    assert finding["evidence"]["message"].startswith("`p` is the output of `tf.nn.relu`,")
    assert finding["evidence"]["message"] in finding["message"].replace(" (line 2)", "")
    assert "1e-7" in finding["suggestion"]


def test_json_clean_document(tmp_path):
    make(tmp_path, {"clean.py": TF_CLEAN})
    result, document = check_json(cwd=tmp_path)
    assert result.returncode == 0
    assert document == {"nanlint_version": __version__, "files_scanned": 1, "findings": []}


def test_json_every_finding_has_the_documented_fields(tmp_path):
    make(tmp_path, {"mixed.py": TF_MIXED, "broken.py": "def f(:\n"})
    _, document = check_json(cwd=tmp_path)
    assert {f["code"] for f in document["findings"]} == {"NAN000", "NAN101", "NAN102",
                                                         "NAN201"}
    for finding in document["findings"]:
        assert set(finding) == FINDING_KEYS
        assert finding["severity"] in ("error", "warning", "info")
        assert finding["confidence"] in ("high", "medium", "low")
        fix = finding["fix"]
        assert fix is None or (set(fix) == {"safety", "description", "edits"}
                               and fix["safety"] in ("safe", "unsafe") and fix["edits"])
        for edit in (fix or {}).get("edits", ()):
            assert set(edit) == {"line", "column", "end_line", "end_column", "replacement"}
        for key in ("line", "column", "end_line", "end_column"):
            assert isinstance(finding[key], int) and finding[key] >= 1, (key, finding)
        assert (finding["end_line"], finding["end_column"]) > (finding["line"],
                                                               finding["column"])
        assert isinstance(finding["message"], str) and "\n" not in finding["message"]
    confidences = {(f["line"], f["code"]): f["confidence"] for f in document["findings"]
                   if f["path"] == "mixed.py"}
    assert confidences == {(4, "NAN101"): "high", (4, "NAN102"): "high",
                           (8, "NAN102"): "low", (12, "NAN201"): "medium"}


def test_json_paths_relative_to_cwd_when_below_it(tmp_path):
    project = make(tmp_path / "proj", {"bad.py": TF_LOG, "sub/deep.py": TF_LOG})
    given = ["bad.py", "./sub/deep.py", str(project / "bad.py")]  # the last one is absolute
    _, document = check_json(*given, cwd=project)
    assert [f["path"] for f in document["findings"]] == ["bad.py", "sub/deep.py"]
    _, document = check_json("proj", cwd=tmp_path)  # a folder below the cwd
    assert [f["path"] for f in document["findings"]] == ["proj/bad.py", "proj/sub/deep.py"]


def test_json_paths_absolute_when_outside_cwd(tmp_path):
    project = make(tmp_path / "proj", {"bad.py": TF_LOG, "sub/deep.py": TF_LOG})
    elsewhere = make(tmp_path / "elsewhere", {})
    expected = [str(project / "bad.py"), str(project / "sub" / "deep.py")]
    for given in ([str(project)], ["../proj"], ["../proj/bad.py", "../proj/sub/deep.py"]):
        result, document = check_json(*given, cwd=elsewhere)
        assert result.returncode == 1, result.stderr
        paths = [f["path"] for f in document["findings"]]
        assert paths == expected, given
        assert all(os.path.isabs(p) and ".." not in p for p in paths)


# -- text ------------------------------------------------------------------------------------
def test_text_output(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    result = run_cli("check", "bad.py", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    head = FINDING_LINE.match(lines[0])
    assert head, lines[0]
    assert head.group("path", "line", "column", "code", "severity") == (
        "bad.py", "3", "8", "NAN102", "error")
    assert head.group("message").startswith("`tf.math.log` of `p`")
    # The code frame: the offending line, and carets under exactly `tf.math.log(p)`.
    code_line = next(line for line in lines if line.startswith("3 | "))
    assert code_line == "3 | loss = tf.math.log(p)"
    carets = lines[lines.index(code_line) + 1]
    assert carets.strip(" |^") == "" and "^" in carets
    assert carets.index("^") == code_line.index("tf.math.log")
    assert carets.count("^") == len("tf.math.log(p)")
    help_lines = [line for line in lines if line.startswith("  help: ")]
    assert len(help_lines) == 1 and "1e-7" in help_lines[0]
    assert lines[-1] == ("Found 1 finding (1 error) in 1 of 1 file. "
                         "1 fixable with `--unsafe-fixes`.")


@pytest.mark.parametrize("quiet", [[], ["--quiet"]])
def test_text_lines_show_the_severity_that_fail_on_compares(tmp_path, quiet):
    make(tmp_path, {"a.py": TF_MIXED})
    result = run_cli("check", *quiet, "a.py", cwd=tmp_path)
    heads = [FINDING_LINE.match(line) for line in result.stdout.splitlines()]
    severities = sorted(head.group("severity") for head in heads if head)
    assert "error" in severities and "warning" in severities
    as_json = check_json("a.py", cwd=tmp_path)[1]["findings"]
    assert severities == sorted(f["severity"] for f in as_json)
    for threshold, failing in (("error", {"error"}), ("warning", {"error", "warning"})):
        expected = 1 if failing & set(severities) else 0
        assert run_cli("check", "--fail-on", threshold, "a.py", cwd=tmp_path).returncode == expected


def test_text_summary_counts_severities_and_files(tmp_path):
    make(tmp_path, {"a.py": TF_MIXED, "b.py": TF_LOG, "c.py": TF_CLEAN})
    result = run_cli("check", cwd=tmp_path)
    assert result.stdout.splitlines()[-1] == (
        "Found 5 findings (4 errors, 1 warning) in 2 of 3 files. "
        "[*] 1 fixable with `--fix`. 4 more fixable with `--unsafe-fixes`.")  # a count: safe


def test_text_has_no_ansi_codes_when_not_a_terminal(tmp_path):
    make(tmp_path, {"a.py": TF_MIXED})
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 1
    assert ANSI not in result.stdout and ANSI not in result.stderr


def test_colour_can_be_forced_and_no_color_wins(tmp_path, monkeypatch):
    # The counterpart of the test above: colour exists, and only a terminal turns it on.
    make(tmp_path, {"a.py": TF_LOG})
    monkeypatch.setenv("FORCE_COLOR", "1")
    forced = run_cli("check", cwd=tmp_path)
    assert ANSI in forced.stdout
    assert "a.py:3:8:" in re.sub(r"\x1b\[[0-9;]*m", "", forced.stdout)
    monkeypatch.setenv("NO_COLOR", "1")
    assert ANSI not in run_cli("check", cwd=tmp_path).stdout


def test_quiet_prints_only_the_finding_lines(tmp_path):
    make(tmp_path, {"a.py": TF_MIXED, "b.py": TF_LOG})
    result = run_cli("check", "--quiet", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    assert all(FINDING_LINE.match(line) for line in lines), lines
    assert [line.split(" ", 2)[:2] for line in lines] == [
        ["a.py:4:5:", "NAN101"], ["a.py:4:5:", "NAN102"], ["a.py:8:27:", "NAN102"],
        ["a.py:12:12:", "NAN201"], ["b.py:3:8:", "NAN102"]]
    short = run_cli("check", "-q", cwd=tmp_path)
    assert short.stdout == result.stdout


def test_concise_format_is_one_line_per_finding_then_the_summary(tmp_path):
    """ruff's `--output-format concise`: `path:line:col: CODE [*] message`, no severity, no
    code frame, no help; `--quiet` drops the summary."""
    make(tmp_path, {"a.py": TF_MIXED, "b.py": TF_LOG})
    result = run_cli("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == ""
    *lines, last = result.stdout.splitlines()
    findings = check_json(cwd=tmp_path)[1]["findings"]
    assert lines == [f"{f['path']}:{f['line']}:{f['column']}: {f['code']}"
                     f"{' [*]' if f['fix'] and f['fix']['safety'] == 'safe' else ''} "
                     f"{f['message']}" for f in findings]
    assert last == run_cli("check", cwd=tmp_path).stdout.splitlines()[-1]
    quiet = run_cli("check", "--format", "concise", "-q", cwd=tmp_path)
    assert quiet.stdout.splitlines() == lines


def test_quiet_and_clean_prints_nothing(tmp_path):
    make(tmp_path, {"clean.py": TF_CLEAN})
    result = run_cli("check", "-q", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == ""


# -- --select and --ignore -------------------------------------------------------------------
@pytest.mark.parametrize("options, expected", [
    ([], {"NAN101", "NAN102", "NAN201"}),
    (["--select", "NAN1"], {"NAN101", "NAN102"}),
    (["--select", "NAN102"], {"NAN102"}),
    (["--select", "NAN101,NAN201"], {"NAN101", "NAN201"}),
    (["--select", "nan2"], {"NAN201"}),
    (["--ignore", "NAN1"], {"NAN201"}),
    (["--ignore", "NAN101,NAN201"], {"NAN102"}),
    (["--select", "NAN1", "--ignore", "NAN102"], {"NAN101"}),
    (["--select", "NAN0"], set()),
])
def test_select_and_ignore(tmp_path, nanlint, options, expected):
    make(tmp_path, {"mixed.py": TF_MIXED})
    code, out, err = nanlint("check", "--format", "json", *options, cwd=tmp_path)
    assert err == ""
    assert {f["code"] for f in json.loads(out)["findings"]} == expected
    assert code == (1 if expected else 0)


@pytest.mark.parametrize("option, value", [
    ("--select", "NAN999"), ("--select", "NAN101,FOO"), ("--ignore", "NAN9"),
    ("--ignore", "NAN1011"), ("--select", "E501"),
])
def test_unknown_code_on_the_command_line_exits_2(tmp_path, option, value):
    make(tmp_path, {"mixed.py": TF_MIXED})
    result = run_cli("check", option, value, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    bad = value.split(",")[-1].upper()
    assert_one_line_error(result.stderr, option, f"unknown code `{bad}`")


# -- discovery -------------------------------------------------------------------------------
def test_folders_are_walked_for_py_files(tmp_path):
    make(tmp_path, {"a.py": TF_LOG, "pkg/__init__.py": "", "pkg/b.py": TF_LOG,
                    "pkg/sub/c.py": TF_LOG, "notes.txt": TF_LOG, "script": TF_LOG,
                    "pkg/module.pyc": TF_LOG, "stub.pyi": TF_LOG})
    _, document = check_json(cwd=tmp_path)
    assert document["files_scanned"] == 4
    assert [f["path"] for f in document["findings"]] == ["a.py", "pkg/b.py", "pkg/sub/c.py"]


def test_skipped_folders(tmp_path):
    files = {"kept.py": TF_LOG}
    for folder in (".git", "venv", ".venv", "build", "dist", "__pycache__", "myenv",
                   "pkg/build", "pkg/__pycache__", ".tox", "node_modules"):
        files[f"{folder}/x.py"] = TF_LOG
    files["myenv/pyvenv.cfg"] = "home = /usr/bin\n"  # any virtualenv, whatever its name
    make(tmp_path, files)
    _, document = check_json(cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["kept.py"]
    assert document["files_scanned"] == 1


def test_gitignore_is_honoured(tmp_path):
    make(tmp_path, {
        ".gitignore": "ignored.py\ngenerated/\n*_pb2.py\n",
        "kept.py": TF_LOG, "ignored.py": TF_LOG, "generated/g.py": TF_LOG,
        "model_pb2.py": TF_LOG, "pkg/ignored.py": TF_LOG, "pkg/kept.py": TF_LOG,
        "pkg/generated/g.py": TF_LOG,
    })
    _, document = check_json(cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["kept.py", "pkg/kept.py"]


def test_nested_gitignore_applies_to_its_own_folder(tmp_path):
    make(tmp_path, {
        ".gitignore": "top_only.py\n",
        "x.py": TF_LOG, "top_only.py": TF_LOG,
        "sub/.gitignore": "x.py\n/anchored.py\n",
        "sub/x.py": TF_LOG, "sub/deep/x.py": TF_LOG, "sub/anchored.py": TF_LOG,
        "sub/deep/anchored.py": TF_LOG, "sub/top_only.py": TF_LOG, "other/x.py": TF_LOG,
    })
    _, document = check_json(cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == [
        "other/x.py", "sub/deep/anchored.py", "x.py"]


def test_gitignore_of_a_parent_folder_applies_when_checking_a_subfolder(tmp_path):
    make(tmp_path, {".gitignore": "sub/generated.py\n", "sub/generated.py": TF_LOG,
                    "sub/kept.py": TF_LOG})
    _, document = check_json("sub", cwd=tmp_path)
    assert [f["path"] for f in document["findings"]] == ["sub/kept.py"]
    _, document = check_json(".", cwd=tmp_path / "sub")
    assert [f["path"] for f in document["findings"]] == ["kept.py"]


def test_a_file_named_explicitly_is_always_checked(tmp_path):
    make(tmp_path, {".gitignore": "ignored.py\n", "ignored.py": TF_LOG, "script": TF_LOG,
                    "venv/tool.py": TF_LOG, "build/gen.py": TF_LOG})
    walked = run_cli("check", cwd=tmp_path)  # walking finds nothing to check
    assert walked.returncode == 2 and ".: no Python file or notebook to check" in walked.stderr
    result, document = check_json("ignored.py", "script", "venv/tool.py", "build/gen.py",
                                   cwd=tmp_path)
    assert result.returncode == 1
    assert document["files_scanned"] == 4
    assert codes_at(document) == [("build/gen.py", 3, "NAN102"), ("ignored.py", 3, "NAN102"),
                                  ("script", 3, "NAN102"), ("venv/tool.py", 3, "NAN102")]


def test_a_file_given_twice_is_checked_once(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    _, document = check_json("bad.py", "./bad.py", str(tmp_path / "bad.py"), ".",
                             cwd=tmp_path)
    assert document["files_scanned"] == 1
    assert len(document["findings"]) == 1


# -- files that cannot be read as Python: NAN000 ---------------------------------------------
UNREADABLE = {
    "syntax.py": ("def f(:\n    return 1\n", ["syntax error"]),
    "python2.py": ('print "x"\n', ["syntax error", "Python 2"]),
    "binary.py": (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00import os\n", ["binary", "NUL"]),
    # A latin-1 byte in the first line, no coding declaration: the problem is that the
    # file is not UTF-8, not a "bad encoding declaration".
    "latin1.py": ('"""Auteur: Andr\xe9."""\nx = 1\n'.encode("latin-1"), ["UTF-8"]),
    "latin1_later.py": ('"""Module."""\nimport os\n\nname = "caf\xe9"\n'.encode("latin-1"),
                        ["UTF-8", "line 4"]),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_unreadable_file_is_one_nan000_finding_and_the_scan_goes_on(tmp_path, name):
    content, fragments = UNREADABLE[name]
    make(tmp_path, {"a_good.py": TF_LOG, name: content, "z_good.py": TF_LOG})
    result, document = check_json(cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "", "a file nanlint cannot read must not print to stderr"
    assert document["files_scanned"] == 3
    assert [(f["path"], f["code"]) for f in document["findings"]] == [
        ("a_good.py", "NAN102"), (name, "NAN000"), ("z_good.py", "NAN102")]
    [finding] = [f for f in document["findings"] if f["path"] == name]
    assert finding["name"] == "parse-error" and finding["severity"] == "error"
    message = finding["message"]
    assert "\n" not in message and "Traceback" not in message
    for fragment in fragments:
        assert fragment.lower() in message.lower(), (
            f"the NAN000 message for {name} should say {fragment!r}: {message!r}")


def test_unreadable_files_in_text_mode_print_no_traceback(tmp_path):
    files = {name: content for name, (content, _) in UNREADABLE.items()}
    make(tmp_path, {**files, "good.py": TF_LOG})
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == ""
    assert "Traceback" not in result.stdout
    heads = [FINDING_LINE.match(line) for line in result.stdout.splitlines()]
    found = sorted((m.group("path"), m.group("code")) for m in heads if m)
    assert found == sorted([(name, "NAN000") for name in files] + [("good.py", "NAN102")])


def test_latin1_file_with_coding_declaration_lints_fine(tmp_path):
    source = ("# -*- coding: latin-1 -*-\n# Auteur: Andr\xe9\n" + TF_LOG).encode("latin-1")
    make(tmp_path, {"declared.py": source})
    result, document = check_json(cwd=tmp_path)
    assert result.stderr == ""
    assert codes_at(document) == [("declared.py", 5, "NAN102")]


def test_utf8_bom_file_lints_fine(tmp_path):
    make(tmp_path, {"bom.py": b"\xef\xbb\xbf" + TF_LOG.encode()})
    _, document = check_json(cwd=tmp_path)
    assert codes_at(document) == [("bom.py", 3, "NAN102")]
    assert document["findings"][0]["column"] == 8


def test_nan000_can_be_ignored(tmp_path, nanlint):
    make(tmp_path, {"syntax.py": "def f(:\n", "good.py": TF_LOG})
    code, out, _ = nanlint("check", "--format", "json", "--ignore", "NAN000", cwd=tmp_path)
    assert code == 1
    assert codes_at(json.loads(out)) == [("good.py", 3, "NAN102")]


# -- nanlint rules / nanlint rule CODE -------------------------------------------------------
# Rules are being added; these five must be listed as shown, and so must every other rule
# the registry knows.
REQUIRED_RULES = [
    ("NAN000", "parse-error", "error", "none"),
    ("NAN001", "invalid-suppression", "warning", "none"),
    ("NAN101", "unguarded-division", "error", "unsafe"),
    ("NAN102", "log-of-zero", "error", "unsafe"),
    ("NAN201", "sqrt-zero-gradient", "warning", "unsafe"),
]


def _registered_rows():
    return [(rule.code, rule.name, rule.severity, rule.fix_safety or "none")
            for rule in registry.every_rule()]


def _columns(lines):
    """The table's rows cut at its header's column starts (a cell may hold spaces)."""
    headings = lines[0].split()
    starts = [lines[0].index(heading) for heading in headings]
    return [{heading: line[start:end].strip() for heading, start, end in
             zip(headings, starts, starts[1:] + [None])} for line in lines[1:]]


def test_rules_lists_every_code(tmp_path):
    result = run_cli("rules", cwd=tmp_path)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["CODE", "NAME", "SEVERITY", "FIX", "ORIGIN", "TIER", "SUMMARY"]
    table = _columns(lines)
    rows = [(row["CODE"], row["NAME"], row["SEVERITY"]) for row in table]
    assert rows == [row[:3] for row in _registered_rows()]
    assert [code for code, *_ in rows] == registry.all_codes()
    missing = [row[:3] for row in REQUIRED_RULES if row[:3] not in rows]
    assert not missing, f"`nanlint rules` does not list {missing}"
    for row, rule in zip(table, registry.every_rule()):
        assert row["FIX"] == (rule.fix_safety_detail or rule.fix_safety or "none"), row
        assert row["ORIGIN"] == "nanlint", f"not built in: {row!r}"
        assert row["TIER"] in ("stable", "preview"), f"no tier: {row!r}"
        assert row["SUMMARY"], f"no summary: {row!r}"


def test_rules_says_when_the_fix_safety_depends_on_the_case(tmp_path):
    """NAN101 clamps a proven count (safe) and adds an epsilon elsewhere (unsafe): its FIX
    column says so rather than one word, in the table, the JSON and the Markdown listing."""
    table = _columns(run_cli("rules", cwd=tmp_path).stdout.splitlines())
    assert next(row for row in table if row["CODE"] == "NAN101")["FIX"] == (
        "safe for proven counts, else unsafe")
    assert next(row for row in table if row["CODE"] == "NAN102")["FIX"] == "unsafe"
    rows = json.loads(run_cli("rules", "--format", "json", cwd=tmp_path).stdout)
    nan101 = next(row for row in rows if row["code"] == "NAN101")
    assert (nan101["fix"], nan101["fix_detail"]) == (
        "unsafe", "safe for proven counts, else unsafe")
    listing = run_cli("rule", "--all", "--format", "markdown", cwd=tmp_path).stdout
    assert "| error | safe for proven counts, else unsafe |" in listing
    assert "Fix: safe for proven counts, else unsafe." in listing


def test_rules_json(tmp_path, nanlint):
    code, out, _ = nanlint("rules", "--format", "json", cwd=tmp_path)
    assert code == 0
    rows = json.loads(out)
    listed = [(r["code"], r["name"], r["severity"], r["fix"]) for r in rows]
    assert listed == _registered_rows()
    assert all(row in listed for row in REQUIRED_RULES), listed
    assert all(set(r) == {"code", "name", "severity", "fix", "fix_detail", "summary",
                          "origin", "tier"} for r in rows)
    assert all(r["summary"] for r in rows)


SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety",
            "Options")


@pytest.mark.parametrize("code", [code for code, *_ in REQUIRED_RULES])
def test_rule_documentation_has_every_section(tmp_path, nanlint, code):
    status, out, err = nanlint("rule", code, cwd=tmp_path)
    assert status == 0 and err == ""
    name = dict((c, n) for c, n, *_ in REQUIRED_RULES)[code]
    assert out.startswith(f"# {name} ({code})\n")
    headings = [line[3:] for line in out.splitlines() if line.startswith("## ")]
    # A preview rule also says why it is off by default, last.
    assert headings == list(SECTIONS) + (["Preview"] if registry.is_preview(code) else [])


def test_rule_nan101_documents_its_option(tmp_path):
    result = run_cli("rule", "NAN101", cwd=tmp_path)
    assert result.returncode == 0
    options = result.stdout.split("## Options", 1)[1]
    assert "check-divide-no-nan" in options
    assert run_cli("rule", "nan101", cwd=tmp_path).stdout == result.stdout


def test_unknown_rule_exits_2(tmp_path):
    result = run_cli("rule", "NAN999", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "NAN999")


# -- rule documentation as Markdown (docs/rules.md) ------------------------------------------
DOCS = ROOT / "docs" / "rules.md"
REGENERATE = "nanlint rule --all --format markdown > docs/rules.md"


def test_docs_rules_md_is_up_to_date(nanlint):
    status, out, err = nanlint("rule", "--all", "--format", "markdown", cwd=ROOT)
    assert status == 0 and err == ""
    assert DOCS.is_file(), f"docs/rules.md is missing; generate it with `{REGENERATE}`"
    assert DOCS.read_text(encoding="utf-8") == out, (
        f"docs/rules.md is out of date; regenerate it with `{REGENERATE}`")


def test_markdown_of_every_rule_has_a_linked_table_and_every_section(tmp_path, nanlint):
    status, out, _ = nanlint("rule", "--all", "--format", "markdown", cwd=tmp_path)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "# nanlint rules"
    headings = [line[3:] for line in lines if line.startswith("## ")]
    assert headings == [f"{rule.code} {rule.name}" for rule in registry.every_rule()]
    links = re.findall(r"^\| \[(NAN\d{3})\]\(#([a-z0-9-]+)\) \|", out, re.MULTILINE)
    assert links == [(rule.code, f"{rule.code.lower()}-{rule.name}")
                     for rule in registry.every_rule()]
    sections = [line[4:] for line in lines if line.startswith("### ")]
    assert [s for s in sections if s != "Preview"] == list(SECTIONS) * len(headings)
    assert sections.count("Preview") == sum(rule.preview for rule in registry.every_rule())
    assert "```python" in out  # the examples come along


def test_markdown_of_one_rule(tmp_path, nanlint):
    status, out, _ = nanlint("rule", "nan102", "--format", "markdown", cwd=tmp_path)
    assert status == 0
    assert out.startswith("## NAN102 log-of-zero\n")
    assert "| code |" not in out and "### Why is this bad?" in out


def test_text_of_every_rule(tmp_path, nanlint):
    status, out, _ = nanlint("rule", "--all", cwd=tmp_path)
    assert status == 0
    titles = [line for line in out.splitlines() if re.match(r"^# [a-z-]+ \(NAN\d{3}\)$", line)]
    assert titles == [f"# {rule.name} ({rule.code})" for rule in registry.every_rule()]


@pytest.mark.parametrize("args", [["rule"], ["rule", "NAN101", "--all"]])
def test_rule_needs_a_code_or_all(tmp_path, args):
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, "CODE", "--all")


# -- ruff's habits ----------------------------------------------------------------
SOFTMAX_CE = """import tensorflow as tf


def cross_entropy(labels, logits):
    probs = tf.nn.softmax(logits)
    return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
"""


def test_output_format_is_an_alias_of_format(tmp_path, nanlint):
    make(tmp_path, {"bad.py": TF_LOG})
    code, out, _ = nanlint("check", "--output-format", "json", cwd=tmp_path)
    assert code == 1
    assert [f["code"] for f in json.loads(out)["findings"]] == ["NAN102"]


@pytest.mark.parametrize("options, expected", [
    (["--select", "NAN101", "--select", "NAN201"], {"NAN101", "NAN201"}),
    (["--select", "ALL"], {"NAN101", "NAN102", "NAN201"}),
    (["--select", "all", "--ignore", "NAN1", "--ignore", "NAN201"], set()),
    (["--select", "NAN101", "--extend-select", "NAN201"], {"NAN101", "NAN201"}),
    (["--extend-select", "NAN201"], {"NAN102", "NAN201"}),  # on top of the file's select
])
def test_select_adds_up_extend_select_and_all(tmp_path, nanlint, options, expected):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "select: [NAN102]\n"})
    code, out, err = nanlint("check", "--format", "json", *options, cwd=tmp_path)
    assert err == ""
    assert {f["code"] for f in json.loads(out)["findings"]} == expected


def test_select_all_in_the_configuration(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED, ".nanlint.yaml": "select: [ALL]\n"})
    _, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert {f["code"] for f in json.loads(out)["findings"]} == {"NAN101", "NAN102", "NAN201"}


def test_show_fixes_lists_what_was_fixed(tmp_path, nanlint):
    make(tmp_path, {"ce.py": SOFTMAX_CE, "log.py": TF_LOG})
    code, out, _ = nanlint("check", "--fix", "--show-fixes", "--no-cache", cwd=tmp_path)
    assert code == 1  # log.py's finding has only an unsafe fix: it remains
    assert ("Fixed 1 finding:\n- ce.py:\n    1 × NAN103 (unstable-softmax-cross-entropy)\n"
            in out)
    assert out.rstrip().endswith("Found 1 finding (1 error) in 1 of 2 files. Fixed 1 finding. "
                                 "1 fixable with `--unsafe-fixes`.")
    code, out, _ = nanlint("check", "--fix", "--no-cache", cwd=tmp_path)
    assert "×" not in out  # only with --show-fixes


def test_fix_only_fixes_and_reports_nothing_that_remains(tmp_path, nanlint):
    make(tmp_path, {"ce.py": SOFTMAX_CE, "log.py": TF_LOG})
    code, out, err = nanlint("check", "--fix-only", cwd=tmp_path)
    assert (code, out, err) == (0, "Fixed 1 finding.\n", "")
    assert "log_softmax" in (tmp_path / "ce.py").read_text()
    assert (tmp_path / "log.py").read_text() == TF_LOG
    code, out, _ = nanlint("check", "--fix-only", cwd=tmp_path)
    assert (code, out) == (0, "No fixes applied.\n")


@pytest.mark.parametrize("options", [["--fix-only"], ["--fix"]])
def test_exit_non_zero_on_fix(tmp_path, nanlint, options):
    make(tmp_path, {"ce.py": SOFTMAX_CE})
    code, _, _ = nanlint("check", *options, "--exit-non-zero-on-fix", cwd=tmp_path)
    assert code == 1  # the file changed, although no finding remains
    code, _, _ = nanlint("check", *options, "--exit-non-zero-on-fix", cwd=tmp_path)
    assert code == 0  # nothing left to fix


ADD_NOQA_BEFORE = '''import tensorflow as tf

p = tf.nn.relu(z)
a = tf.math.log(p)
b = tf.math.log(p)  # noqa: NAN101
c = tf.math.log(p)  # nanlint: ignore[NAN101]  # keep this
d = tf.math.log(p) / tf.reduce_sum(p)  # type: ignore
e = tf.reduce_sum(
    tf.math.log(p) + """
    text""",
)
f = tf.math.log(p) + \\
    1.0
'''
ADD_NOQA_AFTER = '''import tensorflow as tf

p = tf.nn.relu(z)
a = tf.math.log(p)  # nanlint: ignore[NAN102]
b = tf.math.log(p)  # noqa: NAN101, NAN102
c = tf.math.log(p)  # nanlint: ignore[NAN101, NAN102]  # keep this
d = tf.math.log(p) / tf.reduce_sum(p)  # type: ignore  # nanlint: ignore[NAN101, NAN102]
e = tf.reduce_sum(
    tf.math.log(p) + """
    text""",
)  # nanlint: ignore[NAN102]
f = tf.math.log(p) + \\
    1.0  # nanlint: ignore[NAN102]
'''


def test_add_noqa_writes_suppressions_that_hold(tmp_path, nanlint):
    """On the finding's line, merged into a suppression already there, after any other
    comment; past a string or a backslash, on the line that ends the statement."""
    make(tmp_path, {"legacy.py": ADD_NOQA_BEFORE, "clean.py": TF_CLEAN})
    code, out, err = nanlint("check", "--add-noqa", cwd=tmp_path)
    assert (code, out, err) == (0, "Added suppression comments for 7 findings in 1 file.\n", "")
    assert (tmp_path / "legacy.py").read_text() == ADD_NOQA_AFTER
    assert (tmp_path / "clean.py").read_text() == TF_CLEAN
    _, out, _ = nanlint("check", "--format", "json", "--no-cache", cwd=tmp_path)
    # Only the codes that were unused before remain reported as unused.
    assert [(f["line"], f["code"]) for f in json.loads(out)["findings"]] == [
        (5, "NAN001"), (6, "NAN001")]
    code, out, _ = nanlint("check", "--add-noqa", cwd=tmp_path)
    assert (code, out) == (0, "Added suppression comments for 0 findings in 0 files.\n")


def test_add_noqa_leaves_a_file_that_does_not_parse_alone(tmp_path, nanlint):
    make(tmp_path, {"broken.py": "import tensorflow as tf\nx = (\n"})
    code, out, _ = nanlint("check", "--add-noqa", cwd=tmp_path)
    assert code == 0 and (tmp_path / "broken.py").read_text() == "import tensorflow as tf\nx = (\n"


def test_add_noqa_cannot_be_combined_with_fix(tmp_path, nanlint):
    make(tmp_path, {"bad.py": TF_LOG})
    code, out, err = nanlint("check", "--add-noqa", "--fix", cwd=tmp_path)
    assert code == 2 and out == ""
    assert_one_line_error(err, "--add-noqa cannot be combined")


def test_a_folder_without_python_files_is_an_error_exit_2(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "docs/readme.txt": "text", "empty/.keep": ""})
    result = run_cli("check", "docs", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "nanlint: error: docs: no Python file or notebook to check\n"
    result = run_cli("check", ".", "empty", cwd=tmp_path)  # one empty folder is enough
    assert result.returncode == 2
    assert "empty: no Python file or notebook to check" in result.stderr


@pytest.mark.parametrize("options", [["--ignore", "NAN103"], ["--select", "NAN102"],
                                     ["--select", "NAN0", "--extend-select", "NAN102"]])
def test_a_rule_switched_off_still_supersedes(tmp_path, nanlint, options):
    """Ignoring the precise diagnosis (NAN103) ignores the expression: it does not come back
    as the code NAN103 supersedes (NAN102)."""
    make(tmp_path, {"ce.py": SOFTMAX_CE, "log.py": TF_LOG})
    code, out, _ = nanlint("check", "--format", "json", *options, cwd=tmp_path)
    assert codes_at(json.loads(out)) == [("log.py", 3, "NAN102")]


def test_a_rule_switched_off_per_file_still_supersedes(tmp_path, nanlint):
    make(tmp_path, {"ce.py": SOFTMAX_CE,
                    ".nanlint.yaml": "per-file-ignores: {ce.py: [NAN103]}\n"})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert (code, json.loads(out)["findings"]) == (0, [])


def test_carets_line_up_under_tabs_and_wide_characters(tmp_path, nanlint):
    make(tmp_path, {"frame.py": "import tensorflow as tf\n\n\ndef f(z):\n"
                                "\tp = tf.nn.relu(z)\n\treturn tf.math.log(p)\n\n\n"
                                "s = '가나다'; q = tf.math.log(tf.nn.relu(z))\n"})
    _, out, _ = nanlint("check", "frame.py", cwd=tmp_path)
    lines = out.splitlines()
    for code_line, carets in (("6 |         return tf.math.log(p)",
                               "  |                ^^^^^^^^^^^^^^"),
                              ("9 | s = '가나다'; q = tf.math.log(tf.nn.relu(z))",
                               "  |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^")):
        assert code_line in lines, out
        assert lines[lines.index(code_line) + 1] == carets
