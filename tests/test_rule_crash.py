"""A rule that raises on a file: one internal-error finding naming the rule and the
exception, the crashing rule switched off for the rest of that file, the other rules and the
other files unaffected, exit code 2, the traceback only with --verbose."""

import json

from cli_helpers import TF_LOG, TF_MIXED, _no_colour_variables, make, nanlint
from conftest import options_for
from nanlint.engine import lint_source
from nanlint.rule import Rule
from nanlint.rules.log_of_zero import LogOfZero

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest


class Explodes(Rule):
    """Reports every call, and raises on the second one."""

    code = "NAN998"
    name = "explodes"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0

    def visit_Call(self, node):
        self.calls += 1
        if self.calls == 2:
            raise ValueError("no such\nop")
        self.report(node, "a call")


def test_the_crashing_rule_stops_and_the_others_still_report():
    options = options_for(["NAN101", "NAN102", "NAN201"])
    expected = [(f.code, f.line) for f in lint_source(TF_MIXED, "m.py", options)]
    options.rules = [Explodes, *options.rules]
    findings = lint_source(TF_MIXED, "m.py", options)
    crash = [f for f in findings if f.name == "internal-error"]
    assert [(f.code, f.message) for f in crash] == [
        ("NAN000", "internal error in NAN998: ValueError: no such op")]
    assert [(f.code, f.line) for f in findings if f.code not in ("NAN000", "NAN998")
            ] == expected
    # Its report before the crash stands; after it, the rule no longer runs.
    assert [f.line for f in findings if f.code == "NAN998"] == [2]
    assert 'raise ValueError("no such\\nop")' in crash[0].detail
    assert crash[0].detail.startswith("Traceback")
    # Reported at the node the rule was visiting: the second call, `tf.cast(...)`.
    assert (crash[0].line, crash[0].column, crash[0].end_line, crash[0].end_column) == (
        2, 19, 2, 45)


CRASHING_RULE_FILE = """from nanlint.rule import Rule


class Divides(Rule):
    \"\"\"Crashes on the first division.\"\"\"

    code = "NAN950"
    name = "divides"

    def visit_BinaryOperation(self, node):
        raise KeyError("operator")


RULES = [Divides]
"""


def test_a_third_party_rule_crash_is_reported_at_the_node_it_was_visiting(tmp_path, nanlint):
    make(tmp_path, {"mixed.py": TF_MIXED, "tools/rules.py": CRASHING_RULE_FILE})
    code, out, err = nanlint("check", "--no-cache", "--load-rules", "tools/rules.py",
                             "--select", "NAN950", "mixed.py", cwd=tmp_path)
    assert code == 2
    assert out.startswith("mixed.py:4:5: NAN000 error: internal error in NAN950: KeyError: "
                          "'operator'\n")
    assert "4 | r = tf.math.log(p) / c\n  |     ^^^^^^^^^^^^^^^^^^\n" in out


def test_the_traceback_is_neither_in_json_nor_in_the_cache(tmp_path, nanlint, monkeypatch):
    monkeypatch.setattr(LogOfZero, "visit_Call", _boom)
    make(tmp_path, {"mixed.py": TF_MIXED, "other.py": TF_LOG, "plain.py": "x = 1\n"})
    for _ in range(2):  # the second run would come from the cache, if crashes were cached
        code, out, err = nanlint("check", "--format", "json", cwd=tmp_path)
        assert (code, err) == (2, "")
        findings = json.loads(out)["findings"]
        assert [(f["path"], f["line"], f["code"]) for f in findings] == [
            ("mixed.py", 2, "NAN000"), ("mixed.py", 4, "NAN101"), ("mixed.py", 12, "NAN201"),
            ("other.py", 2, "NAN000")]
        assert findings[0]["message"] == ("internal error in NAN102: ZeroDivisionError: "
                                          "the rule divided by zero")
        assert "Traceback" not in out
    entries = json.loads(next((tmp_path / ".nanlint_cache").glob("v*.json")).read_text())
    assert list(entries["entries"].values()) == [[]]  # plain.py only


def test_the_traceback_only_with_verbose(tmp_path, nanlint, monkeypatch):
    monkeypatch.setattr(LogOfZero, "visit_Call", _boom)
    make(tmp_path, {"other.py": TF_LOG})
    code, out, err = nanlint("check", "--no-cache", cwd=tmp_path)
    assert (code, err) == (2, "")
    assert "other.py:2:5: NAN000 error: internal error in NAN102: ZeroDivisionError" in out
    code, out, err = nanlint("check", "--no-cache", "--exit-zero", "--verbose", cwd=tmp_path)
    assert code == 2  # a crash is never a clean result
    assert err.startswith("nanlint: other.py: internal error in NAN102: ZeroDivisionError")
    assert "Traceback (most recent call last)" in err and "in _boom" in err
    assert "Traceback" not in out


def _boom(self, node):
    raise ZeroDivisionError("the rule divided by zero")


class SeesTheCollector(Rule):
    """Records whether Python's cyclic garbage collector runs during the analysis."""

    code = "NAN997"
    name = "sees-the-collector"
    seen = []

    def visit_Call(self, node):
        import gc

        SeesTheCollector.seen.append(gc.isenabled())
        if len(SeesTheCollector.seen) == 2:
            raise ValueError("crash")


def test_the_collector_pauses_for_a_file_and_comes_back_even_after_a_crash():
    import gc

    SeesTheCollector.seen.clear()
    options = options_for(["NAN102"])
    options.rules = [SeesTheCollector, *options.rules]
    assert gc.isenabled()
    findings = lint_source(TF_MIXED, "m.py", options)
    assert SeesTheCollector.seen and not any(SeesTheCollector.seen)  # paused in the analysis
    assert any(f.name == "internal-error" for f in findings)
    assert gc.isenabled()  # and running again afterwards
    gc.disable()
    try:  # a caller that paused it itself keeps it paused
        lint_source(TF_MIXED, "m.py", options)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_suspects_says_which_rule_crashed_and_ranks_the_rest(tmp_path, nanlint, monkeypatch):
    # The hunt runs the same rules: a rule that raises is one line on stderr, as a file
    # that cannot be read is, and the other suspects of the file are still ranked.
    monkeypatch.setattr(LogOfZero, "visit_Call", _boom)
    out, err, lines = _hunt(tmp_path, nanlint)
    assert err.startswith("nanlint: mixed.py:2:5: NAN000 internal error in NAN102: "
                          "ZeroDivisionError: the rule divided by zero")
    assert "Traceback" not in out + err
    assert lines >= {4, 12}


def _hunt(tmp_path, nanlint):
    """`nanlint suspects` on the mixed file: its output, its errors, the lines it ranks."""
    make(tmp_path, {"mixed.py": TF_MIXED})
    code, out, err = nanlint("suspects", "--no-cache", "--format", "json", cwd=tmp_path)
    assert code == 0
    return out, err, {row["line"] for row in json.loads(out)["suspects"]}


class GoesRound(Rule):
    """Recurses without end on every call: a cycle in a rule, not a deep module."""

    code = "NAN996"
    name = "goes-round"

    def visit_Call(self, node):
        self.visit_Call(node)


def test_a_rule_that_recurses_without_end_is_its_crash_not_the_files():
    options = options_for(["NAN101", "NAN102", "NAN201"])
    expected = [(f.code, f.line) for f in lint_source(TF_MIXED, "m.py", options)]
    options.rules = [GoesRound, *options.rules]
    findings = lint_source(TF_MIXED, "m.py", options)
    assert [(f.code, f.message) for f in findings if f.code == "NAN000"] == [
        ("NAN000", "internal error in NAN996: RecursionError: maximum recursion depth "
                   "exceeded")]
    assert [(f.code, f.line) for f in findings if f.code != "NAN000"] == expected
    # In a module nested deeper than any analysis can follow, it is the module's limit.
    deep = "import tensorflow as tf\n\n\nx = " + " + ".join(["a"] * 600) + "\ny = f(x)\n"
    assert [f.message for f in lint_source(deep, "deep.py", options)] == [
        "cannot analyse: expressions nested too deeply"]


def test_the_hunts_listing_failing_on_one_node_costs_that_node(tmp_path, nanlint, monkeypatch):
    from nanlint.hazard_sites import Sites

    listed = Sites.call

    def fails_on_the_first_root(self, node):
        if "sqrt" in self.analysis.code(node.func):
            raise ValueError("the listing broke")
        listed(self, node)

    monkeypatch.setattr(Sites, "call", fails_on_the_first_root)
    _, err, lines = _hunt(tmp_path, nanlint)
    assert err.startswith("nanlint: mixed.py:12:12: NAN000 internal error in the hunt's "
                          "listing of hazard sites: ValueError: the listing broke")
    assert err.count("NAN000") == 1
    assert lines >= {4, 8}  # the other sites are still listed (the root too: a rule's)
