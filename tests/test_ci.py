"""The CI integrations: the GitHub Action (action.yml) run step by step as the runner would
(each `shell: bash` step as `bash --noprofile --norc -eo pipefail <script file>`, each step's
`if:` with its implied `success()`), and the GitLab CI template of docs/ci.md. The action's
install step puts nanlint into a fresh virtual environment with `pip install` of this
repository, so these tests also check what a user's `pip install` ships (the documentation
the links point to)."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from cli_helpers import TF_CLEAN, TF_SOFTMAX_LOG
from test_doc_links import relative_links

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = {step.get("id", step["name"]): step for step in ACTION["runs"]["steps"]}


# How a GitHub runner starts a step that says `shell: bash`: the step's script is a file.
BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]
EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")
COMPARISON = re.compile(r"^\s*([\w.-]+)\s*(==|!=)\s*'([^']*)'\s*$")


class Runner:
    """Just enough of a GitHub runner for this composite action: expressions, `if:`
    conditions, the step outputs file and the PATH file."""

    def __init__(self, temp: Path, inputs=None):
        self.temp = temp
        self.inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
        self.inputs.update(inputs or {})
        self.outputs = {}
        self.path = []
        self.failed = False  # a step failed: later steps without a status function are skipped

    def condition(self, step) -> bool:
        """A step's `if:`: comparisons joined by `&&` (all this action uses), and the
        `success()` that GitHub adds to a condition without a status function."""
        if self.failed:
            return False
        for part in step["if"].split("&&") if "if" in step else []:
            comparison = COMPARISON.match(part)
            assert comparison, f"the test runner does not know this condition: {part}"
            name, operator, literal = comparison.groups()
            if (self.lookup(name) == literal) != (operator == "=="):
                return False
        return True

    def job(self, cwd: Path) -> dict:
        """The steps after the install step, in order, as the runner would take them: each
        step's result, None for a skipped step and "run" for a `uses:` step."""
        results = {}
        for key, step in list(STEPS.items())[1:]:
            if not self.condition(step):
                results[key] = None
            elif "uses" in step:
                results[key] = "run"
            else:
                results[key] = self.run(key, cwd)
        return results

    def lookup(self, expression: str) -> str:
        scope, _, name = expression.partition(".")
        if scope == "inputs":
            return self.inputs[name]
        if scope == "steps":  # an output the step did not write is empty
            step, _, output = name.partition(".outputs.")
            return self.outputs.get(step, {}).get(output, "")
        return {"github.action_path": str(ROOT), "runner.temp": str(self.temp)}[expression]

    def run(self, step_id: str, cwd: Path) -> subprocess.CompletedProcess:
        step = STEPS[step_id]
        outputs, path_file = self.temp / f"{step_id}.out", self.temp / f"{step_id}.path"
        outputs.write_text(""), path_file.write_text("")
        env = {key: value for key, value in os.environ.items() if not key.startswith("NANLINT")}
        env.update({key: EXPRESSION.sub(lambda match: self.lookup(match.group(1)), value)
                    for key, value in step.get("env", {}).items()})
        env.update(GITHUB_OUTPUT=str(outputs), GITHUB_PATH=str(path_file),
                   PATH=os.pathsep.join([*self.path, os.environ["PATH"]]))
        assert step["shell"] == "bash"
        script = self.temp / f"{step_id}.sh"
        script.write_text(step["run"])
        result = subprocess.run([*BASH, str(script)], cwd=cwd, env=env, text=True,
                                capture_output=True, timeout=600)
        self.outputs[step_id] = dict(line.split("=", 1)
                                     for line in outputs.read_text().splitlines())
        self.path = path_file.read_text().split() + self.path
        self.failed = self.failed or result.returncode != 0
        return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A runner whose install step ran with the default version: this repository."""
    runner = Runner(tmp_path_factory.mktemp("runner"))
    result = runner.run("install", cwd=runner.temp)
    assert result.returncode == 0, result.stderr
    return runner


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(TF_SOFTMAX_LOG, encoding="utf-8")
    (tmp_path / "clean dir").mkdir()
    (tmp_path / "clean dir" / "ok.py").write_text(TF_CLEAN, encoding="utf-8")
    return tmp_path


def with_inputs(installed, **inputs):
    runner = Runner(installed.temp, {key.replace("_", "-"): value
                                     for key, value in inputs.items()})
    runner.outputs, runner.path = dict(installed.outputs), list(installed.path)
    return runner


def test_install_step_installs_this_version_and_says_so(installed):
    from nanlint import __version__

    [folder] = installed.path
    assert Path(folder).parent == installed.temp / "nanlint-venv"
    version = subprocess.run([str(Path(folder) / "nanlint"), "--version"],
                             capture_output=True, text=True)
    assert version.stdout.strip() == f"nanlint {__version__}"


def test_github_format_annotates_and_the_last_step_fails(installed, project):
    runner = with_inputs(installed)
    steps = runner.job(cwd=project)
    assert steps["check"].returncode == 0, steps["check"].stderr
    assert steps["check"].stdout.startswith("::error file=train.py,line=3,col=8,")
    assert runner.outputs["check"]["exit-code"] == "1"
    assert steps["Upload SARIF"] is None
    assert steps["Fail on findings"].returncode == 1


@pytest.mark.parametrize("source,code", [(TF_SOFTMAX_LOG, "1"), (TF_CLEAN, "0")])
def test_sarif_is_uploaded_with_findings_and_without_then_the_job_fails_on_findings(
        installed, tmp_path, source, code):
    (tmp_path / "train.py").write_text(source, encoding="utf-8")
    runner = with_inputs(installed, format="sarif")
    steps = runner.job(cwd=tmp_path)
    assert steps["check"].returncode == 0, steps["check"].stderr
    assert runner.outputs["check"]["exit-code"] == code
    assert steps["Upload SARIF"] == "run"
    assert (tmp_path / "nanlint.sarif").is_file()
    assert steps["Fail on findings"].returncode == int(code)


def test_an_error_is_not_uploaded_and_fails_the_job(installed, project):
    runner = with_inputs(installed, format="sarif", paths="missing.py")
    steps = runner.job(cwd=project)
    assert runner.outputs["check"]["exit-code"] == "2"
    assert steps["Upload SARIF"] is None
    assert steps["Fail on findings"].returncode == 2


def test_paths_and_args_are_split_like_a_shell_and_never_evaluated(installed, project):
    runner = with_inputs(installed, paths="'clean dir'", args="--fail-on error $(touch x)")
    check = runner.run("check", cwd=project)
    assert "$(touch: no such file" in check.stderr  # a missing path, not a command
    assert not (project / "x)").exists() and not (project / "x").exists()
    clean = with_inputs(installed, paths='"clean dir"', args="--fail-on error")
    assert clean.run("check", cwd=project).stdout == ""
    assert clean.outputs["check"]["exit-code"] == "0"
    assert clean.run("Fail on findings", cwd=project).returncode == 0


def test_sarif_format_writes_the_report_with_no_link_to_the_runner(installed, project):
    runner = with_inputs(installed, format="sarif", sarif_file="out/nanlint.sarif")
    (project / "out").mkdir()
    check = runner.run("check", cwd=project)
    assert runner.outputs["check"]["exit-code"] == "1"
    assert "train.py:3:8: NAN103" in check.stdout  # the findings in the log too
    run = json.loads((project / "out" / "nanlint.sarif").read_text())["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["NAN103"]
    for rule in run["tool"]["driver"]["rules"]:  # read elsewhere: no file of the runner
        assert "helpUri" not in rule and "## What it does" in rule["help"]["markdown"]
    upload = STEPS["Upload SARIF"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ inputs.sarif-file }}"
    assert "inputs.format == 'sarif'" in upload["if"]


def test_installed_package_ships_every_page_of_the_documentation_and_its_links_work(
        installed):
    [site_docs] = {folder.resolve() for folder in (installed.temp / "nanlint-venv").glob(
        "lib*/python*/site-packages/nanlint/docs")}
    assert sorted(p.name for p in site_docs.glob("*.md")) == sorted(
        p.name for p in (ROOT / "docs").glob("*.md"))
    broken = [f"{page.name}: {target}" for page in site_docs.glob("*.md")
              for target in relative_links(page)
              if not (page.parent / target.partition("#")[0]).exists()]
    assert not broken, broken


def test_a_quote_left_open_is_a_one_line_error_and_checks_nothing(installed, project):
    runner = with_inputs(installed, args="--select 'NAN1")
    steps = runner.job(cwd=project)
    assert steps["check"].stdout.strip() == (
        "::error title=nanlint::args and paths are split as a shell would: "
        "No closing quotation")
    assert runner.outputs["check"]["exit-code"] == "2"
    assert steps["Fail on findings"].returncode == 2


def test_an_unknown_format_is_a_one_line_error(installed, project):
    runner = with_inputs(installed, format="xml")
    check = runner.run("check", cwd=project)
    assert check.stdout.strip() == (
        "::error title=nanlint::format must be github or sarif, not 'xml'")
    assert runner.outputs["check"]["exit-code"] == "2"


@pytest.mark.parametrize("version,requirement", [
    ("0.2.0", "nanlint==0.2.0"), ("v0.2.0", "nanlint==0.2.0"),
    ("nanlint @ git+https://example.org/nanlint@v1", "nanlint @ git+https://example.org/nanlint@v1"),
])
def test_version_input_chooses_what_pip_installs(tmp_path, version, requirement):
    """The install step with a stand-in python that records what pip was asked for."""
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "python3").write_text(
        '#!/usr/bin/env bash\n'
        'if [ "$2" = venv ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python";\n'
        '  printf "#!/bin/sh\\necho nanlint 0\\n" > "$3/bin/nanlint"; chmod +x "$3/bin/nanlint";\n'
        f'else echo "${{@: -1}}" > {tmp_path}/asked; fi\n')
    (fake / "python3").chmod(0o755)
    runner = Runner(tmp_path, {"version": version})
    runner.path = [str(fake)]
    assert runner.run("install", cwd=tmp_path).returncode == 0
    assert (tmp_path / "asked").read_text().strip() == requirement


def gitlab_job():
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = page.split("## GitLab CI", 1)[1]
    return yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))["nanlint"]


@pytest.mark.parametrize("source,code,reported", [(TF_SOFTMAX_LOG, 1, 1), (TF_CLEAN, 0, 0)])
def test_gitlab_template_writes_the_report_and_fails_on_findings(installed, tmp_path, source,
                                                                 code, reported):
    """The template's commands, with the nanlint the action installed (not its apt-get and
    pip lines), in a project with a finding and in one without."""
    job = gitlab_job()
    assert job["artifacts"]["reports"]["codequality"] == "gl-code-quality.json"
    (tmp_path / "train.py").write_text(source, encoding="utf-8")
    commands = [line for line in job["before_script"] + job["script"]
                if not line.startswith(("apt-get", "pip install"))]
    env = {**os.environ, **job["variables"],
           "PATH": os.pathsep.join([*installed.path, os.environ["PATH"]])}
    result = subprocess.run(["sh", "-ec", "\n".join(commands)], cwd=tmp_path, env=env,
                            capture_output=True, text=True)
    assert result.returncode == code, result.stderr
    assert len(json.loads((tmp_path / "gl-code-quality.json").read_text())) == reported
    assert ("train.py:3:8: NAN103" in result.stdout) == bool(reported)
