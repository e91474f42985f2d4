"""The model path's costs: parallel efficiency against a 1 s loopback endpoint, peak memory per
worker with and without litellm, and the time from pytest start to the first model call.

Every session of the reply-style fake model makes one model call per customer instruction, so
a run of N calls takes about N x 1 s alone and should take close to N/k s with -n k.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fake_server import serve

PORT = 18765
SELECT = ["-k", "fd_rate_query or balance_enquiry"]  # 40 control tasks, one instruction each

PEAK_PLUGIN = """
import resource, pytest
def pytest_sessionfinish(session):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(session.config.getoption("--bench-mem"), "a") as fh:
        fh.write(f"{peak}\\n")
def pytest_addoption(parser):
    parser.addoption("--bench-mem")
"""

FIRST_CALL = """
import time, pytest
@pytest.fixture
def bank_completion(request):
    from pytest_bankbench.models.llm import import_litellm
    litellm = import_litellm()
    def complete(**kwargs):
        path = request.config.getoption("--bench-first")
        with open(path, "a") as fh:
            fh.write(f"{time.time()}\\n")
        return litellm.completion(**kwargs)
    return complete
def pytest_addoption(parser):
    parser.addoption("--bench-first")
"""


def _pytest(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--tb=no", *args],
        cwd=cwd,
        check=False,
        capture_output=True,
    )
    return time.perf_counter() - start


def main() -> None:
    server = serve(PORT, 1.0)
    base = [
        "--bank-model",
        "openai/fake",
        "--bank-api-base",
        f"http://127.0.0.1:{PORT}/v1",
        *SELECT,
    ]
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        report = cwd / "r.json"
        _pytest([*base, "--bank-report", str(report), "-n", "1"], cwd)
        data = json.loads(report.read_text())
        calls = data["summary"]["sessions"]
        print(f"sessions: {calls} (one 1 s model call each)")
        latencies = sorted(s["model_latency_s"] for s in data["sessions"])
        print(
            f"recorded model latency per session: median {latencies[len(latencies) // 2]:.2f} s, "
            f"max {latencies[-1]:.2f} s (litellm's import and setup are not counted)"
        )
        for workers in (1, 4, 16):
            wall = _pytest([*base, "-n", str(workers)], cwd)
            ideal = calls / workers
            print(
                f"-n {workers:>2}: {wall:6.1f} s wall; {calls} x 1 s / {workers} = {ideal:5.1f} s; "
                f"efficiency {ideal / wall:5.1%}"
            )
        (cwd / "conftest.py").write_text(PEAK_PLUGIN)
        for label, args in (
            ("built-in gold agent", ["--bank-model", "gold", *SELECT]),
            ("litellm model path", base),
        ):
            mem = cwd / f"mem-{label[:4]}.txt"
            _pytest([*args, "-n", "2", f"--bench-mem={mem}"], cwd)
            peaks = [int(x) / 1024 for x in mem.read_text().split()]
            print(f"peak RSS per process, {label}: " + ", ".join(f"{p:.0f} MB" for p in peaks))
        (cwd / "conftest.py").write_text(FIRST_CALL)
        first = cwd / "first.txt"
        start = time.time()
        _pytest([*base, "-k", "balance_enquiry-001", f"--bench-first={first}"], cwd)
        stamp = float(first.read_text().split()[0])
        print(
            f"pytest start to first model call (one process, litellm imported lazily): "
            f"{stamp - start:.2f} s"
        )
    server.shutdown()


if __name__ == "__main__":
    main()
