// What every export says of a run: each point's series (each mode's throughput and their ratio,
// each a geometric mean over the rounds with its 95% interval), and the run's machine in a line.
import { factsOf } from '../load.js';

/** @typedef {{ value: number, ci95: [number, number] | null }} Figure */
/**
 * A point's figures: each mode's throughput and their ratio, over its complete rounds.
 * @typedef {{ label: string, rounds: number, workers: Figure | null, procs: Figure | null, ratio: Figure | null }} ExportedPoint
 * @typedef {{ saved: import('../load.js').Saved, points: ExportedPoint[] }} ExportedRun
 *
 * One format: `serialize` turns the runs into the document its dashboard reads.
 * @typedef {{ format: string, serialize: (runs: ExportedRun[]) => unknown }} Exporter
 */

/**
 * A point's series: name suffix, unit, the Bencher measure, the figure.
 * @param {ExportedPoint} point
 * @returns {Array<[string, string, string, Figure | null]>}
 */
export const seriesOf = (point) => [
  ['workers', 'ops/s', 'throughput', point.workers],
  ['procs', 'ops/s', 'throughput', point.procs],
  ['workers/procs', 'ratio', 'workers-procs-ratio', point.ratio],
];

/** The run's machine and Node in one line, for a dashboard's `extra`. */
export const environmentLine = (/** @type {import('../load.js').Saved} */ saved) => {
  const facts = factsOf(saved);
  return [
    `Node ${facts.Node}`,
    `kernel ${facts.kernel}`,
    `glibc ${facts.glibc}`,
    `${facts.CPU} (${facts.cores})`,
    `THP ${facts.THP}`,
    facts['allocator env'] === 'none' ? null : facts['allocator env'],
    facts.protocol === 'steady' ? null : `protocol ${facts.protocol}`,
    facts['--quick'] === 'no' ? null : '--quick: not a measurement',
  ]
    .filter(Boolean)
    .join('; ');
};
