"""`nanlint suspects`: every operation that can make training NaN, best first.

The gate (`check`) reports only what it has evidence for. The hunt starts after a run printed
`loss: nan` and wants every place that can produce it, ranked. Same analysis, second output:
in suspects mode the engine runs every rule (preview rules too, and gradient hazards also
where no gradient is shown to flow), and ``Sites`` (``nanlint.hazard_sites``) lists, in the
same walk, each operation with a singular point. ``ranked`` scores the rules' reports and the
sites they do not cover by four features (``_score``): the evidence, the gradient's reach,
guards, and the place in training; it keeps the best candidate of each line.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Tuple

import libcst as cst

from nanlint import suppression
from nanlint.analysis import Analysis, Evidence
from nanlint.analysis.sinks import NONE, OBJECTIVE, Reach
from nanlint.analysis.tree import last_name
from nanlint.finding import Finding
from nanlint.findings_of import as_findings, suppressed
from nanlint.origins import Origins, names_read
from nanlint.hazard_sites import (BOUNDED_INVERSES, EPSILON_FLOOR, FLOAT16_MAX,
                                  FLOAT16_OVERFLOW, KINDS, Site, Sites)
from nanlint.positions import Positions, report_nodes
from nanlint.rule import NO_GRADIENT_SHOWN, Report
from nanlint.suspects_report import copy_key

__all__ = ["Sites", "ranked"]

# Functions whose names say where they stand in training.
MODEL_FUNCTIONS = re.compile(r"^(call|__call__|forward|build|inference)$|model|net|layer|"
                             r"encoder|decoder|block|attention|head")
TEST_FUNCTIONS = re.compile(r"^test_(?!(step|on_batch|function)$)")  # Keras's are not
# A file that computes in float16, or can: a dtype, a policy, a flag.
FLOAT16_FILE = re.compile(r"float16|fp16|mixed_precision|\.half\b")


# -- scoring -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Family:
    """What a site's finding is filed under: the rule (or rule family) of its kind."""

    code: str
    name: str
    severity: str = "info"
    what: str = ""  # the message's words before the operand ("a division by")


# The four features, as points (the evidence dominates, then reach, guards, place).
EVIDENCE = {"report-high": 8.0, "report-medium": 7.0, "report-low": 6.0,
            "report-convention": 5.0, "producer": 5.0, "convention": 3.5, "domain edge": 3.5,
            "complement": 3.5, "box component": 3.5, "difference": 3.0, "statistic": 3.0,
            "hand-written": 3.0, "both signs": 3.0, "distance": 3.0, "signed": 3.0,
            "boundary": 5.0, "overflow": 3.0, "unbounded": 3.0, "rounding": 3.5,
            # fill values (``_fill_evidence``)
            "0 * inf": 5.0, "inf into softmax": 4.5, "extreme into softmax": 3.5,
            "inf test": 3.0, "inf fill": 2.5, "extreme fill": 2.0, "inf unused": 1.5,
            "unknown": 2.0, "understood": 1.0, "learning rate": 1.5, "partial guard": 1.5,
            "selection": 3.0, "empty list": 3.0, "all NaN": 3.0, "unselected": 4.0,
            "float16 epsilon": 3.5, "float32 epsilon": 3.5, "unbiased": 3.5,
            "misplaced epsilon": 5.0}
# Half float16's smallest subnormal (2**-24): a smaller epsilon rounds to 0 in float16
# (checked under TensorFlow), so where the file computes in float16 it guards nothing.
FLOAT16_ZERO = 2.0 ** -25
# An epsilon below 1 / sqrt(float32's maximum) makes a division's gradient, -a / b², inf at
# the point it was meant to guard (checked under TensorFlow: 1e-19 gives -1e38, 5e-20 -inf).
FLOAT32_SQUARE_FLOOR = 3.4028235e38 ** -0.5
REACH = {OBJECTIVE: 2.0, NONE: -0.5}
NO_GRADIENT = -2.5  # a hazard of the gradient only, where no gradient flows
# Where a value ends that is watched rather than trained: a metric, a summary, a log.
WATCHED = ("in a metric", "only summarized", "only logged", "only fetched by sess.run",
           "in an assertion")
GUARDED = -5.0
# A fill that is infinite only in float16, where float16 is not sure: the values it meets
# are cast to a dtype held in a variable (the caller's), or only the file uses float16.
FILL_CALLER = -1.0
FILL_FILE = -2.5
PLACE = {"loss": 1.0, "model": 0.5, "metric or summary": -2.0, "test": -2.0}
SIZE = -3.0
SUPPRESSED = -3.0
UNCALLED = -3.0  # in code nothing in the folder calls (``uncalled``): it never ran


def _report_family(code: str) -> float:
    """The kind weight of a rule's code (the training rules rank under the numeric ones)."""
    for kind in KINDS.values():
        if kind.code == code:
            return kind.weight
    return 0.0 if code.startswith(("NAN1", "NAN2")) else -0.5


def _evidence_of(site: Site, wrapper: bool = False, float16: bool = False
                 ) -> Tuple[str, Optional[Evidence], str]:
    """The evidence feature of a site, the evidence to render, and the guard if any. In a
    file that uses float16, an epsilon under half float16's smallest subnormal is no guard:
    it is 0 there."""
    value, kind = site.value, site.kind
    if kind.name == "float16":
        if value.huge is not None:
            return "producer", value.huge, ""
        if value.lo >= -FLOAT16_MAX and value.hi <= FLOAT16_MAX:
            return "guarded", None, "its operand stays within float16's range (65504)"
    if kind.huge:
        if value.huge is not None:
            return "producer", value.huge, ""
        if value.hi < 80:
            return "guarded", None, "its operand is bounded above"
    elif kind.name == "inverse-trig":
        # acos/asin: an infinite gradient at ±1, NaN beyond; a clip to [-1, 1] reaches it.
        if value.lo > -1 and value.hi < 1:
            return "guarded", None, "its operand is kept inside (-1, 1)"
        if "cosine" in value.tags and value.bound is not None:
            return "producer", value.bound, ""  # ±1 for parallel vectors, past it by rounding
        if (value.lo == -1 and not value.lo_open) or (value.hi == 1 and not value.hi_open):
            return "boundary", None, ""
    else:
        if kind.zero and value.positive:
            if value.lo == 0:  # `where(d > 0, d, 1.)`: just above 0 the quotient is huge
                return "partial guard", None, "its operand is kept above 0 by a test only"
            if value.lo < FLOAT32_SQUARE_FLOOR and kind.name == "division":
                return "float32 epsilon", None, (
                    f"its operand is kept above 0 by {value.lo:g} only, whose square float32 "
                    "cannot hold: the division's gradient, -a / b², is inf there")
            if value.lo < FLOAT16_ZERO and float16:
                return "float16 epsilon", None, (f"its operand is kept above 0 by {value.lo:g} "
                                                 "only, which is 0 in float16")
            if value.lo < EPSILON_FLOOR:
                return "partial guard", None, f"its operand is kept above 0 by {value.lo:g} only"
            return "guarded", None, "its operand is kept above 0"
        if kind.zero and not kind.negative and "nonzero" in value.tags:
            return "guarded", None, "its operand is tested against 0 (`where(d != 0, d, c)`)"
        if site.form.startswith("guarded: "):  # a test excludes the 0 its producer can give
            return "guarded", None, site.form[len("guarded: "):]
        found = value.zero if kind.zero else None
        if found is None and kind.negative:
            found = value.negative
        if found is not None:
            return ("convention" if found.convention else "producer"), found, ""
    for guard in ("guarded", "partial guard"):
        if site.form.startswith(guard + ": "):
            return guard, None, site.form[len(guard) + 2:]
    if site.form:
        return site.form, None, ""
    if site.operand is None:
        return "learning rate", None, ""
    if kind.huge and value.known and value.hi == float("inf"):
        return "unbounded", None, ""  # a matmul, a linear output: nothing bounds it
    if kind.name == "inverse-trig" and not wrapper:
        # What these ops are given reaches the edge of their domain by what it is: a
        # cosine (equal vectors), a tanh (saturated), 1 + a distance (equal points); and
        # rounding takes a cosine computed in float32 past 1.
        return "domain edge", None, ""
    # numpy's ops claim no 0 (see optable.NUMPY_TRANSFERS): knowing one says nothing
    numpy = (value.origin or "").startswith("np.")
    return ("understood" if value.known and not numpy else "unknown"), None, ""


def _wrapper(analysis: Analysis, site: Site) -> bool:
    """Whether the site is the op of a function that is the op under another name, applied
    to a parameter: a function named as the op it calls (``def arccos(x): ...
    tf.math.acos(x)``, a backend's definition), or whose body only returns the op.
    What the op is given there is its callers'."""
    operand = site.operand
    function = analysis.function_of(site.node)
    if function is None or operand is None or operand.__class__ is not cst.Name:
        return False
    params = function.params
    if operand.value not in {param.name.value for param in (
            *params.posonly_params, *params.params, *params.kwonly_params)}:
        return False
    node = site.node
    called = last_name(node.func) if node.__class__ is cst.Call else None
    if called is not None and _op_word(function.name.value) == _op_word(called):
        return True
    body = list(getattr(function.body, "body", ()))
    if function.get_docstring() is not None:
        body = body[1:]
    return (len(body) == 1 and body[0].__class__ is cst.SimpleStatementLine
            and len(body[0].body) == 1 and body[0].body[0].__class__ is cst.Return
            and body[0].body[0].value is node)


def _op_word(name: str) -> str:
    """An op's name as numpy or TensorFlow spells it (``arccos``, ``acos``: one op)."""
    name = name.lower().lstrip("_")
    return "a" + name[3:] if name.startswith("arc") else name


def _place(analysis: Analysis, node: cst.CSTNode, reach: Optional[Reach]) -> str:
    function = analysis.function_of(node)
    if reach is not None and reach.level == NONE and reach.why in WATCHED:
        return "metric or summary"
    if reach is not None and reach.level == NONE and reach.why == "in a test":
        return "test"
    if function is None:
        return ""
    name = function.name.value
    if TEST_FUNCTIONS.search(name):
        return "test"
    if analysis.computes_loss(function):
        return "loss"
    if MODEL_FUNCTIONS.search(name.lower()):
        return "model"
    return ""


def _reach_words(reach: Optional[Reach]) -> str:
    if reach is None:
        return "reach unknown"
    if reach.level == OBJECTIVE:
        return "reaches the loss"
    if reach.level == NONE:
        return f"no gradient ({reach.why})" if reach.why else "no gradient flows"
    return "reach unknown"


def _score(evidence: str, reach: Optional[Reach], place: str, weight: float,
           gradient_only: bool) -> float:
    points = EVIDENCE.get(evidence, GUARDED) + weight + PLACE.get(place, 0.0)
    if reach is not None:
        points += NO_GRADIENT if gradient_only and reach.level == NONE else REACH.get(
            reach.level, 0.0)
    return points


def ranked(analysis: Analysis, text: Tuple[str, ast.Module], reports: List[Report],
           sites: Sites, path: str, lines: List[str], comments: suppression.Suppressions,
           describe_line: Callable[[int], str]) -> List[Finding]:
    """The suspects of one file as findings with ``score`` and ``why``, best first."""
    covered = {id(node) for report in reports for node in (report.node, *report.covers)}
    operands = {id(site.node): site.operand for site in sites.found}
    for report in reports:
        report.operand = operands.get(id(report.node))
    candidates = list(reports)
    float16 = FLOAT16_FILE.search(text[0]) is not None  # whether the file shows float16
    for site in sites.found:
        if id(site.node) in covered:
            continue
        if site.dtype_unknown and not float16:
            continue  # a cast to a variable's dtype in a file that never has float16
        candidates.append(_site_report(analysis, site, sites.reach(site), float16))
    for report in reports:
        evidence = report.evidence
        if evidence is not None and evidence.convention:
            feature = "report-convention"
        elif report.hunt_only:  # numpy's: evidence a producer shows, which check leaves out
            feature = "producer"
        else:
            feature = f"report-{report.confidence}"
        place = _place(analysis, report.node, report.reach)
        report.score = _score(feature, report.reach, place, _report_family(report.rule.code),
                              getattr(report.rule, "hazard", "") == "gradient")
        how = "by a naming convention" if feature == "report-convention" else (
            f"{report.confidence} confidence")
        whose = (f"{report.rule.code}'s evidence in numpy code (check leaves numpy to the hunt)"
                 if report.hunt_only else
                 f"{report.rule.code}'s evidence ({report.left_out})" if report.left_out else
                 f"check's {report.rule.code}")
        report.why = _why(f"{whose}, {how}", report.reach, place)
    positions = Positions(analysis.module,
                          (node for report in candidates for node in report_nodes(report)),
                          *text, analysis.parent)
    on_line: Dict[int, List[Report]] = {}
    for report in candidates:
        if suppressed(report, positions, comments):
            report.score += SUPPRESSED
            report.why += "; suppressed by a comment"
        on_line.setdefault(positions[report.node].start.line, []).append(report)
    for found in on_line.values():
        found.sort(key=lambda r: -r.score)  # stable: of equals, the first met
    def order(report: Report) -> Tuple[float, int, int]:  # best first, then reading order
        start = positions[report.node].start
        return -report.score, start.line, start.column

    kept = sorted((found[0] for found in on_line.values()), key=order)  # a line's best
    for report in kept:
        if not report.message:
            _worded(analysis, report)
    kept += _stand_ins(analysis, kept, on_line, positions)
    kept.sort(key=order)
    origins = Origins(text[1], lines)
    for report in kept:
        place = positions[report.node]
        # A rule's report at a node no hazard site has (an epsilon's sum, a learning rate):
        # where the names it reads are set, which is where it is fixed.
        read = report.operand if report.operand is not None else (
            report.node if isinstance(report.node, cst.BaseExpression) else None)
        found = origins.of(names_read(read), place.start.line, place.end.line)
        report.origins = tuple(
            {"name": name, "line": line, "end_line": end} for name, line, end in
            found + _producer(analysis, report, positions, place, found))
    return as_findings(analysis, positions, kept, path, lines, describe_line,
                       with_fixes=False)


def _copy_key(report: Report) -> Tuple[str, str]:
    """``copy_key`` of a report (``suspects_report.in_file_order`` names the copy among the
    first's places)."""
    return copy_key(report.rule.code, report.message)


def _stand_ins(analysis: Analysis, kept: List[Report], on_line: Dict[int, List[Report]],
               positions: Positions) -> List[Report]:
    """For a line whose best suspect is a copy of a better one elsewhere (listed among that
    one's places, not as the line's own), the line's next suspect that is not: the line
    still has its own hazard to show (a root of a difference, beside a division by a
    counter already reported on the line before). ``kept``: each line's best, best first."""
    seen = set()
    added = []
    for report in kept:
        key = _copy_key(report)
        if key not in seen:
            seen.add(key)
            continue
        for other in on_line[positions[report.node].start.line][1:]:
            if not other.message:
                _worded(analysis, other)
            if _copy_key(other) not in seen:
                added.append(other)
                break
    return added


def _producer(analysis: Analysis, report: Report, positions: Positions, place: Any,
              found: List[Tuple[str, int, int]]) -> List[Tuple[str, int, int]]:
    """Where the evidence's producer stands, when the operand's assignments do not show it:
    a value that came in through a call's argument, or through names the operand does not
    read. The zero (or the overflow) is made there, and a fix often goes there."""
    evidence = report.evidence
    where = positions.get(evidence.node) if evidence is not None else None
    if where is None or evidence.convention:
        return []
    line, end = where.start.line, where.end.line
    if line <= place.end.line and end >= place.start.line or any(
            line <= last and end >= first for _, first, last in found):
        return []
    name = evidence.name if evidence.name and evidence.name.isidentifier() else (
        " ".join(analysis.code(evidence.node).split())[:40])
    return [(name, line, end)]


def _gradient_only(site: Site) -> bool:
    """Whether the site is a hazard of the gradient alone. A root or a fractional power is
    singular in the gradient only at 0; below 0 its value is NaN, so where its operand may
    be negative it is a hazard of the value too. So are `acos` and `asin` past ±1 (rounding
    takes a cosine computed in float32 there: a cosine the analysis sees computed is one),
    and `acosh` and `atanh` anywhere: their value is NaN or infinite at the ends of their
    domain."""
    kind, value = site.kind, site.value
    if kind.name == "inverse-trig":
        return last_name(getattr(site.node, "func", site.node)) in BOUNDED_INVERSES and (
            value.lo >= -1 and value.hi <= 1) and "cosine" not in value.tags
    return kind.gradient and not (kind.negative and not value.nonnegative)


def _site_report(analysis: Analysis, site: Site, reach: Reach, float16: bool) -> Report:
    kind = site.kind
    doubt, fact = 0.0, ""  # a fill's or a global norm's own words
    if site.fill is not None:
        feature, evidence, fact, doubt = _fill_evidence(analysis, site, float16)
        guard = fact
    elif kind.name == "global-norm":
        # One inf gradient makes the global norm inf, and every clipped gradient NaN; in
        # float16 the sum of squares is inf once the norm passes 256.
        feature, evidence, guard = ("overflow" if float16 else "understood"), None, ""
        fact = "one inf gradient makes the norm inf and every clipped gradient NaN" + (
            "; in float16 the norm is inf past 256" if float16 else "")
    else:
        feature, evidence, guard = _evidence_of(
            site, site.kind.name == "inverse-trig" and _wrapper(analysis, site), float16)
    place = _place(analysis, site.node, reach)
    score = _score(feature, reach, place, kind.weight,
                   feature != "unbiased" and (_gradient_only(site)
                                              or feature == "float32 epsilon")) + doubt
    words = fact if fact and feature not in ("guarded", "partial guard") else {
             "producer": "a producer reaches the singular point",
             "convention": "named like a value that can reach it",
             "unknown": "operand of unknown origin",
             "understood": "no evidence it reaches the singular point",
             "learning rate": f"a learning rate of {site.rate:g}: training diverges if it is "
                              f"too large for this model",
             "difference": "a difference, 0 where its sides are equal",
             "complement": "`1 - x²`, written for an x in [-1, 1] (a cosine, a "
                           "correlation, a tanh): 0 where x reaches ±1, and below 0 where "
                           "rounding takes it past",
             "distance": "a root of squares or differences, 0 where the points coincide",
             "boundary": "its operand reaches ±1, where the gradient is infinite",
             "domain edge": "what it is given (a cosine, a tanh, 1 + a distance) reaches "
                            "the edge of its domain, where the gradient is infinite, and "
                            "rounding takes it past (NaN)",
             "box component": "a width or height of boxes (by the name): 0 for the "
                              "all-zero rows that pad a box tensor",
             "statistic": "a statistic, 0 for an all-zero or constant input",
             "signed": "a log of a square or an absolute value: what it takes has both "
                       "signs, and is 0 where it crosses 0",
             "hand-written": "an exp a log or a division takes (a hand-written softplus, "
                             "softmax or sigmoid): inf past 88",
             "both signs": "an exp of both x and -x (a hand-written cosh, sinh or tanh): "
                           "one of them is inf once |x| passes 88, whatever its sign",
             "unbounded": "a value nothing bounds (a matmul, a linear output): inf past 88",
             "rounding": "a hand-computed variance E[x²] - E[x]²: below 0 by rounding near "
                         "a constant input, NaN under a root or a log",
             "overflow": "a sum, square, variance or norm: past 65504 it is inf in float16",
             "partial guard": f"partly guarded: {guard}",
             "float16 epsilon": f"{guard}, which the file uses",
             "float32 epsilon": guard,
             "misplaced epsilon": "an epsilon added to its result, not its operand: a "
                                  "guard that guards nothing, written where the operand "
                                  "was expected to reach 0",
             "unbiased": "an unbiased estimate divides by n - 1: 0 / 0 = NaN for a single "
                         "sample along its axis",
             "selection": "a selection by a mask: empty where the mask is all false, and "
                          "the mean of nothing is 0/0 = NaN",
             "all NaN": "a statistic of the entries that are not NaN: NaN where all of a "
                        "slice are",
             "unselected": "an exp taken also where a test of its input picks another "
                           "value (it can be large there): inf there, and 0 * inf is NaN, "
                           "in a masked sum's value or in the gradient of `where`",
             "empty list": "a list that can be empty (a filtered comprehension, a graph "
                           "collection nothing was added to), and the mean of nothing is "
                           "0/0 = NaN",
             "guarded": f"guarded: {guard}"}[feature]
    if site.rate:
        # A larger learning rate is more suspect: +0.5 per decade above 1e-3 (at most 2).
        score += min(2.0, max(0.0, 0.5 * (math.log10(site.rate) + 3)))
    if site.note:
        score += SIZE
        words += f"; {site.note}"
    # The message names the operand's code: written for the reports kept (``_worded``)
    report = Report(Family(kind.code, kind.name, what=kind.what), site.node, "",
                    evidence.confidence if evidence is not None else "low", evidence, None,
                    site.statement, gradient=reach.gradient, reach=reach,
                    operand=site.operand,
                    callers=reach.callers)
    report.score = score
    report.why = _why(words, reach, place)
    return report


def _worded(analysis: Analysis, report: Report) -> None:
    """A site's message: what its kind does to the operand, and the evidence if any."""
    code = analysis.code(report.operand or report.node)
    report.message = f"{report.rule.what} {_quoted(code)}"
    if report.evidence is not None:
        report.message += ": {evidence}"


def _fill_evidence(analysis: Analysis, site: Site, float16: bool
                   ) -> Tuple[str, Optional[Evidence], str, float]:
    """The evidence feature of a fill value, the softmax of its function (as evidence for
    the message), the fact behind it in words, and how sure its dtype is (points to add).

    Infinite in its dtype (an infinity; beyond 65519 in float16): 0 * it is NaN where a mask
    is 0, and a softmax of a row that is all fill is NaN (exp(-inf - -inf)). Beyond 65519 it
    is infinite only in float16: sure where the values it meets are float16, less where they
    are cast to a dtype held in a variable (float16 under a float16 policy), least where
    only the file uses float16. A dtype's extreme (`tf.float16.min`) overflows to -inf as
    soon as something is added to it. A test for an infinity (`x == -np.inf`) says the value
    can be one. A fill that is finite in its dtype is no hazard."""
    fill = site.fill
    assert fill is not None
    code = _quoted(analysis.code(site.node))
    inf = "-inf" if fill.negative else "inf"
    fed = None
    if fill.softmax is not None:
        fed = Evidence(fill.softmax, "in the function that calls `{op}`",
                       f"which gives NaN for a row that is all {inf}", "medium")
    if fill.use == "test":
        return "inf test", None, (f"a test for {code}: the value can be {inf}, and the "
                                  "test misses the NaN arithmetic makes of it"), 0.0
    overflows = fill.magnitude >= FLOAT16_OVERFLOW and (
        fill.dtype in ("float16", "caller", "policy") or (float16 and fill.dtype == ""))
    if fill.infinite or overflows:
        fact, doubt = f"{code} is {inf}", 0.0
        if not fill.infinite:
            fact, doubt = {"float16": (f"{code} is {inf} in float16", 0.0),
                           "caller": (f"{code} is {inf} in float16, the dtype its values "
                                      "are cast to under a float16 policy", FILL_CALLER),
                           "policy": (f"{code} is {inf} in float16, which the file's dtype "
                                      "policy computes in", FILL_CALLER),
                           "": (f"{code} is {inf} in float16, which the file uses",
                                FILL_FILE)}[fill.dtype]
        if fill.use == "product":
            return "0 * inf", fed, f"{fact}, and 0 * {inf} is NaN where the mask is 0", doubt
        if fill.use == "definition":  # written, and not seen filling a tensor in the file
            return "inf unused", None, (f"{fact}, written here; the file does not show it "
                                        "filling a tensor (a mask, a softmax's logits)"), doubt
        return ("inf into softmax" if fed is not None else "inf fill"), fed, (
            f"{fact}: a softmax of a row all {inf} is NaN"), doubt
    if fill.extreme:
        fact = f"{code} is a dtype's extreme: a sum with it overflows to {inf}"
        return ("extreme into softmax" if fed is not None else "extreme fill"), fed, fact, 0.0
    where = "the values it meets have float32's range" if fill.dtype == "float32" else (
        "the file does not use float16")
    return "guarded", None, f"{code} is {inf} only in float16, and {where}", 0.0


def _why(evidence: str, reach: Optional[Reach], place: str) -> str:
    parts = [evidence, _reach_words(reach)]
    if place:
        parts.append(f"in a {place}")
    return "; ".join(parts)


def _quoted(code: str, limit: int = 60) -> str:
    """The expression in backquotes, whole, or words when it is too long for a message."""
    code = " ".join(code.split())
    return f"`{code}`" if len(code) <= limit else "an expression"


def uncalled(suspect: Finding) -> Finding:
    """``suspect`` in a definition nothing in the folder calls: listed, as the hunt lists
    everything, but below what ran."""
    return replace(suspect, score=(suspect.score or 0.0) + UNCALLED,
                   why=f"{suspect.why}; in code nothing in the folder calls")


def reached_through(suspect: Finding, function: str, call: str) -> Finding:
    """``suspect`` (a hazard whose way out is what ``function`` returns) once a call of
    ``function`` in another file (``call``: `path:line`) is shown to send its result to a
    differentiated objective: it reaches the loss, and `check` of the folder shows it."""
    why = (suspect.why or "").replace(
        _reach_words(None), f"reaches the loss (`{function}` is called at {call})", 1)
    why = re.sub(rf"(NAN\d+)'s evidence \({re.escape(NO_GRADIENT_SHOWN)}\)", r"check's \1",
                 why)
    return replace(suspect, score=(suspect.score or 0.0) + REACH[OBJECTIVE], why=why,
                   callers=())
