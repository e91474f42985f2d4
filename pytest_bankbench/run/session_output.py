"""Output of sessions played in background threads, kept for the test that owns each session.

pytest captures per process, not per thread: a print or a log record from a background
session would land in whichever test runs at that moment (ECOSYSTEM_NOTES "Several sessions at
once inside one process"). While a thread plays a session, its prints (sys.stdout/sys.stderr,
routed during each test phase) and its log records (a filter on every handler) go to that
session's buffer instead; the owning test shows them as a report section. Between phases
pytest puts the terminal's streams back, so a print then goes to the terminal (never into
another test); output written straight to a file descriptor is not routed. The buffer is held
in a ContextVar, not by thread: a move played on a worker thread under the session deadline
(simulation/bounded.py) runs in a copy of its session thread's context and writes there too.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

_ROUTED = "_bankbench_routed"
_FORMAT = logging.Formatter("%(levelname)-8s %(name)s: %(message)s")


class _Routed:
    """A stream that sends a background session's writes to its buffer, the rest through."""

    def __init__(self, stream: TextIO, output: SessionOutput) -> None:
        self._stream = stream
        self._output = output

    def write(self, text: str) -> int:
        sink = self._output.sink()
        if sink is None:
            return self._stream.write(text)
        sink.append(text)
        return len(text)

    def flush(self) -> None:
        if self._output.sink() is None:
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class SessionOutput(logging.Filter):
    """Per-thread buffers of background sessions, keyed by the test that will take them."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        # The buffer of the session this context plays (a thread's own, or a move's copy of it).
        self._sink: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
            "bankbench_session_output", default=None
        )
        self._buffers: dict[str, list[str]] = {}  # key -> the session's buffer
        self._patched: list[Any] = []  # capture files whose write routes background text

    @contextmanager
    def collect(self, key: str) -> Iterator[None]:
        """Route this thread's output to `key`'s buffer while the block runs."""
        buffer: list[str] = []
        with self._lock:
            self._buffers[key] = buffer
        token = self._sink.set(buffer)
        try:
            yield
        finally:
            self._sink.reset(token)

    def sink(self) -> list[str] | None:
        """The buffer of the session this thread plays; None on any other thread."""
        return self._sink.get()

    def pop(self, key: str) -> str:
        """The output `key`'s session wrote, handed over once."""
        with self._lock:
            return "".join(self._buffers.pop(key, ()))

    # -- log records ------------------------------------------------------------------------
    def filter(self, record: logging.LogRecord) -> bool:
        """On a handler: a background session's record goes to its buffer (once), not through."""
        sink = self.sink()
        if sink is None:
            return True
        if not getattr(record, _ROUTED, False):
            setattr(record, _ROUTED, True)
            sink.append(_FORMAT.format(record) + "\n")
        return False

    def _handlers(self) -> list[logging.Handler]:
        loggers = [logging.getLogger()] + [
            logger
            for logger in list(logging.Logger.manager.loggerDict.values())
            if isinstance(logger, logging.Logger)
        ]
        return [handler for logger in loggers for handler in logger.handlers]

    def install(self) -> None:
        """Filter every handler there is now (phases call it again for handlers added since)."""
        for handler in self._handlers():
            handler.addFilter(self)  # no-op if already there

    def uninstall(self) -> None:
        for handler in self._handlers():
            handler.removeFilter(self)
        for stream in self._patched:
            with contextlib.suppress(AttributeError):
                del stream.write  # the class's own write again
        self._patched.clear()

    # -- prints ----------------------------------------------------------------------------
    def _patch(self, stream: Any) -> bool:
        """Route writes on pytest's capture file itself: pytest puts the same file back at every
        phase, so routing holds from the moment capture resumes until it suspends, with no gap
        around this plugin's phase hooks. False for a stream that takes no attribute (a real
        terminal stream, under -s)."""
        if any(stream is done for done in self._patched):
            return True
        original = stream.write

        def write(text: str) -> int:
            sink = self.sink()
            if sink is None:
                result: int = original(text)
                return result
            sink.append(text)
            return len(text)

        try:
            stream.write = write
        except (AttributeError, TypeError):
            return False
        self._patched.append(stream)
        return True

    @contextmanager
    def routed(self) -> Iterator[None]:
        """During one test phase: route background prints to their session's buffer."""
        self.install()
        out, err = sys.stdout, sys.stderr
        routed_out = out if self._patch(out) else _Routed(out, self)
        routed_err = err if self._patch(err) else _Routed(err, self)
        sys.stdout, sys.stderr = routed_out, routed_err
        try:
            yield
        finally:
            if sys.stdout is routed_out:
                sys.stdout = out
            if sys.stderr is routed_err:
                sys.stderr = err
