"use strict";
(function () {
const T0 = performance.now();
const D = JSON.parse(document.getElementById("bank-data").textContent);
const R = D.report || {}, S = R.summary || {}, P = R.provenance || {};
const SESSIONS = R.sessions || [];
const CHECKS = ["ended_normally", "forbidden_access", "no_secrets", "required_calls", "write_purity", "disclosure_consent", "final_state", "required_outputs", "told_customer"];
const FAILURE_TYPES = Object.keys(S.failure_types || {});
const keyOf = (s) => s.task_id + "#" + s.trial;
const PACKED = D.traces || {}, GOLD_EVENTS = D.gold_events || {}, MONEY = new Set(D.money_fields || []);
const TRACES = new Map();  // decoded on first open: the page parses no trace it does not show
const hasTrace = (key) => Object.prototype.hasOwnProperty.call(PACKED, key);
async function traceOf(key) {
  if (TRACES.has(key)) return TRACES.get(key);
  if (!hasTrace(key)) return null;
  const bin = atob(PACKED[key]), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"))).text();
  const t = JSON.parse(text);
  TRACES.set(key, t);
  return t;
}
const rupees = (paise) => (paise < 0 ? "-Rs " : "Rs ") + (Math.abs(paise) / 100).toLocaleString("en-IN", {minimumFractionDigits: 2, maximumFractionDigits: 2});
const shownValue = (field, v) => (MONEY.has(field) && Number.isInteger(v) ? rupees(v) : JSON.stringify(v));
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
  false_pass: ["b-fail", "failed · false pass", "failed: the bank ended in the right state, but the procedure was broken"], infra: ["b-infra", "infra error"],
  harness_error: ["b-fail", "harness error"], lost: ["b-fail", "lost"]};
const badge = (cls, text, title) => h("span", {class: "badge " + cls, title}, text);
const statusBadge = (x) => badge(...STATUS_BADGE[status(x)]);

/* ---- header and headline cards ---- */
function renderProvenance() {
  const agent = P.agent || {}, cust = P.customer || {}, params = (v) => (v && Object.keys(v).length ? JSON.stringify(v) : "defaults");
  const rows = [["Agent model", (agent.model || "?") + (agent.builtin ? " (built-in)" : "")], ["Agent parameters", params(agent.parameters)],
    ["Customer", cust.model || "?"], ["Customer parameters", params(cust.parameters)],
    ["Split", P.split || "?"], ["Shard", P.shard || "–"], ["Trials", S.trials ?? P.trials ?? "?"],
    ["Max steps / errors", `${P.max_steps ?? "?"} / ${P.max_errors ?? "?"}`],
    ["Task data SHA-256", P.task_data_sha256 || "?"], ["Tasks file", P.tasks_file || "?"],
    ["pytest-bankbench", P.version || "?"], ["Python", P.python || "?"], ["pytest", P.pytest || "–"], ["litellm", P.litellm || "–"],
    ["Run started", P.run_started || "?"], ["Report written", P.date || D.written || "?"]];
  if (P.traces_run_started) rows.push(["Traces played", P.traces_run_started]);
  if (P.shards) rows.push(["Merged shards", String(P.shards.length || P.shards)]);
  $("#provenance").replaceChildren(h("summary", null, "Provenance: what produced these results"),
    h("dl", {class: "prov"}, rows.map(([k, v]) => [h("dt", null, k), h("dd", {"data-prov": k}, String(v))])));
}
// "4 selected, 0 scored, 4 infra errors" when the sessions counted are not all the selected ones
// (user trial: "0 tasks × 1 trial" beside 4 selected), else "N tasks × K trial(s)".
function sessionsLine(S) {
  const a = S.accounting;
  if (!a || a.selected === S.sessions) return `${num(S.tasks)} tasks × ${num(S.trials)} trial(s)`;
  const rest = [["infra errors", a.infra_errors], ["harness errors", a.harness_errors], ["lost", a.lost], ["not run", a.not_run]];
  return [`${num(a.selected)} selected`, `${num(a.scored)} scored`, ...rest.filter(([, n]) => n).map(([k, n]) => `${num(n)} ${k}`)].join(", ");
}
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
    ["Sessions", num(S.sessions), `${sessionsLine(S)} · graded ${pct((S.graded || {}).pass_rate)}, control ${pct((S.control || {}).pass_rate)}`],
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
let filtered = [], shown = 0, sortKey = null, sortDir = 1;
const STATUS_ORDER = {failed: 0, false_pass: 1, harness_error: 2, lost: 3, infra: 4, passed: 5};
const SORT_VALUE = {status: (x) => STATUS_ORDER[status(x)], failure_type: (x) => x.failure_type || ""};
const collate = (a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b), "en", {numeric: true}));
function sortRows() {
  if (!sortKey) return;
  const val = SORT_VALUE[sortKey] || ((x) => x[sortKey]);
  filtered.sort((a, b) => sortDir * collate(val(a), val(b)) || collate(a.task_id, b.task_id) || a.trial - b.trial);
}
function wireSort() {
  for (const th of document.querySelectorAll("th[data-sort]")) {
    th.tabIndex = 0;
    const go = () => {
      sortDir = sortKey === th.dataset.sort ? -sortDir : 1;
      sortKey = th.dataset.sort;
      for (const o of document.querySelectorAll("th[data-sort]")) o.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
      applyFilters();
    };
    th.addEventListener("click", go);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  }
}
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
    select("status", "Status", [["passed", "passed"], ["failed", "failed (all)"], ["false_pass", "failed: false passes"], ["infra", "infra errors"], ["harness_error", "harness errors"], ["lost", "lost"]]),
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
  sortRows();
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
    frag.append(h("tr", {class: "srow", tabindex: 0, "data-key": keyOf(x), "data-status": status(x), "data-trace": hasTrace(keyOf(x)) ? 1 : 0},
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
// Evidence as a person reads it: paise fields of a row diff in rupees (the outputs are in rupees).
const shownEvidence = (line) => String(line).replace(/\b(\w+): (None|-?\d+) -> (None|-?\d+)/g, (all, f, a, b) =>
  MONEY.has(f) ? `${f}: ${a === "None" ? a : rupees(Number(a))} -> ${b === "None" ? b : rupees(Number(b))}` : all);
function evidenceLine(line, links) {
  // Gold ids (c2) become links to the trace event the scorer placed them on; the rest stays text.
  const text = shownEvidence(line), out = [];
  let last = 0;
  for (const m of text.matchAll(/\bc\d+\b/g)) {
    if (!(m[0] in links)) continue;
    out.push(text.slice(last, m.index), h("a", {class: "ev-link", href: "#ev-" + links[m[0]], "data-event": links[m[0]], title: "the trace event " + m[0] + " was matched to"}, m[0]));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return h("li", null, out);
}
function renderChecks(x) {
  const links = GOLD_EVENTS[keyOf(x)] || {};
  const checks = x.checks || {}, evidence = x.evidence || {};
  const names = [...CHECKS.filter((c) => c in checks), ...Object.keys(checks).filter((c) => !CHECKS.includes(c))];
  for (const k of Object.keys(evidence)) if (!names.includes(k)) names.push(k);
  names.sort((a, b) => (checks[a] === true) - (checks[b] === true));  // failing (and evidence-only) first, stable
  if (!names.length && x.outcome === "infra_error") return h("p", {class: "note infra-error"}, "Not scored (infrastructure error, not a task failure): " + (x.error || ""));
  if (!names.length) return h("p", {class: "note"}, "No checks recorded.");
  return h("ul", {class: "checks"}, names.map((n) => {
    const ok = checks[n] === true, known = n in checks, lines = evidence[n] || [];
    return h("li", {class: ok ? "pass" : "fail", "data-check": n}, h("span", {class: "icon"}, ok ? "✓" : known ? "✗" : "•"),
      h("span", {class: "check-name"}, n), lines.length ? h("ul", {class: "evidence"}, lines.map((l) => evidenceLine(l, links))) : null);
  }));
}
function renderEvent(e, i, golds) {
  const step = h("span", {class: "step"}, "#" + (i + 1));
  if (e.kind === "message") {
    return h("div", {class: "ev ev-msg " + e.role, id: "ev-" + i}, h("div", {class: "who"}, step, e.role), h("div", {class: "text"}, e.text));
  }
  const c = e.call || {}, write = e.tool_kind === "write";
  const head = h("div", {class: "ev-head"}, step, h("span", {class: "tool-name"}, c.name), badge(write ? "b-write" : "b-muted", e.tool_kind),
    e.ok ? badge("b-pass", "ok") : badge("b-fail", e.error_code || "error"),
    e.took_effect ? badge("b-write", "took effect", "this write changed the bank") : write ? badge("b-muted", "no effect") : null,
    (golds[i] || []).map((g) => badge("b-gold", "gold " + g, "the scorer matched gold call " + g + " to this call")));
  const args = c.arguments == null ? h("pre", {class: "args"}, "unreadable arguments: " + (c.raw_arguments ?? ""))
    : Object.keys(c.arguments).length ? h("pre", {class: "args"}, json(c.arguments)) : null;
  let result = null;
  if (e.ok && e.output != null) {
    const text = json(e.output);
    result = h("details", text.length <= 110 ? {open: true} : null, h("summary", null, `result (${text.length} chars)`), h("pre", null, text));
  } else if (!e.ok) result = h("div", {class: "err-text"}, (e.error_code ? e.error_code + ": " : "") + (e.error || ""));
  return h("div", {class: "ev ev-tool" + (write ? " write" : "") + (e.ok ? "" : " err"), id: "ev-" + i}, head, args, result);
}
function renderChanges(changes) {
  if (!changes.length) return h("p", {class: "note"}, "No changes to the bank.");
  const rows = [];
  for (const ch of changes) {
    const fields = ch.fields && ch.fields.length ? ch.fields : [{field: "", before: null, after: null}];
    fields.forEach((f, i) => rows.push(h("tr", {class: "change"},
      h("td", {class: "mono"}, i ? "" : ch.table), h("td", {class: "mono"}, i ? "" : ch.key), h("td", {class: "op-" + ch.op}, i ? "" : ch.op),
      h("td", {class: "mono"}, f.field), h("td", {class: "mono"}, shownValue(f.field, f.before)), h("td", {class: "mono"}, shownValue(f.field, f.after)))));
  }
  return h("table", {class: "changes"}, h("thead", null, h("tr", null, ["Table", "Key", "Op", "Field", "Before", "After"].map((t) => h("th", null, t)))), h("tbody", null, rows));
}
function renderTrials(x) {
  // The per-task view: every trial of this task, so a flaky task reads as one.
  const all = SESSIONS.filter((o) => o.task_id === x.task_id);
  const passed = all.filter((o) => status(o) === "passed").length;
  return [h("h3", null, `Trials of this task: ${passed} of ${all.length} passed`),
    h("table", {class: "trials"}, h("tbody", null, all.map((o) => h("tr", {class: "trial-row" + (o === x ? " current" : ""), "data-key": keyOf(o), tabindex: 0},
      h("td", {class: "num"}, "trial " + o.trial), h("td", null, statusBadge(o)), h("td", null, o.failure_type || ""), h("td", null, o.end), h("td", {class: "num"}, o.steps + " steps")))))];
}
let openSeq = 0;
async function openDetail(key) {
  const x = BY_KEY.get(key);
  if (!x) return;
  const seq = ++openSeq, body = $("#detail-body");
  let t = null, traceError = null;
  try { t = await traceOf(key); } catch (err) { traceError = String(err && err.message || err); }
  if (seq !== openSeq) return;  // another session was opened while this trace was decoding
  $("#detail-title").textContent = `${x.task_id} · trial ${x.trial}`;
  const facts = h("div", {class: "facts"}, statusBadge(x), x.failure_type ? badge("b-fail", x.failure_type) : null,
    [["family", x.family], ["category", x.category], ["service area", x.service_area], ["chain", x.chain_length],
      ["end", x.end], ["steps", x.steps], ["failed calls", x.failed_calls], ["seed", x.seed],
      ["time", (x.duration_s || 0).toFixed(2) + " s"]].map(([k, v]) => badge("b-muted", `${k}: ${v}`)));
  const parts = [facts, h("h3", null, "Checks"), renderChecks(x), ...renderTrials(x), h("h3", null, "Trace")];
  if (traceError) parts.push(h("p", {class: "note trace-missing"}, "This browser could not decode the trace (" + traceError + "); open the page in a current Chromium, Firefox or Safari."));
  else if (!t) parts.push(h("p", {class: "note trace-missing"}, "No trace recorded for this session (run with --bank-traces to include traces)."));
  else {
    const tools = t.events.filter((e) => e.kind === "tool"), writes = tools.filter((e) => e.took_effect).length;
    parts.push(h("p", {class: "muted"}, `agent ${t.agent} · customer ${t.customer} · ${t.events.length} events · ${tools.length} tool calls · ${writes} write(s) took effect`));
    const golds = {};
    for (const [g, i] of Object.entries(GOLD_EVENTS[key] || {})) (golds[i] = golds[i] || []).push(g);
    parts.push(h("div", {class: "events"}, t.events.map((e, i) => renderEvent(e, i, golds))));
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
  $("#detail-body").addEventListener("click", (e) => {
    const a = e.target.closest("a.ev-link");
    if (a) {
      e.preventDefault();
      const ev = document.getElementById("ev-" + a.dataset.event);
      if (ev) { ev.scrollIntoView({block: "center"}); ev.classList.remove("flash"); void ev.offsetWidth; ev.classList.add("flash"); }
      return;
    }
    const r = e.target.closest("tr.trial-row");
    if (r) openDetail(r.dataset.key);
  });
  $("#rows").addEventListener("keydown", (e) => { const r = rowOf(e); if (r && e.key === "Enter") openDetail(r.dataset.key); });
  $("#close").addEventListener("click", closeDetail);
  $("#backdrop").addEventListener("click", closeDetail);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeDetail(); });
  $("#more").addEventListener("click", more);
  if ("IntersectionObserver" in window) new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting) && !$("#more").hidden) more(); }).observe($("#more"));
}

/* ---- #selftest: used by the headless-browser tests ---- */
const rowsNow = () => [...document.querySelectorAll("#rows tr.srow")];
async function selftest() {
  const out = {checks: {}, errors: window.__bankErrors};
  const ok = (name, cond) => { out.checks[name] = !!cond; };
  const bars = document.querySelectorAll("#charts svg rect.bar").length;
  ok("charts_have_bars", bars > 0 || !SESSIONS.length);
  ok("rows_rendered", rowsNow().length === Math.min(CHUNK, SESSIONS.length));
  out.width = window.innerWidth;
  const wrap = $(".table-wrap");
  ok("no_overflow", document.documentElement.scrollWidth <= window.innerWidth && wrap.scrollWidth <= wrap.clientWidth);
  const prov = (k) => { const dd = $(`#provenance dd[data-prov="${k}"]`); return dd ? dd.textContent : null; };
  ok("provenance", prov("Agent model") != null && prov("Agent model").startsWith((P.agent || {}).model || "?") &&
    prov("Task data SHA-256") === (P.task_data_sha256 || "?") && prov("pytest-bankbench") === (P.version || "?") &&
    prov("Customer") === ((P.customer || {}).model || "?") && prov("Report written") === (P.date || D.written) &&
    prov("Run started") === (P.run_started || "?"));
  if (SESSIONS.length > CHUNK) {
    $("#more").click();
    ok("more_rows", rowsNow().length === Math.min(2 * CHUNK, SESSIONS.length));
  }
  if (SESSIONS.length > 1) {
    const th = $('th[data-sort="steps"]'), steps = () => rowsNow().map((r) => BY_KEY.get(r.dataset.key).steps);
    th.click();
    const up = steps(), upSort = th.getAttribute("aria-sort");
    th.click();
    const down = steps(), all = SESSIONS.map((x) => x.steps);
    ok("sort_ascending", up.every((v, i) => !i || up[i - 1] <= v) && up[0] === Math.min(...all) && upSort === "ascending");
    ok("sort_descending", down.every((v, i) => !i || down[i - 1] >= v) && down[0] === Math.max(...all) && th.getAttribute("aria-sort") === "descending");
    $('th[data-sort="status"]').click();
    ok("sort_status_failed_first", status(BY_KEY.get(rowsNow()[0].dataset.key)) !== "passed" || SESSIONS.every((x) => status(x) === "passed"));
    sortKey = null; for (const o of document.querySelectorAll("th[data-sort]")) o.removeAttribute("aria-sort");
    applyFilters();
  }
  const row = $('#rows tr.srow[data-status="failed"], #rows tr.srow[data-status="false_pass"]');
  out.failing_key = row && row.dataset.key;
  const d = $("#detail");
  if (row) {
    await openDetail(row.dataset.key);
    const x = BY_KEY.get(row.dataset.key), t = await traceOf(row.dataset.key);
    ok("detail_open", d.classList.contains("open"));
    const lines = [...d.querySelectorAll("ul.evidence li")].map((li) => li.textContent);
    const want = Object.values(x.evidence || {}).flat().map(shownEvidence);
    ok("evidence_shown", lines.length === want.length && want.every((l) => lines.includes(l)));
    ok("failing_check_first", d.querySelector(".checks > li").classList.contains("fail"));
    ok("evidence_is_text", [...d.querySelectorAll("ul.evidence li *")].every((el) => el.matches("a.ev-link") && !el.children.length));
    ok("trials_view", d.querySelectorAll("tr.trial-row").length === SESSIONS.filter((o) => o.task_id === x.task_id).length &&
      d.querySelector("tr.trial-row.current").dataset.key === row.dataset.key);
    if (t) {
      ok("trace_tools", d.querySelectorAll(".ev-tool").length === t.events.filter((e) => e.kind === "tool").length);
      ok("trace_messages", d.querySelectorAll(".ev-msg").length === t.events.filter((e) => e.kind === "message").length);
      ok("trace_end", d.querySelector(".ev-end").textContent.includes(t.end));
      ok("changes", d.querySelectorAll("tr.change").length >= (t.changes || []).length);
    }
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"}));
    ok("detail_closes", !d.classList.contains("open"));
  }
  const linked = Object.keys(GOLD_EVENTS).find((k) => BY_KEY.has(k) && hasTrace(k));
  if (linked) {
    await openDetail(linked);
    const links = [...d.querySelectorAll("a.ev-link")];
    out.evidence_links = links.length;
    ok("evidence_links", links.length > 0 && links.every((a) => {
      const ev = document.getElementById("ev-" + a.dataset.event);
      return ev && d.contains(ev) && [...ev.querySelectorAll(".b-gold")].some((b) => b.textContent === "gold " + a.textContent);
    }));
    links[0].click();
    ok("evidence_link_flashes", document.getElementById("ev-" + links[0].dataset.event).classList.contains("flash"));
    closeDetail();
  }
  const noTrace = $('#rows tr.srow[data-trace="0"]:not([data-status="passed"])') || $('#rows tr.srow[data-trace="0"]');
  if (noTrace) {
    await openDetail(noTrace.dataset.key);
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
  ok("filter_status", $("#count").textContent.startsWith(num(nPassed) + " of") && rowsNow().every((r) => r.dataset.status === "passed"));
  resetFilters();
  if (SESSIONS.length) {
    FILTER_EL.search.value = SESSIONS[SESSIONS.length - 1].task_id; applyFilters();
    ok("filter_search", rowsNow().some((r) => r.dataset.key === keyOf(SESSIONS[SESSIONS.length - 1])));
  }
  resetFilters(); applyFilters();
  if (row) await openDetail(row.dataset.key);  // leave it open for the DOM dump
  out.bars = bars;
  out.render_ms = Math.round(window.__bankRenderMs);
  out.ok = Object.values(out.checks).every(Boolean) && !window.__bankErrors.length;
  $("#selftest-result").textContent = JSON.stringify(out);
  document.title = "selftest:" + (out.ok ? "ok" : "fail");
}

try {
  renderHeader(); renderProvenance(); renderFilters(); renderCharts(); wire(); wireSort(); applyFilters();
  if (location.hash.startsWith("#s=")) openDetail(decodeURIComponent(location.hash.slice(3)));
  setTimeout(() => document.body.classList.add("ready"), 50);
  window.__bankRenderMs = performance.now() - T0;
} catch (err) {
  window.__bankErrors.push("render: " + (err && err.stack || err));
}
if (location.hash === "#selftest") {
  selftest().catch((err) => {
    window.__bankErrors.push("selftest: " + (err && err.stack || err));
    $("#selftest-result").textContent = JSON.stringify({ok: false, errors: window.__bankErrors});
    document.title = "selftest:fail";
  });
}
})();
