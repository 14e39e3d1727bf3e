"""``nanlint server``: a Language Server Protocol server over stdio (pygls, lsprotocol).

It is a thin wrapper around the engine: a document's diagnostics are the findings of
``lint_text`` / ``lint_bytes`` for its text under the configuration the CLI would use, and its
fixes are the findings' fixes and ``fix_source``. Linting runs in the main thread (where the
``file-timeout`` alarm can interrupt it) while the protocol runs in a second thread; a newer
edit of the same document interrupts a stale run. The server never writes a file: every edit
goes to the client as a ``WorkspaceEdit``.

Its parts, each importing only those below it (docs/development.md): ``protocol`` (the
handlers, the threads); ``actions`` (code actions) and ``fixall`` (the edit of fix-all);
``hover``; ``documents`` (what is open and its last results); ``settings``, ``worker``;
``lsp`` (findings in the protocol's terms).
"""

from nanlint.server.actions import ignore_edit
from nanlint.server.protocol import DEBOUNCE, NanlintServer, build, serve
from nanlint.server.worker import Cancelled, Worker

__all__ = ["DEBOUNCE", "Cancelled", "NanlintServer", "Worker", "build", "ignore_edit", "serve"]
