"""The language server's and the command line's parts import one way: no module of
nanlint/server or nanlint/commands imports, directly or through others, a module that
imports it, and the engine's side never imports the command line or the server."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nanlint"


def module_name(path, root=ROOT):
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imported_modules(source, modules=MODULES):
    """The nanlint modules a module imports, anywhere in it: ``from nanlint.server import
    lsp`` is ``nanlint.server.lsp`` when that is a module, else the package."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.add(whole if whole in modules else node.module)
    return {name for name in found if name in modules}


def graph(modules=MODULES):
    """Module → the modules it imports, leaving out a package's own face (``__init__``),
    which its submodules pass through without running anything of it."""
    edges = {}
    for name, path in modules.items():
        imported = imported_modules(path.read_text(encoding="utf-8"), modules)
        edges[name] = {m for m in imported if not name.startswith(f"{m}.")}
    return edges


def cycle_through(start, edges):
    """A list of modules from ``start`` back to it along imports, or None."""
    stack, seen = [(start, [start])], set()
    while stack:
        name, path = stack.pop()
        for nxt in edges.get(name, ()):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


PARTS = sorted(name for name in MODULES
               if name.startswith(("nanlint.server.", "nanlint.commands.")))


@pytest.fixture(scope="module")
def edges():
    return graph()


@pytest.mark.parametrize("name", PARTS)
def test_a_part_is_on_no_import_cycle(name, edges):
    assert cycle_through(name, edges) is None


def test_the_engine_side_never_imports_the_cli_or_the_server(edges):
    front = ("nanlint.cli", "nanlint.commands", "nanlint.server", "nanlint.__main__")
    for name, imported in edges.items():
        if not name.startswith(front):
            assert not {m for m in imported if m.startswith(front)}, name


def test_the_cycle_check_finds_a_cycle_and_the_face_is_left_out(tmp_path):
    files = {"a.py": "from nanlint.pkg import b\n",
             "pkg/__init__.py": "from nanlint.pkg.b import x\n",
             "pkg/b.py": "def f():\n    import nanlint.a\n"}
    modules = {}
    for relative, source in files.items():
        path = tmp_path / "nanlint" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        modules[module_name(path, tmp_path)] = path
    edges = graph(modules)
    assert edges["nanlint.pkg.b"] == {"nanlint.a"}  # its package's face: left out
    assert cycle_through("nanlint.a", edges) == ["nanlint.a", "nanlint.pkg.b", "nanlint.a"]
    assert cycle_through("nanlint.pkg", edges) is None
