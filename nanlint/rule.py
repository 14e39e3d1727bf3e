"""The public face for rule authors: the base class, options, and the analysis questions.

A rule is one small class: its metadata as class attributes, its documentation as the class
docstring (ruff's sections), VALID and INVALID examples, and ``visit_<Node>`` methods that
ask the shared analysis (``self.analysis``) what values can be and call ``self.report``.
A rule never reads files, configuration or output formats.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Dict, FrozenSet, List, Optional, Set, Tuple

import libcst as cst
from libcst.helpers._template import mangle_template, unmangled_name

from nanlint.optable import DISTRIBUTIONS, OPTIMIZER_EPSILON, WRAPPING_DISTRIBUTIONS, Op
from nanlint.analysis.scopes import Binding, is_free
from nanlint.analysis import CONFIDENCE_ORDER, Analysis, Evidence, Number, Place, Value
from nanlint.analysis.lattice import FLOAT16, WIDE, exp_limits, replace, stored
from nanlint.analysis.precision import integer_dtype
from nanlint.analysis.data import Moment
from nanlint.analysis.sinks import COMPARED, SAMPLED, UNKNOWN as REACH_UNKNOWN
from nanlint.analysis.tree import (MIRRORED, children, comparison, descendants, is_a,
                                   last_name, magnitude_of, names_in, terms)
from nanlint.analysis.tree import visit as visit_tree

__all__ = ["Rule", "Option", "Analysis", "Binding", "Evidence", "Fix", "Moment", "Number",
           "Place", "Value", "Op", "OPTIMIZER_EPSILON", "DISTRIBUTIONS", "WRAPPING_DISTRIBUTIONS",
           "Report", "visit_tree",
           "FLOAT16", "FLOAT16_MAX", "WIDE", "stored", "last_name", "names_in", "terms",
           "in_tested_branch", "safe_branches", "denominator_forms", "tests", "comparison",
           "MIRRORED", "exp_limits", "magnitude_of", "large_values_pass"]

FLOAT16_MAX = 65504.0  # the largest finite float16; anything beyond rounds to inf

DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety",
                "Options")


@dataclass(frozen=True)
class Option:
    """A per-rule setting: ``rules: {NAN101: {name: value}}`` in the configuration."""

    default: Any
    type: type
    doc: str


@dataclass(frozen=True)
class Fix:
    """A libcst edit: each ``(old, new)`` pair replaces the node ``old`` by ``new``; a
    ``new`` of ``cst.RemovalSentinel.REMOVE`` deletes the statement line ``old`` (kept if it
    shares its lines with other code).

    ``safety`` is "safe" (equal wherever the original was finite) or "unsafe" (changes
    values near the singularity). The engine turns the pairs into text edits at the old
    nodes' positions, rendering the new nodes in the file's own style (its newlines, and
    the untouched sub-nodes with their formatting and comments).
    """

    description: str
    replacements: Tuple[Tuple[cst.CSTNode, cst.CSTNode], ...]
    safety: str


@dataclass
class Report:
    """A finding before positions are known: the engine turns it into a ``Finding``."""

    rule: "Rule"
    node: cst.CSTNode
    message: str  # may contain "{evidence}", rendered once positions are known
    confidence: str
    evidence: Optional[Evidence]
    suggestion: Optional[str]
    statement: Optional[cst.CSTNode]
    fix: Optional[Fix] = None
    gradient: bool = True  # the value may reach a differentiated objective
    covers: Tuple[cst.CSTNode, ...] = ()  # inner nodes whose superseded findings it replaces
    reach: Any = None  # where the value goes (analysis.reach), for the suspects' ranking
    score: float = 0.0  # `nanlint suspects`: how suspect the line is, and why in words
    why: str = ""
    operand: Optional[cst.CSTNode] = None  # `nanlint suspects`: the value at the bad point
    origins: Tuple[Dict[str, Any], ...] = ()  # and the assignments of its names
    # Ranked by the hunt, not shown by check: computed with numpy (see ``Rule._on_arrays``).
    hunt_only: bool = False
    # Why check drops it where the hunt keeps it (``keep_unreached``): a gradient hazard with
    # no gradient shown to flow, a value only a comparison reads; "" where check shows it.
    left_out: str = ""
    # The module's functions whose callers, in other files of the folder, decide where the
    # value goes (``Reach.callers``): a gradient hazard check keeps pending
    # (``keep_pending``), any hazard the hunt ranks (``nanlint.callers``).
    callers: FrozenSet[str] = frozenset()


_FUNCTIONS = (cst.FunctionDef, cst.Lambda)  # exact classes: no ABC isinstance
NO_GRADIENT_SHOWN = "check shows a gradient hazard only where a gradient is shown to flow"



class _FirstOpCall(cst.CSTVisitor):
    """The first call of a known op. (Visitors are module classes: a class made inside a
    function is a reference cycle, which would keep what its closure holds, up to the whole
    tree, alive until a cyclic collection.)"""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.found: Optional[cst.Call] = None

    def visit_Call(self, call: cst.Call) -> bool:
        if self.found is None and self.analysis.op_of(call) is not None:
            self.found = call
        return self.found is None


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[str] = "error"
    summary: ClassVar[str] = ""
    fix_safety: ClassVar[Optional[str]] = None  # "safe", "unsafe" or None (no fix)
    # When the safety depends on the case, what `nanlint rules` and `nanlint rule` say
    # instead of the bare word (``fix_safety`` stays the default and the machine-readable
    # value), e.g. "safe for proven counts, else unsafe".
    fix_safety_detail: ClassVar[Optional[str]] = None
    options: ClassVar[Dict[str, Option]] = {}
    # Codes whose finding on the same node this rule's finding replaces (a more precise
    # diagnosis of the same expression, e.g. NAN103 `log(softmax(z))` over NAN102).
    supersedes: ClassVar[FrozenSet[str]] = frozenset()
    VALID: ClassVar[List[str]] = []
    INVALID: ClassVar[List[str]] = []
    origin: ClassVar[str] = "nanlint"  # where the rule comes from (built-in or a package)
    # A preview rule is off unless `--preview` / `preview: true`, or selected by its full
    # code: its findings, judged on real code, are not yet 2 in 3 sound (not false). Its
    # docs say why in a `## Preview` section.
    preview: ClassVar[bool] = False
    # "gradient": a hazard of the gradient, reported only where the value is shown to reach
    # a differentiated objective, or reaches somewhere unknown from code that a convention
    # says is differentiated (docs/gradient-reach.md); "forward": a hazard of the value,
    # reported everywhere but one step less confident (and saying so) where no gradient
    # flows; "": neither.
    hazard: ClassVar[str] = ""
    # `nanlint suspects` ranks a gradient hazard where no gradient is shown to flow (lower)
    # instead of dropping it: the engine sets this on the rules it runs for the hunt.
    keep_unreached: bool = False
    # A scan of a folder: a gradient hazard whose way out is a function only other files
    # call is kept, for their calls to decide (``nanlint.callers``).
    keep_pending: bool = False
    # Whether fixes are built: the hunt shows none, so the engine turns this off for it (a
    # rule whose fix costs a code generation asks before building one).
    fixing: bool = True

    # (id(node), code) of the findings already superseded in this file, and the confidence
    # a report needs to supersede (set by the engine, which runs superseding rules first).
    _superseded: Optional[Set[Tuple[int, str]]] = None
    _superseding_confidence: int = 0

    def __init__(self, analysis: Analysis, reports: List[Report],
                 settings: Optional[Dict[str, Any]] = None) -> None:
        self.analysis = analysis
        self._reports = reports
        values = {name: option.default for name, option in self.options.items()}
        values.update(settings or {})
        self.settings = values

    def report(self, node: cst.CSTNode, message: str, *, evidence: Optional[Evidence] = None,
               confidence: Optional[str] = None, suggestion: Optional[str] = None,
               fix: Optional[Fix] = None, covers: Tuple[cst.CSTNode, ...] = (),
               hazard: Optional[str] = None) -> None:
        """``covers``: nodes inside ``node`` that this finding also diagnoses; a finding of
        a code this rule ``supersedes`` on one of them is dropped too. ``hazard``: this
        finding's, where it is not the rule's (a root of a negative value is NaN already in
        the forward pass)."""
        if confidence is None:
            confidence = evidence.confidence if evidence is not None else "high"
        if evidence is not None and evidence.name and evidence.step is None:
            evidence = self._named(evidence)
        hazard = hazard or self.hazard
        reach = (self.analysis.gradient_reach(node) if hazard == "gradient"
                 else self.analysis.reach(node))
        left_out = ""  # why check does not show it (the hunt still ranks it)
        pending: FrozenSet[str] = frozenset()
        if hazard == "gradient" and reach.level == REACH_UNKNOWN:
            # Reach is evidence: a gradient hazard needs a gradient shown to flow, or a
            # convention that says one does (an objective's name, a layer's call).
            convention = self.analysis.differentiated_by_convention()
            if convention:
                message = f"{message} (a gradient flows by convention: {convention})"
                confidence = min(confidence, "medium", key=CONFIDENCE_ORDER.get)
            else:
                left_out = NO_GRADIENT_SHOWN
                pending = reach.callers if self.keep_pending else pending
        if reach == SAMPLED and self._is_log(node):
            return  # -inf is a valid logit: the sampler never draws it, and no gradient flows
        if not reach.gradient:
            if hazard == "gradient":
                left_out = NO_GRADIENT_SHOWN
            elif hazard == "forward":
                if reach == COMPARED:
                    # An inf or NaN compares as a number or as false: a boolean leaves the
                    # comparison, and nothing of the value goes on.
                    left_out = "check leaves out a value that only a comparison reads"
                where = f"{reach.why}; " if reach.why else ""
                message = f"{message} ({where}no gradient flows here)"
                confidence = _weaker(confidence)
        if left_out and not self.keep_unreached and not pending:
            return
        if fix is not None and (not self.fixing or not self._names_bound(fix)):
            fix = None  # `tf.maximum` in a file that imports no `tf`: the help still explains
        statements = self.analysis.cursor.statements
        self._reports.append(Report(self, node, message, confidence, evidence, suggestion,
                                    statements[-1] if statements else None, fix,
                                    gradient=reach.gradient, covers=covers, reach=reach,
                                    hunt_only=self._on_arrays(node, evidence),
                                    left_out=left_out,
                                    callers=reach.callers if self.keep_unreached else pending))
        if (self.supersedes and self._superseded is not None
                and CONFIDENCE_ORDER[confidence] >= self._superseding_confidence):
            self._superseded.update((id(n), code) for n in (node, *covers)
                                    for code in self.supersedes)

    def _on_arrays(self, node: cst.CSTNode, evidence: Optional[Evidence]) -> bool:
        """Whether the hazard or its evidence is computed by a numpy function. The op model's
        facts hold of arrays, but judged on real repositories such findings were mostly wrong
        where they were not unlikely: exponents bounded by what they are (a log of a model's
        probabilities), a fixed dataset's masks, shifts by a helper that returns the maximum,
        which the analysis does not follow. `nanlint suspects` ranks them; `check` does not
        show them."""
        if self._array_call(node):
            return True
        if evidence is None:
            return False
        if evidence.node.__class__ is cst.Call:
            return self._array_call(evidence.node)
        # a form (`e / np.sum(e)`) built by numpy's functions alone
        calls = [self._array_call(part) for part in descendants(evidence.node)
                 if part.__class__ is cst.Call and self.analysis.op_of(part) is not None]
        return bool(calls) and all(calls)

    def _array_call(self, node: cst.CSTNode) -> bool:
        op = self.analysis.op_of(node) if node.__class__ is cst.Call else None
        return op is not None and op.array

    def _named(self, evidence: Evidence) -> Evidence:
        """The evidence said of the variable that carries it: `percent` is *built from* the
        count `reduce_sum(keep)` where it is computed from it (`reduce_sum(keep) / size`, a
        fraction), not the count itself."""
        if evidence.name.isidentifier() and not evidence.what.startswith("built from") and (
                self.holds(cst.Name(evidence.name), evidence.node) is False):
            return replace(evidence, what="built from " + evidence.what)
        return evidence

    def _is_log(self, node: cst.CSTNode) -> bool:
        op = self.analysis.op_of(node) if isinstance(node, cst.Call) else None
        return op is not None and op.name == "log"

    def gradient_shown(self, node: cst.CSTNode) -> bool:
        """Whether a gradient is shown to flow through ``node`` (or a convention says one
        does): what a gradient hazard needs before ``check`` reports it."""
        reach = self.analysis.gradient_reach(node)
        if reach.level == REACH_UNKNOWN:
            return bool(self.analysis.differentiated_by_convention())
        return reach.gradient

    def holds(self, expr: cst.BaseExpression, producer: cst.CSTNode) -> Optional[bool]:
        """Whether ``expr`` holds the value ``producer`` makes, through names, casts and
        reshapes (True); is computed from it by arithmetic or a reduction (False); or
        cannot be told (None: a parameter, a layer's or a function's result, a loop's
        element)."""
        place = self.analysis.here()
        for _ in range(6):
            while expr.__class__ is cst.Call and expr is not producer:  # (no ABC isinstance)
                op = self.analysis.op_at(expr, place)
                if op is None or not expr.args:
                    return None
                if op.transfer == "reduce":
                    return False
                if op.transfer not in ("cast", "like"):
                    return None
                expr = expr.args[0].value  # a cast or a reshape holds the same numbers
            if expr is producer:
                return True
            if not isinstance(expr, cst.Name):
                return False if isinstance(
                    expr, (cst.BinaryOperation, cst.UnaryOperation)) else None
            bound = self.analysis.binding(expr.value, place)
            if bound is None or bound[0].kind != "assign" or bound[0].value is None:
                return None
            expr, place = bound[0].value, bound[1]
        return None

    def _names_bound(self, fix: Fix) -> bool:
        """Whether every name a fix brings in (`tf` of `tf.maximum`, `K`, `ops`) is bound
        where the finding is: a file that imports `from tensorflow import reduce_sum` has
        no `tf`, and a fix that wrote one would raise NameError. A conventional alias the
        file never binds (a star import's `tf`) counts only where the replaced code uses it."""
        for old, new in fix.replacements:
            if is_a(new, cst.CSTNode):
                unbound = {name for name in _module_names(new, old)
                           if (bound := self.analysis.binding(name)) is None
                           or is_free(bound[0])}
                if unbound and not unbound <= set(_module_names(old)):
                    return False
        return True

    def superseded(self, node: cst.CSTNode) -> bool:
        """Whether a finding of this rule on ``node`` is already replaced by another rule's
        (NAN103's ``log(softmax(z))`` replaces NAN102's): a rule whose finding is on the node
        it visits asks this first, and skips the work of a finding nobody will see."""
        return self._superseded is not None and (id(node), self.code) in self._superseded

    # -- building fixes ----------------------------------------------------------------------
    def fix(self, description: str, old: cst.CSTNode, new: cst.CSTNode,
            safety: Optional[str] = None) -> Fix:
        """Replace ``old`` by ``new``; the safety defaults to the rule's ``fix_safety``.
        ``old`` is replaced as written, with its own parentheses, which a position leaves
        out: `1 / (2 * n)` becomes `1 / ((2 * n) + 1e-7)`, as ``new`` shows, not
        `1 / (((2 * n) + 1e-7))` (the node around it is rewritten with ``new`` in its place)."""
        parent = self.analysis.parent(old) if getattr(old, "lpar", None) else None
        if is_a(parent, (cst.BaseExpression, cst.Arg)):
            old, new = parent, parent.deep_replace(old, new)
        return Fix(description, ((old, new),), safety or self.fix_safety or "unsafe")

    def named_like(self, call: cst.CSTNode, replacement: cst.BaseExpression,
                   takes_name: bool) -> Optional[cst.BaseExpression]:
        """``replacement`` for ``call`` with the op name ``call`` gives (TensorFlow's
        ``name=``, or the positional argument after the op's tensors), passed as ``name=``:
        a rewritten op keeps its name in a graph. ``takes_name``: the new op accepts one
        (TensorFlow's fused ops do, Keras's do not); if it does not, None, no fix rather
        than a name dropped. A call that names nothing: ``replacement`` as it is."""
        op = self.analysis.op_of(call) if isinstance(call, cst.Call) else None
        if op is None:
            return replacement
        name = self.analysis.keyword(call, "name")
        if name is None and self.namespace(call)[0] == "tf":
            name = self.analysis.argument(call, op, len(op.args))
        if name is None:
            return replacement
        if not takes_name or not isinstance(replacement, cst.Call):
            return None
        args = [arg for arg in replacement.args
                if arg.keyword is None or arg.keyword.value != "name"]
        return replacement.with_changes(args=[
            *args, cst.Arg(name, keyword=cst.Name("name"), equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""),
                whitespace_after=cst.SimpleWhitespace("")))])

    @staticmethod
    def template(text: str, **parts: cst.BaseExpression) -> cst.BaseExpression:
        """``template("{x} + 1e-7", x=node)``: an expression with the user's nodes inside.
        (libcst's ``parse_template_expression``, with each template parsed only once and the
        parts shared, not deep-cloned: nodes are immutable, and a fix is generated as text.)"""
        key = (text, tuple(sorted(parts)))
        parsed = _TEMPLATES.get(key)
        if parsed is None:
            parsed = cst.parse_expression(mangle_template(text, set(parts)))
            if len(_TEMPLATES) < 512:
                _TEMPLATES[key] = parsed
        return _substitute(parsed, parts)

    def epsilon(self, value: Optional[Value] = None,
                evidence: Optional[Evidence] = None) -> str:
        """The epsilon a fix inserts, as source: one the value's dtype can hold (NAN105).
        Under a root of squared gradients, which is compared with 1 (a gradient penalty),
        the smaller ``fix_epsilon_gradient``: it only has to be representable at 0."""
        settings = self.analysis.settings
        if value is not None and (value.dtype in FLOAT16 or value.dtype == "bfloat16"):
            return _literal(settings.fix_epsilon_float16)
        if evidence is not None and evidence.producer == "gradient":
            return _literal(settings.fix_epsilon_gradient)
        return _literal(settings.fix_epsilon)

    @staticmethod
    def number(value: float) -> cst.BaseExpression:
        """A float literal as people write it (``1e-7``, ``1e-3``, ``0.05``)."""
        return Rule.expression(_literal(value))

    @staticmethod
    def expression(text: str) -> cst.BaseExpression:
        """A small expression written as text (``tf.nn.log_softmax``), parsed once."""
        parsed = _EXPRESSIONS.get(text)
        if parsed is None:
            parsed = cst.parse_expression(text)
            if len(_EXPRESSIONS) < 512:
                _EXPRESSIONS[text] = parsed
        return parsed

    @staticmethod
    def operand(node: cst.BaseExpression) -> cst.BaseExpression:
        """``node`` ready to stand next to any operator: in parentheses unless it is a name,
        an attribute, a call, a subscript or a number (or already parenthesized)."""
        if isinstance(node, _ATOMIC):
            return node
        return _parenthesized(node)

    def plus_epsilon(self, expression: cst.BaseExpression, value: Optional[Value] = None,
                     parenthesize: bool = False) -> cst.BaseExpression:
        """``expression + eps``, in parentheses where an operator binds tighter."""
        inner = expression if _binds_tighter_than_plus(expression) else _parenthesized(
            expression)
        evidence = value.zero if value is not None else None
        if evidence is not None and (evidence.producer == "variance" or (
                value.negative is not None and value.negative.producer == evidence.producer)):
            # rounding makes a hand-computed variance (an expanded squared distance,
            # `1 - cos²`) negative by more than an epsilon: clip it at 0 first (the epsilon
            # alone would leave the finding). Under a root the clip goes inside: the root
            # of a negative value is NaN, and the maximum of NaN and 0 is NaN. A variance
            # that cannot be negative (`tf.nn.moments`'s) needs no clip.
            _, prefix = self.namespace(self._op_call(evidence.node) or self._op_call(expression))
            root = self._root_argument(expression)
            clipped = root if root is not None else expression
            if (self.analysis.value(root) if root is not None else value).lo < 0:
                floor = self.template(prefix + ".maximum({x}, 0.0)", x=clipped)
                inner = floor if root is None else expression.deep_replace(root, floor)
        result = self.template("{x} + " + self.epsilon(value, evidence), x=inner)
        return _parenthesized(result) if parenthesize else result

    def _root_argument(self, expression: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """``v`` of ``tf.sqrt(v)`` (``K.sqrt``, ``np.sqrt``, ``v ** 0.5``), else None."""
        if isinstance(expression, cst.BinaryOperation) and isinstance(
                expression.operator, cst.Power) and self.analysis.value(
                expression.right).const == 0.5:
            return expression.left
        op = self.analysis.op_of(expression) if isinstance(expression, cst.Call) else None
        return self.analysis.argument(expression, op, 0) if op is not None and (
            op.name == "sqrt") else None

    def clamp(self, count: cst.BaseExpression, prefix: str) -> cst.BaseExpression:
        """``prefix.maximum(count, 1)``: the integer 1 takes the count's dtype, whatever it
        is (int64 from ``count_nonzero``, float32 from a cast), where ``1.0`` fails for an
        integer count."""
        return self.template(prefix + ".maximum({d}, 1)", d=count)

    def integer_typed(self, node: Optional[cst.CSTNode], depth: int = 0) -> bool:
        """Whether ``node`` is known to have an integer dtype, to which no epsilon can be
        added: a cast or a ``dtype=`` to one, ``count_nonzero`` (int64 unless told
        otherwise), an integer literal, and what reductions, element-wise ops and
        arithmetic other than ``/`` make of them (also through names)."""
        if depth > 6 or node is None:
            return False
        if isinstance(node, cst.Integer):
            return True
        if isinstance(node, cst.Name):
            return self.integer_typed(self.analysis.definition(node), depth + 1)
        if isinstance(node, cst.UnaryOperation):
            return self.integer_typed(node.expression, depth + 1)
        if isinstance(node, cst.BinaryOperation):
            return not isinstance(node.operator, cst.Divide) and self.integer_typed(
                node.left, depth + 1) and self.integer_typed(node.right, depth + 1)
        if not isinstance(node, cst.Call):
            return False
        op = self.analysis.op_of(node)
        if op is None:
            return False
        dtype = self.analysis.keyword(node, "dtype")
        if op.transfer == "cast":
            positional = [arg.value for arg in node.args if arg.keyword is None]
            return integer_dtype(dtype or (positional[1] if len(positional) > 1 else None))
        if dtype is not None:
            return integer_dtype(dtype)
        if op.name == "count_nonzero":
            return True
        if op.name == "reduce_mean" and self.analysis.spelling(node.func).startswith("ops."):
            return False  # Keras 3's `ops.mean` of integers is a float
        if op.transfer in ("like", "reduce", "abs", "square", "maximum", "minimum", "add",
                           "subtract", "multiply"):
            return self.integer_typed(self.analysis.argument(node, op, 0), depth + 1)
        return False

    def rewritten(self, node: cst.CSTNode, old: cst.CSTNode, new: cst.CSTNode) -> str:
        """``node``'s source with ``old`` replaced by ``new``, on one line: what a fix
        replacing ``old`` writes, for the help line to show."""
        return self.source(node.deep_replace(old, new))

    def _op_call(self, node: cst.CSTNode) -> Optional[cst.Call]:
        """The first call of a known op in ``node`` (to spell a fix's ops as the file does)."""
        first = _FirstOpCall(self.analysis)
        visit_tree(node, first)
        return first.found

    def namespace(self, call: Optional[cst.Call],
                  families: Tuple[str, ...] = ("tf", "ops", "K")) -> Tuple[str, str]:
        """(family of the op's canonical spelling: `tf`, `ops`, `K` or `np`; the user's prefix
        for it: `tf`, `tf1`, `tf.compat.v1`, `ops`, `keras.ops`, `K`, `np`, `numpy`), to spell a
        fix's ops the way the file spells them. A call of another family
        (`activations.softmax`), or of one not in ``families`` (those that have the ops the
        caller spells), gives `tf`."""
        if call is None:
            return "tf", "tf"
        spelling = self.analysis.spelling(call.func)
        func = self.source(call.func)
        family, _, tail = spelling.partition(".")
        if family == "np" and "np" in families:  # numpy's, for a rule that spells numpy's
            return "np", func.rpartition(".")[0] or "np"
        if family not in families:
            return "tf", "tf"
        if family == "tf":
            return "tf", func[: -len(tail) - 1] if func.endswith("." + tail) else "tf"
        if family in ("ops", "K"):
            return family, func.rpartition(".")[0] or ("keras.ops" if family == "ops" else "K")
        return "tf", "tf"

    # -- helpers every rule may use ---------------------------------------------------------
    def aliases(self, expr: cst.BaseExpression, hops: int) -> FrozenSet[str]:
        """Spellings of a value: its source, the source of its definition (``hops`` names
        deep), and the other factor of a product or quotient by a constant (`2 * p` is 0
        where `p` is, and large where it is), through casts and reshapes."""
        found = {self.source(expr)}
        if expr.__class__ is cst.BinaryOperation and isinstance(
                expr.operator, (cst.Multiply, cst.Divide)):
            for this, other in ((expr.left, expr.right), (expr.right, expr.left)):
                if self.analysis.value(other).const is not None:
                    found |= self.aliases(this, hops)
        elif expr.__class__ is cst.Call and expr.args:
            op = self.analysis.op_of(expr)
            if op is not None and op.transfer in ("like", "cast"):
                found |= self.aliases(expr.args[0].value, hops)
        elif expr.__class__ is cst.Name and hops > 0:
            definition = self.analysis.definition(expr)
            if definition is not None:
                found |= self.aliases(definition, hops - 1)
        return frozenset(found)

    def function_elsewhere(self, node: cst.CSTNode) -> Optional[cst.FunctionDef]:
        """The function whose body holds ``node``, if the rule is not inside it now: the
        names there do not exist where the finding is, so a suggestion must not use them."""
        parent = self.analysis.parent(node)
        while parent is not None and parent.__class__ not in _FUNCTIONS:
            parent = self.analysis.parent(parent)
        if parent is None or any(scope is parent for scope in self.analysis.cursor.scopes):
            return None
        return parent if isinstance(parent, cst.FunctionDef) else None

    def source(self, node: cst.CSTNode) -> str:
        return " ".join(self.analysis.code(node).split())

    def compact(self, node: cst.CSTNode, limit: int = 60) -> str:
        """The node's source on one line, without comments, shortened for a message."""
        lines = []
        for line in self.analysis.code(node).splitlines():
            if "#" in line and "'" not in line and '"' not in line:
                line = line[: line.index("#")]
            lines.append(line)
        text = " ".join(" ".join(lines).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."

    @staticmethod
    def stronger(evidence: Optional[Evidence], other: Optional[Evidence]) -> Optional[Evidence]:
        if evidence is None:
            return other
        if other is None:
            return evidence
        if CONFIDENCE_ORDER[other.confidence] > CONFIDENCE_ORDER[evidence.confidence]:
            return other
        return evidence

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def section(cls, title: str) -> str:
        """The text of one ``## title`` section of the documentation ("" if it has none)."""
        found, lines = False, []
        for line in cls.documentation().splitlines():
            if line.startswith("## "):
                found = line[3:].strip() == title
            elif found:
                lines.append(line)
        return "\n".join(lines).strip()

    @classmethod
    def handlers(cls) -> List[Tuple[type, str]]:
        """(libcst node type, method name) for each ``visit_<Node>`` the rule defines."""
        found = cls.__dict__.get("_handlers")
        if found is not None:
            return found
        found = []
        for attr in dir(cls):
            if attr.startswith("visit_"):
                node_type = getattr(cst, attr[len("visit_"):], None)
                if node_type is None:
                    raise TypeError(f"{cls.__name__}.{attr}: no libcst node of that name")
                found.append((node_type, attr))
        cls._handlers = found  # one class, one answer: asked for every file
        return found


_TEMPLATES: Dict[Tuple[str, Tuple[str, ...]], cst.BaseExpression] = {}
_EXPRESSIONS: Dict[str, cst.BaseExpression] = {}


def _module_names(node: cst.CSTNode, kept: Optional[cst.CSTNode] = None):
    """The heads of the dotted names an expression reads (`tf` of `tf.nn.relu`): where a
    fix names a module. (A bare name comes from the user's code, as the fix moves it; so
    does ``kept``, the code the fix replaces, where it appears whole in the fix.)"""
    if node is kept:
        return
    if node.__class__ is cst.Attribute:
        head = node.value
        while head.__class__ is cst.Attribute:
            head = head.value
        if head.__class__ is cst.Name:
            yield head.value
            return
    for child in children(node):  # libcst's ``node.children`` rebuilds the node to list them
        yield from _module_names(child, kept)


def _weaker(confidence: str) -> str:
    """One step less confident: high → medium → low."""
    order = sorted(CONFIDENCE_ORDER, key=CONFIDENCE_ORDER.get)
    return order[max(0, CONFIDENCE_ORDER[confidence] - 1)]


def _literal(number: float) -> str:
    """``1e-07`` → ``1e-7``, ``0.001`` → ``1e-3``: an epsilon as people write it."""
    text = repr(float(number))
    if "e" not in text and 0 < number < 0.01:
        mantissa, exponent = f"{number:.12e}".split("e")
        text = f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
    return text.replace("e-0", "e-")


_ATOMIC = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)
_TIGHT_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide,
                    cst.Modulo, cst.Power, cst.MatrixMultiply)


def _binds_tighter_than_plus(node: cst.BaseExpression) -> bool:
    """``node + x`` reads as intended without parentheses around ``node``."""
    if getattr(node, "lpar", None):
        return True
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, _TIGHT_OPERATORS)
    if isinstance(node, cst.UnaryOperation):
        return not isinstance(node.operator, cst.Not)
    return not isinstance(node, (cst.BooleanOperation, cst.Comparison, cst.IfExp, cst.Lambda,
                                 cst.NamedExpr, cst.Yield, cst.Await))


def _parenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    if getattr(node, "lpar", None):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _substitute(node: cst.CSTNode, parts: Dict[str, cst.BaseExpression]) -> Any:
    """``node`` (a parsed template) with each placeholder name replaced by its part, as
    libcst's ``unmangle_nodes`` does for expressions; only the nodes above a placeholder are
    rebuilt."""
    if node.__class__ is cst.Name:
        name = unmangled_name(node.value)
        return parts[name] if name in parts else node
    changes: Dict[str, Any] = {}
    for field in fields(node):
        old = getattr(node, field.name)
        if isinstance(old, cst.CSTNode):
            new = _substitute(old, parts)
        elif isinstance(old, (tuple, list)):
            items = [_substitute(item, parts) if isinstance(item, cst.CSTNode) else item
                     for item in old]
            new = old if all(a is b for a, b in zip(items, old)) else type(old)(items)
        else:
            continue
        if new is not old:
            changes[field.name] = new
    return node.with_changes(**changes) if changes else node


from nanlint.branches import (  # noqa: E402 (they take a Rule)
    denominator_forms, in_tested_branch, large_values_pass, safe_branches, tests)
