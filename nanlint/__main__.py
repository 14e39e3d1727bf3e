import sys

from nanlint.cli import main

sys.exit(main())
