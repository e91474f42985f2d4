"""Typed refusals of the bank: a tool raises one; only the session loop turns it into a tool result."""

from __future__ import annotations

from pytest_bankbench.errors import BankBenchError


class ToolError(BankBenchError):
    """A call the bank refused; the message tells the agent what is accepted."""

    code = "tool_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ToolError):
    """No such record for this customer."""

    code = "not_found"


class NotYourRecord(ToolError):
    """The record belongs to another customer."""

    code = "not_authorized"


class InvalidArguments(ToolError):
    """Arguments missing, of the wrong type, or outside the accepted range."""

    code = "invalid_arguments"


class RuleViolation(ToolError):
    """A business rule forbids the action (limit, lien, lock-in, status, KYC)."""

    code = "policy_violation"


class InsufficientFunds(ToolError):
    """The available balance does not cover the debit."""

    code = "insufficient_funds"


class UnknownTool(ToolError):
    """The agent named a tool the bank does not have."""

    code = "unknown_tool"
