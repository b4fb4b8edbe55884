// Per-op latency of a cell, from the ops each worker timed across its window (one in every
// `every`, see run/task-runner.js): their histograms merged over the cell's workers, whose
// percentiles are read. The cell keeps the merged histogram, so that a mode's can be merged over
// all its cells.
import { SAVED_BITS, coarsen, countOf, mergeHistograms, percentileOf } from './histogram.js';

/**
 * @typedef {{ ops: number, every: number, p50Ns: number, p99Ns: number, p999Ns: number,
 *   maxNs: number, histogram: import('./histogram.js').Histogram }} CellLatency  ops: how many
 *   were timed, one in every `every` of each worker's window; the percentiles are read at full
 *   resolution, the histogram is kept at SAVED_BITS
 * @typedef {{ untimed: string }} NoLatency  why no op was timed
 */

/**
 * @param {Array<{ opTimes?: import('./samples.js').OpTimes }>} samples  one per worker
 * @returns {CellLatency | NoLatency | null}  null: no worker timed its ops (a user's task, or a
 *   built-in one with metrics of its own, runs in one call)
 */
export function cellLatency(samples) {
  const timed = samples.flatMap((sample) => (sample.opTimes ? [sample.opTimes] : []));
  if (!timed.length) return null;
  /** @type {Array<{ every: number, ops: number, histogram: import('./histogram.js').Histogram }>} */
  const counted = [];
  for (const times of timed) {
    if ('untimed' in times) return { untimed: times.untimed };
    counted.push(times);
  }
  const histogram = mergeHistograms(counted.map((times) => times.histogram));
  return {
    ops: countOf(histogram),
    every: Math.max(...counted.map((times) => times.every)),
    ...percentiles(histogram),
    histogram: coarsen(histogram, SAVED_BITS),
  };
}

/**
 * @param {import('./histogram.js').Histogram} histogram  not empty
 */
export const percentiles = (histogram) => ({
  p50Ns: /** @type {number} */ (percentileOf(histogram, 50)),
  p99Ns: /** @type {number} */ (percentileOf(histogram, 99)),
  p999Ns: /** @type {number} */ (percentileOf(histogram, 99.9)),
  maxNs: /** @type {number} */ (percentileOf(histogram, 100)),
});
