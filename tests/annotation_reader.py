"""The annotation convention of the fixture files, read in one place.

    x = tf.log(p)  # error: NAN102    this line must be reported (once per code named)
    x = tf.log(p + 1e-7)  # ok: NAN102    a required silence: documents a guarded form
    x = tf.log(p)  # miss: NAN102     a known false negative (semgrep's `todoruleid`):
                                     the line is a real bug that nanlint does not find yet

Every code named in a file (error, ok or miss) is checked on every line of that file, in
both directions. tests/test_fixtures.py (the rule fixtures) and tests/test_field.py (real
bugs, tests/field/) share this reader; scripts/field_recall.py counts with it.
"""

import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass, field

ANNOTATION = re.compile(r"#\s*(error|ok|miss):\s*(NAN\d{3}(?:\s*,\s*NAN\d{3})*)")


@dataclass
class Annotations:
    expected: Counter = field(default_factory=Counter)  # (line, code) -> findings required
    missed: Counter = field(default_factory=Counter)    # (line, code) -> known misses
    checked: set = field(default_factory=set)           # codes checked on every line


def read_annotations(source: str) -> Annotations:
    found = Annotations()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        for kind, codes in ANNOTATION.findall(token.string):
            for code in re.split(r"\s*,\s*", codes):
                found.checked.add(code)
                if kind == "error":
                    found.expected[(token.start[0], code)] += 1
                elif kind == "miss":
                    found.missed[(token.start[0], code)] += 1
    return found


def compare(source: str, findings) -> list[str]:
    """Differences between a file's annotations and nanlint's findings, one line each.

    A finding on a `# miss:` line means the analysis now finds that bug: the message asks
    for the annotation to be promoted to `# error:`.
    """
    notes = read_annotations(source)
    actual = Counter((f.line, f.code) for f in findings if f.code in notes.checked)
    lines = source.splitlines()
    report = []
    for line, code in sorted((notes.expected - actual).elements()):
        report.append(f"missing {code} at line {line}: {lines[line - 1].strip()}")
    for line, code in sorted((actual - notes.expected).elements()):
        text = lines[line - 1].strip()
        if (line, code) in notes.missed:
            report.append(f"{code} at line {line} is now found: promote its `# miss: {code}`"
                          f" to `# error: {code}` (a known miss became a catch): {text}")
        else:
            report.append(f"unexpected {code} at line {line}: {text}")
    return report
