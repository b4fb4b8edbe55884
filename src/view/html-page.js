// The page `report --html` writes, and the markup of its parts: a section per results file
// (its facts, its answer, its charts, and the tables as the run printed them), escaped text.
import { version } from '../version.js';
import { MODE_COLORS } from './charts.js';
import { plural } from '../words/spelling.js';

/**
 * @typedef {import('./charts.js').Chart} Chart
 * @typedef {import('../words/report-model.js').ReportModel} ReportModel
 * @typedef {{ charts: number, html: string }} Section  a saved file's part of the page: its HTML and how
 *   many charts it drew
 */

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (/** @type {unknown} */ text) => String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);

const figure = (/** @type {Chart} */ chart) => `<figure>${chart.svg}</figure>`;

/**
 * One file's part of the page: what ran where, the answer, the charts, then the tables.
 * @param {{ heading: string, path: string, facts: Record<string, string>, answer: Array<string | null | undefined>,
 *   charts: Chart[], models: ReportModel[], open?: boolean,
 *   document: { status: string, error?: { message: string } | null, mmapbench: string, environment?: { date: string } } }} parts
 */
export function section({ heading, path, document, facts, answer, charts, models, open = false }) {
  const status =
    document.status === 'complete'
      ? ''
      : `<p class="status">${escape(document.status)}${document.error ? `: ${escape(document.error.message)}` : ''}</p>`;
  return `<section>
<h2>${escape(heading)}</h2>
<p class="source">${escape(path)} · mmapbench ${escape(document.mmapbench)} · ${escape(document.environment?.date ?? '')}</p>
${status}
<dl>${Object.entries(facts)
    .map(([name, value]) => `<dt>${escape(name)}</dt><dd>${escape(value)}</dd>`)
    .join('')}</dl>
${answer.map((line, i) => `<p class="${i === 0 ? 'verdict' : 'next'}">${escape(line)}</p>`).join('\n')}
${charts.map(figure).join('\n')}
<details${open ? ' open' : ''}><summary>The tables, as the run printed them</summary>
${models.map(modelHtml).join('\n')}
</details>
</section>`;
}

/** A report model (title, lines, tables, notes) as HTML; its text blocks are terminal charts and stay out. */
const modelHtml = (/** @type {ReportModel} */ model) => `<h3>${escape(model.title)}</h3>
${(model.lines ?? []).map((line) => `<p>${escape(line)}</p>`).join('\n')}
${model.tables
  .map(
    ({
      head,
      rows,
      align,
    }) => `<table><thead><tr>${head.map((cell) => `<th>${escape(cell)}</th>`).join('')}</tr></thead><tbody>
${rows
  .map(
    (row) =>
      `<tr>${row.map((cell, i) => `<td class="${(align?.[i] ?? (i === 0 ? 'left' : 'right')) === 'right' ? 'num' : ''}">${escape(cell)}</td>`).join('')}</tr>`,
  )
  .join('\n')}
</tbody></table>`,
  )
  .join('\n')}
${model.notes.map((note) => `<p class="note">${escape(note)}</p>`).join('\n')}`;

export const page = (/** @type {string} */ body, /** @type {number} */ files) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mmapbench report (${plural(files, 'file')})</title>
<style>
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; max-width: 1040px; margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-top: 1px solid #ddd; padding-top: 1em; margin-top: 2em; }
h3 { font-size: 1.05em; }
.source, .note { color: #555; font-size: 0.9em; }
.status { background: #fff4e5; border-left: 4px solid #D55E00; padding: 0.4em 0.8em; }
.verdict { font-size: 1.1em; font-weight: 600; }
.key { display: inline-block; width: 0.9em; height: 0.9em; border-radius: 50%; vertical-align: -0.1em; margin: 0 0.3em 0 0.8em; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.1em 1em; font-size: 0.9em; }
dt { color: #555; }
dd { margin: 0; }
figure { margin: 1.5em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.85em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
details summary { cursor: pointer; color: #0072B2; margin: 1em 0; }
</style>
</head>
<body>
<h1>mmapbench report</h1>
<p class="source">Every figure on this page was measured in the runs named below, and drawn by mmapbench ${escape(version)} from their saved results.
Colours: <span class="key" style="background:${MODE_COLORS.workers}"></span>workers (Worker threads in one process)
<span class="key" style="background:${MODE_COLORS.procs}"></span>procs (child processes).</p>
${body}
</body>
</html>
`;
