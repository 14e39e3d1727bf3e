"""The analysis is parts given what they need, not a class stack, and the op model's
transfers are a table: every transfer an op of ``nanlint.optable`` names has its function."""

import ast
from pathlib import Path

from nanlint import optable
from nanlint.analysis.producers import NO_VALUE, TRANSFERS

ANALYSIS = Path(__file__).resolve().parent.parent / "nanlint" / "analysis"


def derived_classes(sources):
    """(class, base) for every class of ``sources`` (module name -> text) that derives from
    a class defined in one of them."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    defined = {node.name for tree in trees.values() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)}
    return sorted((node.name, base.id) for tree in trees.values() for node in ast.walk(tree)
                  if isinstance(node, ast.ClassDef)
                  for base in node.bases if isinstance(base, ast.Name) and base.id in defined)


def test_no_part_of_the_analysis_extends_another():
    sources = {path.stem: path.read_text(encoding="utf-8") for path in ANALYSIS.glob("*.py")}
    assert len(sources) > 10
    assert derived_classes(sources) == []


def test_derived_classes_sees_a_stack():
    sources = {"a": "class Resolver:\n    pass\n",
               "b": "from a import Resolver\nclass Evaluator(Resolver):\n    pass\n"}
    assert derived_classes(sources) == [("Evaluator", "Resolver")]


def test_every_transfer_of_the_op_table_has_its_function():
    used = {op.transfer for op in optable.TABLE.by_name.values()}
    assert used - NO_VALUE <= set(TRANSFERS), sorted(used - NO_VALUE - set(TRANSFERS))
    assert not NO_VALUE & set(TRANSFERS)
    assert set(TRANSFERS) <= used, sorted(set(TRANSFERS) - used)  # no function left over
