"""Third-party rules: entry points of installed packages (group `nanlint.rules`) and
`--load-rules FILE`. A package is faked by a `.dist-info` folder on PYTHONPATH, run in a
subprocess, so nothing leaks into this process's registry."""

import json
import os
import subprocess
import sys

import pytest

from cli_helpers import assert_one_line_error, make

RULE_MODULE = '''
import libcst as cst
from nanlint.rule import Rule


class RiskyCall(Rule):
    """
    ## What it does
    Reports `risky(...)`.
    """

    code = "NAN901"
    name = "risky-call"
    severity = "warning"
    summary = "a call of risky()"

    def visit_Call(self, node: cst.Call) -> None:
        if self.source(node.func) == "risky":
            self.report(node, "`risky()` is risky")


class OtherCall(RiskyCall):
    code = "NAN902"
    name = "other-call"
    summary = "a call of other()"

    def visit_Call(self, node: cst.Call) -> None:
        if self.source(node.func) == "other":
            self.report(node, "`other()` too")


RULES = [RiskyCall, OtherCall]
'''
SOURCE = "import tensorflow as tf\nx = risky(1)\ny = other(2)\n"


def install(site, entry_points, module=RULE_MODULE, name="nanlint-demo"):
    """A fake installed distribution `name` 1.0 with ``entry_points`` in nanlint.rules."""
    dist = site / f"{name.replace('-', '_')}-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[nanlint.rules]\n" + "".join(
        f"{key} = {value}\n" for key, value in entry_points.items()))
    (site / "demo_rules.py").write_text(module)
    return site


def nanlint_with(site, *args, cwd):
    env = dict(os.environ, PYTHONPATH=str(site))
    result = subprocess.run([sys.executable, "-m", "nanlint", *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def found(result):
    assert result.returncode in (0, 1), result.stderr
    return [(f["line"], f["code"]) for f in json.loads(result.stdout)["findings"]]


@pytest.fixture
def project(tmp_path):
    return make(tmp_path / "project", {"a.py": SOURCE})


# -- entry points ----------------------------------------------------------------------------
@pytest.mark.parametrize("entry_points", [
    {"risky": "demo_rules:RiskyCall", "other": "demo_rules:OtherCall"},  # one class each
    {"all": "demo_rules:RULES"},  # a list
    {"all": "demo_rules"},  # a module with RULES
])
def test_entry_point_rules_run_and_are_listed_with_their_origin(tmp_path, project,
                                                                entry_points):
    site = install(tmp_path / "site", entry_points)
    checked = nanlint_with(site, "check", "--format", "json", "a.py", cwd=project)
    assert found(checked) == [(2, "NAN901"), (3, "NAN902")]
    listed = nanlint_with(site, "rules", cwd=project)
    rows = [line.split() for line in listed.stdout.splitlines()]
    assert ["NAN901", "risky-call", "warning", "none", "nanlint-demo", "1.0", "stable", "a",
            "call", "of", "risky()"] in rows
    assert rows[1][4] == "nanlint"  # the built-in ones still say so
    as_json = json.loads(nanlint_with(site, "rules", "--format", "json", cwd=project).stdout)
    assert {r["code"]: r["origin"] for r in as_json}["NAN902"] == "nanlint-demo 1.0"


def test_entry_point_codes_work_in_select_suppressions_and_configuration(tmp_path, project):
    site = install(tmp_path / "site", {"all": "demo_rules:RULES"})
    assert found(nanlint_with(site, "check", "--format", "json", "--select", "NAN901", "a.py",
                              cwd=project)) == [(2, "NAN901")]
    (project / "b.py").write_text(SOURCE.replace("(1)", "(1)  # nanlint: ignore[NAN901]"))
    (project / ".nanlint.yaml").write_text("ignore: [NAN902]\n")
    assert found(nanlint_with(site, "check", "--format", "json", "b.py",
                              cwd=project)) == []
    doc = nanlint_with(site, "rule", "NAN901", cwd=project)
    assert doc.returncode == 0 and doc.stdout.startswith("# risky-call (NAN901)")


def test_without_the_package_its_codes_are_unknown(project):
    result = nanlint_with(project, "check", "--select", "NAN901", "a.py", cwd=project)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "unknown code `NAN901`")


@pytest.mark.parametrize("module, fragments", [
    (RULE_MODULE.replace('"NAN901"', '"NAN101"'),
     ["package `nanlint-demo 1.0`", "NAN101", "built-in"]),
    (RULE_MODULE.replace('"NAN902"', '"NAN901"'), ["NAN901", "already uses"]),
    (RULE_MODULE.replace('"NAN901"', '"X1"'), ["'X1'", "NAN and three digits"]),
    (RULE_MODULE.replace("RULES = [RiskyCall, OtherCall]", "RULES = [RiskyCall, 3]"),
     ["3 is not a subclass of nanlint.rule.Rule"]),
    ("raise RuntimeError('broken plugin')\n",
     ["cannot load rules from package `nanlint-demo 1.0`", "RuntimeError: broken plugin"]),
])
def test_a_bad_plugin_is_a_one_line_error_naming_the_package(tmp_path, project, module,
                                                             fragments):
    site = install(tmp_path / "site", {"all": "demo_rules:RULES"}, module=module)
    for args in (["check", "a.py"], ["rules"]):
        result = nanlint_with(site, *args, cwd=project)
        assert result.returncode == 2, result.stdout
        assert_one_line_error(result.stderr, "nanlint-demo", *fragments)


def test_a_package_in_the_scanned_folder_is_never_imported(tmp_path):
    # `python -m nanlint` has the current folder on sys.path: a .dist-info folder there is
    # the scanned repository's, not an installed package.
    project = make(tmp_path / "project", {"a.py": SOURCE})
    marker = tmp_path / "imported"
    install(project, {"all": "demo_rules:RULES"},
            module=f"open({str(marker)!r}, 'w').close()\n" + RULE_MODULE)
    result = nanlint_with(tmp_path / "nothing", "check", "--format", "json", "a.py",
                          cwd=project)
    assert found(result) == []
    assert not marker.exists()


def test_configuration_cannot_load_rules(tmp_path):
    project = make(tmp_path / "project", {"a.py": SOURCE, "local_rules.py": RULE_MODULE,
                                          ".nanlint.yaml": "load-rules: [local_rules.py]\n"})
    result = nanlint_with(tmp_path, "check", "a.py", cwd=project)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "unknown key `load-rules`")


# -- --load-rules FILE -----------------------------------------------------------------------
def test_load_rules_from_a_file(tmp_path):
    project = make(tmp_path / "project", {"a.py": SOURCE, "tools/local_rules.py": RULE_MODULE})
    result = nanlint_with(tmp_path, "check", "--format", "json", "--load-rules",
                          "tools/local_rules.py", "a.py", cwd=project)
    assert found(result) == [(2, "NAN901"), (3, "NAN902")]
    assert found(nanlint_with(tmp_path, "check", "--format", "json", "a.py",
                              cwd=project)) == []  # only when asked for
    listed = json.loads(nanlint_with(tmp_path, "rules", "--format", "json", "--load-rules",
                                     "tools/local_rules.py", cwd=project).stdout)
    assert {r["code"]: r["origin"] for r in listed}["NAN901"] == "tools/local_rules.py"


def test_load_rules_in_worker_processes(tmp_path):
    files = {f"m{index:02}.py": SOURCE for index in range(40)}
    project = make(tmp_path / "project", {**files, "local_rules.py": RULE_MODULE})
    result = nanlint_with(tmp_path, "check", "--format", "json", "--no-cache", "--jobs", "2",
                          "--load-rules", "local_rules.py", cwd=project)
    assert found(result).count((2, "NAN901")) == 40


@pytest.mark.parametrize("content, fragment", [
    (None, "no such file"),
    ("def broken(:\n", "SyntaxError"),
    ("X = 1\n", "has no `RULES` list"),
])
def test_load_rules_errors_are_one_line(tmp_path, content, fragment):
    project = make(tmp_path / "project", {"a.py": SOURCE})
    if content is not None:
        (project / "rules_file.py").write_text(content)
    result = nanlint_with(tmp_path, "check", "--load-rules", "rules_file.py", "a.py",
                          cwd=project)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "--load-rules rules_file.py", fragment)


def test_entry_point_codes_are_known_to_the_rules_key(tmp_path, project):
    site = install(tmp_path / "site", {"all": "demo_rules:RULES"})
    (project / ".nanlint.yaml").write_text("rules:\n  NAN901:\n    depth: 3\n")
    result = nanlint_with(site, "check", "a.py", cwd=project)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "NAN901: unknown option `depth`",
                          "NAN901 has options: none")
