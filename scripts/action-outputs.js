#!/usr/bin/env node
// action.yml's outputs from a saved run, as $GITHUB_OUTPUT's `name=value` lines: the ratio and
// the interval the verdict was read from (a compare's: valid at every round where the run stopped
// once decided, the budget's last look, or a fixed-n 95% one; a file saved before verdicts, its
// 95% CI), the verdict's outcome and line as the run printed it, and the file. The ratio is the
// figure the verdict quotes: the geometric mean over rounds, the interval's centre; with fewer
// than 3 rounds there is no interval, and the verdict quotes the rounds' median.
import { verdictWords } from '../src/commands/compare/words.js';
import { loadSaved } from '../src/commands/index.js';
import { pointView } from '../src/document/points-of.js';

const [file] = process.argv.slice(2);
// read as every command reads a results file: checked, and in this mmapbench's layout
const saved = loadSaved(file);
// a compare's one point with the run around it; a sweep's points have no one verdict
const document = saved.kind.name === 'compare' ? pointView(saved.document) : saved.document;
// a run that did not complete has no ratio that stands: its outputs say what stopped it
const complete = document.status === 'complete';
const ratio = complete ? document.ratio : null;
const verdict = complete ? document.verdict : null;
const interval = ratio?.ci95 && ratio.n >= 3 ? (verdict?.interval ?? ratio.ci95) : null;
const one = (/** @type {unknown} */ value) => String(value ?? '').replace(/[\r\n]+/g, ' ');
const outputs = {
  ratio: ratio ? (interval ? (ratio.geomean ?? ratio.median) : ratio.median) : '',
  low: interval?.[0] ?? '',
  high: interval?.[1] ?? '',
  status: document.status,
  // workers, procs (faster), equal (within the margin), inconclusive; empty for a sweep
  outcome: verdict?.outcome ?? '',
  // the sentence is drawn from the figures, as the run printed it
  verdict: complete
    ? (verdictWords(document) ?? (document.command === 'sweep' ? `${document.points.length} points` : ''))
    : `the run ${document.status}${document.error?.message ? `: ${document.error.message}` : ''}`,
  'results-file': file,
};
process.stdout.write(
  Object.entries(outputs)
    .map(([name, value]) => `${name}=${one(value)}\n`)
    .join(''),
);
