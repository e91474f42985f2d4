"""Project test configuration: pytester drives the plugin end to end."""

from __future__ import annotations

pytest_plugins = ["pytester"]
