import os
import sys

# `python -m nanlint` puts the current folder first on sys.path: run inside a scanned
# repository, its `yaml.py` or `libcst.py` would be imported, and run, in place of the real
# one. The nanlint package is already imported; nothing else may come from there.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.getcwd():
    del sys.path[0]

from nanlint.cli import main  # noqa: E402

sys.exit(main())
