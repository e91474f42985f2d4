"""The rule reader's readings of each part as it read that part before any round was tuned on it.

The rules of today were tuned on every tuning part, so today's readings of a tuning part are
better than the rules' readings of a part they have never seen. A model that learns when to trust
the rules, evaluated on a left-out tuning part with today's readings, would be judged on
contaminated features. Each part from tuning-9 on was renamed from held-out-N at a commit whose
rules had never been changed for it (the rename commit itself, or the parent of the round's
commit where a round renamed and tuned at once): its rules read that part as unseen.

For each such part, this script exports that commit (git archive, as bench/scoring_cost.py does), reads the part's
turns (today's texts) with that commit's `read()` in a subprocess, and writes the acts of the
whole turn and of its last sentence to bench/unseen_readings.json, keyed by part and the first 12
hex digits of the SHA-1 of the turn's text (`key`).
A held-out part, when there is one, is read by today's rules, which have never been tuned on it
("HEAD"); after round 21 there is none.

    python bench/unseen_readings.py     # about a minute; writes bench/unseen_readings.json
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from scoring_cost import checkout  # noqa: E402

from tests.simulation.test_real_turns import TURNS  # noqa: E402

OUT = HERE / "unseen_readings.json"
# The commit whose rules had not yet been tuned on the part (see the module docstring).
UNSEEN_AT: dict[str, str] = {
    "tuning-9": "afcf79e",
    "tuning-10": "28dd2d3^",
    "tuning-11": "038e041^",
    "tuning-12": "3612a43^",
    "tuning-13": "c92d9b2^",
    "tuning-14": "c92d9b2^",
    "tuning-15": "858329a^",
    "tuning-16": "858329a^",
    "tuning-17": "eb8e0f5^",
    "tuning-18": "eb8e0f5^",
    "tuning-19": "ab5915f^",
    "tuning-20": "ab5915f^",
    "tuning-21": "76c616a",
    "tuning-22": "76c616a",
    "tuning-23": "776f25c",
    "tuning-24": "776f25c",
    "tuning-25": "cca6073",
    "tuning-26": "cca6073",
    "tuning-27": "46ce6a8",
    "tuning-28": "46ce6a8",
    "tuning-29": "2827dc9",
    "tuning-30": "2827dc9",
    # Round 16 renamed held-out-27 and held-out-28 at 74cf329, before its first rule change.
    "tuning-31": "74cf329",
    "tuning-32": "74cf329",
    # Round 17 renamed held-out-29 and held-out-30 at c4b3ebc, before its first rule change.
    "tuning-33": "c4b3ebc",
    "tuning-34": "c4b3ebc",
    # Round 18 renamed held-out-31 and held-out-32 at 290e665, before its first rule change.
    "tuning-35": "290e665",
    "tuning-36": "290e665",
    # Round 19 renamed held-out-33 tuning-37 at 56fe437, before its first rule change.
    "tuning-37": "56fe437",
    # Round 20 renamed held-out-34 and held-out-35 at 94084ea, before its first rule change.
    "tuning-38": "94084ea",
    "tuning-39": "94084ea",
    # Round 21 renamed held-out-36 tuning-40 at ea4e162's rules (its first rule change came with
    # the rename).
    "tuning-40": "ea4e162",
}
# Run inside the exported package: texts on stdin as a JSON list, readings on stdout.
READER = """
import json, sys
from pytest_bankbench.simulation.acts import read
out = []
for text in json.load(sys.stdin):
    r = read(text)
    last = r.sentences[-1].acts if r.sentences else ()
    out.append({"acts": sorted(r.acts), "last": sorted(last)})
json.dump(out, sys.stdout)
"""


def key(text: str) -> str:
    """A turn's key in the file: its text's SHA-1, shortened."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


def readings_at(commit: str, texts: list[str]) -> list[dict[str, list[object]]]:
    """`texts` read by the rules of `commit`."""
    with checkout(commit) as tmp:
        assert tmp is not None
        done = subprocess.run(
            [sys.executable, "-c", READER],
            input=json.dumps(texts),
            text=True,
            capture_output=True,
            check=True,
            cwd=tmp,
            env={"PYTHONPATH": str(tmp), "PATH": "/usr/bin:/bin"},
        )
    readings: list[dict[str, list[object]]] = json.loads(done.stdout)
    return readings


def main() -> None:
    result: dict[str, dict[str, dict[str, list[object]]]] = {}
    for part, commit in UNSEEN_AT.items():
        texts = [t.text for t in TURNS if t.part == part]
        result[part] = dict(zip(map(key, texts), readings_at(commit, texts), strict=True))
        print(f"{part}: {len(texts)} turns read at {commit}", flush=True)
    OUT.write_text(
        json.dumps(result, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
