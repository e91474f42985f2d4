"""Entry point of `python -m pytest_bankbench`."""

from __future__ import annotations

import os
import sys

from pytest_bankbench.cli import main

try:
    sys.exit(main())
except BrokenPipeError:
    # The reader went away (`customer ID | head`): no traceback. Python's own advice: point
    # stdout at devnull so the interpreter's final flush does not raise again.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
