"""`nanlint server` end to end: pytest-lsp starts the real server process and drives it as an
editor would (one server for the module, so that the file stays quick)."""

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcException
from pytest_lsp import client_capabilities, make_test_lsp_client

from cli_helpers import TF_LOG, TF_MIXED, make
from conftest import FIXTURES, options_for, run_cli
from nanlint import registry
from nanlint.engine import lint_source
from nanlint.server import Cancelled, Worker, ignore_edit

in_server = pytest.mark.asyncio(loop_scope="module")  # one event loop, one server

# NAN103 on line 6 (columns 36-54): the log of `probs`, produced by the softmax of line 5.
SOFTMAX_CE = """import tensorflow as tf


def loss(labels, logits):
    probs = tf.nn.softmax(logits)
    return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
"""
CLEAN = "import tensorflow as tf\n\n\ndef loss(labels, logits):\n    return 0.0\n"
# Seconds of analysis (about 4 s on an idle core): a run that holds the worker.
# A file that takes seconds to lint (2.5 to 3.5 s on this project's 2-core machines), so a
# run of it is still going while the tests below send their edits and requests.
SLOW = "import tensorflow as tf\n" + "p = tf.nn.relu(z)\nx = tf.math.log(p)\n" * 6000
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
KNOWN = frozenset(registry.all_codes())


def slow_lint_seconds(cache=[]):
    """How long SLOW takes to lint in this process, measured once."""
    if not cache:
        started = time.monotonic()
        lint_source(SLOW, "slow.py", options_for())
        cache.append(time.monotonic() - started)
    return cache[0]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """Two workspace folders: `main` and `other`, each with its own configuration; both run
    the preview rules, which the examples below use."""
    root = tmp_path_factory.mktemp("lsp")
    make(root / "main", {".nanlint.yaml": "preview: true\n"})
    make(root / "other", {".nanlint.yaml": "preview: true\nignore: [NAN102]\n"})
    # A module of the workspace that must never be imported by the server.
    (root / "main" / "yaml.py").write_text("open(__file__ + '.imported', 'w').close()\n")
    return root


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(workspace):
    client = make_test_lsp_client()
    client.registrations = []
    client.sections_asked = []  # the sections of the server's workspace/configuration requests
    answer = client.get_configuration

    def get_configuration(*, section=None, scope_uri=None):
        client.sections_asked.append(section)
        return answer(section=section, scope_uri=scope_uri)

    client.get_configuration = get_configuration  # what pytest-lsp answers the server with

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    # Started inside the workspace, as editors do: `python -m nanlint` must not import from it.
    await client.start_io(sys.executable, "-m", "nanlint", "server", cwd=str(workspace / "main"))
    folders = [types.WorkspaceFolder(uri=(workspace / name).as_uri(), name=name)
               for name in ("main", "other")]
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=(workspace / "main").as_uri(), workspace_folders=folders,
        initialization_options={"low-confidence-as-hint": True}))
    yield client
    await client.shutdown_session()
    await client.stop()


async def published(client, uri, action=None, timeout=30.0):
    """Run ``action`` and wait for the next diagnostics of ``uri``."""
    client.diagnostics.pop(uri, None)
    if action is not None:
        action()
    deadline = time.monotonic() + timeout
    while uri not in client.diagnostics:
        assert time.monotonic() < deadline, f"no diagnostics for {uri}"
        await asyncio.sleep(0.02)
    return list(client.diagnostics[uri])


def open_file(client, path, text, version=1):
    path.write_text(text, encoding="utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python",
                                             version=version, text=text)))


def replace_text(client, path, text, version):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def close_file(client, path):
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri())))


def apply(text, edits):
    """Apply LSP text edits (ASCII text: characters are columns)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position):
        if position.line >= len(lines):
            return len(text)
        return starts[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def cli_fix(tmp_path, text, name="fixme.py"):
    """What `nanlint check --fix` makes of ``text``."""
    folder = make(tmp_path / "cli", {name: text})
    run_cli("check", "--fix", "--no-cache", name, cwd=folder)
    return (folder / name).read_text(encoding="utf-8")


def as_tuple(diagnostic):
    r = diagnostic.range
    return (diagnostic.code, r.start.line + 1, r.start.character + 1, r.end.line + 1,
            r.end.character + 1, diagnostic.message)


async def behind_a_slow_run(client, path, *steps):
    """Run ``steps`` while the server's worker lints a slow file ``path``, so that the
    requests they send wait in its queue together; then end the slow run. A step may return
    a request (an awaitable): the answers (or errors) of those, in order."""
    open_file(client, path, SLOW)
    await asyncio.sleep(0.3)  # the slow run has started
    requests = []
    for step in steps:
        request = step()
        if request is not None:
            requests.append(asyncio.ensure_future(request))
        await asyncio.sleep(0.2)  # the server has it
    replace_text(client, path, CLEAN, 2)  # interrupts the slow run
    try:
        # A request without an answer would wait forever.
        return await asyncio.wait_for(asyncio.gather(*requests, return_exceptions=True), 30)
    finally:
        close_file(client, path)


async def fix_all_action(client, uri):
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=whole,
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    # (pytest-lsp reads some actions as Commands, which have no `kind`)
    [action] = [a for a in actions if getattr(a, "kind", None) == "source.fixAll.nanlint"]
    return action


async def actions_at(client, path, diagnostic, only=None):
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=only)))


# -- diagnostics -----------------------------------------------------------------------------
@in_server
async def test_a_nan103_bug_is_one_diagnostic_with_its_link_and_evidence(client, workspace):
    path = workspace / "main" / "loss.py"
    uri = path.as_uri()
    [diagnostic] = await published(client, uri, lambda: open_file(client, path, SOFTMAX_CE))
    assert diagnostic.code == "NAN103"
    assert diagnostic.source == "nanlint"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert (diagnostic.range.start.line, diagnostic.range.start.character,
            diagnostic.range.end.line, diagnostic.range.end.character) == (5, 35, 5, 53)
    assert diagnostic.code_description.href.endswith(
        "docs/rules.md#nan103-unstable-softmax-cross-entropy")
    assert Path(diagnostic.code_description.href[len("file://"):].split("#")[0]).is_file()
    [related] = diagnostic.related_information
    assert related.location.uri == uri
    assert (related.location.range.start.line, related.location.range.start.character,
            related.location.range.end.character) == (4, 12, 33)  # tf.nn.softmax(logits)
    assert related.message.startswith("`probs` is the output of `tf.nn.softmax`")
    assert diagnostic.data["confidence"] == "high"
    close_file(client, path)


@in_server
async def test_diagnostics_are_exactly_the_cli_findings(client, workspace, tmp_path):
    path = workspace / "main" / "mixed.py"
    diagnostics = await published(client, path.as_uri(), lambda: open_file(client, path,
                                                                            TF_MIXED))
    result = run_cli("check", "--format", "json", "--no-cache", "mixed.py",
                     cwd=workspace / "main")
    findings = json.loads(result.stdout)["findings"]
    assert len(findings) == 4
    assert [as_tuple(d) for d in diagnostics] == [
        (f["code"], f["line"], f["column"], f["end_line"], f["end_column"], f["message"])
        for f in findings]
    # initializationOptions asked for low-confidence findings as hints.
    assert [(d.code, d.data["confidence"], d.severity) for d in diagnostics
            if d.data["confidence"] == "low"] == [("NAN102", "low",
                                                   types.DiagnosticSeverity.Hint)]
    close_file(client, path)


@in_server
async def test_an_edit_updates_the_diagnostics_and_only_the_last_edit_is_linted(client,
                                                                             workspace):
    path = workspace / "main" / "edited.py"
    uri = path.as_uri()
    assert len(await published(client, uri, lambda: open_file(client, path, SOFTMAX_CE))) == 1

    def edits():
        replace_text(client, path, TF_LOG, 2)  # stale before it is linted (debounced)
        replace_text(client, path, TF_MIXED, 3)
        replace_text(client, path, CLEAN, 4)

    started = time.monotonic()
    # The first publication after the edits is already that of the last text.
    assert await published(client, uri, edits) == []
    assert time.monotonic() - started >= 0.25  # the debounce
    client.diagnostics.pop(uri)
    await asyncio.sleep(0.6)
    assert uri not in client.diagnostics  # and no stale run publishes later
    [diagnostic] = await published(client, uri, lambda: replace_text(client, path, TF_LOG, 5))
    assert diagnostic.code == "NAN102"
    close_file(client, path)


@in_server
async def test_a_newer_edit_interrupts_a_stale_run(client, workspace):
    path = workspace / "main" / "slow.py"
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    open_file(client, path, SLOW)
    await asyncio.sleep(0.3)  # the run has started
    started = time.monotonic()
    assert await published(client, uri, lambda: replace_text(client, path, TF_LOG, 2)) != []
    # Well before the stale run could have finished: it takes as long as linting SLOW here
    # (0.3 s of it had gone). An interrupt cannot land in libcst's parse, a native call of
    # about half of that time: the new text's diagnostics come after it.
    assert time.monotonic() - started < 0.75 * slow_lint_seconds()
    assert [d.code for d in client.diagnostics[uri]] == ["NAN102"]  # the new text's finding
    close_file(client, path)


@in_server
async def test_a_syntax_error_is_nan000_and_recovers_once_fixed(client, workspace):
    path = workspace / "main" / "broken.py"
    uri = path.as_uri()
    [diagnostic] = await published(client, uri, lambda: open_file(
        client, path, "import tensorflow as tf\ndef f(:\n    pass\n"))
    assert (diagnostic.code, diagnostic.range.start.line) == ("NAN000", 1)
    assert diagnostic.message.startswith("syntax error")
    [diagnostic] = await published(client, uri, lambda: replace_text(client, path, TF_LOG, 2))
    assert diagnostic.code == "NAN102"
    close_file(client, path)


@in_server
async def test_a_file_over_its_time_budget_is_one_nan000(client, tmp_path):
    folder = make(tmp_path / "slow", {".nanlint.yaml": "file-timeout: 0.05\n"})
    path = folder / "big.py"
    text = "import tensorflow as tf\n" + "p = tf.nn.relu(z)\nx = tf.math.log(p)\n" * 3000
    [diagnostic] = await published(client, path.as_uri(), lambda: open_file(client, path, text))
    assert diagnostic.code == "NAN000"
    assert diagnostic.message.startswith("took longer than 0.05 s")
    close_file(client, path)


# -- code actions ----------------------------------------------------------------------------
@in_server
async def test_the_quick_fix_edit_is_what_check_fix_writes(client, workspace, tmp_path):
    path = workspace / "main" / "quick.py"
    [diagnostic] = await published(client, path.as_uri(),
                                   lambda: open_file(client, path, SOFTMAX_CE))
    actions = await actions_at(client, path, diagnostic)
    fix = next(a for a in actions if a.title.startswith("Fix NAN103"))
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    assert "unsafe" not in fix.title
    fixed = apply(SOFTMAX_CE, fix.edit.changes[path.as_uri()])
    assert fixed == cli_fix(tmp_path, SOFTMAX_CE)
    assert "tf.nn.log_softmax(logits)" in fixed
    assert SOFTMAX_CE == path.read_text(encoding="utf-8")  # the server wrote nothing
    titles = [a.title for a in actions]
    assert "Ignore NAN103 on this line" in titles
    assert "Show documentation for NAN103" in titles
    close_file(client, path)


@in_server
async def test_an_unsafe_fix_is_labelled_and_not_preferred(client, workspace):
    path = workspace / "main" / "unsafe.py"
    [diagnostic] = await published(client, path.as_uri(), lambda: open_file(client, path,
                                                                            TF_LOG))
    [fix] = [a for a in await actions_at(client, path, diagnostic)
             if a.title.startswith("Fix NAN102")]
    assert fix.title.endswith("(unsafe: changes values near 0)")
    assert not fix.is_preferred
    close_file(client, path)


@in_server
async def test_ignore_on_this_line_silences_the_finding(client, workspace):
    path = workspace / "main" / "ignored.py"
    uri = path.as_uri()
    [diagnostic] = await published(client, uri, lambda: open_file(client, path, SOFTMAX_CE))
    [ignore] = [a for a in await actions_at(client, path, diagnostic)
                if a.title == "Ignore NAN103 on this line"]
    text = apply(SOFTMAX_CE, ignore.edit.changes[uri])
    assert text.splitlines()[5].endswith("axis=-1)  # nanlint: ignore[NAN103]")
    assert await published(client, uri, lambda: replace_text(client, path, text, 2)) == []
    close_file(client, path)


def test_ignore_extends_an_existing_comment():
    line = "y = a / b  # nanlint: ignore[NAN101]\n"
    assert ignore_edit(line, 1, 1, "NAN102", KNOWN) == (1, 35, 35, ", NAN102")
    noqa = "y = a / b  # noqa: E501, NAN101  # other\n"
    assert ignore_edit(noqa, 1, 1, "NAN102", KNOWN) == (1, 31, 31, ", NAN102")
    other = "y = a / b  # type: ignore\n"
    assert ignore_edit(other, 1, 1, "NAN101", KNOWN) == (
        1, 25, 25, "  # nanlint: ignore[NAN101]")
    assert ignore_edit(line, 1, 1, "NAN101", KNOWN) is None  # already there
    # A line that ends inside a string or after a backslash cannot take a comment.
    text = 'y = f("""a\nb""", c) / \\\n    d\n'
    assert ignore_edit(text, 1, 3, "NAN101", KNOWN) == (3, 5, 5, "  # nanlint: ignore[NAN101]")


@in_server
async def test_fix_all_applies_the_safe_fixes_like_check_fix(client, workspace, tmp_path):
    source = (FIXTURES / "fixes" / "NAN103_unstable_softmax_cross_entropy.in.py").read_text()
    path = workspace / "main" / "fix_all.py"
    uri = path.as_uri()
    diagnostics = await published(client, uri, lambda: open_file(client, path, source))
    assert len(diagnostics) > 3
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=0, character=0))
    [action] = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=whole,
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    assert action.kind == "source.fixAll.nanlint"
    resolved = await client.code_action_resolve_async(action)
    fixed = apply(source, resolved.edit.changes[uri])
    assert fixed == cli_fix(tmp_path, source)
    assert fixed != source
    close_file(client, path)


@in_server
async def test_two_fix_all_requests_for_one_document_both_get_its_edit(client, workspace,
                                                                      tmp_path):
    # The second request used to replace the first one's job: the first was never answered.
    source = (FIXTURES / "fixes" / "NAN103_unstable_softmax_cross_entropy.in.py").read_text()
    path = workspace / "main" / "fix_twice.py"
    uri = path.as_uri()
    await published(client, uri, lambda: open_file(client, path, source))
    action = await fix_all_action(client, uri)
    first, second = await behind_a_slow_run(
        client, workspace / "main" / "slow_fix.py",
        lambda: client.code_action_resolve_async(action),
        lambda: client.code_action_resolve_async(action))
    expected = cli_fix(tmp_path, source)
    assert apply(source, first.edit.changes[uri]) == expected != source
    assert apply(source, second.edit.changes[uri]) == expected
    close_file(client, path)


@in_server
async def test_two_fix_all_code_actions_both_get_the_edit_without_resolve(workspace,
                                                                          tmp_path):
    # A client without codeAction/resolve (emacs) gets the edit in the code action itself.
    emacs = make_test_lsp_client()
    await emacs.start_io(sys.executable, "-m", "nanlint", "server",
                         cwd=str(workspace / "main"))
    await emacs.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("emacs"), root_uri=(workspace / "main").as_uri()))
    try:
        source = SOFTMAX_CE
        path = workspace / "main" / "fix_twice_emacs.py"
        uri = path.as_uri()
        await published(emacs, uri, lambda: open_file(emacs, path, source))
        first, second = await behind_a_slow_run(
            emacs, workspace / "main" / "slow_emacs.py",
            lambda: fix_all_action(emacs, uri), lambda: fix_all_action(emacs, uri))
        expected = cli_fix(tmp_path, source)
        assert apply(source, first.edit.changes[uri]) == expected != source
        assert apply(source, second.edit.changes[uri]) == expected
        close_file(emacs, path)
    finally:
        await emacs.shutdown_session()
        await emacs.stop()


@in_server
async def test_show_documentation_opens_the_rule_page(client, workspace):
    client.shown_documents.clear()
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="nanlint.showDocumentation", arguments=["NAN103"]))
    [shown] = client.shown_documents
    assert shown.uri.endswith("docs/rules.md#nan103-unstable-softmax-cross-entropy")


@in_server
async def test_hover_shows_what_the_rule_does_and_why(client, workspace):
    path = workspace / "main" / "hover.py"
    [diagnostic] = await published(client, path.as_uri(),
                                   lambda: open_file(client, path, SOFTMAX_CE))
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(line=5, character=40)))
    rule = registry.rule_class("NAN103")
    text = hover.contents.value
    assert text.startswith("**NAN103 unstable-softmax-cross-entropy**")
    assert "### What it does\n" + rule.section("What it does") in text
    assert "### Why is this bad?\n" + rule.section("Why is this bad?") in text
    assert text.endswith("[Open documentation](" + diagnostic.code_description.href + ")")
    nothing = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=types.Position(line=0, character=3)))
    assert nothing is None
    close_file(client, path)


# -- notebooks -------------------------------------------------------------------------------
def notebook_cells(uri, cells):
    """The NotebookCells and their TextDocumentItems for nbformat ``cells``."""
    notebook_cells, items = [], []
    for number, cell in enumerate(cells, start=1):
        cell_uri = f"vscode-notebook-cell:{uri}#C{number}"
        code = cell["cell_type"] == "code"
        notebook_cells.append(types.NotebookCell(
            kind=types.NotebookCellKind.Code if code else types.NotebookCellKind.Markup,
            document=cell_uri))
        items.append(types.TextDocumentItem(uri=cell_uri, language_id="python" if code
                                            else "markdown", version=1,
                                            text="".join(cell["source"])))
    return notebook_cells, items


def open_notebook(client, uri, cells, items):
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=uri, notebook_type="jupyter-notebook",
                                                 version=1, cells=cells),
        cell_text_documents=items))


def close_notebook(client, uri, items):
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=uri),
        cell_text_documents=[types.TextDocumentIdentifier(uri=item.uri) for item in items]))


@in_server
async def test_a_notebook_has_findings_in_two_cells(client, workspace):
    document = json.loads((FIXTURES / "notebooks" / "two_cells.ipynb").read_text())
    uri = (workspace / "main" / "train.ipynb").as_uri()
    cells, items = notebook_cells(uri, document["cells"])
    third, sixth = items[2].uri, items[5].uri
    client.diagnostics.pop(sixth, None)
    found = await published(client, third, lambda: open_notebook(client, uri, cells, items))
    while sixth not in client.diagnostics:
        await asyncio.sleep(0.02)
    [log] = found
    [rmse] = client.diagnostics[sixth]
    assert (log.code, log.range.start.line, log.range.start.character) == ("NAN102", 2, 7)
    assert (rmse.code, rmse.range.start.line, rmse.range.start.character) == ("NAN201", 1, 11)
    [related] = log.related_information  # the relu, in the same cell
    assert (related.location.uri, related.location.range.start.line) == (third, 1)
    assert all(list(client.diagnostics.get(item.uri, [])) == [] for item in items
               if item.uri not in (third, sixth))
    # "Ignore on this line" works inside a cell.
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=third), range=log.range,
        context=types.CodeActionContext(diagnostics=[log])))
    assert "Ignore NAN102 on this line" in [a.title for a in actions]
    close_notebook(client, uri, items)


@in_server
async def test_a_fix_in_a_notebook_cell_edits_that_cell(client, workspace):
    # The import is in the first cell, the log of a softmax in the third (indented, which
    # IPython removes: the edits keep it).
    uri = (workspace / "main" / "fix_cell.ipynb").as_uri()
    cells, items = notebook_cells(uri, [
        {"cell_type": "code", "source": "import tensorflow as tf\n"},
        {"cell_type": "markdown", "source": "The loss:"},
        {"cell_type": "code", "source": "  def loss(labels, logits):\n"
                                        "      p = tf.math.log(tf.nn.softmax(logits))\n"
                                        "      return -tf.reduce_sum(labels * p, axis=-1)\n"}])
    third = items[2].uri
    fixed = items[2].text.replace("tf.math.log(tf.nn.softmax(logits))",
                                  "tf.nn.log_softmax(logits)")
    [diagnostic] = await published(client, third, lambda: open_notebook(client, uri, cells,
                                                                         items))
    assert (diagnostic.code, diagnostic.range.start.line) == ("NAN103", 1)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=third), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic])))
    fix = next(a for a in actions if a.title.startswith("Fix NAN103"))
    assert list(fix.edit.changes) == [third]  # the cell, in its own lines and columns
    assert apply(items[2].text, fix.edit.changes[third]) == fixed
    # Fix-all fixes the notebook as `nanlint check --fix` does, as edits of its cells.
    # (pytest-lsp reads some actions as Commands, which have no `kind`)
    [action] = [a for a in actions if getattr(a, "kind", None) == "source.fixAll.nanlint"]
    resolved = await client.code_action_resolve_async(action)
    assert list(resolved.edit.changes) == [third]
    assert apply(items[2].text, resolved.edit.changes[third]) == fixed
    close_notebook(client, uri, items)


@in_server
async def test_notebook_fix_all_fixes_every_cell_even_when_a_line_goes(client, workspace):
    # VS Code asks for `notebook.source.fixAll` on save, from any cell: the answer fixes
    # the whole notebook, here with a fix that removes a line of its cell.
    uri = (workspace / "main" / "fix_notebook.ipynb").as_uri()
    cells, items = notebook_cells(uri, [
        {"cell_type": "code", "source": "import tensorflow as tf\n"},
        {"cell_type": "code", "source": "def loss(labels, logits):\n"
                                        "    probs = tf.nn.softmax(logits)\n"
                                        "    return -tf.reduce_sum(labels * tf.math.log(probs),"
                                        " axis=-1)\n"},
        {"cell_type": "code", "source": "x = tf.math.log(tf.nn.softmax(z))\n"}])
    first, second, third = (item.uri for item in items)
    await published(client, third, lambda: open_notebook(client, uri, cells, items))
    while second not in client.diagnostics:
        await asyncio.sleep(0.02)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=first),
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[], only=["notebook.source.fixAll"])))
    [action] = [a for a in actions if getattr(a, "kind", None) == "notebook.source.fixAll.nanlint"]
    resolved = action if action.edit is not None else await client.code_action_resolve_async(
        action)
    changes = resolved.edit.changes
    assert sorted(changes) == sorted([second, third])
    assert apply(items[1].text, changes[second]) == (
        "def loss(labels, logits):\n"
        "    return -tf.reduce_sum(labels * tf.nn.log_softmax(logits), axis=-1)\n")
    assert apply(items[2].text, changes[third]) == "x = tf.nn.log_softmax(z)\n"
    close_notebook(client, uri, items)


@in_server
async def test_a_fix_all_superseded_by_one_for_newer_cells_is_content_modified(client,
                                                                               workspace):
    # Fix-all in a notebook fixes all its cells: an edit of another cell between two requests
    # from the same cell makes the first one's answer stale (its edits would undo it).
    uri = (workspace / "main" / "fix_superseded.ipynb").as_uri()
    cells, items = notebook_cells(uri, [
        {"cell_type": "code", "source": "import tensorflow as tf\n"},
        {"cell_type": "code", "source": "def loss(labels, logits):\n"
                                        "    p = tf.math.log(tf.nn.softmax(logits))\n"
                                        "    return -tf.reduce_sum(labels * p, axis=-1)\n"}])
    first_cell, second_cell = items[0].uri, items[1].uri
    await published(client, second_cell, lambda: open_notebook(client, uri, cells, items))
    action = await fix_all_action(client, second_cell)
    imports = "import tensorflow as tf\nimport numpy as np\n"

    def edit_the_first_cell():
        client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=uri, version=2),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
                text_content=[types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=first_cell, version=2),
                    changes=[types.TextDocumentContentChangeWholeDocument(text=imports)])]))))

    stale, fresh = await behind_a_slow_run(
        client, workspace / "main" / "slow_notebook.py",
        lambda: client.code_action_resolve_async(action), edit_the_first_cell,
        lambda: client.code_action_resolve_async(action))
    assert isinstance(stale, JsonRpcException)
    assert stale.code == JsonRpcContentModified.CODE == -32801
    assert list(fresh.edit.changes) == [second_cell]
    assert "tf.nn.log_softmax(logits)" in fresh.edit.changes[second_cell][0].new_text
    close_notebook(client, uri, items)


def test_a_superseded_job_is_dropped_whether_waiting_or_running():
    """The worker tells a job's owner when a newer job of its key replaces it before it ran
    or interrupts it while it runs (the owner answers the request that waits on it)."""
    import threading

    worker = Worker()
    events = []

    def slow():
        events.append("slow started")
        threading.Timer(0.1, worker.submit, args=("doc", newer)).start()
        time.sleep(30)
        events.append("slow finished")

    def newer():
        events.append("newer")
        worker.stop()

    worker.submit("doc", lambda: events.append("waiting"), delay=10,
                  dropped=lambda: events.append("waiting dropped"))
    worker.submit("doc", slow, dropped=lambda: events.append("slow dropped"))
    assert run_worker(worker) < 10
    assert events == ["waiting dropped", "slow started", "slow dropped", "newer"]


def run_worker(worker):
    """Run ``worker`` until it stops, keeping the SIGUSR1 handler it installs out of the
    other tests; the seconds it ran."""
    import signal

    previous = signal.getsignal(signal.SIGUSR1)
    started = time.monotonic()
    try:
        worker.run()
    finally:
        signal.signal(signal.SIGUSR1, previous)
    return time.monotonic() - started


def test_a_stale_run_is_interrupted_even_if_one_signal_is_lost():
    """One interrupt can land where exceptions are swallowed (a gc callback, a __del__: the
    stale run went on to its end); the worker signals again until the run stops."""
    import threading

    worker = Worker()
    events = []

    def stubborn():
        threading.Timer(0.1, worker.submit, args=("doc", newer)).start()
        try:
            time.sleep(30)
        except Cancelled:
            events.append("swallowed")
        time.sleep(30)
        events.append("stubborn finished")

    def newer():
        events.append("newer")
        worker.stop()

    worker.submit("doc", stubborn, dropped=lambda: events.append("stubborn dropped"))
    assert run_worker(worker) < 10
    assert events == ["swallowed", "stubborn dropped", "newer"]


# -- configuration ---------------------------------------------------------------------------
@in_server
async def test_each_workspace_folder_has_its_configuration(client, workspace):
    inside, outside = workspace / "other" / "log.py", workspace / "main" / "log.py"
    assert await published(client, inside.as_uri(), lambda: open_file(client, inside,
                                                                      TF_LOG)) == []
    [diagnostic] = await published(client, outside.as_uri(),
                                   lambda: open_file(client, outside, TF_LOG))
    assert diagnostic.code == "NAN102"  # `ignore: [NAN102]` is the other folder's
    close_file(client, inside)
    close_file(client, outside)


@in_server
async def test_a_document_is_checked_under_its_nearest_configuration(client, workspace):
    # A project inside a workspace folder: its own configuration, as `nanlint check` finds it.
    make(workspace / "main" / "nested",
         {"pyproject.toml": "[tool.nanlint]\nignore = ['NAN102']\n"}, git=False)
    make(workspace / "main" / "broken", {"pyproject.toml": "[tool.nanlint\n"}, git=False)
    inside = workspace / "main" / "nested" / "deeper" / "log.py"
    inside.parent.mkdir()
    assert await published(client, inside.as_uri(), lambda: open_file(client, inside,
                                                                      TF_LOG)) == []
    broken = workspace / "main" / "broken" / "log.py"
    config = workspace / "main" / "broken" / "pyproject.toml"
    [problem] = await published(client, config.as_uri(), lambda: open_file(client, broken,
                                                                             TF_LOG))
    assert "invalid TOML" in problem.message
    assert not client.diagnostics.get(broken.as_uri())
    close_file(client, inside)
    close_file(client, broken)


@in_server
async def test_the_configuration_files_are_watched(client):
    [registration] = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    assert [w["globPattern"] for w in registration.register_options["watchers"]] == [
        "**/.nanlint.yaml", "**/pyproject.toml"]


@in_server
async def test_a_broken_configuration_is_one_error_and_the_server_goes_on(client, workspace):
    config = workspace / "other" / ".nanlint.yaml"
    path = workspace / "other" / "mixed.py"
    before = await published(client, path.as_uri(), lambda: open_file(client, path, TF_MIXED))
    assert {d.code for d in before} == {"NAN101", "NAN201"}
    client.messages.clear()

    def changed():
        client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Changed)]))

    try:
        config.write_text("ignore: [NAN102]\nselect: [NAN9]\n")
        [problem] = await published(client, config.as_uri(), changed)
        assert problem.severity == types.DiagnosticSeverity.Error
        assert problem.range.start.line == 0
        assert "`select`: unknown code `NAN9`" in problem.message
        while not client.messages:
            await asyncio.sleep(0.02)
        assert "unknown code `NAN9`" in client.messages[0].message
        assert client.messages[0].type == types.MessageType.Error
        while client.diagnostics.get(path.as_uri()):
            await asyncio.sleep(0.02)  # no findings under a configuration that is broken
        # Invalid YAML names its line.
        config.write_text("ignore: [NAN102\nselect: x\n")
        [problem] = await published(client, config.as_uri(), changed)
        assert "invalid YAML" in problem.message and problem.range.start.line > 0
    finally:
        config.write_text("preview: true\nignore: [NAN102]\n")
    assert await published(client, config.as_uri(), changed) == []
    after = await published(client, path.as_uri(), lambda: replace_text(client, path,
                                                                        TF_MIXED, 2))
    assert [as_tuple(d) for d in after] == [as_tuple(d) for d in before]
    close_file(client, path)
    # YAML was read, and not through the workspace's own yaml.py, though the server runs in
    # the folder that holds it.
    assert not (workspace / "main" / "yaml.py.imported").exists()


@in_server
async def test_settings_from_the_client_override_select(client, workspace):
    path = workspace / "main" / "selected.py"
    assert len(await published(client, path.as_uri(),
                               lambda: open_file(client, path, TF_MIXED))) == 4

    def settings(values):
        return lambda: client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"nanlint": values}))

    try:
        only = await published(client, path.as_uri(), settings({"select": ["NAN101"]}))
        assert [d.code for d in only] == ["NAN101"]
        high = await published(client, path.as_uri(), settings({"min-confidence": "high"}))
        assert {d.data["confidence"] for d in high} == {"high"}
        # the default tier: the preview rules (NAN101, NAN102 here) are off; NAN201 is on
        default = await published(client, path.as_uri(), settings({"preview": False}))
        assert [d.code for d in default] == ["NAN201"]
    finally:
        restored = await published(client, path.as_uri(),
                                   settings({"low-confidence-as-hint": True}))
    assert len(restored) == 4
    close_file(client, path)


@in_server
async def test_the_suspects_setting_adds_the_best_suspects_as_hints(client, workspace):
    path = workspace / "main" / "hunted.py"
    text = SOFTMAX_CE + ("\n\ndef scaled(total, items):\n    count = tf.size(items)\n"
                         "    return total / count\n")
    before = await published(client, path.as_uri(), lambda: open_file(client, path, text))
    assert [d.code for d in before] == ["NAN103"]

    def settings(values):
        return lambda: client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"nanlint": values}))

    try:
        hunted = await published(client, path.as_uri(), settings(
            {"suspects": True, "low-confidence-as-hint": True}))
    finally:
        restored = await published(client, path.as_uri(),
                                   settings({"low-confidence-as-hint": True}))
    hints = [d for d in hunted if d.message.startswith("suspect ")]
    assert [(d.code, d.range.start.line, d.severity) for d in hints] == [
        ("NAN101", 10, types.DiagnosticSeverity.Hint)]  # 0-based: line 11
    assert "why: " in hints[0].message
    # where the operand is set, as related information: the whole line 10
    [origin] = hints[0].related_information
    assert (origin.location.range.start.line, origin.location.range.start.character,
            origin.location.range.end.line, origin.location.range.end.character) == (
        9, 0, 9, len("    count = tf.size(items)"))
    assert origin.message == "`count` is set here"
    assert [as_tuple(d) for d in hunted if d not in hints] == [as_tuple(d) for d in before]
    assert [as_tuple(d) for d in restored] == [as_tuple(d) for d in before]
    close_file(client, path)


@in_server
async def test_settings_pulled_from_the_client_add_to_the_configuration_file(client,
                                                                              workspace):
    deadline = time.monotonic() + 30
    while "nanlint" not in client.sections_asked:  # asked once initialized
        assert time.monotonic() < deadline, client.sections_asked
        await asyncio.sleep(0.02)
    path = workspace / "other" / "pulled.py"  # its .nanlint.yaml ignores NAN102
    uri = path.as_uri()
    text = TF_MIXED + ("grads = tape.gradient(loss, variables)\n"  # NAN302
                       "grads = [tf.clip_by_value(g, -1.0, 1.0) for g in grads]\n")
    before = await published(client, uri, lambda: open_file(client, path, text))
    assert sorted(d.code for d in before) == ["NAN101", "NAN201", "NAN302"]

    def changed(settings=None):  # None: the client is to be asked
        return lambda: client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings=settings))

    client.set_configuration({"ignore": ["NAN101", "NAN302"],
                              "low-confidence-as-hint": True}, section="nanlint")
    try:
        pulled = await published(client, uri, changed())
        assert sorted(d.code for d in pulled) == ["NAN201"]  # the file's ignore still holds
    finally:
        client.set_configuration(None, section="nanlint")  # nothing to pull: a push counts
        restored = await published(client, uri, changed(
            {"nanlint": {"low-confidence-as-hint": True}}))
    assert [as_tuple(d) for d in restored] == [as_tuple(d) for d in before]
    close_file(client, path)


# -- memory ----------------------------------------------------------------------------------
def rss_kib(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@in_server
async def test_memory_stays_flat_over_many_files(client, workspace):
    folder = workspace / "main" / "many"
    folder.mkdir()
    sizes = []
    for index in range(100):
        path = folder / f"file_{index:03}.py"
        await published(client, path.as_uri(), lambda: open_file(client, path, TF_MIXED))
        close_file(client, path)
        if index in (29, 99):
            sizes.append(rss_kib(client._server.pid))
    print("RSS (KiB) after 30 and 100 files:", sizes)
    assert sizes[1] - sizes[0] < 2048, sizes  # less than 2 MiB over the last 70 files


def test_without_pygls_the_server_says_what_to_install():
    import subprocess

    script = ("import sys; sys.modules['pygls'] = None; from nanlint.cli import main; "
              "sys.exit(main(['server']))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "pip install 'nanlint[server]'" in result.stderr
