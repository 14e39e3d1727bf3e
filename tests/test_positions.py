"""The engine's positions are libcst's PositionProvider positions, for the nodes asked."""

import ast
from pathlib import Path

import libcst as cst
import pytest
from libcst._nodes.base import CSTCodegenError
from libcst.metadata import MetadataWrapper, PositionProvider

from nanlint.analysis import Analysis
from nanlint.analysis.modindex import ModuleIndex
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
    "every compound statement": (
        "import tensorflow as tf\n\n# a comment\nclass A(B, metaclass=M):\n    x: int = 1\n"
        "    @property\n    async def f(self, a=1 / 2):  # c\n"
        "        async with a as b, c: return b\n"
        "        async for i in b:\n            pass\n        else: del i\n"
        "if a: x = 1; y = 2\nelif b:\n    # lead\n    pass\nelse:\n    raise E\n"
        "try:\n    import os\nexcept (E, F) as e:\n    global g\nelse:\n    assert g, 'm'\n"
        "finally:\n    g += 1\n"
        "match p:\n    case [1, *r]:\n        w = r\n    case {'k': v} if v:\n"
        "        w = (v\n             / 2)\n    case _:\n        pass\n"
        "while x:\n    break\nelse:\n    continue_ = 1\n"),
    "non-ASCII before a statement": "ü = 1; y = ü / 2\nif ü: z = 'ß'; w = z / 3\n",
    "form feed": "x = 1\n\x0cdef f(a):\n    return a / 2\n",
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
    # With Python's tree, a few nodes at a time (of those that hold code: the analysis's
    # parent map knows no others): only the statements that hold them are generated, and
    # the positions are the same.
    tree, parents = ast.parse(source), ModuleIndex(module).parents
    code = [node for node in nodes if id(node) in parents]
    groups = max(1, len(code) // 8)
    for first in range(0, groups, max(1, groups // 25)):
        asked = code[first::groups][:8]
        positions = Positions(module, asked, source, tree, lambda n: parents.get(id(n)))
        # (a form feed before a statement: libcst and Python place it differently, and the
        # whole module is generated instead)
        assert positions.by_statement or not code or "\x0c" in source
        for node in asked:
            assert positions[node] == expected[node], (type(node).__name__, node)


@pytest.mark.parametrize("name", sorted(ODD_SOURCES))
def test_positions_equal_libcsts_on_odd_sources(name):
    _check(ODD_SOURCES[name])


def test_positions_equal_libcsts_on_the_fixtures():
    files = sorted((HERE / "fixtures").rglob("*.py"))
    assert files
    for path in files:
        _check(path.read_text(encoding="utf-8"))


def test_the_module_index_knows_every_parent_as_libcst_does():
    """The module index's one walk notes the parent of every node that holds code (that is
    how the index and the parent map share it), as libcst's ParentNodeProvider has it: the
    nodes the index itself skips (imports, attribute names, keywords, parameter names)
    included."""
    from libcst.metadata import ParentNodeProvider

    from nanlint.analysis.tree import children

    sources = [*ODD_SOURCES.values(), *(path.read_text(encoding="utf-8") for path in
                                        sorted((HERE / "fixtures").rglob("*.py")))]
    for source in sources:
        module = cst.parse_module(source)
        expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ParentNodeProvider)
        parents = ModuleIndex(module).parents
        code, stack = [], [module]
        while stack:
            below = children(stack.pop())
            code.extend(below)
            stack.extend(below)
        assert len(parents) == len(code) and (not code or len(parents) < len(expected))
        for node in code:
            assert parents[id(node)] is expected[node], type(node).__name__


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


def test_twins_in_pythons_tree_have_libcsts_positions():
    """Most nodes of a finding are read from Python's tree, not generated: every range read
    there is PositionProvider's."""
    from nanlint.positions import _UNIT
    from nanlint.pytree import Lines, from_python, python_statements, statements

    placed = asked = 0
    for path in sorted((HERE / "fixtures").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        module = cst.parse_module(source)
        expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        parents = ModuleIndex(module).parents
        ours, theirs = statements(module), python_statements(ast.parse(source))
        assert len(ours) == len(theirs), path
        index = {id(statement): number for number, statement in enumerate(ours)}
        lines = Lines(source)
        for node in expected:
            chain = [node]
            while id(chain[-1]) in parents and not isinstance(chain[-1], _UNIT):
                chain.append(parents[id(chain[-1])])
            if not isinstance(chain[-1], _UNIT):
                continue
            asked += 1
            place = from_python(chain, theirs, index, lines)
            if place is not None:
                placed += 1
                assert place == expected[node], (path, type(node).__name__)
    assert placed > asked / 3, (placed, asked)


def test_generated_code_is_code_for_node():
    """Messages and fixes spell nodes with ``tree.generated``, which skips libcst's position
    bookkeeping: the text is ``code_for_node``'s for every node of every fixture."""
    from nanlint.analysis.tree import generated

    sources = [path.read_text(encoding="utf-8")
               for path in sorted((HERE / "fixtures").rglob("*.py"))]
    checked = 0
    for source in [*sources, *ODD_SOURCES.values()]:
        module = cst.parse_module(source)
        for node in MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider):
            try:
                expected = module.code_for_node(node)
            except CSTCodegenError:  # a part that has no code alone (an annotation)
                with pytest.raises(CSTCodegenError):
                    generated(node, module)
                continue
            assert generated(node, module) == expected, node
            checked += 1
    assert checked > 10_000
    # Inside a block: continuation lines carry the block's indentation.
    module = cst.parse_module("def f():\n    y = g(a,\n          b)\n")
    call = module.body[0].body.body[0].body[0].value
    assert generated(call, module, "    ") == "g(a,\n          b)"
    assert generated(call, module) == "g(a,\n      b)"


def test_the_parser_skips_validation_and_only_the_parser(monkeypatch):
    """A parsed tree is not validated node by node (the parser only makes valid trees);
    nodes made afterwards, such as a fix's, are, also after a parse that failed."""
    from nanlint.parsing import parse_checked as _parse_checked
    from nanlint.source import SourceError

    checked = []
    original = cst.Name._validate
    monkeypatch.setattr(cst.Name, "_validate", lambda self: checked.append(self.value)
                        or original(self))
    module = _parse_checked("import tensorflow as tf\ny = tf.math.log(x)\n")
    assert checked == []
    assert module.deep_equals(cst.parse_module("import tensorflow as tf\n"
                                               "y = tf.math.log(x)\n"))
    assert checked  # libcst's own parse validates
    with pytest.raises(SourceError):
        _parse_checked("def (:\n")
    checked.clear()
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")
    assert checked == ["not a name"]


def test_one_line_text_is_the_generated_code():
    """Messages read an expression's code from the source where it stands on one line
    without brackets of its own (``Positions.line_text``): that text is its generated code,
    for every such node of every fixture; anything else is generated."""
    from nanlint.source import source_lines

    read = 0
    for source in [*(path.read_text(encoding="utf-8")
                     for path in sorted((HERE / "fixtures").rglob("*.py"))),
                   *ODD_SOURCES.values()]:
        module = cst.parse_module(source)
        expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        positions, lines = Positions(module, list(expected)), source_lines(source)
        for node in expected:
            text = positions.line_text(node, lines)
            if text is None:
                continue
            assert text == module.code_for_node(node), (type(node).__name__, text)
            read += 1
    assert read > 10_000
    module = cst.parse_module("y = (a +\n     b) * (c)\n")
    product = module.body[0].body[0].value
    positions = Positions(module, [product, product.left, product.right])
    lines = source_lines(module.code)
    assert positions.line_text(product, lines) is None  # two lines
    assert positions.line_text(product.right, lines) is None  # brackets of its own
    assert positions.line_text(product.left.left, lines) is None  # not announced
    assert positions.line_text(module.body[0], lines) is None  # not an expression
