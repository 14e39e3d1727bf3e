"""The output shown in docs/output-formats.md is what nanlint prints for the README's
sample file."""
import json
import re
from pathlib import Path

import pytest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "output-formats.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The README's train.py, taken from its "Sample output" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Sample output", 1)[1]
    source = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    folder = tmp_path_factory.mktemp("sample")
    (folder / "train.py").write_text(source, encoding="utf-8")
    return folder


def test_json_example_is_the_real_output(sample):
    shown = json.loads(re.search(r"```json\n(.*?)```", PAGE, re.S).group(1))
    real = json.loads(run_cli("check", "--format", "json", "train.py", cwd=sample).stdout)
    assert shown == real


def test_github_example_is_the_real_output(sample):
    shown = re.search(r"`(::error [^`]*?)\.\.\.`", PAGE).group(1)
    real = run_cli("check", "--format", "github", "train.py", cwd=sample).stdout
    assert real.startswith(shown)


def test_concise_example_is_the_real_output(sample):
    section = PAGE.split("`--format concise`", 1)[1]
    shown = re.search(r"```console\n([^\n]*?)\.\.\.\n```", section).group(1)
    real = run_cli("check", "--format", "concise", "train.py", cwd=sample).stdout
    assert real.startswith(shown)
