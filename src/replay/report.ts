import type { ChoiceReport, EvalReport, SourceMetrics, YesNoReport } from "./analysis.ts";

const f3 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "—" : x.toFixed(3));

/** The terminal summary: one row per question and source, baseline and candidate side by side. */
export function terminalReport(r: EvalReport, title: string): string {
  const lines = [`${title}: ${r.cases} cases, ${r.withCandidate} with a candidate answer`, ""];
  lines.push("question                       source     n    acc    brier  logloss  ECE(w)  ECE(m)  ECE-floor  false-stop  false-cont  AURC   disagree");
  for (const q of r.questions) {
    if (q.type === "yes_no") {
      const row = (name: string, m: SourceMetrics | undefined) =>
        m &&
        lines.push(
          [
            `${q.id.padEnd(30)} ${name.padEnd(9)} ${String(m.n).padStart(4)}  ${f3(m.accuracy)}  ${f3(m.brier)}  ${f3(m.logLoss)}`,
            `    ${f3(m.ece.equalWidth)}   ${f3(m.ece.equalMass)}   ${f3(m.ece.ifCalibrated)}`,
            `      ${f3(m.falseStop)}       ${f3(m.falseContinue)}    ${f3(m.aurc)}  ${name === "candidate" ? f3(q.disagreement) : ""}`,
          ].join(""),
        );
      row("baseline", q.baseline);
      row("candidate", q.candidate);
    } else if (q.type === "choice") {
      lines.push(`${q.id.padEnd(30)} baseline  ${String(q.baseline.n).padStart(4)}  ${f3(q.baseline.accuracy)}  (top-prob ECE ${f3(q.baseline.topEce)})`);
      if (q.candidate)
        lines.push(
          `${q.id.padEnd(30)} candidate ${String(q.candidate.n).padStart(4)}  ${f3(q.candidate.accuracy)}  ` +
            `(top-prob ECE ${f3(q.candidate.topEce)})  disagree ${f3(q.disagreement)}`,
        );
    } else {
      lines.push(`${q.id.padEnd(30)} baseline  ${String(q.baseline.n).padStart(4)}  MAE ${f3(q.baseline.mae)}  MSE ${f3(q.baseline.mse)}`);
      if (q.candidate) lines.push(`${q.id.padEnd(30)} candidate ${String(q.candidate.n).padStart(4)}  MAE ${f3(q.candidate.mae)}  MSE ${f3(q.candidate.mse)}`);
    }
  }
  lines.push("", "ECE: 10 bins, equal-width (w) and equal-mass (m); ECE-floor is what a perfectly calibrated source would show at this sample size.");
  return lines.join("\n");
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Ticks at 0, 0.5 and 1 on both axes of a unit-square plot. */
function ticks(W: number): string {
  const out: string[] = [];
  for (const v of [0, 0.5, 1]) {
    const x = (20 + v * (W - 30)).toFixed(1);
    const y = (W - 20 - v * (W - 30)).toFixed(1);
    out.push(
      `<line x1="${x}" y1="${W - 20}" x2="${x}" y2="${W - 16}" stroke="#999"/><text class="tick" x="${x}" ` +
        `y="${W - 8}" font-size="8" text-anchor="middle">${v}</text>`,
    );
    out.push(
      `<line x1="16" y1="${y}" x2="20" y2="${y}" stroke="#999"/><text class="tick" x="14" y="${Number(y) + 3}" font-size="8" text-anchor="end">${v}</text>`,
    );
  }
  return out.join("");
}

function reliabilitySvg(q: YesNoReport): string {
  const W = 220;
  const pt = (x: number, y: number) => `${(20 + x * (W - 30)).toFixed(1)},${(W - 20 - y * (W - 30)).toFixed(1)}`;
  const series = (m: SourceMetrics | undefined, color: string) =>
    m
      ? m.reliability.equalWidth
          .filter((b) => b.count)
          .map((b) => {
            const [cx, cy] = pt(b.meanPredicted, b.observed).split(",");
            const title = `<title>${b.count} cases: predicted ${f3(b.meanPredicted)}, observed ${f3(b.observed)}</title>`;
            return `<circle cx="${cx}" cy="${cy}" r="${Math.min(9, 2 + Math.sqrt(b.count))}" fill="${color}" fill-opacity="0.6">${title}</circle>`;
          })
          .join("")
      : "";
  return (
    `<svg class="reliability" data-question="${q.id}" width="${W}" height="${W}" viewBox="0 0 ${W} ` +
    `${W}" role="img" aria-label="reliability diagram for ${q.id}">
<rect x="20" y="10" width="${W - 30}" height="${W - 30}" fill="none" stroke="#999"/><polyline ` +
    `points="${pt(0, 0)} ${pt(1, 1)}" stroke="#bbb" stroke-dasharray="4"/>
${series(q.baseline, "#1f77b4")}${series(q.candidate, "#d62728")}${ticks(W)}
<text x="${W / 2}" y="${W}" font-size="10" text-anchor="middle">predicted P(yes) → observed ↑</text></svg>`);
}

function coverageSvg(q: YesNoReport): string {
  const W = 220;
  const point = (c: { coverage: number; risk: number }) => `${(20 + c.coverage * (W - 30)).toFixed(1)},${(W - 20 - Math.min(1, c.risk) * (W - 30)).toFixed(1)}`;
  const line = (m: SourceMetrics | undefined, color: string) =>
    m ? `<polyline fill="none" stroke="${color}" points="${m.riskCoverage.map(point).join(" ")}"/>` : "";
  return (
    `<svg class="risk-coverage" data-question="${q.id}" width="${W}" height="${W}" viewBox="0 0 ${W} ` +
    `${W}" role="img" aria-label="risk-coverage for ${q.id}">
<rect x="20" y="10" width="${W - 30}" height="${W - 30}" fill="none" stroke="#999"/>${line(q.baseline, "#1f77b4")}${line(q.candidate, "#d62728")}${ticks(W)}
<text x="${W / 2}" y="${W}" font-size="10" text-anchor="middle">coverage → risk ↑</text></svg>`);
}

function confusionTable(q: ChoiceReport, which: "baseline" | "candidate"): string {
  const m = q[which];
  if (!m) return "";
  return (
    `<table class="confusion" data-question="${q.id}" data-source="${which}"><caption>${which} (rows: ` +
    `label, columns: answer)</caption><tr><th></th>` +
    `${q.classes.map((c) => `<th>${esc(c)}</th>`).join("")}</tr>${m.confusion
      .map((row, i) => `<tr><th>${esc(q.classes[i]!)}</th>${row.map((v) => `<td>${v}</td>`).join("")}</tr>`)
      .join("")}</table>`
  );
}

/**
 * The plain summary a reader sees first: what was measured, on what labels, and per yes/no question
 * whether the target holds (accuracy >= 0.95 and false-stop <= 2%). When the baseline matches every
 * label of every question, it says so: such labels were most likely written from the baseline's
 * own rules, and the figures then measure that mapping, not the baseline's judgment. Pure.
 */
/** One choice question's heading (its accuracies, as data-metric spans) and confusion tables. */
function choiceSection(q: ChoiceReport): string {
  const accuracy = (which: "baseline" | "candidate", v: number) => `<span data-metric="${q.id}.${which}.accuracy">${f3(v)}</span> ${which}`;
  const candidate = q.candidate ? `, ${accuracy("candidate", q.candidate.accuracy)}` : "";
  const heading = `<h3>${q.id}: accuracy ${accuracy("baseline", q.baseline.accuracy)}${candidate}</h3>`;
  return `${heading}${confusionTable(q, "baseline")}${confusionTable(q, "candidate")}`;
}

const STYLE = [
  "body{font:14px system-ui,sans-serif;margin:24px;color:#222}",
  "table{border-collapse:collapse;margin:8px 0}",
  "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}",
  "td:first-child,th:first-child{text-align:left}",
  ".charts{display:flex;flex-wrap:wrap;gap:16px}",
  ".legend span{display:inline-block;width:10px;height:10px;margin:0 4px}",
  "figure{margin:0}",
  "pre{background:#f6f6f6;padding:8px;overflow:auto}",
].join("");

export function plainSummary(r: EvalReport, meta: Record<string, unknown>): { lines: string[]; labelsFromBaseline: boolean } {
  const yesNo = r.questions.filter((q): q is YesNoReport => q.type === "yes_no");
  const judged = r.questions.filter((q) => q.type === "yes_no" || q.type === "choice") as (YesNoReport | ChoiceReport)[];
  const perfect = judged.length > 0 && judged.every((q) => q.baseline.accuracy === 1);
  const verdict = (m: SourceMetrics | undefined) =>
    m ? (m.accuracy >= 0.95 && m.falseStop <= 0.02 ? "meets the target" : "misses the target") : "not answered";
  const lines = [
    `Measured: ${r.cases} labelled cases replayed through the deterministic ` +
      (`baseline${r.withCandidate ? ` and the candidate ${String(meta.provider ?? "")} (${r.withCandidate} answered)` : ""}, ` +
        `question set ${String(meta.question_set ?? "")}.`),
    `Target per yes/no question: accuracy at least 0.95 and false-stop at most 2%.`,
    ...yesNo.map((q) => {
      const scored = (m: SourceMetrics) => `${verdict(m)} (accuracy ${f3(m.accuracy)}, false-stop ${f3(m.falseStop)})`;
      return `${q.id}: baseline ${scored(q.baseline)}${q.candidate ? `; candidate ${scored(q.candidate)}` : ""}.`;
    }),
  ];
  const sources = meta.label_sources as Record<string, number> | undefined;
  if (sources && Object.values(sources).some((n) => n > 0))
    lines.push(
      `Labels: ${[
        ["criteria", "written from the criteria"],
        ["outcome", "from what happened next in real sessions"],
        ["human", "set or confirmed by a person"],
        ["unmarked", "with no recorded source"],
      ]
        .filter(([k]) => sources[k!])
        .map(([k, say]) => `${sources[k!]} ${say}`)
        .join(", ")}.`,
    );
  if (perfect && sources?.criteria && !sources.outcome && !sources.human)
    lines.push(
      [
        "Caution: the baseline matches every label of every question.",
        "These labels were written from the criteria by the team that wrote the baseline, and disagreements were resolved against the text:",
        "two readings of the criteria agree, which does not show either is right. Score it on labels written apart.",
      ].join(" "),
    );
  else if (perfect)
    lines.push(
      "Caution: the baseline matches every label of every question. Labels like these were most likely " +
        "written from the baseline's own rules; the figures then measure that mapping, not how right the " +
        "baseline is. Score it on independently written labels.",
    );
  return { lines, labelsFromBaseline: perfect };
}

/** A self-contained HTML report: no network, inline SVG, the figures also embedded as JSON. */
export function htmlReport(r: EvalReport, meta: Record<string, unknown>, cases: Map<string, unknown>): string {
  const cell = (q: string, src: string, key: string, v: number | undefined) => `<td data-metric="${q}.${src}.${key}">${f3(v)}</td>`;
  const yesNo = r.questions.filter((q): q is YesNoReport => q.type === "yes_no");
  const choices = r.questions.filter((q): q is ChoiceReport => q.type === "choice");
  const rows = yesNo
    .flatMap((q) =>
      (["baseline", "candidate"] as const).flatMap((src) => {
        const m = q[src];
        return m
          ? [
              [
                `<tr><td>${q.id}</td><td>${src}</td><td>${m.n}</td>`,
                cell(q.id, src, "accuracy", m.accuracy) + cell(q.id, src, "brier", m.brier) + cell(q.id, src, "logLoss", m.logLoss),
                cell(q.id, src, "eceEqualWidth", m.ece.equalWidth) + cell(q.id, src, "eceEqualMass", m.ece.equalMass),
                `<td>${f3(m.ece.ci95[0])}–${f3(m.ece.ci95[1])}</td>${cell(q.id, src, "eceIfCalibrated", m.ece.ifCalibrated)}`,
                cell(q.id, src, "falseStop", m.falseStop) + cell(q.id, src, "falseContinue", m.falseContinue) + cell(q.id, src, "aurc", m.aurc),
                "</tr>",
              ].join(""),
            ]
          : [];
      }),
    )
    .join("\n");
  // A result whose case is in no suite read (another shard's) is listed without its state.
  const state = (id: string) => esc(JSON.stringify(cases.get(id) ?? "not in the suites read", null, 2));
  const disagreements = r.disagreements
    .slice(0, 200)
    .map((d) => `<details><summary>${esc(d.id)}: ${d.signals.join(", ")}</summary><pre>${state(d.id)}</pre></details>`)
    .join("\n");
  return (`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>weir eval report</title>
<style>${STYLE}</style>
</head><body>
<h1>weir eval report</h1>
<section id="plain-summary">${plainSummary(r, meta)
      .lines.map((l) => `<p${l.startsWith("Caution") ? ' class="caution" style="color:#a40"' : ""}>${esc(l)}</p>`)
      .join("")}</section>
<p id="summary">${r.cases} cases; ${r.withCandidate} with a candidate answer. Run ` +
    `${esc(String(meta.run ?? ""))}, provider ${esc(String(meta.provider ?? ""))}, question set ` +
    `${esc(String(meta.question_set ?? ""))}.</p>
<p class="legend"><span style="background:#1f77b4"></span>baseline <span ` +
    `style="background:#d62728"></span>candidate. ECE uses 10 bins (equal-width and equal-mass); the ` +
    `floor is the ECE a perfectly calibrated source would show at this sample size.</p>
<h2>Yes/no questions</h2>
<table id="metrics"><tr><th>question</th><th>source</th><th>n</th><th>accuracy</th><th>Brier</th><th>log ` +
    `loss</th><th>ECE (width)</th><th>ECE (mass)</th><th>ECE 95% CI</th><th>ECE floor</th><th>false ` +
    `stop</th><th>false continue</th><th>AURC</th></tr>
${rows}</table>
<h2>Reliability diagrams and risk-coverage curves</h2>
<div class="charts">${yesNo.map((q) => `<figure><figcaption>${q.id}</figcaption>${reliabilitySvg(q)}${coverageSvg(q)}</figure>`).join("")}</div>
<h2>Choices</h2>
${choices.map(choiceSection).join("\n")}
<h2>Disagreeing cases (${r.disagreements.length})</h2>
${disagreements || "<p>none</p>"}
<script type="application/json" id="report-data">${JSON.stringify({ meta, report: r }).replace(/</g, "\\u003c")}</script>
</body></html>
`);
}
