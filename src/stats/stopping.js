import jstat from 'jstat';
import { INTERVAL_ROUNDS, MARGIN, sequenceDecides } from './sequential.js';

/**
 * When a run of rounds stops: by default as soon as its verdict is decided, by an interval valid
 * at every look (stats/sequential.js); with --precision once its interval is that narrow (on
 * width, never on significance: stopping as soon as an ordinary interval first excludes 1 would
 * make "significant" come out far more often than 5% of the time when there is no difference);
 * with --rounds after that many; else when the budget is spent.
 * @typedef {object} StopRule
 * @property {number | null} rounds     a fixed count (--rounds), or null to stop on width
 * @property {number} minRounds         rounds before the width may stop it
 * @property {number} precision         the target: relative half-width of the 95% CI (0.05 = ±5%)
 * @property {number} maxSeconds        wall-time budget, calibration included
 * @property {boolean} [sequential]     stop as soon as the verdict is decided (stats/sequential.js)
 *   instead of on width: the default, unless --precision or --rounds was given
 * @property {number} [margin]          "equal" is within ± this
 */

/**
 * The relative half-width of a ratio's 95% interval: the interval is geomean·e^(±h) on the
 * log scale, so ±(e^h − 1) of the ratio; null without an interval.
 * @param {[number, number] | null} ci95
 */
export const halfWidth = (ci95) => (ci95 ? Math.sqrt(ci95[1] / ci95[0]) - 1 : null);

/**
 * Whether to stop after `n` rounds, and why.
 * @param {StopRule} rule
 * @param {{ n: number, ci95: [number, number] | null, elapsedSeconds: number, roundSeconds: number }} state
 *   roundSeconds: what the last rounds took, so the budget is not overrun by one more
 * @param {number[]} [ratios]  the rounds' ratios, for a sequential rule
 * @returns {'rounds'|'precision'|'decided'|'max-time'|null}
 */
export function stopReason(rule, { n, ci95, elapsedSeconds, roundSeconds }, ratios = []) {
  if (rule.rounds !== null) return n >= rule.rounds ? 'rounds' : null;
  const width = halfWidth(ci95);
  if (rule.sequential) {
    if (sequenceDecides(ratios, rule.margin ?? MARGIN)) return 'decided';
  } else if (n >= rule.minRounds && width !== null && width <= rule.precision) return 'precision';
  if (elapsedSeconds + roundSeconds > rule.maxSeconds) return 'max-time';
  return null;
}

/**
 * The fewest rounds, from `from` on, whose t(n-1) * sd / sqrt(n) is under `target` at a per-round
 * variance of the log ratio; null past `limit`. The half-width falls as n grows, so by halving.
 * @param {number} variance
 * @param {number} target  a half-width of log ratios
 */
export function roundsAtVariance(variance, target, { from = 2, limit = 100_000 } = {}) {
  const within = (/** @type {number} */ n) => jstat.studentt.inv(0.975, n - 1) * Math.sqrt(variance / n) < target;
  let [low, high] = [Math.max(2, from), limit];
  if (low > high || !within(high)) return null;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (within(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * About how many rounds in all would shrink the interval's half-width on the log scale below
 * `target`, if the spread of the per-round log ratios stayed as measured: the smallest count,
 * from `from` on, whose t(n-1) * sd / sqrt(n) is under it. Null without an interval, or past
 * `limit`.
 * @param {{ ci95: [number, number] | null, n: number }} stats
 * @param {number} target  a half-width of log ratios
 */
export function roundsUntilHalfWidth({ ci95, n }, target, { from = n, limit = 100_000 } = {}) {
  if (!ci95 || n < 2) return null;
  const sd = ((Math.log(ci95[1] / ci95[0]) / 2) * Math.sqrt(n)) / jstat.studentt.inv(0.975, n - 1);
  return roundsAtVariance(sd ** 2, target, { from, limit });
}

/**
 * About how many rounds in all would bring the relative half-width to `precision`.
 * @param {{ ci95: [number, number] | null, n: number }} stats
 * @param {number} precision
 */
export const roundsForPrecision = (stats, precision) => roundsUntilHalfWidth(stats, Math.log(1 + precision));

export { INTERVAL_ROUNDS };

/**
 * Seconds one saved round took: each of its cells from spawn to exit, with the CLI's own work
 * before it; null when its cells did not record their phases.
 * @param {{ workers?: any, procs?: any, traced?: Record<string, any> }} round
 */
export function roundSeconds(round) {
  const cells = [round.workers, round.procs, ...Object.values(round.traced ?? {})].filter(Boolean);
  if (!cells.length || cells.some((cell) => !cell.phases)) return null;
  return cells.reduce((sum, cell) => sum + cell.phases.totalNs + (cell.phases.betweenNs ?? 0), 0) / 1e9;
}

/** Up to a budget a person would type: whole seconds below 10, fives below 60, then tens. */
const budgetAbove = (/** @type {number} */ seconds) => {
  const step = seconds < 10 ? 1 : seconds < 60 ? 5 : 10;
  return Math.ceil(seconds / step) * step;
};

/**
 * A budget that ran out before the rounds could give an interval: how many rounds counted, what
 * the last round took, and a --max-time that would leave room for INTERVAL_ROUNDS counted rounds
 * at that cost. Null when the run did not stop on its budget, or reached an interval.
 * @param {{ stop: string | null, maxTime: number | null, seconds: number, counted: number,
 *   rounds: Array<{ workers?: any, procs?: any, traced?: Record<string, any>, pilot?: true }> }} run
 * @returns {{ maxTime: number, counted: number, roundSeconds: number | null, pilot: boolean, suggestMaxTime: number, points?: number } | null}
 *   roundSeconds: null when the budget was spent before any round ran (calibrating)
 */
export function budgetShortfall({ stop, maxTime, seconds, counted, rounds }) {
  const last = rounds.at(-1);
  return stop === 'max-time'
    ? shortfall({
        maxTime,
        seconds,
        counted,
        took: last ? roundSeconds(last) : null,
        pilot: rounds.some((round) => round.pilot),
        // none ran: a round costs at least what calibrating took
        ...(last ? {} : { guess: seconds }),
      })
    : null;
}

/**
 * The same for a sweep, whose budget is shared: the point with the fewest counted rounds
 * decides, and a round of the sweep costs a round of each point. Points that failed or could
 * not run are left out: no budget would give them rounds.
 * @param {Array<{ stop: string | null, status: string, ratio?: { n: number } | null,
 *   rounds: Array<{ workers?: any, procs?: any, traced?: Record<string, any>, pilot?: true }> }>} points
 * @param {{ maxTime: number | null, seconds: number }} run
 */
export function sweepShortfall(points, { maxTime, seconds }) {
  const measured = points.filter((point) => point.status !== 'failed' && point.status !== 'unavailable');
  if (!measured.some((point) => point.stop === 'max-time')) return null;
  const costs = measured.map((point) => {
    const last = point.rounds.at(-1);
    return last ? roundSeconds(last) : null;
  });
  // a point the budget stopped before its first round costs about what the others' did
  const known = costs.filter((cost) => cost !== null);
  return shortfall({
    maxTime,
    seconds,
    counted: Math.min(...measured.map(countedOf)),
    took: known.length ? (known.reduce((sum, cost) => sum + cost, 0) / known.length) * costs.length : null,
    // what a round of the sweep costs is a round of each point: an estimate, from those that ran
    points: costs.length,
    // none ran one: each point's round costs at least what calibrating one took (all so far)
    ...(measured.every((point) => !point.rounds.length) ? { guess: seconds * costs.length } : {}),
    pilot: measured.some((point) => point.rounds.some((round) => round.pilot)),
  });
}

/**
 * The rounds a point's figures are taken from: its ratio's, or for a point run in one mode alone
 * (an advise candidate for threads or processes only), its rounds with that mode's cell.
 * @param {{ ratio?: { n: number } | null, rounds: Array<{ pilot?: boolean, workers?: unknown, procs?: unknown }> }} point
 */
function countedOf(point) {
  if (point.ratio) return point.ratio.n;
  const modes = /** @type {const} */ (['workers', 'procs']).filter((mode) => point.rounds.some((round) => round[mode]));
  if (modes.length !== 1) return 0;
  return point.rounds.filter((round) => !round.pilot && round[modes[0]]).length;
}

/**
 * @param {{ maxTime: number | null, seconds: number, counted: number, took: number | null, pilot: boolean,
 *   guess?: number, points?: number }} run  guess: what a round would cost, where none ran (took null; without
 *   it, rounds that kept no phases to time them by, there is nothing to say); points: a sweep's,
 *   whose round is one of each point (took is then its estimate)
 */
function shortfall({ maxTime, seconds, counted, took, pilot, guess, points }) {
  if (maxTime === null || counted >= INTERVAL_ROUNDS) return null;
  // spent before a round ran: a round costs at least `guess`, what calibrating took
  if (took === null)
    return counted === 0 && guess !== undefined
      ? {
          maxTime,
          counted,
          roundSeconds: null,
          pilot,
          suggestMaxTime: budgetAbove(seconds + (INTERVAL_ROUNDS + 1) * guess),
        }
      : null;
  return {
    maxTime,
    counted,
    roundSeconds: took,
    pilot,
    ...(points && points > 1 ? { points } : {}),
    suggestMaxTime: budgetAbove(seconds + (INTERVAL_ROUNDS - counted) * took),
  };
}
