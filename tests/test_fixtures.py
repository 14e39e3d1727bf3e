"""Annotated fixture files: `# error: CODE` lines must be reported, nothing else may be.

Every code named in a file's annotations is checked on every line of that file, in both
directions: a missing finding and an extra finding both fail.
"""

import io
import re
import tokenize
from collections import Counter

import pytest

from conftest import FIXTURES, options_for
from nanlint.engine import lint_source

ANNOTATION = re.compile(r"#\s*(error|ok):\s*(NAN\d{3}(?:\s*,\s*NAN\d{3})*)")
FILES = sorted(p for p in FIXTURES.glob("NAN*.py"))


def annotations(source):
    expected, checked = Counter(), set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        for kind, codes in ANNOTATION.findall(token.string):
            for code in re.split(r"\s*,\s*", codes):
                checked.add(code)
                if kind == "error":
                    expected[(token.start[0], code)] += 1
    return expected, checked


def test_there_are_fixtures():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture(path):
    source = path.read_text(encoding="utf-8")
    expected, checked = annotations(source)
    assert expected, "a fixture must require at least one finding"
    findings = lint_source(source, path.name, options_for())
    actual = Counter((f.line, f.code) for f in findings if f.code in checked)
    missing = sorted((expected - actual).elements())
    extra = sorted((actual - expected).elements())
    lines = source.splitlines()
    report = [f"missing {code} at line {line}: {lines[line - 1].strip()}"
              for line, code in missing]
    report += [f"unexpected {code} at line {line}: {lines[line - 1].strip()}"
               for line, code in extra]
    assert not report, "\n".join(report)
