"""The shape of the source tree: rules reach the engine only through ``nanlint.rule``."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "rules").glob("*.py"))


def nanlint_imports(source):
    """The nanlint modules (and relative imports, as ``.name``) a module imports, anywhere
    in it: ``from nanlint import optable`` is ``nanlint.optable``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.level or module == "nanlint":
                found += [f"{module}.{alias.name}".replace("..", ".") for alias in node.names]
            else:
                found.append(module)
    return [name for name in found if name.startswith(("nanlint", "."))]


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda path: path.name)
def test_rules_import_only_the_rule_api(path):
    imported = nanlint_imports(path.read_text(encoding="utf-8"))
    assert set(imported) <= {"nanlint.rule"}, f"{path.name} imports {imported}"


@pytest.mark.parametrize("source, imported", [
    ("from nanlint.rule import Rule\n", ["nanlint.rule"]),
    ("from nanlint import rule\n", ["nanlint.rule"]),
    ("from nanlint import optable\n", ["nanlint.optable"]),
    ("import nanlint.optable as ot\n", ["nanlint.optable"]),
    ("def f():\n    from nanlint.analysis import Value\n", ["nanlint.analysis"]),
    ("from . import log_of_zero\n", [".log_of_zero"]),
    ("import libcst as cst\nfrom typing import Optional\n", []),
])
def test_the_import_check_sees_every_form(source, imported):
    assert nanlint_imports(source) == imported


LINE_LIMIT = 100  # no linter config enforces it (there is none): this test does
SOURCE_FILES = sorted([*(ROOT / "nanlint").rglob("*.py"), *RULE_FILES])


def long_lines(text, limit=LINE_LIMIT):
    """The 1-based numbers of the lines longer than ``limit`` characters."""
    return [number for number, line in enumerate(text.splitlines(), 1) if len(line) > limit]


def test_source_lines_fit_in_100_characters():
    found = [f"{path.relative_to(ROOT)}:{number}" for path in SOURCE_FILES
             for number in long_lines(path.read_text(encoding="utf-8"))]
    assert len(SOURCE_FILES) > 30, SOURCE_FILES  # the globs found the packages
    assert not found, f"lines over {LINE_LIMIT} characters: {found}"


def test_long_lines_sees_a_101_character_docstring_line():
    text = '"""Doc.\n\n' + "x" * 101 + '\n"""\n' + "y" * 100 + "\n"
    assert long_lines(text) == [3]


# The engine's stages, in the order a file goes through them (docs/development.md): each
# may import only the ones before it.
STAGES = ["budget", "source", "options", "parsing", "dispatch", "fix_edits", "findings_of",
          "suspects", "cells", "engine", "fixing"]


def later_stages(stage, source):
    """The stages after ``stage`` that ``source`` (its module's text) imports."""
    later = {f"nanlint.{name}" for name in STAGES[STAGES.index(stage) + 1:]}
    return sorted(set(nanlint_imports(source)) & later)


@pytest.mark.parametrize("stage", STAGES)
def test_a_stage_imports_only_the_stages_before_it(stage):
    source = (ROOT / "nanlint" / f"{stage}.py").read_text(encoding="utf-8")
    assert later_stages(stage, source) == [], f"{stage}.py imports a later stage"


def test_later_stages_sees_an_import_that_runs_back():
    assert later_stages("parsing", "from nanlint.engine import lint_source\n") == [
        "nanlint.engine"]
    assert later_stages("engine", "from nanlint import parsing, source\n") == []
