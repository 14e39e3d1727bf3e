"""The pre-commit hook, installed and run by pre-commit itself.

pre-commit clones the hook repository at a commit and pip-installs it into a virtualenv.
The repository under test may have uncommitted changes, so its files (tracked and untracked,
without what .gitignore ignores) are copied into a temporary repository and committed there.
"""

import os
import shutil
import subprocess
import sys

import pytest
import yaml

from cli_helpers import TF_CLEAN, TF_SOFTMAX_LOG
from conftest import ROOT

GIT_IDENTITY = ["-c", "user.name=nanlint tests", "-c", "user.email=tests@nanlint.invalid",
                "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"]


def git(*args, cwd):
    return subprocess.run(["git", *GIT_IDENTITY, *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def commit_current_tree(destination):
    """A git repository at ``destination`` holding the working tree as it is now."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file may have been deleted
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git("init", "-q", cwd=destination)
    git("add", "-A", cwd=destination)
    git("commit", "-q", "-m", "the tree under test", cwd=destination)
    return git("rev-parse", "HEAD", cwd=destination).strip()


def test_the_manifest_defines_the_nanlint_hook():
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "nanlint"
    assert hook["entry"] == "nanlint check --force-exclude"  # the configuration's exclude
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "jupyter"]
    assert hook["require_serial"] is False


@pytest.fixture(scope="module")
def hook_repository(tmp_path_factory):
    source = tmp_path_factory.mktemp("nanlint-hook")
    return source, commit_current_tree(source)


def test_pre_commit_runs_the_hook(tmp_path, hook_repository):
    source, rev = hook_repository
    project = tmp_path / "project"
    project.mkdir()
    git("init", "-q", cwd=project)
    config = {"repos": [{"repo": str(source), "rev": rev, "hooks": [{"id": "nanlint"}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (project / "train.py").write_text(TF_SOFTMAX_LOG, encoding="utf-8")
    (project / "notes.txt").write_text("not python\n", encoding="utf-8")
    (project / "generated").mkdir()  # excluded by the configuration, though pre-commit names it
    (project / "generated" / "model.py").write_text(TF_SOFTMAX_LOG, encoding="utf-8")
    (project / ".nanlint.yaml").write_text("exclude: [generated/]\n", encoding="utf-8")
    git("add", "-A", cwd=project)
    environment = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
                       PRE_COMMIT_COLOR="never", NO_COLOR="1")
    environment.pop("FORCE_COLOR", None)

    def pre_commit():
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                              cwd=project, env=environment, capture_output=True, text=True,
                              timeout=600)

    failed = pre_commit()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "nanlint" in failed.stdout and "Failed" in failed.stdout, failed.stdout
    assert "train.py:3:8: NAN103 " in failed.stdout
    assert "notes.txt" not in failed.stdout  # only Python files are passed to the hook
    assert "generated" not in failed.stdout

    (project / "train.py").write_text(TF_CLEAN, encoding="utf-8")
    git("add", "-A", cwd=project)
    passed = pre_commit()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout and "NAN103" not in passed.stdout
