"""Where a rule's documentation is, for the language server's links and SARIF's ``helpUri``.

The rules' pages ship inside the package (``nanlint/docs/``, the repository's ``docs/``), so a
link works wherever nanlint is installed. A project home declared in the package metadata
(``project.urls`` in pyproject.toml) is preferred when there is one. A link read on another
machine (SARIF, uploaded and read elsewhere) is only ever on that home: a file URI would
name a path of the machine that ran nanlint.
"""

import functools
from pathlib import Path
from typing import Optional

RULES_PAGE = "rules.md"
_HOME_LABELS = ("homepage", "home", "repository", "source")


@functools.lru_cache(maxsize=None)
def project_url() -> Optional[str]:
    """The project's home page from the installed package metadata, if it declares one."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("nanlint")
    except PackageNotFoundError:
        return None
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        if label.strip().lower() in _HOME_LABELS:
            return url.strip()
    return meta.get("Home-page") or None


def docs_folder() -> Optional[Path]:
    """The documentation installed with the package, else (a source checkout or an editable
    install) the repository's docs/ beside it."""
    package = Path(__file__).resolve().parent
    for folder in (package / "docs", package.parent / "docs"):
        if (folder / RULES_PAGE).is_file():
            return folder
    return None


def rule_url(code: str, name: str, published: bool = False) -> Optional[str]:
    """The rule's section of the rules page: on the project's home when it has one, else
    (unless ``published``: a link for another machine) a file URI of the installed copy;
    None when neither is there."""
    anchor = f"{code}-{name}".lower()
    home = project_url()
    if home:
        return f"{home.rstrip('/')}/blob/HEAD/docs/{RULES_PAGE}#{anchor}"
    folder = None if published else docs_folder()
    return f"{(folder / RULES_PAGE).as_uri()}#{anchor}" if folder else None


def documentation_url(rule, published: bool = False) -> Optional[str]:
    """The link to a rule's documentation (``published``: one that opens on another
    machine); None for a third-party rule, whose documentation is not on nanlint's rules
    page."""
    if rule is None or rule.origin != "nanlint":
        return None
    return rule_url(rule.code, rule.name, published)
