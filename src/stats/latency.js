// Per-op latency of a cell, from the ops each worker timed one by one (one tenth of its window):
// merged over the cell's workers into Node's own HdrHistogram (perf_hooks.createHistogram), whose
// percentiles are read. The cell keeps the percentiles, not the times.
import { createHistogram } from 'node:perf_hooks';

/**
 * @typedef {{ ops: number, p50Ns: number, p99Ns: number, p999Ns: number, maxNs: number }} CellLatency
 * @typedef {{ untimed: string }} NoLatency  why no op was timed
 */

/**
 * @param {Array<{ opTimes?: import('../run/task-runner.js').OpTimes }>} samples  one per worker
 * @returns {CellLatency | NoLatency | null}  null: no worker timed its ops (a user's task, or a
 *   built-in one with metrics of its own, runs in one call)
 */
export function cellLatency(samples) {
  const timed = samples.flatMap((sample) => (sample.opTimes ? [sample.opTimes] : []));
  if (!timed.length) return null;
  const untimed = timed.find((times) => times.untimed)?.untimed;
  if (untimed) return { untimed };
  const histogram = createHistogram();
  let ops = 0;
  for (const { ns } of timed)
    for (const value of ns) {
      // the histogram counts integers from 1: an op under a nanosecond is one
      histogram.record(Math.max(1, Math.round(value)));
      ops++;
    }
  if (!ops) return { untimed: 'the window was too short to time an op' };
  return {
    ops,
    p50Ns: histogram.percentile(50),
    p99Ns: histogram.percentile(99),
    p999Ns: histogram.percentile(99.9),
    maxNs: histogram.max,
  };
}
