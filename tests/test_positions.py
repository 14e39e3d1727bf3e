"""The engine's positions are libcst's PositionProvider positions, for the nodes asked."""

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from nanlint.analysis import Analysis
from nanlint.positions import Positions

HERE = Path(__file__).parent
ODD_SOURCES = {
    "crlf": "import tensorflow as tf\r\n\r\ndef f(x):\r\n    return tf.math.log(x)\r\n",
    "no trailing newline": "x = 1\ny = (x +\n     2)",
    "empty": "",
    "comments only": "# one\n\n# two\n",
    "decorated": "@dec\n@other(\n    1)\ndef f(a,\n      b):  # c\n    '''doc'''\n    return a / b\n",
    "tabs and unicode": "def f(x):\n\tß = 'ü'  # ü\n\treturn x / ß\n",
    "semicolons and nesting": "a = 1; b = [x for x in range(3) if x]\nif a:\n    pass\nelse:\n"
                              "    while b:\n        b = b[1:]\n",
}


def _check(source: str) -> None:
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    nodes = list(expected)
    asked = nodes[::3]
    positions = Positions(module, asked)
    for node in asked:
        assert positions[node] == expected[node], (type(node).__name__, node)
    # A node nobody announced is answered too (every node is recorded on first need).
    for node in nodes:
        assert positions.get(node) == expected[node], (type(node).__name__, node)


@pytest.mark.parametrize("name", sorted(ODD_SOURCES))
def test_positions_equal_libcsts_on_odd_sources(name):
    _check(ODD_SOURCES[name])


def test_positions_equal_libcsts_on_the_fixtures():
    files = sorted((HERE / "fixtures").rglob("*.py"))
    assert files
    for path in files:
        _check(path.read_text(encoding="utf-8"))


def test_a_node_outside_the_module_has_no_position():
    module = cst.parse_module("x = 1\n")
    assert Positions(module, []).get(cst.Name("y")) is None
    with pytest.raises(KeyError):
        Positions(module, [])[cst.Name("y")]


@pytest.mark.parametrize("expression", [
    "a", "tf.math.log", "(tf).math", "tf . math", "(a.b)", "tf.\\\n  x", "f(x).y",
    "a.b.c.d", "a.b[0]", "( a )", "a.  b",
])
def test_the_code_of_a_dotted_name_is_libcst_s(expression):
    # Analysis.code spells plain dotted names itself; anything else goes to libcst.
    module = cst.parse_module(f"y = {expression}\n")
    node = module.body[0].body[0].value
    assert Analysis(module).code(node) == module.code_for_node(node)
