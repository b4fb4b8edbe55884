// Where a compare's noise lives (Kalibera & Jones, "Rigorous benchmarking in reasonable time",
// 2013): how much of the variance of its rounds' log ratios is between fresh trees, and how much
// between windows of one tree, read from each cell's window in halves (its account's tenths);
// what the two trees of a round share (the machine's drift, which their ratio cancels); and from
// that split and what a tree and a window cost in this run, the least time to the target of any
// window length: the floor of the decision. scripts/variance-split.js measures the same split
// from bare trees that run several windows each (docs/how-it-measures.md, "Where the spread
// lives").
import { roundsAtVariance } from './stopping.js';
import { sampleCovariance, sampleVariance } from 'simple-statistics';

/**
 * @typedef {import('./cell-summary.js').CellResult} CellResult
 * @typedef {object} NoiseSplit
 * @property {number} rounds  complete rounds read
 * @property {number} sd  the standard deviation of the rounds' log ratios
 * @property {number} trees  its share between fresh trees (0-1): what remains once the windows'
 *   share is taken out
 * @property {number} windows  its share between windows of one tree (0-1)
 * @property {number} drift  what a round's two trees shared, as a standard deviation of log
 *   throughput (their covariance over rounds; 0 where below 0), which the ratio cancels
 * @property {{ scale: number, seconds: number } | null} floor  the window length (times this
 *   run's) whose rounds reach the target soonest, and about how long they take: the floor; null
 *   where none would within 100,000 rounds
 * @property {number | null} seconds  about how long this run's window length takes to the target
 */

// the window lengths the floor is sought among, as multiples of the run's own
export const SCALES = [1, 2, 3, 4, 6, 8];

// a window length is worth naming (sentences.js) or running (run/schedule.js) where it would save
// at least this share of the time: the split is read from the run's own rounds, and a smaller
// saving is within what it moves by
export const WORTH_CHANGING = 0.15;

/**
 * A window's log rate in halves, from its account's tenths; null without them.
 * @param {CellResult} cell
 */
export function halves(cell) {
  const slices = cell.account?.slices;
  if (!slices || slices.length < 2) return null;
  const half = Math.floor(slices.length / 2);
  const rate = (/** @type {typeof slices} */ part) =>
    Math.log(part.reduce((sum, slice) => sum + slice.ops, 0) / part.reduce((sum, slice) => sum + slice.ns, 0));
  return [rate(slices.slice(0, half)), rate(slices.slice(half))];
}

/**
 * The variance of one window's log rate within its tree: from the difference of its halves over
 * the cells (less their mean difference: a window's second half may run faster in every tree, a
 * trend, not noise), halved for a half's, halved again for the whole window's mean of two.
 * @param {Array<number[]>} pairs  each cell's halves
 */
export function withinTree(pairs) {
  const differences = pairs.map(([first, second]) => second - first);
  return sampleVariance(differences) / 4;
}

/**
 * The split of a compare's rounds, and the floor it sets; null where fewer than 5 complete rounds
 * have both cells with their tenths (a task that owns its loop keeps none), or no target is set.
 * @param {{ rounds: Array<{ complete?: boolean, pilot?: boolean, workers?: CellResult | null,
 *   procs?: CellResult | null }>, config: { precision: number | null, margin?: number }, phases?: any }} document
 * @returns {NoiseSplit | null}
 */
export function noiseSplit({ rounds, config, phases }) {
  // a run that stops once decided: the width that says "equal within its margin"
  const precision = config.precision ?? config.margin ?? null;
  const modes = phases?.modes;
  if (!precision || !modes?.workers || !modes?.procs) return null;
  const pairs = rounds.flatMap((round) => {
    const { workers, procs } = round;
    if (!round.complete || round.pilot || !workers || !procs) return [];
    const halvesOf = [halves(workers), halves(procs)];
    return halvesOf[0] && halvesOf[1]
      ? [{ w: Math.log(workers.throughput), p: Math.log(procs.throughput), halves: halvesOf }]
      : [];
  });
  if (pairs.length < 5) return null;
  const perRound = sampleVariance(pairs.map(({ w, p }) => w - p));
  const windowPart = [0, 1].reduce((sum, i) => sum + withinTree(pairs.map((pair) => pair.halves[i] ?? [])), 0);
  const windows = perRound > 0 ? Math.min(1, windowPart / perRound) : 0;
  const treePart = Math.max(0, perRound - windowPart);
  // a round's cost beyond its windows, and its windows', from its cells' phases
  const [tree, window] = ['workers', 'procs'].reduce(
    ([t, w], mode) => [
      t + (modes[mode].totalNs - modes[mode].windowNs + (modes[mode].betweenNs ?? 0)) / 1e9,
      w + modes[mode].windowNs / 1e9,
    ],
    [0, 0],
  );
  // a window `scale` times as long averages its noise within the tree over `scale` times the ops
  const timeAt = (/** @type {number} */ scale) => {
    const n = roundsAtVariance(treePart + Math.min(windowPart, perRound) / scale, Math.log(1 + precision), { from: 3 });
    return n === null ? null : n * (tree + scale * window);
  };
  /** @type {NoiseSplit['floor']} */
  let floor = null;
  for (const scale of SCALES) {
    const seconds = timeAt(scale);
    if (seconds !== null && (floor === null || seconds < floor.seconds)) floor = { scale, seconds };
  }
  return {
    rounds: pairs.length,
    sd: Math.sqrt(perRound),
    trees: 1 - windows,
    windows,
    drift: Math.sqrt(
      Math.max(
        0,
        sampleCovariance(
          pairs.map((pair) => pair.w),
          pairs.map((pair) => pair.p),
        ),
      ),
    ),
    floor,
    seconds: timeAt(1),
  };
}
