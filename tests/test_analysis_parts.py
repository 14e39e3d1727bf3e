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


def test_each_identity_of_a_difference_decides_for_its_own_form():
    # One pair of sides per rule of arithmetic.DIFFERENCES, and the rule that decides it.
    import libcst as cst

    from nanlint.analysis.arithmetic import DIFFERENCES, subtract
    from nanlint.analysis.lattice import Evidence, Value, constant

    node = cst.parse_expression("a - b")
    cause = Evidence(node, "x", "which is 0", producer="relu")
    one = constant(1.0)
    pairs = {
        "_one_minus_probability": (one, Value(lo=0.0, hi=1.0, known=True, tensor=True,
                                              tags=frozenset({"probability"}))),
        "_minus_nothing": (Value(zero=cause, tensor=True), constant(0.0)),
        "_union": (Value(tensor=True, tags=frozenset({"sum_of_products"})),
                   Value(tensor=True, tags=frozenset({"overlap"}))),
        "_mask_pairs": (Value(tensor=True, tags=frozenset({"mask"})),
                        Value(tensor=True, tags=frozenset({"binary"}))),
        "_gram_expansion": (Value(tensor=True, tags=frozenset({"squared_norms"})),
                            Value(tensor=True, tags=frozenset({"inner"}))),
        "_of_two_values": (Value(tensor=True), Value(tensor=True)),
    }
    for rule in DIFFERENCES:
        if rule.__name__ not in pairs:
            continue  # `_from_its_bound` needs a bound's producer: tests/test_values.py
        a, b = pairs[rule.__name__]
        deciding = next(r for r in DIFFERENCES if r(a, b, node) is not None)
        assert deciding is rule, (rule.__name__, deciding.__name__)
        found = rule(a, b, node)
        value = subtract(a, b, True, True, node)
        assert (value.zero, value.tags - {"shifted"}) == found
