// `advise`'s ranking as a table and its verdict in a sentence: the best fix with its gain and
// its cost, and the exact line that applies it; the published ranking beside it where it covers
// the task, labelled with its source.
import { MITIGATION_RANKING } from '../reference/published.js';
import { formatCI } from './sentences.js';
import { fixed } from './table.js';

/**
 * @typedef {import('./advice.js').Advice} Advice
 * @typedef {import('./advice.js').AdviceRow} AdviceRow
 * @typedef {ReturnType<typeof import('../stats/ratio.js').changeBetween>} Change
 */

/** `3.20× (2.90-3.52)`, or the estimate alone without an interval. */
const times = (/** @type {Change | null} */ change) =>
  change ? `${fixed(change.change)}×${change.ci95 ? ` (${formatCI(change.ci95, { label: false })})` : ''}` : '-';

/** Three significant figures up to 100: 0.91, 8.06, 13.1. */
const short = (/** @type {number} */ value) => (value >= 10 ? value.toFixed(1) : fixed(value));

/** The same in a table's narrow cell: the interval under the estimate, without brackets. */
const timesCell = (/** @type {Change | null} */ change) =>
  change ? `${short(change.change)}×${change.ci95 ? ` ${change.ci95.map(short).join('-')}` : ''}` : '-';

/** `+8% (95% CI +2% to +14%)`: a change in memory as a cost. */
const percentCI = (/** @type {Change} */ change) =>
  `${percent(change)}${change.ci95 ? ` (95% CI ${change.ci95.map((end) => percent({ ...change, change: end })).join(' to ')})` : ''}`;

/** `+8%`, `−12%`: a change as a reader weighs a cost. */
const percent = (/** @type {Change | null} */ change) => {
  if (!change) return '-';
  const value = Math.round((change.change - 1) * 100);
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value)}%`;
};

const READING = /** @type {const} */ ({ better: 'faster', worse: 'hurts', unclear: 'unclear' });
// a row without figures, in words that wrap in a narrow column; its note says why
const STATUS = /** @type {const} */ ({
  unavailable: 'cannot run',
  failed: 'failed',
  'too few rounds': 'too few rounds',
});

/**
 * @param {AdviceRow} row
 * @param {number} rank
 */
function readingOf(row, rank) {
  if (row.kind === 'baseline') return 'baseline';
  if (row.status !== 'measured') return STATUS[row.status];
  return `${rank}. ${row.verdict ? READING[row.verdict] : 'no interval'}`;
}

/**
 * @param {import('./sweep-results.js').SweepDocument & { advice: Advice }} results
 * @returns {import('./table.js').ReportModel}
 */
export function adviceModel(results) {
  const { advice } = results;
  let rank = 0;
  const rows = advice.rows.map((row) => {
    if (row.kind !== 'baseline' && row.status === 'measured') rank++;
    return [
      row.name,
      readingOf(row, rank),
      timesCell(row.gain.workers),
      timesCell(row.gain.procs),
      row.ratio ? fixed(row.ratio.geomean ?? row.ratio.median) : '-',
      percent(row.memory),
      row.spread === null ? '-' : fixed(row.spread),
    ];
  });
  const notes = [verdictText(advice)];
  const best = advice.rows.find((row) => row.name === advice.best);
  if (best) notes.push(`apply it: ${best.apply}`);
  if (advice.missing.length)
    notes.push(
      `not on this machine, so not tried (never installed by mmapbench): ${advice.missing
        .map((one) => `${one.name} (${one.install})`)
        .join('; ')}`,
    );
  for (const row of advice.rows) if (row.why) notes.push(`${row.name}: ${row.status}: ${row.why}`);
  for (const one of advice.skipped) notes.push(`${one.name} could not start, so it was skipped: ${one.reason}`);
  notes.push(
    'workers ×, procs ×: each mode’s throughput over the baseline’s, with its 95% CI over rounds; w/p: the candidate’s workers/procs; memory: its workers’ memory per worker against the baseline’s; spread: how much its workers’ cells disagree (the standard deviation of their log ops/s); faster or hurts: the workers’ interval lies above 1 or below it',
  );
  const task = results.axes.task[0];
  if (MITIGATION_RANKING.tasks.includes(task))
    notes.push(
      `published, not measured here: ${MITIGATION_RANKING.source}: ${MITIGATION_RANKING.rows
        .map((row, i) => `${i + 1}. ${row.fix}: ${row.effect}`)
        .join('; ')}`,
    );
  return {
    title: `mmapbench advise: ${task}, ${advice.rows.length - 1} candidates against the baseline${results.status === 'complete' ? '' : ` — ${results.status.toUpperCase()}`}`,
    tables: [
      {
        head: ['candidate', 'reading', 'workers ×', 'procs ×', 'w/p', 'memory', 'spread'],
        rows,
      },
    ],
    notes,
  };
}

/**
 * The verdict in one sentence: the best fix, its gain in each mode and its memory cost; or that
 * none is known to beat the baseline.
 * @param {Advice} advice
 */
export function verdictText(advice) {
  const best = advice.rows.find((row) => row.name === advice.best);
  if (!best)
    return 'no candidate’s workers throughput is known to beat the baseline’s: every interval spans 1 or lies below it (a longer --max-time narrows them)';
  const gain = /** @type {Change} */ (best.gain.workers);
  const procs = best.gain.procs ? `, procs ${times(best.gain.procs)}` : '';
  const memory = best.memory ? `; memory per worker ${percentCI(best.memory)}` : '';
  return `best: ${best.name}: workers ${fixed(gain.change)}× the baseline’s throughput (${formatCI(/** @type {[number, number]} */ (gain.ci95))})${procs}${memory}`;
}
