// What every export says of a run: each point's series (each mode's throughput and their ratio,
// each over the rounds with its 95% interval: export.js), and the run's machine in a line.
import { factsOf } from '../load.js';
import { kebab } from '../../words/vocabulary.js';

/** @typedef {{ value: number, ci95: [number, number] | null }} Figure */
/** @typedef {[suffix: string, unit: string, measure: string, figure: Figure | null, better: 'higher'|'lower']} Series */
/**
 * A point's figures: each mode's throughput and their ratio, over its complete rounds; each
 * mode's figure of every other measure (measures.js) the run had.
 * @typedef {{ label: string, rounds: number, workers: Figure | null, procs: Figure | null, ratio: Figure | null,
 *   measures: Array<{ measure: import('../../points/measures.js').Measure, workers: Figure | null, procs: Figure | null }> }} ExportedPoint
 * @typedef {{ saved: import('../load.js').Saved, points: ExportedPoint[] }} ExportedRun
 *
 * One format: `serialize` turns the runs into the document its dashboard reads.
 * @typedef {{ format: string, serialize: (runs: ExportedRun[]) => unknown }} Exporter
 */

/**
 * A point's series: name suffix, unit, the Bencher measure, the figure, and which way is better.
 * @param {ExportedPoint} point
 * @returns {Series[]}
 */
export const seriesOf = (point) => [
  ['workers', 'ops/s', 'throughput', point.workers, 'higher'],
  ['procs', 'ops/s', 'throughput', point.procs, 'higher'],
  ['workers/procs', 'ratio', 'workers-procs-ratio', point.ratio, 'higher'],
  ...point.measures.flatMap(
    ({ measure, workers, procs }) =>
      /** @type {Series[]} */ ([
        [`workers ${measure.name}`, measure.unit, kebab(measure.key), workers, measure.better],
        [`procs ${measure.name}`, measure.unit, kebab(measure.key), procs, measure.better],
      ]),
  ),
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
