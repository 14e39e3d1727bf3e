"""The protocol's side of ``nanlint server``: the pygls server, the handler of each message
(``build``) and the two threads (``serve``): the protocol runs in a second thread while the
worker lints in the main thread.

The parts it wires: ``settings`` (the configuration per path, with the client's overrides),
``documents`` (what is open and its last results, linted in the ``worker``), ``actions`` (the
code actions), ``fixall`` (the edit of fix-all) and ``hover`` (a rule's documentation).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from typing import List, Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified
from pygls.lsp.server import LanguageServer

from nanlint import __version__
from nanlint.server import hover as rule_docs
from nanlint.server.actions import SHOW_DOCUMENTATION, code_actions
from nanlint.server.documents import Documents
from nanlint.server.fixall import FIX_ALL, NOTEBOOK_FIX_ALL, FixAll
from nanlint.server.lsp import SOURCE
from nanlint.server.settings import CONFIG_NAMES, Settings
from nanlint.server.worker import Worker

DEBOUNCE = 0.3  # seconds of quiet after an edit before it is linted
logger = logging.getLogger("nanlint.server")


class NanlintServer(LanguageServer):
    """The server's end of the connection, and the parts it holds: they send to the client
    through its ``publish`` and ``show`` and read the open texts from its ``workspace``."""

    def __init__(self) -> None:
        super().__init__(
            "nanlint", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithCells(
                    notebook="*", cells=[types.NotebookCellLanguage(language="python")])],
                save=True))
        self.worker = Worker()
        self.settings = Settings(self)
        self.documents = Documents(self, self.settings, self.worker)
        self.fix_all = FixAll(self.documents)
        self.exit_code = 1

    def show(self, message: str, kind: types.MessageType) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def publish(self, uri: str, diagnostics: List[types.Diagnostic],
                version: Optional[int] = None) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics, version=version))

    async def pull_settings(self) -> bool:
        """Ask the client for its "nanlint" settings (``workspace/configuration``), if it can
        answer; True if it has some: they replace the earlier ones."""
        workspace = getattr(self.client_capabilities, "workspace", None)
        if not getattr(workspace, "configuration", None):
            return False
        try:
            answer = await self.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section=SOURCE)]))
        except Exception:  # noqa: BLE001 — a client that cannot answer keeps what it sent
            logger.info("nanlint: the client did not answer workspace/configuration")
            return False
        settings = answer[0] if answer else None
        if not isinstance(settings, dict):
            return False
        self.settings.set_overrides(settings)
        return True

    def configuration_changed(self) -> None:
        """A configuration file or the workspace's folders changed: lint everything again."""
        self.settings.configuration_changed()
        self.documents.lint_all()


def build() -> NanlintServer:
    server = NanlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.documents.loop = asyncio.get_running_loop()
        server.settings.set_overrides(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        if await server.pull_settings():
            server.documents.lint_all()
        watched = getattr(getattr(server.client_capabilities, "workspace", None),
                          "did_change_watched_files", None)
        if watched is None or not watched.dynamic_registration:
            return
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]
        try:
            await server.client_register_capability_async(types.RegistrationParams(
                registrations=[types.Registration(
                    id="nanlint-configuration",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(
                        watchers=watchers))]))
        except Exception:  # noqa: BLE001 — without watching, a save still re-reads it
            logger.info("nanlint: the client does not watch the configuration files")

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.exit_code = 0

    @server.feature(types.EXIT)
    def exit_(params: None) -> None:
        server.worker.stop()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.documents.schedule(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.documents.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.rsplit("/", 1)[-1] in CONFIG_NAMES:
            server.configuration_changed()
        else:
            server.documents.schedule(uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.documents.forget(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(params: types.DidOpenNotebookDocumentParams) -> None:
        server.documents.schedule_notebook(params.notebook_document.uri, 0.0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(params: types.DidChangeNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        for cell in set(server.documents.cells_of.get(uri, [])) - {
                c.document for c in server.workspace.get_notebook_document(
                    notebook_uri=uri).cells}:
            server.documents.forget(cell)  # a deleted cell keeps no diagnostics
        server.documents.schedule_notebook(uri, DEBOUNCE)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(params: types.DidSaveNotebookDocumentParams) -> None:
        server.documents.schedule_notebook(params.notebook_document.uri, 0.0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(params: types.DidCloseNotebookDocumentParams) -> None:
        for cell in server.documents.cells_of.pop(params.notebook_document.uri, []):
            server.documents.forget(cell)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.rsplit("/", 1)[-1] in CONFIG_NAMES for change in params.changes):
            server.configuration_changed()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def settings_changed(params: types.DidChangeConfigurationParams) -> None:
        # pushed, or None (the client is to be asked)
        server.settings.set_overrides(params.settings)
        await server.pull_settings()
        server.documents.lint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(params: types.DidChangeWorkspaceFoldersParams) -> None:
        server.configuration_changed()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL, NOTEBOOK_FIX_ALL],
        resolve_provider=True))
    async def code_action(params: types.CodeActionParams) -> List[types.CodeAction]:
        actions = code_actions(server.documents, params)
        resolve = getattr(getattr(getattr(server.client_capabilities, "text_document", None),
                                  "code_action", None), "resolve_support", None)
        if resolve is None or "edit" not in (resolve.properties or []):
            for action in actions:
                if action.kind in (FIX_ALL, NOTEBOOK_FIX_ALL):
                    try:
                        action.edit = await server.fix_all.edit(action.data["uri"])
                    except JsonRpcContentModified:  # stale: the quick fixes go without it
                        action.edit = None
            actions = [a for a in actions
                       if a.kind not in (FIX_ALL, NOTEBOOK_FIX_ALL) or a.edit is not None]
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        if data.get("fixAll") and action.edit is None:
            action.edit = await server.fix_all.edit(data["uri"])
        return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> Optional[types.Hover]:
        return rule_docs.hover(server.documents, params)

    @server.command(SHOW_DOCUMENTATION)
    def show_documentation(code: str) -> None:
        rule_docs.show_documentation(server, str(code))

    return server


def serve() -> int:
    """Speak LSP on stdin/stdout until the client says exit (or goes away)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol stream
    server = build()

    def protocol() -> None:
        try:
            server.start_io(stdin, stdout)
        finally:
            server.worker.stop()

    thread = threading.Thread(target=protocol, name="nanlint-lsp", daemon=True)
    thread.start()
    server.worker.run()
    thread.join(timeout=0.2)  # after `exit` nothing is left to send
    # The protocol thread's stdin reader may still wait for input that never comes: end the
    # process here rather than wait for it at interpreter exit.
    sys.stderr.flush()
    os._exit(server.exit_code)
