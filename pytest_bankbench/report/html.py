"""A self-contained HTML report: headline numbers, charts, and every session with its trace.

One file, no network: inline CSS, vanilla JS, the report and traces embedded as JSON in a
``<script type="application/json">`` tag. Charts are inline SVG drawn in the browser; all
data reaches the page through ``textContent``/attributes, never through markup, so evidence
or tool output containing ``<``, ``&`` or ``</script>`` is shown as text.

Opening the file with ``#selftest`` appended to the URL runs a small in-page check (used by
the headless-Chromium tests): it clicks the first failing session, verifies the detail panel
and the filters, and writes the outcome to ``#selftest-result`` and ``document.title``.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

__all__ = ["embed_json", "render_html", "write_html"]


def embed_json(value: Any) -> str:
    """JSON that is safe inside a script element: no ``<``, ``>`` or ``&`` appears literally.

    The characters only occur inside JSON strings, where ``\\u003c`` etc. mean the same thing,
    so ``JSON.parse`` (and ``json.loads``) return the original value.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for raw, escaped in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def render_html(report: dict[str, Any], traces: list[dict[str, Any]]) -> str:
    """The whole page as a string; `traces` are ``Trace.model_dump(mode="json")`` dicts."""
    provenance = report.get("provenance") or {}
    agent = (provenance.get("agent") or {}).get("model", "unknown agent")
    split = provenance.get("split", "")
    title = f"Bank benchmark — {agent}" + (f" ({split})" if split else "")
    parts = {
        "TITLE": html.escape(str(title)),
        "CSS": _CSS,
        "JS": _JS,
        "DATA": embed_json({"report": report, "traces": traces}),
    }
    # One pass over the template: text put in is never scanned for placeholders again.
    return re.sub(r"__(TITLE|CSS|JS|DATA)__", lambda m: parts[m.group(1)], _TEMPLATE)


def write_html(path: Path, report: dict[str, Any], traces: list[dict[str, Any]]) -> None:
    """Write the page atomically: a temporary file in the same folder, then os.replace."""
    text = render_html(report, traces)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__CSS__</style>
<script>
window.__bankErrors = [];
window.addEventListener("error", function (e) { window.__bankErrors.push("error: " + e.message); });
window.addEventListener("unhandledrejection", function (e) { window.__bankErrors.push("rejection: " + e.reason); });
(function () { var orig = console.error; console.error = function () {
  window.__bankErrors.push("console.error: " + Array.prototype.join.call(arguments, " "));
  return orig.apply(console, arguments); }; })();
</script>
</head>
<body>
<header class="top">
  <div class="wrap"><h1>Bank benchmark report</h1><div id="meta" class="meta"></div></div>
</header>
<main class="wrap">
  <section id="cards" class="cards" aria-label="Headline numbers"></section>
  <section id="charts" class="charts" aria-label="Charts"></section>
  <section class="panel" aria-label="Sessions">
    <div class="panel-head"><h2>Sessions</h2><span id="count" class="muted"></span></div>
    <div id="filters" class="filters"></div>
    <div class="table-wrap"><table class="sessions">
      <thead><tr><th>Status</th><th>Task</th><th class="num">Trial</th><th>Category</th>
      <th>Service area</th><th class="num">Chain</th><th>Failure type</th><th>End</th>
      <th class="num">Steps</th><th class="num">Failed calls</th></tr></thead>
      <tbody id="rows"></tbody>
    </table></div>
    <button id="more" class="more" type="button" hidden></button>
  </section>
</main>
<div id="backdrop" class="backdrop" hidden></div>
<aside id="detail" class="detail" aria-hidden="true" aria-label="Session detail">
  <div class="detail-head"><h2 id="detail-title"></h2>
  <button id="close" class="close" type="button" aria-label="Close">×</button></div>
  <div id="detail-body" class="detail-body"></div>
</aside>
<pre id="selftest-result" hidden></pre>
<script type="application/json" id="bank-data">__DATA__</script>
<script>__JS__</script>
</body>
</html>
"""

_CSS = """
:root{--bg:#f4f6f9;--card:#fff;--line:#e2e6ec;--text:#1c2430;--muted:#667085;--pass:#2456c9;
--final:#e8a23a;--ok:#137a43;--okbg:#e3f5ea;--bad:#b42318;--badbg:#fde8e6;--warn:#a15c07;
--warnbg:#fef3dc;--infra:#5b4bb0;--infrabg:#ece9fb;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.wrap{max-width:1240px;margin:0 auto;padding:0 20px}
.top{background:#16213a;color:#fff;padding:18px 0 16px;margin-bottom:20px}
.top h1{margin:0 0 6px;font-size:20px;font-weight:600;letter-spacing:.2px}
.meta{display:flex;flex-wrap:wrap;gap:6px 18px;color:#c6cfdf;font-size:13px}.meta b{color:#fff;font-weight:600}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:14px;margin-bottom:18px}
.card,.panel,.chart-card{background:var(--card);border:1px solid var(--line);border-radius:10px}
.card{padding:14px 16px}.card .label{font-size:12.5px;font-weight:600;color:var(--muted)}
.card .value{font-size:28px;font-weight:650;margin:2px 0;font-variant-numeric:tabular-nums}
.card .sub{font-size:12.5px;color:var(--muted)}.card.primary .value{color:var(--pass)}
.ci{position:relative;height:6px;background:#e9edf3;border-radius:3px;margin:8px 0 6px}
.ci span{position:absolute;top:0;bottom:0;background:#9db5ea;border-radius:3px}
.ci i{position:absolute;top:-3px;width:3px;height:12px;background:var(--pass);border-radius:1px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:14px;margin-bottom:18px}
.chart-card{padding:12px 14px 6px}.chart-card.wide{grid-column:1/-1}.caption{font-size:12.5px;color:var(--muted);margin:4px 0 6px}.chart-card h3{margin:0;font-size:14px;font-weight:600}
.chart-head{display:flex;justify-content:space-between;align-items:baseline;gap:10px;flex-wrap:wrap}
.legend{font-size:12px;color:var(--muted);display:flex;gap:12px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
svg.chart{width:100%;height:auto;display:block;font-family:inherit}
svg.chart text{fill:#4a5566;font-size:11px}svg.chart .grid{stroke:#edf0f4}svg.chart .axis{stroke:#c9d0da}
svg.chart .bar-pass{fill:var(--pass)}svg.chart .bar-final{fill:var(--final)}svg.chart .bar-fail{fill:#d05a4e}
svg.chart .bar-k{fill:#4a7bd9}svg.chart text.val{font-size:10.5px;fill:#2b3443;font-weight:600}
svg.chart text.fp{fill:var(--warn);font-weight:600}svg.chart .grp{cursor:pointer}
svg.chart .grp:hover rect.hit{fill:#f1f4f9}svg.chart rect.hit{fill:transparent}
.empty{color:var(--muted);padding:28px 0;text-align:center}
.panel{padding:14px 16px 16px;margin-bottom:30px}.panel-head{display:flex;align-items:baseline;gap:12px}
.panel h2{margin:0 0 10px;font-size:16px}.muted{color:var(--muted)}
.filters{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:10px}
.filters select,.filters input{font:inherit;padding:6px 8px;border:1px solid #cfd5de;border-radius:6px;background:#fff;color:var(--text)}
.filters input{min-width:240px;flex:1}.filters button{font:inherit;padding:6px 12px;border:1px solid #cfd5de;border-radius:6px;background:#f7f8fa;cursor:pointer}
.table-wrap{overflow-x:auto}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:7px 10px;border-bottom:1px solid #edf0f4;white-space:nowrap}
th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.4px;background:#fafbfc;position:sticky;top:0}
.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr.srow{cursor:pointer}tbody tr.srow:hover{background:#f3f6fc}tbody tr.srow:focus{outline:2px solid #9db5ea;outline-offset:-2px}
td.task{font-family:var(--mono);font-size:12.5px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.b-pass{background:var(--okbg);color:var(--ok)}.b-fail{background:var(--badbg);color:var(--bad)}
.b-fp{background:var(--warnbg);color:var(--warn)}.b-infra{background:var(--infrabg);color:var(--infra)}
.b-muted{background:#eef1f5;color:#4a5566}.b-write{background:#e6eefc;color:#1d47a8}
.more{display:block;margin:12px auto 0;font:inherit;padding:7px 16px;border:1px solid #cfd5de;border-radius:6px;background:#fff;cursor:pointer}
.backdrop{position:fixed;inset:0;background:rgba(15,23,42,.35)}
.detail{position:fixed;top:0;right:0;bottom:0;width:min(820px,100%);background:#fff;box-shadow:-8px 0 30px rgba(15,23,42,.18);
transform:translateX(105%);display:flex;flex-direction:column;z-index:10}
body.ready .detail{transition:transform .18s ease}.detail.open{transform:none}.detail-head{display:flex;align-items:center;justify-content:space-between;padding:14px 18px;border-bottom:1px solid var(--line)}
.detail-head h2{margin:0;font-size:16px;font-family:var(--mono)}
.close{font-size:22px;line-height:1;border:0;background:none;cursor:pointer;color:var(--muted);padding:2px 6px}
.detail-body{overflow-y:auto;padding:14px 18px 40px}.detail-body h3{font-size:13px;text-transform:uppercase;letter-spacing:.6px;color:var(--muted);margin:20px 0 8px}
.facts{display:flex;flex-wrap:wrap;gap:6px}
.checks{list-style:none;margin:0;padding:0}.checks>li{border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin-bottom:8px}
.checks>li.fail{border-color:#f3c2bd;background:#fff8f7}.check-name{font-weight:600;font-family:var(--mono);font-size:13px}
.icon{display:inline-block;width:18px;font-weight:700}.fail .icon{color:var(--bad)}.pass .icon{color:var(--ok)}
ul.evidence{margin:6px 0 0;padding:0;list-style:none}
ul.evidence li{font-family:var(--mono);font-size:12px;white-space:pre-wrap;word-break:break-word;padding:3px 8px;border-left:3px solid #e9b3ad;background:#fff;margin-top:3px}
.note{color:var(--muted);background:#f7f8fa;border:1px dashed #d5dae2;border-radius:8px;padding:10px 12px}
.ev{border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin-bottom:8px}
.ev-msg.customer{background:#f6f7f9}.ev-msg.agent{background:#f3f7ff;border-color:#d8e3fb}
.who{font-size:11.5px;font-weight:700;text-transform:uppercase;letter-spacing:.5px;color:var(--muted);margin-bottom:2px}
.ev-msg .text{white-space:pre-wrap;word-break:break-word}
.ev-tool{border-left:3px solid #9aa6b8}.ev-tool.write{border-left-color:var(--pass)}.ev-tool.err{border-left-color:var(--bad)}
.ev-head{display:flex;flex-wrap:wrap;align-items:center;gap:6px}.tool-name{font-family:var(--mono);font-weight:600}
.step{display:inline-block;font-size:11px;color:var(--muted);font-variant-numeric:tabular-nums;min-width:28px;font-weight:600}
pre{margin:6px 0 0;font-family:var(--mono);font-size:12px;background:#f7f8fa;border-radius:6px;padding:6px 8px;white-space:pre-wrap;word-break:break-word;max-height:340px;overflow:auto}
details summary{cursor:pointer;font-size:12.5px;color:var(--muted);margin-top:4px}.err-text{color:var(--bad);margin-top:4px;font-size:13px}
.ev-end{font-weight:600;padding:8px 10px;border-radius:8px;background:#eef1f5}
table.changes td,table.changes th{font-size:12.5px;white-space:normal}table.changes td.mono{font-family:var(--mono)}
.op-insert{color:var(--ok)}.op-delete{color:var(--bad)}.op-update{color:var(--pass)}
"""

_JS = r"""
"use strict";
(function () {
const T0 = performance.now();
const D = JSON.parse(document.getElementById("bank-data").textContent);
const R = D.report || {}, S = R.summary || {}, P = R.provenance || {};
const SESSIONS = R.sessions || [];
const CHECKS = ["ended_normally", "required_calls", "write_purity", "disclosure_consent", "final_state", "required_outputs"];
const FAILURE_TYPES = Object.keys(S.failure_types || {});
const keyOf = (s) => s.task_id + "#" + s.trial;
const TRACES = new Map((D.traces || []).map((t) => [keyOf(t), t]));
const BY_KEY = new Map(SESSIONS.map((s) => [keyOf(s), s]));
const $ = (sel) => document.querySelector(sel);
const probe = document.createElement("div");
probe.innerHTML = "<svg></svg>";
const SVG_NS = probe.firstChild.namespaceURI;  // taken from the parser: no URL in the file
const PCT = (v) => (v == null || isNaN(v) ? "–" : (100 * v).toFixed(1) + "%");
const pct = PCT;
const num = (v) => (v == null ? "–" : Number(v).toLocaleString("en-US"));

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) if (kid != null && kid !== false) el.append(kid);
  return el;
}
function s(tag, attrs, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null) el.setAttribute(k, String(v));
  if (text != null) el.textContent = String(text);
  return el;
}
function status(x) {
  if (x.outcome === "harness_error" || x.outcome === "lost") return x.outcome;
  if (x.outcome && x.outcome !== "scored") return "infra";
  if (x.passed) return "passed";
  return x.false_pass ? "false_pass" : "failed";
}
const STATUS_BADGE = {passed: ["b-pass", "passed"], failed: ["b-fail", "failed"],
  false_pass: ["b-fp", "false pass"], infra: ["b-infra", "infra error"],
  harness_error: ["b-fail", "harness error"], lost: ["b-fail", "lost"]};
const badge = (cls, text, title) => h("span", {class: "badge " + cls, title}, text);
const statusBadge = (x) => badge(...STATUS_BADGE[status(x)]);

/* ---- header and headline cards ---- */
function renderHeader() {
  const agent = P.agent || {}, fp = S.false_passes || {};
  const bits = [["agent", (agent.model || "?") + (agent.builtin ? " (built-in)" : "")],
    ["customer", (P.customer || {}).model || "?"], ["split", P.split || "?"],
    ["trials", S.trials ?? "?"], ["version", P.version || "?"]];
  if (P.task_data_sha256) bits.push(["task data", P.task_data_sha256.slice(0, 12)]);
  $("#meta").replaceChildren(...bits.map(([k, v]) => h("span", null, k + ": ", h("b", null, String(v)))));
  const [lo, hi] = S["pass^1_ci95"] || [0, 0];
  const ci = h("div", {class: "ci", title: "95% Wilson interval"},
    h("span", {style: `left:${100 * lo}%;width:${100 * (hi - lo)}%`}),
    h("i", {style: `left:calc(${100 * (S["pass^1"] || 0)}% - 1px)`}));
  const tok = S.tokens || {}, pct = (v) => (S.sessions ? PCT(v) : "–");
  const cards = [
    ["pass^1", pct(S["pass^1"]), [ci, h("div", null, `${num(S.passed)} / ${num(S.sessions)} sessions passed`), h("div", null, S.sessions ? `95% CI ${pct(lo)} – ${pct(hi)}` : "95% CI n/a")], "primary"],
    ["Final-state-only rate", pct(S.final_state_only_rate), "bank ended in the right state, procedure ignored"],
    ["False passes", num(fp.count), `${pct(fp.share_of_all)} of all · ${pct(fp.share_of_final_state_passes)} of final-state passes`],
    ["Infra errors", num(S.infra_errors), "sessions that could not be scored"],
    ["Accounted for", num((S.accounting || {}).selected ?? S.sessions), S.accounting ? `selected · ${num(S.accounting.harness_errors)} harness errors, ${num(S.accounting.lost)} lost, ${num(S.accounting.not_run)} not run` : "selected sessions"],
    ["Sessions", num(S.sessions), `${num(S.tasks)} tasks × ${num(S.trials)} trial(s) · graded ${pct((S.graded || {}).pass_rate)}, control ${pct((S.control || {}).pass_rate)}`],
    ["Wall time", R.wall_time_s == null ? "–" : R.wall_time_s.toFixed(1) + " s",
      `tokens ${num(tok.prompt)} + ${num(tok.completion)} · cost ${S.cost_usd == null ? "n/a" : "$" + S.cost_usd.toFixed(4)}`],
  ];
  $("#cards").replaceChildren(...cards.map(([label, value, sub, cls]) =>
    h("div", {class: "card " + (cls || "")}, h("div", {class: "label"}, label),
      h("div", {class: "value"}, value), h("div", {class: "sub"}, sub))));
}

/* ---- charts ---- */
const W = 560;
function chartCard(title, legend, body, caption, wide) {
  const lg = legend ? h("div", {class: "legend"}, legend.map(([c, t]) => h("span", null, h("i", {style: "background:" + c}), t))) : null;
  return h("div", {class: "chart-card" + (wide ? " wide" : "")}, h("div", {class: "chart-head"}, h("h3", null, title), lg),
    body, caption ? h("p", {class: "caption"}, caption) : null);
}
function yAxis(svg, L, T, pw, ph, max, fmt) {
  for (let i = 0; i <= 4; i++) {
    const y = T + ph * (1 - i / 4);
    svg.append(s("line", {class: i ? "grid" : "axis", x1: L, x2: L + pw, y1: y, y2: y}));
    svg.append(s("text", {x: L - 6, y: y + 4, "text-anchor": "end"}, fmt((max * i) / 4)));
  }
}
function groupChart(groups, filter) {
  const names = Object.keys(groups || {});
  if (!names.length) return h("div", {class: "empty"}, "No sessions");
  const H = 250, L = 44, T = 16, B = 50, pw = W - L - 8, ph = H - T - B;
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img"});
  yAxis(svg, L, T, pw, ph, 1, (v) => Math.round(100 * v) + "%");
  const gw = pw / names.length, bw = Math.max(6, Math.min(36, gw * 0.34)), maxChars = Math.max(4, Math.floor(gw / 6.2));
  names.forEach((name, i) => {
    const g = groups[name], cx = L + gw * (i + 0.5);
    const grp = s("g", {class: "grp", "data-filter": filter, "data-value": name});
    grp.append(s("rect", {class: "hit", x: cx - gw / 2 + 2, y: T, width: gw - 4, height: ph + B - 4}));
    grp.append(s("title", null, `${name}: pass^1 ${pct(g.pass_rate)} (${g.passed}/${g.sessions}, 95% CI ${pct(g.ci95[0])}–${pct(g.ci95[1])}), final-state ${pct(g.final_state_rate)}, false passes ${g.false_passes} — click to filter`));
    [[g.pass_rate, "bar bar-pass", cx - bw - 1], [g.final_state_rate, "bar bar-final", cx + 1]].forEach(([v, cls, x]) => {
      const bh = Math.max(v > 0 ? 1.5 : 0, ph * v);
      grp.append(s("rect", {class: cls, x, y: T + ph - bh, width: bw, height: bh, rx: 2}));
      grp.append(s("text", {class: "val", x: x + bw / 2, y: T + ph - bh - 4, "text-anchor": "middle"}, Math.round(100 * v) + "%"));
    });
    const label = name.length > maxChars ? name.slice(0, maxChars - 1) + "…" : name;
    grp.append(s("text", {x: cx, y: T + ph + 16, "text-anchor": "middle"}, label));
    grp.append(s("text", {x: cx, y: T + ph + 30, "text-anchor": "middle", class: "muted"}, "n=" + g.sessions));
    if (g.false_passes) grp.append(s("text", {x: cx, y: T + ph + 44, "text-anchor": "middle", class: "fp"}, g.false_passes + " FP"));
    svg.append(grp);
  });
  return svg;
}
function hbarChart(counts, filter) {
  const names = Object.keys(counts || {});
  if (!names.length) return h("div", {class: "empty"}, "No failures");
  const row = 30, T = 8, L = 140, H = T + row * names.length + 8, pw = W - L - 50;
  const max = Math.max(1, ...names.map((n) => counts[n]));
  const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img"});
  names.forEach((name, i) => {
    const y = T + row * i, v = counts[name], bw = (pw * v) / max;
    const grp = s("g", {class: "grp", "data-filter": filter, "data-value": name});
    grp.append(s("rect", {class: "hit", x: 0, y, width: W, height: row}));
    grp.append(s("title", null, `${name}: ${v} session(s) — click to filter`));
    grp.append(s("text", {x: L - 8, y: y + row / 2 + 4, "text-anchor": "end"}, name));
    grp.append(s("rect", {class: "bar bar-fail", x: L, y: y + 6, width: Math.max(v ? 2 : 0, bw), height: row - 12, rx: 2}));
    grp.append(s("text", {class: "val", x: L + bw + 6, y: y + row / 2 + 4}, v));
    svg.append(grp);
  });
  return svg;
}
function passKChart(passK) {
  const WK = 1160, ks = Object.keys(passK), H = 200, L = 44, T = 16, B = 28, pw = WK - L - 8, ph = H - T - B;
  const svg = s("svg", {viewBox: `0 0 ${WK} ${H}`, class: "chart", role: "img"});
  yAxis(svg, L, T, pw, ph, 1, (v) => Math.round(100 * v) + "%");
  const gw = pw / ks.length, bw = Math.min(56, gw * 0.5);
  ks.forEach((k, i) => {
    const v = passK[k], bh = Math.max(v > 0 ? 1.5 : 0, ph * v), x = L + gw * (i + 0.5) - bw / 2;
    svg.append(s("rect", {class: "bar bar-k", x, y: T + ph - bh, width: bw, height: bh, rx: 2}));
    svg.append(s("text", {class: "val", x: x + bw / 2, y: T + ph - bh - 4, "text-anchor": "middle"}, pct(v)));
    svg.append(s("text", {x: x + bw / 2, y: T + ph + 16, "text-anchor": "middle"}, "k=" + k));
  });
  return svg;
}
function renderCharts() {
  const failed = SESSIONS.filter((x) => x.outcome === "scored" && !x.passed).length;
  const legend = [["var(--pass)", "pass^1"], ["var(--final)", "final-state only"]];
  const cards = [
    chartCard("Pass rate by category", legend, groupChart(S.by_category, "category")),
    chartCard("Pass rate by service area", legend, groupChart(S.by_service_area, "service_area")),
    chartCard("Pass rate by gold-chain length", legend, groupChart(S.by_chain_length, "chain_length")),
    chartCard("Failure types", [["#d05a4e", "sessions"]], hbarChart(S.failure_types, "failure_type"),
      `${num(failed)} of ${num(SESSIONS.length)} sessions failed; each counts under the first failure type that applies. ` +
      "Gaps between the pass^1 and final-state bars are sessions that left the bank right but broke procedure; FP marks false passes. Click a bar to list its sessions."),
  ];
  if ((S.trials || 1) > 1 && S["pass^k"]) {
    cards.push(chartCard(`pass^k over ${S.trials} trials`, null, passKChart(S["pass^k"]),
      "Chance that all k trials of a task pass (tau-bench estimator), averaged over tasks.", true));
  }
  $("#charts").replaceChildren(...cards);
  $("#charts").addEventListener("click", (e) => {
    const g = e.target.closest(".grp");
    if (!g) return;
    resetFilters();
    FILTER_EL[g.dataset.filter].value = g.dataset.value;
    applyFilters();
    $("#filters").scrollIntoView({behavior: "smooth", block: "start"});
  });
}

/* ---- session list: filtered, rendered in chunks ---- */
const CHUNK = 150, FILTER_EL = {};
let filtered = [], shown = 0;
const distinct = (f) => [...new Set(SESSIONS.map((x) => String(x[f])))].sort((a, b) => a.localeCompare(b, "en", {numeric: true}));
function select(name, label, options) {
  const el = h("select", {"aria-label": label, "data-filter": name}, h("option", {value: ""}, label + ": all"),
    options.map(([v, t]) => h("option", {value: v}, t)));
  el.addEventListener("change", applyFilters);
  FILTER_EL[name] = el;
  return el;
}
function renderFilters() {
  const search = h("input", {type: "search", placeholder: "Search task id…", "aria-label": "Search task id"});
  search.addEventListener("input", applyFilters);
  FILTER_EL.search = search;
  const pair = (v) => [v, v];
  $("#filters").replaceChildren(search,
    select("status", "Status", [["passed", "passed"], ["failed", "failed (all)"], ["false_pass", "false passes"], ["infra", "infra errors"], ["harness_error", "harness errors"], ["lost", "lost"]]),
    select("category", "Category", distinct("category").map(pair)),
    select("service_area", "Service area", distinct("service_area").map(pair)),
    select("chain_length", "Chain length", distinct("chain_length").map(pair)),
    select("failure_type", "Failure type", FAILURE_TYPES.map(pair)),
    h("button", {type: "button", onclick: () => { resetFilters(); applyFilters(); }}, "Reset"));
}
function resetFilters() { for (const el of Object.values(FILTER_EL)) el.value = ""; }
function matches(x) {
  const f = (n) => FILTER_EL[n].value, st = status(x), want = f("status");
  if (want && !(want === st || (want === "failed" && ["false_pass", "harness_error", "lost"].includes(st)))) return false;
  for (const n of ["category", "service_area", "chain_length", "failure_type"]) if (f(n) && String(x[n]) !== f(n)) return false;
  const q = f("search").trim().toLowerCase();
  return !q || x.task_id.toLowerCase().includes(q);
}
function applyFilters() {
  filtered = SESSIONS.filter(matches);
  shown = 0;
  $("#rows").replaceChildren();
  if (!filtered.length) $("#rows").append(h("tr", null, h("td", {colspan: 10, class: "empty"}, SESSIONS.length ? "No sessions match the filters." : "This run has no sessions.")));
  more();
  $("#count").textContent = `${num(filtered.length)} of ${num(SESSIONS.length)}`;
}
function more() {
  const frag = document.createDocumentFragment(), end = Math.min(filtered.length, shown + CHUNK);
  for (let i = shown; i < end; i++) {
    const x = filtered[i];
    frag.append(h("tr", {class: "srow", tabindex: 0, "data-key": keyOf(x), "data-status": status(x), "data-trace": TRACES.has(keyOf(x)) ? 1 : 0},
      h("td", null, statusBadge(x)), h("td", {class: "task"}, x.task_id), h("td", {class: "num"}, x.trial),
      h("td", null, x.category), h("td", null, x.service_area), h("td", {class: "num"}, x.chain_length),
      h("td", null, x.failure_type || ""), h("td", null, x.end), h("td", {class: "num"}, x.steps), h("td", {class: "num"}, x.failed_calls)));
  }
  $("#rows").append(frag);
  shown = end;
  $("#more").hidden = shown >= filtered.length;
  $("#more").textContent = `Show more (${num(filtered.length - shown)} remaining)`;
}

/* ---- session detail ---- */
const json = (v) => { const one = JSON.stringify(v); return one.length <= 110 ? one : JSON.stringify(v, null, 2); };
function renderChecks(x) {
  const checks = x.checks || {}, evidence = x.evidence || {};
  const names = [...CHECKS.filter((c) => c in checks), ...Object.keys(checks).filter((c) => !CHECKS.includes(c))];
  for (const k of Object.keys(evidence)) if (!names.includes(k)) names.push(k);
  names.sort((a, b) => (checks[a] === true) - (checks[b] === true));  // failing (and evidence-only) first, stable
  if (!names.length) return h("p", {class: "note"}, "No checks recorded.");
  return h("ul", {class: "checks"}, names.map((n) => {
    const ok = checks[n] === true, known = n in checks, lines = evidence[n] || [];
    return h("li", {class: ok ? "pass" : "fail", "data-check": n}, h("span", {class: "icon"}, ok ? "✓" : known ? "✗" : "•"),
      h("span", {class: "check-name"}, n), lines.length ? h("ul", {class: "evidence"}, lines.map((l) => h("li", null, String(l)))) : null);
  }));
}
function renderEvent(e, i) {
  const step = h("span", {class: "step"}, "#" + (i + 1));
  if (e.kind === "message") {
    return h("div", {class: "ev ev-msg " + e.role}, h("div", {class: "who"}, step, e.role), h("div", {class: "text"}, e.text));
  }
  const c = e.call || {}, write = e.tool_kind === "write";
  const head = h("div", {class: "ev-head"}, step, h("span", {class: "tool-name"}, c.name), badge(write ? "b-write" : "b-muted", e.tool_kind),
    e.ok ? badge("b-pass", "ok") : badge("b-fail", e.error_code || "error"),
    e.took_effect ? badge("b-write", "took effect", "this write changed the bank") : write ? badge("b-muted", "no effect") : null);
  const args = c.arguments == null ? h("pre", {class: "args"}, "unreadable arguments: " + (c.raw_arguments ?? ""))
    : Object.keys(c.arguments).length ? h("pre", {class: "args"}, json(c.arguments)) : null;
  let result = null;
  if (e.ok && e.output != null) {
    const text = json(e.output);
    result = h("details", text.length <= 110 ? {open: true} : null, h("summary", null, `result (${text.length} chars)`), h("pre", null, text));
  } else if (!e.ok) result = h("div", {class: "err-text"}, (e.error_code ? e.error_code + ": " : "") + (e.error || ""));
  return h("div", {class: "ev ev-tool" + (write ? " write" : "") + (e.ok ? "" : " err")}, head, args, result);
}
function renderChanges(changes) {
  if (!changes.length) return h("p", {class: "note"}, "No changes to the bank.");
  const rows = [];
  for (const ch of changes) {
    const fields = ch.fields && ch.fields.length ? ch.fields : [{field: "", before: null, after: null}];
    fields.forEach((f, i) => rows.push(h("tr", {class: "change"},
      h("td", {class: "mono"}, i ? "" : ch.table), h("td", {class: "mono"}, i ? "" : ch.key), h("td", {class: "op-" + ch.op}, i ? "" : ch.op),
      h("td", {class: "mono"}, f.field), h("td", {class: "mono"}, JSON.stringify(f.before)), h("td", {class: "mono"}, JSON.stringify(f.after)))));
  }
  return h("table", {class: "changes"}, h("thead", null, h("tr", null, ["Table", "Key", "Op", "Field", "Before", "After"].map((t) => h("th", null, t)))), h("tbody", null, rows));
}
function openDetail(key) {
  const x = BY_KEY.get(key);
  if (!x) return;
  const t = TRACES.get(key), body = $("#detail-body");
  $("#detail-title").textContent = `${x.task_id} · trial ${x.trial}`;
  const facts = h("div", {class: "facts"}, statusBadge(x), x.failure_type ? badge("b-fail", x.failure_type) : null,
    [["family", x.family], ["category", x.category], ["service area", x.service_area], ["chain", x.chain_length],
      ["end", x.end], ["steps", x.steps], ["failed calls", x.failed_calls], ["seed", x.seed],
      ["time", (x.duration_s || 0).toFixed(2) + " s"]].map(([k, v]) => badge("b-muted", `${k}: ${v}`)));
  const parts = [facts, h("h3", null, "Checks"), renderChecks(x), h("h3", null, "Trace")];
  if (!t) parts.push(h("p", {class: "note trace-missing"}, "No trace recorded for this session (run with --bank-traces to include traces)."));
  else {
    const tools = t.events.filter((e) => e.kind === "tool"), writes = tools.filter((e) => e.took_effect).length;
    parts.push(h("p", {class: "muted"}, `agent ${t.agent} · customer ${t.customer} · ${t.events.length} events · ${tools.length} tool calls · ${writes} write(s) took effect`));
    parts.push(h("div", {class: "events"}, t.events.map(renderEvent)));
    parts.push(h("div", {class: "ev-end"}, "Session ended: " + t.end + (t.end_detail ? " — " + t.end_detail : "")));
    parts.push(h("h3", null, "Row-level changes"), renderChanges(t.changes || []));
  }
  body.replaceChildren(...parts);
  body.scrollTop = 0;
  $("#detail").classList.add("open");
  $("#detail").setAttribute("aria-hidden", "false");
  $("#backdrop").hidden = false;
  if (location.hash !== "#selftest") history.replaceState(null, "", "#s=" + encodeURIComponent(key));
}
function closeDetail() {
  $("#detail").classList.remove("open");
  $("#detail").setAttribute("aria-hidden", "true");
  $("#backdrop").hidden = true;
  if (location.hash.startsWith("#s=")) history.replaceState(null, "", location.pathname + location.search);
}
function wire() {
  const rowOf = (e) => e.target.closest("tr[data-key]");
  $("#rows").addEventListener("click", (e) => { const r = rowOf(e); if (r) openDetail(r.dataset.key); });
  $("#rows").addEventListener("keydown", (e) => { const r = rowOf(e); if (r && e.key === "Enter") openDetail(r.dataset.key); });
  $("#close").addEventListener("click", closeDetail);
  $("#backdrop").addEventListener("click", closeDetail);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeDetail(); });
  $("#more").addEventListener("click", more);
  if ("IntersectionObserver" in window) new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting) && !$("#more").hidden) more(); }).observe($("#more"));
}

/* ---- #selftest: used by the headless-browser tests ---- */
function selftest() {
  const out = {checks: {}, errors: window.__bankErrors};
  const ok = (name, cond) => { out.checks[name] = !!cond; };
  const bars = document.querySelectorAll("#charts svg rect.bar").length;
  ok("charts_have_bars", bars > 0 || !SESSIONS.length);
  ok("rows_rendered", document.querySelectorAll("#rows tr.srow").length === Math.min(CHUNK, SESSIONS.length));
  if (SESSIONS.length > CHUNK) {
    $("#more").click();
    ok("more_rows", document.querySelectorAll("#rows tr.srow").length === Math.min(2 * CHUNK, SESSIONS.length));
  }
  const row = $('#rows tr.srow[data-status="failed"], #rows tr.srow[data-status="false_pass"]');
  out.failing_key = row && row.dataset.key;
  if (row) {
    row.click();
    const x = BY_KEY.get(row.dataset.key), t = TRACES.get(row.dataset.key), d = $("#detail");
    ok("detail_open", d.classList.contains("open"));
    const lines = [...d.querySelectorAll("ul.evidence li")].map((li) => li.textContent);
    const want = Object.values(x.evidence || {}).flat();
    ok("evidence_shown", lines.length === want.length && want.every((l) => lines.includes(l)));
    ok("failing_check_first", d.querySelector(".checks > li").classList.contains("fail"));
    ok("evidence_is_text", !d.querySelector("ul.evidence li *"));
    if (t) {
      ok("trace_tools", d.querySelectorAll(".ev-tool").length === t.events.filter((e) => e.kind === "tool").length);
      ok("trace_messages", d.querySelectorAll(".ev-msg").length === t.events.filter((e) => e.kind === "message").length);
      ok("trace_end", d.querySelector(".ev-end").textContent.includes(t.end));
      ok("changes", d.querySelectorAll("tr.change").length >= (t.changes || []).length);
    }
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"}));
    ok("detail_closes", !d.classList.contains("open"));
  }
  const noTrace = $('#rows tr.srow[data-trace="0"]:not([data-status="passed"])') || $('#rows tr.srow[data-trace="0"]');
  if (noTrace) {
    noTrace.click();
    const want = Object.values(BY_KEY.get(noTrace.dataset.key).evidence || {}).flat().length;
    ok("no_trace_opens", !!$("#detail .trace-missing") && !!$("#detail .checks") && $("#detail").querySelectorAll("ul.evidence li").length === want);
    closeDetail();
  }
  const bar = $('#charts .grp[data-filter="category"]');
  if (bar) {
    bar.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    const n = SESSIONS.filter((x) => x.category === bar.dataset.value).length;
    ok("chart_click_filters", FILTER_EL.category.value === bar.dataset.value && $("#count").textContent.startsWith(num(n) + " of"));
    resetFilters();
  }
  FILTER_EL.status.value = "passed"; applyFilters();
  const nPassed = SESSIONS.filter((x) => status(x) === "passed").length;
  ok("filter_status", $("#count").textContent.startsWith(num(nPassed) + " of") &&
    [...document.querySelectorAll("#rows tr.srow")].every((r) => r.dataset.status === "passed"));
  resetFilters();
  if (SESSIONS.length) {
    FILTER_EL.search.value = SESSIONS[SESSIONS.length - 1].task_id; applyFilters();
    ok("filter_search", [...document.querySelectorAll("#rows tr.srow")].some((r) => r.dataset.key === keyOf(SESSIONS[SESSIONS.length - 1])));
  }
  resetFilters(); applyFilters();
  if (row) $('#rows tr.srow[data-key="' + CSS.escape(row.dataset.key) + '"]').click();  // leave it open for the DOM dump
  out.bars = bars;
  out.render_ms = Math.round(window.__bankRenderMs);
  out.ok = Object.values(out.checks).every(Boolean) && !window.__bankErrors.length;
  $("#selftest-result").textContent = JSON.stringify(out);
  document.title = "selftest:" + (out.ok ? "ok" : "fail");
}

try {
  renderHeader(); renderFilters(); renderCharts(); wire(); applyFilters();
  if (location.hash.startsWith("#s=")) openDetail(decodeURIComponent(location.hash.slice(3)));
  setTimeout(() => document.body.classList.add("ready"), 50);
  window.__bankRenderMs = performance.now() - T0;
} catch (err) {
  window.__bankErrors.push("render: " + (err && err.stack || err));
}
if (location.hash === "#selftest") {
  try { selftest(); } catch (err) {
    window.__bankErrors.push("selftest: " + (err && err.stack || err));
    $("#selftest-result").textContent = JSON.stringify({ok: false, errors: window.__bankErrors});
    document.title = "selftest:fail";
  }
}
})();
"""
