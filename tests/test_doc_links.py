"""Every relative link in README.md and docs/*.md leads to a file that exists, and its
#anchor to a heading (or an explicit anchor) of that file."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code spans."""
    kept, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set:
    found, seen = set(), {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(page: Path):
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # http:, https:, mailto:
        yield target


CASES = [(page, target) for page in PAGES for target in relative_links(page)]


def test_the_pages_have_links():
    assert len(CASES) > 50


@pytest.mark.parametrize("page,target", CASES,
                         ids=[f"{p.relative_to(ROOT)}->{t}" for p, t in CASES])
def test_relative_link_resolves(page, target):
    file_part, _, anchor = target.partition("#")
    destination = (page.parent / file_part).resolve() if file_part else page
    assert destination.exists(), f"{page.relative_to(ROOT)}: {target} names no file"
    if anchor and destination.suffix == ".md":
        assert anchor in anchors(destination), \
            f"{page.relative_to(ROOT)}: {target}: no heading with that anchor"


def test_slug_follows_github():
    assert slug("Adopting nanlint with suppression comments") == \
        "adopting-nanlint-with-suppression-comments"
    assert slug("NAN101 unguarded-division") == "nan101-unguarded-division"
    assert slug("`nanlint --version`, exit codes") == "nanlint---version-exit-codes"
