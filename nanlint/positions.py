"""Line and column of the nodes a file's findings need, without generating the module.

libcst's ``PositionProvider`` records a position for every node of the module (hundreds of
thousands on a large file, each through a generator-based context manager); a file's
findings need a few dozen. Python's own tree (``ast``, parsed first anyway) has the position
of every statement and expression, and its statements correspond to libcst's one to one in
source order. So ``Positions`` reads a node's range from its twin in Python's tree where the
two ranges are the same by construction (statements, and names, calls, attributes,
operations, literals without brackets of their own, reached through fields that map one to
one); else it generates the statement that holds the node, placed where Python says it
starts, and records the positions ``PositionProvider`` would give, checking the code written
against the source there. Where anything disagrees, the whole module is generated instead. A
node nobody announced is still answered: the first such question records every node, once.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

from nanlint.analysis.tree import NO_POSITION, is_a
from nanlint.pytree import NEWLINE, Lines, from_python, python_statements, statements


class _Everything:
    """The wanted set when every node is wanted."""

    def __contains__(self, item: object) -> bool:
        return True

    def add(self, item: object) -> None:
        pass


class _Record:
    """``record_syntactic_position`` for one wanted node (libcst's is a generator)."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: "_State", node: cst.CSTNode, start_node: Optional[cst.CSTNode],
                 end_node: Optional[cst.CSTNode]) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node
        self.start = CodePosition(state.line, state.column)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        state = self.state
        computed = state.computed
        start = computed[self.start_node].start if self.start_node is not None else self.start
        end = (computed[self.end_node].end if self.end_node is not None
               else CodePosition(state.line, state.column))
        computed[self.node] = CodeRange(start, end)
        return False


class _State(CodegenState):
    """Code generation that only counts lines and columns, and records wanted nodes."""

    def __init__(self, module: cst.Module, wanted: Any, computed: Dict[cst.CSTNode, CodeRange]
                 ) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.wanted = wanted  # ids of the nodes to record (a set, or _Everything)
        self.computed = computed
        self._starts: List[CodePosition] = []
        self.text: Optional[List[str]] = None  # the code written, when it is to be checked

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.column += len(token)
            if self.text is not None:
                self.text.append(token)

    def add_token(self, value: str) -> None:
        if not self.tokens:  # the module asks whether anything was generated
            self.tokens.append(value)
        if self.text is not None:
            self.text.append(value)
        if "\n" in value or "\r" in value:
            segments = NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.wanted:
            self._starts.append(CodePosition(self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.wanted:
            start = self._starts.pop()
            if node not in self.computed:  # a syntactic position was recorded: it wins
                self.computed[node] = CodeRange(start, CodePosition(self.line, self.column))

    def record_syntactic_position(self, node: cst.CSTNode, *,
                                  start_node: Optional[cst.CSTNode] = None,
                                  end_node: Optional[cst.CSTNode] = None) -> Any:
        if id(node) not in self.wanted:
            return NO_POSITION
        # The children the position is taken from are generated inside: record them too.
        if start_node is not None:
            self.wanted.add(id(start_node))
        if end_node is not None:
            self.wanted.add(id(end_node))
        return _Record(self, node, start_node, end_node)


class Positions:
    """node -> ``CodeRange``, as ``PositionProvider`` gives it, for the nodes announced.

    With Python's tree of the same source and the parent of each node, only the statements
    that hold the announced nodes are generated."""

    def __init__(self, module: cst.Module, wanted: Iterable[Optional[cst.CSTNode]],
                 source: Optional[str] = None, tree: Optional[ast.Module] = None,
                 parent: Optional[Callable[[cst.CSTNode], Optional[cst.CSTNode]]] = None
                 ) -> None:
        self._module = module
        # once each: a report's node is often also the node its fix replaces
        nodes = list({id(node): node for node in wanted if node is not None}.values())
        self._wanted: Set[int] = {id(node) for node in nodes}
        self._computed: Dict[cst.CSTNode, CodeRange] = {}
        self._everything = False
        self.by_statement = source is not None and tree is not None and parent is not None \
            and _by_statement(module, nodes, self._wanted, self._computed, source, tree, parent)
        if not self.by_statement:
            self._computed.clear()
            module._codegen(_State(module, self._wanted, self._computed))

    def get(self, node: cst.CSTNode, default: Optional[CodeRange] = None
            ) -> Optional[CodeRange]:
        found = self._computed.get(node)
        if found is None and not self._everything and id(node) not in self._wanted:
            self._everything = True
            self._module._codegen(_State(self._module, _Everything(), self._computed))
            found = self._computed.get(node)
        return found if found is not None else default

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self.get(node)
        if found is None:
            raise KeyError(node)
        return found

    def line_text(self, node: cst.CSTNode, lines: List[str]) -> Optional[str]:
        """The source of an announced expression that stands on one line without brackets
        of its own: the text its code generation writes, read instead of generated. None for
        anything else."""
        place = self._computed.get(node)
        if (place is None or place.start.line != place.end.line
                or not is_a(node, cst.BaseExpression) or getattr(node, "lpar", ())):
            return None
        line = lines[place.start.line - 1]
        if "\x0c" in line:
            return None  # libcst's columns do not count a form feed
        return line[place.start.column:place.end.column]


# What Python's tree calls a statement: libcst's small statements and compound statements.
_UNIT = (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.SimpleStatementLine)


def _by_statement(module: cst.Module, nodes: List[cst.CSTNode], wanted: Set[int],
                  computed: Dict[cst.CSTNode, CodeRange], source: str, tree: ast.Module,
                  parent: Callable[[cst.CSTNode], Optional[cst.CSTNode]]) -> bool:
    """The positions of ``nodes``: read from Python's tree where a node has its twin there,
    else from the generation of the innermost statement that holds it; False where that
    cannot be done (the caller then generates the whole module)."""
    ours = statements(module)
    theirs = python_statements(tree)
    if len(ours) != len(theirs):
        return False
    index = {id(statement): number for number, statement in enumerate(ours)}
    lines = Lines(source)
    units: Dict[int, Tuple[cst.CSTNode, List[cst.CSTNode]]] = {}  # with the nodes it holds
    for node in nodes:
        chain = [node]
        while not is_a(chain[-1], _UNIT):
            if chain[-1].__class__ is cst.Module:
                return False  # a node of the module's own (its header, its footer)
            above = parent(chain[-1])
            if above is None:
                return False  # whitespace (no parent), or a node of another tree
            chain.append(above)
        unit = chain[-1]
        place = from_python(chain, theirs, index, lines)
        if place is not None:
            computed[node] = place
        else:
            units.setdefault(id(unit), (unit, []))[1].append(node)
            wanted.add(id(unit))
    if len(units) > max(8, len(ours) // 4):
        return False  # much of the module: one generation of it all costs less
    # The larger first: a statement generated inside another one is not generated again.
    for unit, held in sorted(units.values(),
                             key=lambda pair: isinstance(pair[0], cst.BaseSmallStatement)):
        if all(node in computed for node in held):
            continue
        first = unit.body[0] if isinstance(unit, cst.SimpleStatementLine) else unit
        number = index.get(id(first))
        if number is None:
            return False
        statement = theirs[number]
        line = statement.lineno
        if line > len(lines.starts):
            return False
        column = lines.column(line, statement.col_offset)
        above = parent(unit)
        elif_ = isinstance(above, cst.If) and above.orelse is unit
        if not _generate(module, unit, elif_, (line, column), wanted, computed, lines):
            return False
    return True


def _generate(module: cst.Module, unit: cst.CSTNode, elif_: bool, start: Tuple[int, int],
              wanted: Set[int], computed: Dict[cst.CSTNode, CodeRange], lines: Lines) -> bool:
    """Generate ``unit``, whose syntactic start is at ``start`` (line, column), recording the
    wanted nodes in it; False if the code written is not the source's there."""
    line, column = start
    text, source, starts = lines.text(line), lines.source, lines.starts
    # The block's indentation: continuation lines inside brackets are written after it.
    indent = text[:len(text) - len(text.lstrip(" \t\f"))]
    if isinstance(unit, cst.BaseSmallStatement):  # written from its syntactic start
        state = _State(module, wanted, computed)
        state.line, state.column, state.text = line, column, []
        state.indent_tokens = [indent]
        unit._codegen(state)
        offset = starts[line - 1] + column
    else:  # written from its leading lines, at the start of a line: placed after
        if len(indent) != column:
            return False
        found: Dict[cst.CSTNode, CodeRange] = {}
        state = _State(module, wanted, found)
        state.indent_tokens, state.text = [indent], []
        if elif_:
            unit._codegen(state, is_elif=True)
        else:
            unit._codegen(state)
        where = found[unit].start
        shift = line - where.line
        if where.column != column or shift < 0:
            return False
        for node, place in found.items():
            computed[node] = CodeRange(CodePosition(place.start.line + shift, place.start.column),
                                       CodePosition(place.end.line + shift, place.end.column))
        offset = starts[shift] if shift < len(starts) else len(source)
    written = "".join(state.text)
    # (the last line of a file without a final newline: libcst writes one, the module not)
    return source.startswith(written, offset) or source[offset:] + module.default_newline \
        == written



def report_nodes(report: Any) -> Tuple[Optional[cst.CSTNode], ...]:
    """The nodes whose positions a report's finding needs: its node and statement, its
    evidence (and the call it came through), and the nodes its fix replaces."""
    fix = report.fix
    evidence = report.evidence
    return (report.node, report.statement,
            evidence.node if evidence is not None else None,
            evidence.step[0] if evidence is not None and evidence.step else None,
            *(old for old, _ in (fix.replacements if fix is not None else ())))
