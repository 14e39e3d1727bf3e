"""``nanlint server``: the language server, when its extra (pygls, lsprotocol) is installed."""

from __future__ import annotations

from nanlint.commands import EXIT_ERROR


def run() -> int:
    from nanlint.reporters import write_error

    try:
        from nanlint import server
    except ImportError as error:
        write_error(f"`nanlint server` needs pygls and lsprotocol ({error}); install them with "
                    "`pip install 'nanlint[server]'`")
        return EXIT_ERROR
    return server.serve()
