"""Every rule's VALID and INVALID examples are test cases, and every rule is documented.

A rule's examples live on its class (``VALID``, ``INVALID``): each INVALID example must
produce at least one finding of the rule's code, each VALID example none. The metadata and
documentation checks keep rules uniform: code, name, severity, fix safety, the six docstring
sections, and an annotated fixture file per built-in rule.
"""

import io
import re
import tokenize

import libcst as cst
import pytest

from conftest import FIXTURES, options_for
from nanlint import registry
from nanlint.engine import lint_source
from nanlint.rule import DOC_SECTIONS, Option, Rule

RULES = registry.every_rule()
BUILTIN_RULES = [registry.load(spec) for spec in registry.BUILTIN.values()]
SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety",
            "Options")


def _rule_id(rule):
    return rule.code


def _examples(kind):
    """(rule, index, source) for every example of ``kind`` ("VALID" or "INVALID")."""
    cases = []
    for rule in RULES:
        examples = getattr(rule, kind)
        if not examples:
            cases.append(pytest.param(rule, -1, None, id=f"{rule.code}-missing"))
            continue
        for index, source in enumerate(examples):
            cases.append(pytest.param(rule, index, source, id=f"{rule.code}-{index}"))
    return cases


def _lint(rule, source):
    return lint_source(source, f"{rule.code.lower()}_example.py", options_for([rule.code]))


def _describe(findings):
    return "\n".join(f"  {f.code} line {f.line}: {f.message}" for f in findings) or "  (none)"


# -- the examples ----------------------------------------------------------------------------
@pytest.mark.parametrize("rule, index, source", _examples("INVALID"))
def test_invalid_example_is_reported(rule, index, source):
    assert source is not None, f"{rule.code} ({rule.__name__}) has no INVALID examples"
    if rule.code != "NAN000":  # NAN000's examples are the files that do not parse
        cst.parse_module(source)  # an example that does not parse would prove nothing
    findings = _lint(rule, source)
    assert any(f.code == rule.code for f in findings), (
        f"{rule.code} INVALID[{index}] produced no {rule.code} finding:\n{source}\n"
        f"findings:\n{_describe(findings)}")


@pytest.mark.parametrize("rule, index, source", _examples("VALID"))
def test_valid_example_is_not_reported(rule, index, source):
    assert source is not None, f"{rule.code} ({rule.__name__}) has no VALID examples"
    cst.parse_module(source)  # a VALID example that fails to parse passes vacuously
    findings = [f for f in _lint(rule, source) if f.code == rule.code]
    assert not findings, (
        f"{rule.code} VALID[{index}] was reported:\n{source}\nfindings:\n{_describe(findings)}")


@pytest.mark.parametrize("rule", BUILTIN_RULES, ids=_rule_id)
def test_builtin_rule_has_enough_examples(rule):
    assert len(rule.VALID) >= 2, f"{rule.code} needs at least 2 VALID examples"
    assert len(rule.INVALID) >= 2, f"{rule.code} needs at least 2 INVALID examples"


@pytest.mark.parametrize("rule", BUILTIN_RULES, ids=_rule_id)
def test_examples_are_distinct(rule):
    examples = [*rule.VALID, *rule.INVALID]
    assert len(examples) == len(set(examples)), f"{rule.code} repeats an example"


# -- metadata --------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", RULES, ids=_rule_id)
def test_metadata(rule):
    assert issubclass(rule, Rule)
    assert re.fullmatch(r"NAN\d{3}", rule.code), rule.code
    assert re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", rule.name), (
        f"{rule.code}: name {rule.name!r} is not kebab-case")
    assert rule.severity in ("error", "warning", "info"), rule.severity
    assert rule.fix_safety in (None, "safe", "unsafe"), rule.fix_safety
    assert isinstance(rule.summary, str) and rule.summary.strip(), f"{rule.code}: no summary"


@pytest.mark.parametrize("rule", RULES, ids=_rule_id)
def test_options_are_well_formed(rule):
    for name, option in rule.options.items():
        assert re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", name), name
        assert isinstance(option, Option)
        assert isinstance(option.default, option.type), (
            f"{rule.code} option {name}: default {option.default!r} is not {option.type}")
        assert option.doc.strip()


def test_codes_and_names_are_unique():
    codes = [rule.code for rule in RULES]
    names = [rule.name for rule in RULES]
    assert len(codes) == len(set(codes)), codes
    assert len(names) == len(set(names)), names
    assert codes == registry.all_codes()


@pytest.mark.parametrize("code, spec", sorted(registry.BUILTIN.items()))
def test_registry_key_matches_rule_code(code, spec):
    assert registry.load(spec).code == code
    assert code not in registry.ENGINE


@pytest.mark.parametrize("code, rule", sorted(registry.ENGINE.items()))
def test_engine_key_matches_rule_code(code, rule):
    assert rule.code == code


# -- documentation ---------------------------------------------------------------------------
def test_section_list_matches_rule_module():
    assert tuple(DOC_SECTIONS) == SECTIONS


@pytest.mark.parametrize("rule", RULES, ids=_rule_id)
def test_docstring_has_every_section(rule):
    doc = rule.documentation()
    assert doc, f"{rule.code} ({rule.__name__}) has no docstring"
    headings = re.findall(r"^## (.+?)\s*$", doc, flags=re.MULTILINE)
    missing = [section for section in SECTIONS if section not in headings]
    assert not missing, f"{rule.code} docstring lacks sections: {missing}"
    order = [heading for heading in headings if heading in SECTIONS]
    assert order == list(SECTIONS), f"{rule.code} docstring sections out of order: {order}"
    for section in SECTIONS:
        body = re.search(rf"^## {re.escape(section)}\s*$\n(.*?)(?=^## |\Z)", doc,
                         flags=re.MULTILINE | re.DOTALL).group(1)
        assert body.strip(), f"{rule.code}: section {section!r} is empty"


# -- fixtures --------------------------------------------------------------------------------
def _annotated_codes(source):
    codes = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            for match in re.finditer(r"#\s*error:\s*(NAN\d{3}(?:\s*,\s*NAN\d{3})*)",
                                     token.string):
                codes.update(re.split(r"\s*,\s*", match.group(1)))
    return codes


@pytest.mark.parametrize("code", sorted(registry.BUILTIN))
def test_rule_has_annotated_fixture(code):
    files = sorted(FIXTURES.glob(f"{code}_*.py"))
    assert files, f"no fixture file tests/fixtures/{code}_*.py"
    annotated = [path.name for path in files
                 if code in _annotated_codes(path.read_text(encoding="utf-8"))]
    assert annotated, f"no fixture for {code} has a `# error: {code}` annotation: {files}"
