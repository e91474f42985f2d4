"""xdist's load scheduling, made to survive a dying worker, and kept deep for --bank-concurrency.

A worker killed right after reporting a test (out of memory, a crash, kill -9) left xdist's
controller sending that worker more tests over a closed channel: INTERNALERROR, and the run
ended without accounting for its sessions. xdist's own `shutdown` ignores that error; sending
tests now does too. The tests stay assigned to the dead worker until xdist handles its crash
(`remove_node`), which reports the session it was running as lost and queues the rest again.

Default `--dist load` tops a worker up only when fewer than 2 of its tests are pending once the
tests take over 0.1 s, so a worker sees 2-6 tests ahead and cannot keep K sessions in flight
(ECOSYSTEM_NOTES "Several sessions at once inside one process"). DeepLoadScheduling keeps every
worker's queue at `depth` tests while tests remain, and never hands one worker more than an
even share of what is left, so the run's tail stays balanced. Imported only on the controller
of an xdist run (from the pytest_xdist_make_scheduler hook), as xdist may be absent.
"""

from __future__ import annotations

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadScheduling
from xdist.workermanage import WorkerController


class SteadyLoadScheduling(LoadScheduling):  # type: ignore[misc]  # xdist ships no types
    """LoadScheduling that does not fail the run when a worker died between two messages."""

    def _send_tests(self, node: WorkerController, num: int) -> None:
        try:
            super()._send_tests(node, num)
        except OSError:  # execnet: "cannot send (already closed?)"; xdist handles the crash next
            self.log("a worker was gone before its tests were sent")


class DeepLoadScheduling(SteadyLoadScheduling):
    """Load scheduling whose per-worker queue holds `depth` tests while any remain unsent."""

    def __init__(self, config: pytest.Config, log: Producer | None = None, depth: int = 2) -> None:
        super().__init__(config, log)
        self.depth = depth

    def schedule(self) -> None:
        super().schedule()
        if self.collection and self.pending:  # the first chunks may be shallower than depth
            for node in self.nodes:
                self.check_schedule(node)

    def check_schedule(self, node: WorkerController, duration: float = 0) -> None:
        if not node.shutting_down and self.pending:
            missing = self.depth - len(self.node2pending[node])
            share = -(-len(self.pending) // max(1, len(self.node2pending)))  # ceil
            if missing > 0:
                self._send_tests(node, min(missing, share))
        super().check_schedule(node, duration)
