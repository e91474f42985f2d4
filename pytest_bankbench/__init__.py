"""pytest-bankbench: procedure and outcome checks for tool-using banking agents, as a pytest plugin.

The public agent interface (pytest_bankbench/api.py) is importable from here:
`from pytest_bankbench import AgentAction, AgentContext, ToolCall`. It is loaded on first use,
so the pytest entry point, which imports this package in every pytest run, stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from pytest_bankbench.api import (
        Agent,
        AgentAction,
        AgentContext,
        AgentFactory,
        CheckName,
        CustomerTurn,
        EndReason,
        Event,
        FailureType,
        Message,
        MessageEvent,
        Say,
        Stop,
        TaskView,
        ToolCall,
        ToolEvent,
        Trace,
        Usage,
        Verdict,
        agent_context,
        chat_messages,
        is_agent,
        task_view,
    )

__all__ = [
    "Agent",
    "AgentAction",
    "AgentContext",
    "AgentFactory",
    "CheckName",
    "CustomerTurn",
    "EndReason",
    "Event",
    "FailureType",
    "Message",
    "MessageEvent",
    "Say",
    "Stop",
    "TaskView",
    "ToolCall",
    "ToolEvent",
    "Trace",
    "Usage",
    "Verdict",
    "__version__",
    "agent_context",
    "chat_messages",
    "is_agent",
    "task_view",
]


def __getattr__(name: str) -> Any:
    """The public API's names, imported from pytest_bankbench.api when first asked for."""
    if name in __all__ and name != "__version__":
        from pytest_bankbench import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pytest_bankbench' has no attribute {name!r}")
