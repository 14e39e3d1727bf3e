"""Every relative link in README.md and docs/*.md leads to a file that exists, and its
#anchor to a heading (or an explicit anchor) of that file; a link of docs/, which is installed
inside the package, leads to a file installed with it."""
import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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


def installed_docs() -> set:
    """The files that `pip install` puts in the package's docs folder: the package-data
    patterns of `nanlint.docs` in its source folder, both from pyproject.toml."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        setuptools = tomllib.load(file)["tool"]["setuptools"]
    folder = ROOT / setuptools["package-dir"]["nanlint.docs"]
    return {path.resolve() for pattern in setuptools["package-data"]["nanlint.docs"]
            for path in folder.glob(pattern)}


def test_links_of_the_installed_documentation_stay_inside_it():
    installed = installed_docs()
    assert ROOT / "docs" / "rules.md" in installed
    broken = [f"{page.relative_to(ROOT)}: {target}" for page, target in CASES
              if page.resolve() in installed and target.partition("#")[0]
              and (page.parent / target.partition("#")[0]).resolve() not in installed]
    assert not broken, "links that break after pip install: " + ", ".join(broken)


def test_slug_follows_github():
    assert slug("Adopting nanlint with suppression comments") == \
        "adopting-nanlint-with-suppression-comments"
    assert slug("NAN101 unguarded-division") == "nan101-unguarded-division"
    assert slug("`nanlint --version`, exit codes") == "nanlint---version-exit-codes"
