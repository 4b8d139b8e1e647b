"""The published command `python -m games.engine ...`: the same as `python -m handfoot ...`."""

import sys

from handfoot.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
