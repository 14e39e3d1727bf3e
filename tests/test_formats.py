"""The CI output formats (SARIF, GitHub, JUnit, GitLab), --output-file, --statistics and
--fail-on. The text and JSON formats: test_cli.py."""

import dataclasses
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

import jsonschema
import pytest

from cli_helpers import (TF_CLEAN, TF_LOG, TF_MIXED, _no_colour_variables,
                         assert_one_line_error, check_json, make, nanlint)
from conftest import FIXTURES, ROOT, run_cli
from nanlint import __version__, documentation, registry, reporters
from nanlint.finding import Finding

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
# NAN202 (a warning) only.
# NAN202 (a warning) on line 2: a loss by its name, so a gradient flows by convention.
TF_WARNING_ONLY = "import tensorflow as tf\ndef feature_penalty(z): return tf.norm(tf.nn.relu(z))\n"


def output(*args, cwd):
    result = run_cli("check", "--no-cache", *args, cwd=cwd)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def finding(**changes):
    values = dict(code="NAN102", name="log-of-zero", severity="error", confidence="high",
                  path="bad.py", line=3, column=8, end_line=3, end_column=22,
                  message="`tf.math.log` of `p`", suggestion="add an epsilon",
                  source_lines=("loss = tf.math.log(p)",))
    values.update(changes)
    return Finding(**values)


def render(format_name, findings, files=None):
    stream = io.StringIO()
    scan = reporters.Scan(findings, files if files is not None else
                          sorted({f.path for f in findings}))
    reporters.FORMATS[format_name](scan, stream, False)
    return stream.getvalue()


# -- SARIF -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fixture_sarif():
    files = sorted(str(p.relative_to(ROOT)) for p in FIXTURES.glob("NAN*.py"))
    result = run_cli("check", "--no-cache", "--format", "sarif", *files, cwd=ROOT)
    assert result.returncode == 1, result.stderr
    sarif = json.loads(result.stdout)
    plain = json.loads(run_cli("check", "--no-cache", "--format", "json", *files,
                               cwd=ROOT).stdout)
    return sarif, plain


def sarif_validator():
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


@pytest.mark.parametrize("broken", [
    {"runs": []},
    {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "nanlint"}},
                                   "results": [{"message": {"text": "m"}, "level": "info"}]}]},
    {"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]},
    {"version": "2.1.0", "runs": [], "extra": 1},
])
def test_the_shipped_schema_rejects_invalid_sarif(broken):
    """The schema really constrains the document from its root (a copy that had its root
    moved under `definitions` accepted anything; tests/data has the root restored)."""
    assert list(sarif_validator().iter_errors(broken))


def test_sarif_of_the_fixtures_is_valid_against_the_schema(fixture_sarif):
    sarif, plain = fixture_sarif
    errors = sorted(sarif_validator().iter_errors(sarif), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
    assert sarif["version"] == "2.1.0"
    assert len(sarif["runs"][0]["results"]) == len(plain["findings"]) > 100


def test_sarif_rules_carry_the_rule_documentation(fixture_sarif):
    sarif, _ = fixture_sarif
    driver = sarif["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("nanlint", __version__)
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert list(rules) == registry.all_codes()
    for rule_class in registry.every_rule():
        rule = rules[rule_class.code]
        assert rule["name"] == rule_class.name
        assert rule["shortDescription"]["text"] == rule_class.summary
        assert rule["fullDescription"]["text"] == rule_class.section("What it does")
        assert rule["help"]["markdown"] == rule_class.documentation()
        assert "## Why is this bad?" in rule["help"]["text"]
        expected = {"error": "error", "warning": "warning", "info": "note"}[rule_class.severity]
        assert rule["defaultConfiguration"]["level"] == expected


def test_sarif_gives_the_evidence_as_related_locations(fixture_sarif):
    sarif, plain = fixture_sarif
    results = sarif["runs"][0]["results"]
    with_evidence = [(r, f) for r, f in zip(results, plain["findings"]) if f["evidence"]]
    assert with_evidence and len(with_evidence) < len(results)
    for result, expected in zip(results, plain["findings"]):
        evidence = expected["evidence"]
        if evidence is None:
            assert "relatedLocations" not in result
            continue
        [related] = result["relatedLocations"]
        assert related["message"]["text"] == evidence["message"]
        assert related["physicalLocation"]["region"] == {
            "startLine": evidence["line"], "startColumn": evidence["column"],
            "endLine": evidence["end_line"], "endColumn": evidence["end_column"]}


def test_sarif_results_match_the_json_findings(fixture_sarif):
    sarif, plain = fixture_sarif
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result, expected in zip(run["results"], plain["findings"]):
        assert result["ruleId"] == expected["code"] == rules[result["ruleIndex"]]["id"]
        level = {"error": "error", "warning": "warning", "info": "note"}[expected["severity"]]
        assert result["level"] == level
        assert result["message"]["text"].startswith(expected["message"])
        assert f"help: {expected['suggestion']}" in result["message"]["text"]
        assert result["properties"]["confidence"] == expected["confidence"]
        assert result["properties"]["gradient"] is expected["gradient"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": expected["path"],
                                                "uriBaseId": "%SRCROOT%"}
        assert "\\" not in expected["path"] and expected["path"].startswith("tests/fixtures/")
        assert location["region"] == {
            "startLine": expected["line"], "startColumn": expected["column"],
            "endLine": expected["end_line"], "endColumn": expected["end_column"],
            "snippet": location["region"]["snippet"]}
        if expected["fix"] is None:
            assert "fixes" not in result
            continue
        [fix] = result["fixes"]
        [change] = fix["artifactChanges"]
        assert change["artifactLocation"] == location["artifactLocation"]
        assert fix["description"]["text"] == (f"{expected['fix']['description']} "
                                              f"({expected['fix']['safety']} fix)")
        assert [(r["deletedRegion"], r["insertedContent"]["text"])
                for r in change["replacements"]] == [
            ({"startLine": e["line"], "startColumn": e["column"], "endLine": e["end_line"],
              "endColumn": e["end_column"]}, e["replacement"])
            for e in expected["fix"]["edits"]]
    assert sum("fixes" in r for r in run["results"]) >= 10
    # Metric-only values in the reach fixtures: both kinds of findings are there.
    assert {r["properties"]["gradient"] for r in run["results"]} == {True, False}
    fingerprints = [r["partialFingerprints"]["nanlint/v1"] for r in run["results"]]
    assert len(set(fingerprints)) == len(fingerprints)


def test_sarif_fingerprints_ignore_line_numbers(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    before = json.loads(output("--format", "sarif", "bad.py", cwd=tmp_path).stdout)
    (tmp_path / "bad.py").write_text("# a comment\n\n" + TF_LOG, encoding="utf-8")
    after = json.loads(output("--format", "sarif", "bad.py", cwd=tmp_path).stdout)
    [old], [new] = before["runs"][0]["results"], after["runs"][0]["results"]
    assert new["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
    assert new["partialFingerprints"] == old["partialFingerprints"]


def test_sarif_information_uri_comes_from_the_package_metadata(monkeypatch):
    monkeypatch.setattr(documentation, "project_url", lambda: "https://example.org/nanlint")
    document = json.loads(render("sarif", [finding()]))
    assert document["runs"][0]["tool"]["driver"]["informationUri"] == (
        "https://example.org/nanlint")
    assert not list(sarif_validator().iter_errors(document))


def test_sarif_has_no_help_uri_without_a_project_home(monkeypatch):
    """A SARIF file is read on another machine: a file URI of this one would lead nowhere,
    so without a published home there is no `helpUri`, and the documentation is the help
    text; the language server, on this machine, still links the installed page."""
    monkeypatch.setattr(documentation, "project_url", lambda: None)
    document = json.loads(render("sarif", [finding()]))
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    assert {rule["id"] for rule in rules} >= set(registry.BUILTIN)
    for rule in rules:
        assert "helpUri" not in rule
        assert "## What it does" in rule["help"]["text"] and rule["fullDescription"]["text"]
    assert not list(sarif_validator().iter_errors(document))
    assert documentation.documentation_url(registry.rule_class("NAN102")).startswith("file://")


def test_sarif_as_installed_names_no_local_path(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    document = json.loads(output("--format", "sarif", "bad.py", cwd=tmp_path).stdout)
    uris = [rule.get("helpUri", "") for rule in document["runs"][0]["tool"]["driver"]["rules"]]
    assert not [uri for uri in uris if uri and not uri.startswith("https://")], uris
    assert "file://" not in json.dumps(document["runs"][0]["tool"])


def test_sarif_help_uri_is_on_the_project_home_when_it_has_one(monkeypatch):
    monkeypatch.setattr(documentation, "project_url", lambda: "https://example.org/nanlint/")
    document = json.loads(render("sarif", [finding()]))
    [rule] = [r for r in document["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "NAN102"]
    assert rule["helpUri"] == (
        "https://example.org/nanlint/blob/HEAD/docs/rules.md#nan102-log-of-zero")


def test_sarif_uris_are_percent_encoded_and_absolute_paths_are_file_uris(tmp_path):
    outside = tmp_path / "my project" / "train.py"
    document = json.loads(render("sarif", [finding(path="sub dir/a#b.py"),
                                           finding(path=str(outside))]))
    first, second = (r["locations"][0]["physicalLocation"]["artifactLocation"]
                     for r in document["runs"][0]["results"])
    assert first == {"uri": "sub%20dir/a%23b.py", "uriBaseId": "%SRCROOT%"}
    assert second == {"uri": outside.as_uri()}


def test_sarif_of_a_clean_scan_has_no_results(tmp_path):
    make(tmp_path, {"clean.py": TF_CLEAN})
    result = output("--format", "sarif", cwd=tmp_path)
    assert result.returncode == 0
    assert json.loads(result.stdout)["runs"][0]["results"] == []


# -- GitHub workflow commands ----------------------------------------------------------------
def test_github_annotations(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "w.py": TF_WARNING_ONLY})
    result = output("--format", "github", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("::error file=bad.py,line=3,col=8,endLine=3,endColumn=22,"
                               "title=NAN102 log-of-zero::`tf.math.log` of `p`")
    assert "%0Ahelp: " in lines[0]
    assert lines[1].startswith("::warning file=w.py,line=2,")


def test_github_reports_a_missing_path_as_an_annotation_and_exits_2(tmp_path):
    """A path given that is missing, or a folder with nothing to check, is an error
    annotation of that path (on standard error), as a syntax error (NAN000) is one on
    standard output; the other files are still reported, and the exit code stays 2."""
    make(tmp_path, {"bad.py": TF_LOG, "broken.py": "def f(:\n", "empty/.keep": ""})
    result = output("--format", "github", "bad.py", "broken.py", "missing,1.py", "empty",
                    cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "::error file=missing%2C1.py,title=nanlint::missing,1.py: no such file or folder",
        "::error file=empty,title=nanlint::empty: no Python file or notebook to check"]
    assert [line.split(",", 1)[0] for line in result.stdout.splitlines()] == [
        "::error file=bad.py", "::error file=broken.py"]
    plain = output("bad.py", "missing,1.py", cwd=tmp_path)
    assert plain.returncode == 2
    assert plain.stderr == "nanlint: error: missing,1.py: no such file or folder\n"


def test_github_escapes_properties_and_message():
    line = render("github", [finding(path="a,b:c%.py", message="50% bad\r\nnext line",
                                     suggestion=None, severity="info")])
    assert line == ("::notice file=a%2Cb%3Ac%25.py,line=3,col=8,endLine=3,endColumn=22,"
                    "title=NAN102 log-of-zero::50%25 bad%0D%0Anext line\n")


# -- JUnit XML -------------------------------------------------------------------------------
def test_junit_report(tmp_path):
    make(tmp_path, {"pkg/bad.py": TF_LOG, "clean.py": TF_CLEAN})
    result = output("--format", "junit", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(result.stdout)
    assert root.tag == "testsuites"
    [suite] = root
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    cases = {case.get("file"): case for case in suite.iter("testcase")}
    assert set(cases) == {"pkg/bad.py", "clean.py"}
    failure = cases["pkg/bad.py"].find("failure")
    assert failure.get("type") == "NAN102"
    assert failure.text.startswith("pkg/bad.py:3:8: NAN102 `tf.math.log` of `p`")
    assert cases["pkg/bad.py"].get("classname") == "pkg.bad"
    assert cases["pkg/bad.py"].get("line") == "3"
    assert cases["clean.py"].find("failure") is None


def test_junit_escapes_markup_and_drops_characters_xml_cannot_hold():
    message = 'a < b && c > "d" ]]> \x0c\x00 end'
    text = render("junit", [finding(message=message)])
    failure = ET.fromstring(text).find("testsuite/testcase/failure")
    assert failure.get("message") == 'a < b && c > "d" ]]> \ufffd\ufffd end'
    assert message[:20] in failure.text


def test_junit_of_a_clean_scan_has_a_passing_case_per_file(tmp_path):
    make(tmp_path, {"a.py": TF_CLEAN, "b.py": TF_CLEAN})
    result = output("--format", "junit", cwd=tmp_path)
    assert result.returncode == 0
    suite = ET.fromstring(result.stdout).find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("2", "0")


# -- GitLab Code Quality ---------------------------------------------------------------------
def test_gitlab_code_quality(tmp_path):
    make(tmp_path, {"mixed.py": TF_MIXED, "w.py": TF_WARNING_ONLY})
    result = output("--format", "gitlab", cwd=tmp_path)
    assert result.returncode == 1
    issues = json.loads(result.stdout)
    _, plain = check_json("--no-cache", cwd=tmp_path)
    assert len(issues) == len(plain["findings"]) == 5
    for issue, expected in zip(issues, plain["findings"]):
        assert issue["check_name"] == expected["code"]
        assert issue["description"] == f"{expected['code']} {expected['message']}"
        assert issue["location"] == {"path": expected["path"],
                                     "lines": {"begin": expected["line"]}}
        assert issue["severity"] == {"error": "critical", "warning": "major"}[
            expected["severity"]]
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)


def test_gitlab_fingerprints_tell_identical_findings_apart():
    twice = [finding(), finding(line=5, end_line=5)]
    issues = json.loads(render("gitlab", twice))
    assert issues[0]["fingerprint"] != issues[1]["fingerprint"]


# -- every format ----------------------------------------------------------------------------
@pytest.mark.parametrize("format_name", sorted(reporters.FORMATS))
def test_formats_tolerate_new_finding_fields(format_name):
    """A finding that grows a field (a notebook `cell`, say) still renders."""
    Extended = dataclasses.make_dataclass(
        "Extended", [("cell", int, dataclasses.field(default=2))], bases=(Finding,))
    plain = render(format_name, [finding()])
    extended = render(format_name, [Extended(**{
        f.name: getattr(finding(), f.name) for f in dataclasses.fields(Finding)})])
    assert "NAN102" in plain
    assert extended == plain


@pytest.mark.parametrize("format_name", sorted(reporters.FORMATS))
def test_every_format_is_offered_by_the_command_line(tmp_path, format_name):
    make(tmp_path, {"bad.py": TF_LOG})
    result = output("--format", format_name, cwd=tmp_path)
    assert result.returncode == 1 and result.stderr == ""
    assert "NAN102" in result.stdout


# -- --output-file ---------------------------------------------------------------------------
def test_output_file_gets_the_report_and_stdout_stays_empty(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG, "out/.keep": ""})
    result = output("--format", "sarif", "--output-file", "out/report.sarif", "bad.py",
                    cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == "" and result.stderr == ""
    document = json.loads((tmp_path / "out" / "report.sarif").read_text(encoding="utf-8"))
    assert document["runs"][0]["results"][0]["ruleId"] == "NAN102"


def test_output_file_text_has_no_colour_even_when_forced(tmp_path, nanlint, monkeypatch):
    make(tmp_path, {"bad.py": TF_LOG})
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, out, _ = nanlint("check", "--no-cache", "-o", "report.txt", cwd=tmp_path)
    assert code == 1 and out == ""
    text = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert "\x1b[" not in text
    assert "bad.py:3:8: NAN102 " in text and "Found 1 finding" in text


def test_output_file_that_cannot_be_written_is_a_one_line_error(tmp_path):
    make(tmp_path, {"bad.py": TF_LOG})
    result = output("--output-file", "missing/report.txt", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "missing/report.txt", "No such file or directory")


# -- --statistics ----------------------------------------------------------------------------
def test_statistics_text_counts_per_rule_most_frequent_first(tmp_path):
    make(tmp_path, {"a.py": TF_LOG, "b.py": TF_LOG, "mixed.py": TF_MIXED})
    result = output("--statistics", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "4  NAN102      log-of-zero",
        "1  NAN101  [*] unguarded-division",  # its finding has a safe fix, the others not
        "1  NAN201      sqrt-zero-gradient",
        "Found 6 findings (5 errors, 1 warning) in 3 of 3 files. "
        "[*] 1 fixable with `--fix`. 5 more fixable with `--unsafe-fixes`.",  # a count: safe
    ]


def test_statistics_json(tmp_path):
    make(tmp_path, {"a.py": TF_LOG, "mixed.py": TF_MIXED})
    result = output("--statistics", "--format", "json", cwd=tmp_path)
    assert json.loads(result.stdout) == [
        {"code": "NAN102", "name": "log-of-zero", "count": 3, "fixable": 0},
        {"code": "NAN101", "name": "unguarded-division", "count": 1, "fixable": 1},
        {"code": "NAN201", "name": "sqrt-zero-gradient", "count": 1, "fixable": 0},
    ]


def test_statistics_with_a_ci_format_is_a_usage_error(tmp_path):
    make(tmp_path, {"a.py": TF_LOG})
    result = output("--statistics", "--format", "junit", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, "--statistics", "junit")


# -- --fail-on -------------------------------------------------------------------------------
@pytest.mark.parametrize("files, fail_on, expected", [
    ({"w.py": TF_WARNING_ONLY}, None, 1),
    ({"w.py": TF_WARNING_ONLY}, "info", 1),
    ({"w.py": TF_WARNING_ONLY}, "warning", 1),
    ({"w.py": TF_WARNING_ONLY}, "error", 0),
    ({"w.py": TF_WARNING_ONLY, "e.py": TF_LOG}, "error", 1),
    ({"clean.py": TF_CLEAN}, "info", 0),
])
def test_fail_on(tmp_path, files, fail_on, expected):
    make(tmp_path, files)
    args = ["--fail-on", fail_on] if fail_on else []
    result = output(*args, cwd=tmp_path)
    assert result.returncode == expected, result.stdout + result.stderr
    if "w.py" in files:
        assert "w.py:2:" in result.stdout  # the warning is still reported


def test_fail_on_does_not_hide_a_parse_error(tmp_path):
    make(tmp_path, {"broken.py": "def f(:\n"})
    assert output("--fail-on", "error", cwd=tmp_path).returncode == 1


def test_fail_on_rejects_an_unknown_severity(tmp_path):
    result = output("--fail-on", "fatal", cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "--fail-on", "fatal")
