import sys
from pathlib import Path

import pytest

from nanlint import registry
from nanlint.engine import lint_source
from nanlint.options import LintOptions

ROOT = Path(__file__).resolve().parent.parent
# pytest-lsp, which drives the language server in test_server.py, needs Python 3.10.
collect_ignore = ["test_server.py"] if sys.version_info < (3, 10) else []
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def options_for(codes=None) -> LintOptions:
    codes = codes or [c for c in registry.all_codes()]
    return LintOptions(rules=registry.rule_classes(codes),
                       known_codes=frozenset(registry.all_codes()),
                       engine_codes=frozenset(c for c in codes if c in registry.ENGINE))


@pytest.fixture
def lint():
    def run(source, codes=None, path="example.py"):
        return lint_source(source, path, options_for(codes))
    return run


def run_cli(*args, cwd=None, stdin=None, preview=True):
    """Run `python -m nanlint` in a subprocess: the real entry point, exit code and all.
    `check` runs the preview rules too unless ``preview=False`` (see ``with_preview``)."""
    import subprocess

    from cli_helpers import with_preview
    args = with_preview(args) if preview else list(args)
    return subprocess.run([sys.executable, "-m", "nanlint", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=300)
