import jstat from 'jstat';
import { max, mean, median, min, sampleStandardDeviation, sampleVariance } from 'simple-statistics';

/**
 * @typedef {{ median: number, mean: number, min: number, max: number, samples: number[],
 *   pooled?: number, pooledCi95?: [number, number] | null }} Summary  the median and range of
 *   per-cell values; a pooled measure's (pooled.js) adds the percentile of all its cells' timings
 *   pooled, the figure its views show (centreOf in points/points.js)
 */

/** @returns {Summary} */
export const summarize = (/** @type {number[]} */ samples) => ({
  median: median(samples),
  mean: mean(samples),
  min: min(samples),
  max: max(samples),
  samples,
});

/**
 * One round's workers/procs ratio (arm A over arm B in an A/A run): the unit the interval is
 * taken over, so drift between rounds cancels.
 * @param {{ cells: Partial<Record<'workers'|'procs', { throughput: number }>> }} round  a complete one
 */
export function roundRatio({ cells: { workers, procs } }) {
  if (!workers || !procs) throw new Error('roundRatio: the round lacks a cell; pass complete rounds only');
  return workers.throughput / procs.throughput;
}

/**
 * @typedef {object} RatioStats
 * @property {number} median   median of the per-round workers/procs ratios
 * @property {number} geomean
 * @property {[number, number] | null} ci95  null with fewer than 2 rounds
 * @property {number} n
 * @property {string} method
 * @property {number[]} samples
 * @property {true} [difference]  per-round workers − procs, not a ratio: its interval is judged
 *   against 0, and `geomean` is the mean difference (differenceStats)
 * @property {true} [pooled]  the ratio of each mode's percentile over every round's cells pooled,
 *   its interval a bootstrap over the rounds (pooled.js); `samples` are still per round
 */

/**
 * 95% confidence interval of the workers/procs ratio from per-round ratios: a Student t
 * interval on log ratios (a ratio is multiplicative, so 0.5 and 2 sit equally far from 1),
 * which stays honest with the 3-10 rounds a person will wait for.
 * @param {number[]} ratios
 * @returns {RatioStats}
 */
export function ratioStats(ratios) {
  const { mean: centre, ci95: logs, n } = meanInterval(ratios.map(Math.log));
  return {
    median: median(ratios),
    geomean: Math.exp(centre),
    ci95: logs && [Math.exp(logs[0]), Math.exp(logs[1])],
    n,
    method: 'Student t interval on log ratios',
    samples: ratios,
  };
}

/**
 * 95% confidence interval of the per-round difference workers − procs, for a figure a mode may
 * have none of (what the app keeps after its workers end: 0 with children), where a ratio means
 * nothing: a Student t interval on the differences, in the shape a ratio's stats have.
 * @param {number[]} differences
 * @returns {RatioStats}
 */
export function differenceStats(differences) {
  const { mean: centre, ci95, n } = meanInterval(differences);
  return {
    median: median(differences),
    geomean: centre,
    ci95,
    n,
    method: 'Student t interval on differences',
    samples: differences,
    difference: true,
  };
}

/**
 * The mean of some values with its 95% Student t interval; null interval with fewer than 2: the
 * one t interval every contrast and row rests on (ratios on their logs), and the verdict's at the
 * budget (stats/sequential.js, at its own confidence).
 * @param {number[]} values
 * @param {number} [confidence]
 * @returns {{ mean: number, ci95: [number, number] | null, n: number }}
 */
export function meanInterval(values, confidence = 0.95) {
  const n = values.length;
  const centre = mean(values);
  if (n < 2) return { mean: centre, ci95: null, n };
  const half = (jstat.studentt.inv(1 - (1 - confidence) / 2, n - 1) * sampleStandardDeviation(values)) / Math.sqrt(n);
  return { mean: centre, ci95: [centre - half, centre + half], n };
}

/** What a contrast equal in both modes reads: 1 for a ratio, 0 for a difference. */
export const neutralOf = (/** @type {RatioStats} */ stats) => (stats.difference ? 0 : 1);

/**
 * Welch's t test of mean(b) − mean(a), which allows the two runs their own spread and number of
 * rounds: the difference, the half-width of its 95% interval, the Welch–Satterthwaite degrees
 * of freedom and the two-sided p of no difference; no interval with fewer than 2 values a side.
 * @param {number[]} a
 * @param {number[]} b
 */
function welch(a, b) {
  const difference = mean(b) - mean(a);
  if (a.length < 2 || b.length < 2) return { difference, half: null, df: null, p: null };
  const va = sampleVariance(a) / a.length;
  const vb = sampleVariance(b) / b.length;
  const se = Math.sqrt(va + vb);
  if (se === 0) return { difference, half: 0, df: Infinity, p: difference === 0 ? 1 : 0 };
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  // two-sided, of no change: what a correction for many comparisons (holm) reads
  const p = 2 * (1 - jstat.studentt.cdf(Math.abs(difference) / se, df));
  return { difference, half: jstat.studentt.inv(0.975, df) * se, df, p };
}

/**
 * How much a quantity changed between two runs, from its per-round values in each: the ratio
 * of their geometric means (new / base) with a 95% Welch t interval on the logs.
 * @param {number[]} base  per-round values of the first run (ratios or throughputs, all > 0)
 * @param {number[]} next  per-round values of the second run
 * @returns {{ change: number, ci95: [number, number] | null, df: number | null, method: string, p: number | null }}
 *   p: two-sided, of no change
 */
export function changeBetween(base, next) {
  const { difference, half, df, p } = welch(base.map(Math.log), next.map(Math.log));
  const change = Math.exp(difference);
  /** @type {[number, number] | null} */
  const ci95 = half === null ? null : [change * Math.exp(-half), change * Math.exp(half)];
  return { change, ci95, df, method: 'Welch t interval on log values, new / base', p };
}

/**
 * How much a quantity changed between two runs where it may be 0 or below (what an app keeps
 * after its workers end: about 0 with children): the difference of the means, new − base, with a
 * 95% Welch t interval, in the shape changeBetween gives a ratio.
 * @param {number[]} base
 * @param {number[]} next
 * @returns {{ change: number, ci95: [number, number] | null, df: number | null, method: string, p: number | null, difference: true }}
 */
export function differenceBetween(base, next) {
  const { difference: change, half, df, p } = welch(base, next);
  /** @type {[number, number] | null} */
  const ci95 = half === null ? null : [change - half, change + half];
  return { change, ci95, df, method: 'Welch t interval on values, new − base', p, difference: true };
}

/**
 * Holm's step-down correction: which of m tests reject at family-wise level `alpha`, so that
 * among ten comparisons with no real difference, all ten stay undecided 95% of the time rather
 * than each alone.
 * @param {Array<number | null>} pValues  null: no test (counts in no m)
 * @param {number} [alpha]
 * @returns {boolean[]}  rejected, in the order given
 */
export function holm(pValues, alpha = 0.05) {
  const tested = pValues.flatMap((p, i) => (p === null ? [] : [{ p, i }])).sort((x, y) => x.p - y.p);
  const rejected = pValues.map(() => false);
  for (const [k, { p, i }] of tested.entries()) {
    if (p > alpha / (tested.length - k)) break;
    rejected[i] = true;
  }
  return rejected;
}

/**
 * Where a confidence interval lies against a threshold: the one decision behind every verdict
 * (is workers/procs below 1? does a claim's ratio clear 0.71?). Data only; report/ words it.
 * @param {[number, number] | null} ci
 * @param {number} threshold
 * @returns {'below'|'above'|'spans'|null}  null: no interval yet
 */
export const sideOf = (ci, threshold) =>
  !ci ? null : ci[1] < threshold ? 'below' : ci[0] > threshold ? 'above' : 'spans';

/**
 * Where a confidence interval lies against a band [low, high] ("within ±10%").
 * @param {[number, number] | null} ci
 * @param {[number, number]} band
 * @returns {'inside'|'outside'|'overlaps'|null}
 */
export function bandOf(ci, [low, high]) {
  if (!ci) return null;
  if (ci[0] >= low && ci[1] <= high) return 'inside';
  if (sideOf(ci, low) === 'below' || sideOf(ci, high) === 'above') return 'outside';
  return 'overlaps';
}
