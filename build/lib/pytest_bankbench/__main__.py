"""Entry point of `python -m pytest_bankbench`."""

from __future__ import annotations

import sys

from pytest_bankbench.cli import main

sys.exit(main())
