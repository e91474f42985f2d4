"""pytest-bankbench: procedure and outcome checks for tool-using banking agents, as a pytest plugin."""

from __future__ import annotations

__version__ = "0.1.0"
