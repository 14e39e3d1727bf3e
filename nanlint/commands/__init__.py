"""The bodies of the command line's subcommands, one module per concern (``nanlint.cli``
parses the arguments and calls them). Each returns the process's exit code."""

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
