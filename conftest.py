"""Project test configuration: pytester drives the plugin end to end."""

from __future__ import annotations

import importlib
import pkgutil

import pytest_bankbench

pytest_plugins = ["pytester"]

# pytester's in-process runs drop the modules first imported during a run; a module imported
# again would define its classes twice (a pydantic model then rejects its own twin). Importing
# the whole package up front keeps one copy of every module for the session.
for _module in pkgutil.walk_packages(pytest_bankbench.__path__, "pytest_bankbench."):
    if _module.name not in ("pytest_bankbench.__main__",):
        importlib.import_module(_module.name)
