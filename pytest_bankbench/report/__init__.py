"""What a run reports, after its sessions are scored.

- `metrics`: pass^1 with a Wilson interval, pass^k over trials, the final-state-only rate and
  the false passes (final state right, procedure or telling wrong), by category, service area
  and gold-chain length;
- `document` and `record`: the typed JSON report (`--bank-report`, with `report_version`) and
  one finished session as it is kept; `results_log` and `run_guard`: the session log written as
  sessions end (`--bank-resume`) and one writer per report;
- `terminal`, `markdown`, `html` and `html_traces`: the summary after pytest's own, the CI job
  summary and the self-contained HTML page with its traces packed for reading on demand;
  `failure_line`: a failed session in one line;
- `compare`, `gate` and `merge`: the paired comparison of two reports (exact McNemar test),
  the CI gate (`--bank-gate`, `--bank-baseline`) and the merge of shards (`--bank-shard`);
- `output` and `output_paths`: every file written atomically, to a path checked first.

Nothing here scores: a report reads the verdicts `pytest_bankbench.scoring` gave.
"""
