// What every view shows of each mode, in one list. A per-mode statistic is measured per cell
// (src/run/), read from the cell and printed by its entry here; the document summarizes it over
// the complete rounds, and the compare and sweep tables, the HTML page, diff and the exports
// pick it up from this list (docs/development.md, "Adding a statistic").
import { fixed, ops } from './table.js';

/**
 * @typedef {import('../stats/cell.js').CellResult} CellResult
 * @typedef {object} Measure
 * @property {string} key  its name in a mode's summary (`results.workers[key]`) and in exports
 * @property {string} name  in words, as a table's row and a chart's title say it
 * @property {string} unit  as exports label it
 * @property {'higher'|'lower'} better  which way is an improvement
 * @property {(cell: CellResult) => number | null} of  the cell's figure; null where it could
 *   not be had
 * @property {(cell: CellResult) => string | null} [why]  why a cell has no figure, in a few words
 * @property {(value: number) => string} format  a value with its unit, for a table
 * @property {string} axis  a chart's axis title, with which way is better
 * @property {number} digits  decimals a chart's axis shows
 */

const MiB = 2 ** 20;

/** @type {Measure[]} */
export const MEASURES = [
  {
    key: 'throughput',
    name: 'throughput',
    unit: 'ops/s',
    better: 'higher',
    of: (cell) => cell.throughput,
    format: (value) => `${ops(value)} ops/s`,
    axis: 'ops/s (higher is faster)',
    digits: 0,
  },
  {
    key: 'memoryPerWorker',
    name: 'memory per worker',
    unit: 'MiB',
    better: 'lower',
    // the tree's proportional set size at the end of the timed window, over its K workers
    of: (cell) => (cell.memory?.pssBytes ? cell.memory.pssBytes / cell.workers.length / MiB : null),
    why: (cell) => cell.memory?.unavailable ?? null,
    format: (value) => `${fixed(value, 1)} MiB`,
    axis: 'MiB per worker (lower takes less)',
    digits: 1,
  },
  {
    key: 'startUpMs',
    name: 'start-up',
    unit: 'ms',
    better: 'lower',
    // from the CLI's spawn until the last worker had loaded its task and run its setup
    of: ({ phases: p }) => (p ? (p.spawnNs + p.nodeNs + p.loadNs + p.threadsNs + p.setupNs) / 1e6 : null),
    format: (value) => `${fixed(value, 0)} ms`,
    axis: 'ms from spawn to every worker set up (lower is sooner)',
    digits: 0,
  },
  {
    key: 'nodeStartMs',
    name: "Node's own start",
    unit: 'ms',
    better: 'lower',
    // its bootstrap, until the last process had finished it: what the harness cannot change
    of: ({ phases: p }) => (p ? p.nodeNs / 1e6 : null),
    format: (value) => `${fixed(value, 0)} ms`,
    axis: "ms of Node's own start (lower is sooner)",
    digits: 0,
  },
  {
    key: 'latencyP99Us',
    name: 'op latency p99',
    unit: 'µs',
    better: 'lower',
    // each cell's 99th percentile over the ops its workers timed one by one (a tenth of the window)
    of: ({ latency }) => (latency && 'p99Ns' in latency ? latency.p99Ns / 1e3 : null),
    why: ({ latency }) => (latency && 'untimed' in latency ? latency.untimed : null),
    format: (value) => `${value < 100 ? fixed(value, 1) : ops(value)} µs`,
    axis: 'µs per op, 99th percentile (lower is better)',
    digits: 1,
  },
];

export const THROUGHPUT = MEASURES[0];
/** Every measure but throughput, which the tables, the ratio and the gate already carry. */
export const FURTHER_MEASURES = MEASURES.slice(1);

/**
 * A mode's median of a measure as a table cell, `-` where it has none.
 * @param {import('./document.js').ModeSummary | null | undefined} summary
 * @param {Measure} measure
 */
export const medianCell = (summary, measure) => {
  const figures = summaryOf(summary, measure);
  return figures ? measure.format(figures.median) : '-';
};

/**
 * A mode's summary of one measure, or null where no cell had it.
 * @param {import('./document.js').ModeSummary | null | undefined} summary
 * @param {Measure} measure
 * @returns {import('../stats/ratio.js').Summary | null}
 */
export const summaryOf = (summary, measure) =>
  /** @type {Record<string, import('../stats/ratio.js').Summary | undefined> | null | undefined} */ (
    /** @type {unknown} */ (summary)
  )?.[measure.key] ?? null;

/**
 * The measures beyond throughput that some mode of a point has: what its views add.
 * @param {Array<import('./document.js').ModeSummary | null | undefined>} summaries  each mode's
 */
export const extraMeasures = (summaries) =>
  FURTHER_MEASURES.filter((measure) => summaries.some((summary) => summaryOf(summary, measure)));

/**
 * Why a measure has no figure in these rounds, where a cell said: `memory per worker: not
 * measured here: /proc hides other processes here (hidepid)`. Nothing when a figure was had, or
 * when the cells come from a version that did not measure it.
 * @param {Array<{ pilot?: true } & Partial<Record<'workers'|'procs', CellResult | null>>>} rounds
 * @returns {string[]}
 */
export function missingMeasures(rounds) {
  const cells = rounds.flatMap((round) => (round.pilot ? [] : [round.workers ?? null, round.procs ?? null]));
  return FURTHER_MEASURES.flatMap((measure) => {
    if (cells.some((cell) => cell && measure.of(cell) !== null)) return [];
    const reason = cells.map((cell) => (cell && measure.why ? measure.why(cell) : null)).find(Boolean);
    return reason ? [`${measure.name}: not measured here: ${reason}`] : [];
  });
}
