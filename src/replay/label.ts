import type { QuestionSet } from "../decision/questions.ts";
import type { EvalCase } from "./suite.ts";

/**
 * `weir eval label`: a person confirms or corrects a suite's labels on a loopback page. The page and
 * the edits are pure; the server is the command's shell. A label a person sets or confirms is
 * marked `label_source: human`.
 */

export type LabelEdit = { id: string; question: string; value: boolean | string | null } | { id: string; confirm: true };

/** Applies one edit; a clear message when it does not fit (unknown case or question, a value the question cannot take). Pure. */
export function applyLabel(cases: readonly EvalCase[], edit: LabelEdit, set: QuestionSet): { cases: EvalCase[]; error?: string } {
  const i = cases.findIndex((c) => c.id === edit.id);
  if (i < 0) return { cases: [...cases], error: `no case ${edit.id}` };
  const c = cases[i]!;
  const next: EvalCase = { ...c, labels: { ...c.labels }, label_source: { ...c.label_source } };
  if ("confirm" in edit) {
    for (const q of Object.keys(next.labels)) next.label_source![q] = "human";
  } else {
    const q = set.questions.find((x) => x.id === edit.question);
    if (!q || q.type === "score") return { cases: [...cases], error: `question ${edit.question} cannot be labelled here` };
    if (edit.value === null) {
      delete next.labels[q.id];
      delete next.label_source![q.id];
    } else {
      const fits = q.type === "yes_no" ? typeof edit.value === "boolean" : typeof edit.value === "string" && q.options.some((o) => o.id === edit.value);
      if (!fits) return { cases: [...cases], error: `${JSON.stringify(edit.value)} is not an answer to ${q.id}` };
      next.labels[q.id] = edit.value;
      next.label_source![q.id] = "human";
    }
  }
  const out = [...cases];
  out[i] = next;
  return { cases: out };
}

export const suiteText = (cases: readonly EvalCase[]) => cases.map((c) => JSON.stringify(c)).join("\n") + (cases.length ? "\n" : "");

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** The page: every case's state in brief and a control per labellable question; edits go to POST /api/label. Pure. */
export function labelPage(file: string, cases: readonly EvalCase[], set: QuestionSet, token: string): string {
  const questions = set.questions
    .filter((q) => q.type !== "score")
    .map((q) => ({ id: q.id, type: q.type, text: q.text, options: q.type === "choice" ? q.options.map((o) => o.id) : ["yes", "no"] }));
  // The data goes in as JSON inside a script tag: `<` is escaped so no text from a case can close it.
  const data = JSON.stringify({ token, questions, cases }).replace(/</g, "\\u003c");
  return (`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>weir eval label · ${esc(file)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;max-width:70em;color:#222}
.case{border:1px solid #ccc;border-radius:6px;padding:.8em 1em;margin:1em 0}
.case h2{font-size:15px;margin:.2em 0}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ddd;padding:2px 6px;font-size:13px}
.q{margin:.3em 0}.q b{display:inline-block;min-width:17em}
.src{color:#777;font-size:12px;margin-left:.5em}.saved{color:#185;font-size:12px;margin-left:.5em}
.err{color:#b00}
</style></head><body>
<h1>Labels of ${esc(file)}</h1>
<p>${cases.length} cases of ${esc(set.id)}@${set.version}. Read each state against the criteria ` +
    `(docs/eval.md links them); a change is saved to the file at once and marked as yours. ` +
    `<em>Confirm</em> marks the case's labels as checked by you.</p>
<div id="status"></div>
<div id="cases"></div>
<script id="data" type="application/json">${data}</script>
<script>
const D = JSON.parse(document.getElementById("data").textContent);
const el = (t, a = {}, ...kids) => { const e = document.createElement(t); for (const [k, v] of ` +
    `Object.entries(a)) e.setAttribute(k, v); for (const k of kids) e.append(k); return e; };
const flags = (t) => ["read", "body_complete", "sha_fresh", "dirty_in_worktree", "named_by_user"].filter((f) => t[f]).join(", ");
async function send(edit, card) {
  const r = await fetch("/api/label?token=" + D.token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(edit) });
  const j = await r.json();
  if (r.ok) { const i = D.cases.findIndex((c) => c.id === j.case.id); D.cases[i] = j.case; render(card, j.case); }
  const note = card.querySelector(".saved");
  note.textContent = r.ok ? "saved" : j.error;
  note.className = r.ok ? "saved" : "saved err";
}
function render(card, c) {
  card.replaceChildren();
  const s = c.state;
  card.append(el("h2", {}, c.id + " — ", s.task), el("span", { class: "saved" }));
  const tt = el("table", {}, el("tr", {}, el("th", {}, "target"), el("th", {}, "flags")));
  for (const t of s.targets) tt.append(el("tr", {}, el("td", {}, t.path), el("td", {}, flags(t))));
  card.append(tt);
  card.append(el("div", {}, "symbols: " + (s.symbols.map((x) => x.name + (x.exported ? " (exported" ` +
    `+ (x.callers_known ? ", callers known)" : ", callers unknown)") : "")).join("; ") || "none")));
  card.append(el("div", {}, "tests: " + (s.tests.mapped.join(", ") || "none mapped") + (s.tests.read ? " (read)" : "")));
  card.append(el("div", {}, "failures: " + (s.failures.map((f) => f.path + ":" + f.line).join(", ") || "none")));
  const change = s.change.planned_scope + (s.change.security_sensitive ? ", security-sensitive" : "") + (s.change.public_api ? ", public API" : "");
  const run = s.verification.last_run;
  const lastRun = run ? (run.passed ? "passed" : "failed") + " (" + run.level + (run.revision_current ? ", current" : ", old revision") + ")" : "none";
  const changed = s.verification.files_changed_since_last_pass;
  card.append(el("div", {}, "change: " + change + "; files changed since last pass: " + changed + "; last run: " + lastRun));
  if (c.notes?.length) card.append(el("div", { class: "src" }, c.notes.join("; ")));
  for (const q of D.questions) {
    const row = el("div", { class: "q" }, el("b", { title: q.text }, q.id));
    const cur = c.labels[q.id];
    for (const o of q.options) {
      const v = q.type === "yes_no" ? o === "yes" : o;
      const input = el("input", { type: "radio", name: c.id + "." + q.id, value: o, "data-case": c.id, "data-question": q.id });
      if (cur === v) input.checked = true;
      input.addEventListener("change", () => send({ id: c.id, question: q.id, value: v }, card));
      row.append(el("label", {}, input, o), " ");
    }
    const clear = el("button", { type: "button", "data-clear": c.id + "." + q.id }, "unset");
    clear.addEventListener("click", () => send({ id: c.id, question: q.id, value: null }, card));
    row.append(clear, el("span", { class: "src" }, cur === undefined ? "unlabelled" : (c.label_source?.[q.id] ?? "unmarked")));
    card.append(row);
  }
  const ok = el("button", { type: "button", "data-confirm": c.id }, "Confirm");
  ok.addEventListener("click", () => send({ id: c.id, confirm: true }, card));
  card.append(ok);
}
const root = document.getElementById("cases");
for (const c of D.cases) { const card = el("div", { class: "case", id: "case-" + c.id }); root.append(card); render(card, c); }
document.getElementById("status").textContent = "ready";
</script></body></html>
`);
}
