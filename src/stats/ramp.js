// A fresh worker's first ops, read from its warmup: the K workers warm up side by side once all
// are set up, each reading the clock once a batch, so a cell knows how fast its fresh workers
// did their first ops and how long each took to reach the speed its window then measured,
// without a second run (docs/how-it-measures.md, "Fresh and warm").
import { median } from 'simple-statistics';

/** The ops the investigation timed a fresh worker over: `first 2,000 ops`. */
export const FIRST_OPS = 2000;

/**
 * Full speed is the window's rate less this: a batch within it runs at full speed. On 2 CPUs a
 * steady worker's batches vary by about a tenth; a fresh thread's first ones run at a quarter.
 */
export const BAND = 0.2;

/**
 * @typedef {import('./samples.js').Ramp} Ramp
 * @typedef {{ firstOps: number, firstThroughput: number | null, toFullMs: number, toFullOps: number }} CellRamp
 *   firstThroughput: K × FIRST_OPS over the time from the first worker's first op to the last
 *   one's FIRST_OPS-th (null where a warmup ran fewer); toFullMs, toFullOps: the median worker's
 *   time and ops from its first op to full speed
 */

/**
 * Nanoseconds from a worker's first op to its `n`-th, the clock read at each batch's end and
 * the ops of a batch taken as evenly spread over it; null when its warmup ran fewer.
 * @param {Ramp} ramp
 * @param {number} n
 */
export function nsToOps({ batch, atUs }, n) {
  const index = Math.ceil(n / batch) - 1;
  if (index >= atUs.length) return null;
  const before = index > 0 ? atUs[index - 1] : 0;
  const part = (n - index * batch) / batch;
  return (before + part * (atUs[index] - before)) * 1e3;
}

/**
 * Where a worker reached full speed, as a changepoint: the end of the last batch whose rate
 * (the median of it and its neighbours, so that one preempted batch moves nothing) is below
 * (1 − BAND) × the window's rate; from there on every batch runs within the band. The first op
 * when none is below.
 * @param {Ramp} ramp
 * @param {number} fullRate  ops/s of the worker's timed window
 * @returns {{ ms: number, ops: number }}
 */
export function fullSpeedAt({ batch, atUs }, fullRate) {
  const rates = atUs.map((at, i) => (batch * 1e6) / Math.max(at - (i > 0 ? atUs[i - 1] : 0), 1));
  const smooth = rates.map((_, i) => median(rates.slice(Math.max(0, i - 1), i + 2)));
  let last = -1;
  smooth.forEach((rate, i) => {
    if (rate < (1 - BAND) * fullRate) last = i;
  });
  return last < 0 ? { ms: 0, ops: 0 } : { ms: atUs[last] / 1e3, ops: (last + 1) * batch };
}

/**
 * A cell's ramp from its workers' warmups; null where they warmed up by a fixed count (no
 * batches timed) or not at all.
 * @param {Array<{ opsPerSec: number, warmup?: { ramp?: Ramp } }>} workers  summarized, each
 *   ramp's startNs after the cell's first worker's first op
 * @returns {CellRamp | null}
 */
export function cellRamp(workers) {
  const ramps = workers.map((worker) => worker.warmup?.ramp);
  if (!ramps.length || ramps.some((ramp) => !ramp?.atUs.length)) return null;
  const all = /** @type {Ramp[]} */ (ramps);
  const done = all.map((ramp) => nsToOps(ramp, FIRST_OPS));
  const firstThroughput = done.every((ns) => ns !== null)
    ? (workers.length * FIRST_OPS * 1e9) /
      Math.max(...done.map((ns, i) => (all[i].startNs ?? 0) + /** @type {number} */ (ns)), 1)
    : null;
  const full = all.map((ramp, i) => fullSpeedAt(ramp, workers[i].opsPerSec));
  return {
    firstOps: FIRST_OPS,
    firstThroughput,
    toFullMs: median(full.map((at) => at.ms)),
    toFullOps: median(full.map((at) => at.ops)),
  };
}
