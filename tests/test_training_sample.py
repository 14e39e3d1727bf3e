"""The training rules' sample on tutorial-style code: every finding is judged,
and every rule that is on by default reaches 2 real risks in 3.

tests/data/tutorials/ holds the programs, judgements.txt the judgement of each finding (by
reading the code). A rule change that adds, moves or drops a finding fails here until the
finding is judged; a stable rule whose judged findings fall below 2 in 3 must move to the
preview tier (`preview = True`).
"""

import sys
from collections import Counter
from pathlib import Path

import pytest

from nanlint import registry

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import sample_training_rules as sample  # noqa: E402


@pytest.fixture(scope="module")
def judged():
    found = {f"{name}:{line}:{code}" for name, line, code, _ in sample.findings()}
    return found, sample.judgements()


def test_every_finding_on_the_tutorials_is_judged(judged):
    found, table = judged
    assert sorted(found - set(table)) == []


def test_every_judgement_is_of_a_current_finding(judged):
    found, table = judged
    assert sorted(set(table) - found) == []


def test_the_sample_has_at_least_30_findings(judged):
    found, _ = judged
    assert len(found) >= 30


def test_judgements_are_real_or_false_with_a_reason(judged):
    _, table = judged
    assert all(verdict in ("real", "false") and reason for verdict, reason in table.values())


@pytest.mark.parametrize("code", sample.TRAINING_CODES)
def test_a_rule_on_by_default_is_mostly_right(judged, code):
    _, table = judged
    verdicts = Counter(verdict for key, (verdict, _) in table.items() if key.endswith(code))
    total = sum(verdicts.values())
    if registry.is_preview(code):
        return
    assert total, f"{code} is on by default but has no finding in the sample to judge"
    assert verdicts["real"] * 3 >= total * 2, (
        f"{code}: {verdicts['real']} real of {total}: below 2 in 3, it belongs in preview")
