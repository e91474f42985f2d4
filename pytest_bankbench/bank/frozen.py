"""Frozen pydantic records that share one fields-set per class (issue 11, item 7).

pydantic keeps on every instance the set of field names it was given: 200-700 bytes each, 9 MB of
the 22 MB the 1,000 shipped tasks took in a worker, and a share of every trace it keeps. A
record read from a file (or built by the harness) is given every field, so all instances of a
class hold equal sets; they share the first one instead. Nothing mutates that set on a frozen
model: assignment is refused, and model_copy gives the copy a set of its own.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

_ALL_FIELDS: dict[type[BaseModel], set[str]] = {}


class FrozenRecord(BaseModel):
    """A frozen model with no extra fields whose instances share their fields-set."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def model_post_init(self, context: Any, /) -> None:
        fields = self.__pydantic_fields_set__
        cls = type(self)
        # Only a full set is shared: one that left fields to their defaults is kept as it is.
        if len(fields) == len(cls.__pydantic_fields__):
            shared = _ALL_FIELDS.setdefault(cls, fields)
            if shared is not fields:
                object.__setattr__(self, "__pydantic_fields_set__", shared)
