"""A file's tree is freed by reference counting as soon as the file is done: nothing the
engine, the analysis or a rule leaves behind holds it in a reference cycle (the cyclic
collector would otherwise walk the whole tree before freeing it, about a tenth of the
lint time)."""

import gc
from pathlib import Path

import libcst as cst

from nanlint import config
from nanlint.engine import lint_source

HERE = Path(__file__).parent


def _nodes_in_cycles(source: str, options) -> int:
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage
    try:
        lint_source(source, "t.py", options)
        gc.collect()
        return sum(isinstance(thing, cst.CSTNode) for thing in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()
        if enabled:
            gc.enable()


def test_no_tree_is_left_in_a_reference_cycle():
    options = config.Config().options_for(None)
    files = sorted((HERE / "fixtures").rglob("*.py")) + sorted((HERE / "field").rglob("*.py"))
    assert len(files) > 50
    gc.collect()
    gc.freeze()  # what is alive now is not walked by each collection below
    try:
        held = {path.name: count for path in files
                if (count := _nodes_in_cycles(path.read_text(encoding="utf-8"), options))}
    finally:
        gc.unfreeze()
    assert held == {}


def test_the_check_sees_a_cycle():
    """The measure itself: a tree held by a cycle is counted."""
    options = config.Config().options_for(None)
    import nanlint.engine as engine

    original = engine.Analysis.close
    engine.Analysis.close = lambda self: None  # leave the analysis' own cycle in place
    try:
        count = _nodes_in_cycles((HERE / "fixtures" / "NAN202_norm_zero_gradient.py")
                                 .read_text(encoding="utf-8"), options)
    finally:
        engine.Analysis.close = original
    assert count > 100
