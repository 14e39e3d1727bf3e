"""Line and column of the nodes a file's findings need, from one code generation.

libcst's ``PositionProvider`` records a position for every node of the module (hundreds of
thousands on a large file, each through a generator-based context manager); a file's
findings need a few dozen. ``Positions`` runs the same code generation and records the
positions ``PositionProvider`` would give, but only for the nodes it is asked about up front
(and for the children their positions are taken from). A node nobody announced is still
answered: the first such question records every node, once.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

_NEWLINE = re.compile(r"\r\n?|\n")


class _Everything:
    """The wanted set when every node is wanted."""

    def __contains__(self, item: object) -> bool:
        return True

    def add(self, item: object) -> None:
        pass


class _Nothing:
    """The context of a node whose position is not wanted."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


_NOTHING = _Nothing()


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

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.column += len(token)

    def add_token(self, value: str) -> None:
        if not self.tokens:  # the module asks whether anything was generated
            self.tokens.append(value)
        if "\n" in value or "\r" in value:
            segments = _NEWLINE.split(value)
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
            return _NOTHING
        # The children the position is taken from are generated inside: record them too.
        if start_node is not None:
            self.wanted.add(id(start_node))
        if end_node is not None:
            self.wanted.add(id(end_node))
        return _Record(self, node, start_node, end_node)


class Positions:
    """node -> ``CodeRange``, as ``PositionProvider`` gives it, for the nodes announced."""

    def __init__(self, module: cst.Module, wanted: Iterable[Optional[cst.CSTNode]]) -> None:
        self._module = module
        self._wanted: Set[int] = {id(node) for node in wanted if node is not None}
        self._computed: Dict[cst.CSTNode, CodeRange] = {}
        self._everything = False
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


def report_nodes(report: Any) -> Tuple[Optional[cst.CSTNode], ...]:
    """The nodes whose positions a report's finding needs: its node and statement, its
    evidence, and the nodes its fix replaces."""
    fix = report.fix
    return (report.node, report.statement,
            report.evidence.node if report.evidence is not None else None,
            *(old for old, _ in (fix.replacements if fix is not None else ())))
