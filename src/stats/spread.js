// Why the rounds disagree: over one mode's cells, how much of the variance of their log
// throughput goes with each per-op figure of the account, as the R² of a least-squares line,
// and which way (more of it in the faster cells, or in the slower); and whether the cells fall
// into two groups apart, each with its throughput and its figures.
import { linearRegression, linearRegressionLine, median, rSquared, sampleStandardDeviation } from 'simple-statistics';
import { GROUPED, twoGroups } from './groups.js';

// fewer cells than this say nothing about what goes with what
const MIN_CELLS = 5;

/** The account's per-op figures a cell's speed may go with, and how they are said. */
const SPREAD_FIGURES = /** @type {const} */ ([
  ['minflt', 'page faults'],
  ['systemNs', 'system time'],
  ['runqNs', 'waiting for a CPU'],
  ['blockedNs', 'blocked time'],
  ['gcNs', 'GC'],
]);

/**
 * @typedef {{ key: string, words: string, share: number, direction: 'slower'|'faster' }} FigureShare
 *   share: R² of log throughput on the figure per op, over the cells; direction: where more of
 *   the figure goes, in the slower cells or the faster
 * @typedef {{ cells: number, throughput: number, figures: Record<string, number> }} CellGroup
 *   throughput: the median ops/s of its cells; figures: the median per op of each figure
 * @typedef {{ by: string, groups: [CellGroup, CellGroup] }} CellGroups  by: `throughput`, or the
 *   key of the figure whose values fell apart; the faster group first
 * @typedef {{ cells: number, spread: number, figures: FigureShare[], groups: CellGroups | null }} SpreadAttribution
 *   spread: the standard deviation of the cells' log throughput; groups: the two groups the
 *   cells fall into, or null when they do not fall apart
 */

/**
 * A cell's figure per op, or null where it was not counted.
 * @param {NonNullable<import('./cell-summary.js').CellResult['account']>} account
 * @param {string} key
 */
export function perOp(account, key) {
  if (key === 'blockedNs') {
    const { cpuNs, runqNs } = account;
    return cpuNs === null || runqNs === null ? null : (account.wallNs - cpuNs - runqNs) / account.ops;
  }
  const value = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (account))[key];
  return typeof value === 'number' ? value / account.ops : null;
}

/**
 * @param {import('./cell-summary.js').CellResult[]} cells  one mode's, of the rounds that count
 * @returns {SpreadAttribution | null}  null with fewer than MIN_CELLS cells with an account
 */
export function spreadAttribution(cells) {
  const counted = cells.flatMap((cell) => (cell.account && cell.account.ops > 0 ? [cell] : []));
  if (counted.length < MIN_CELLS) return null;
  const logs = counted.map((cell) => Math.log(cell.throughput));
  const figures = SPREAD_FIGURES.flatMap(([key, words]) => {
    const xs = counted.map((cell) => perOp(/** @type {NonNullable<typeof cell.account>} */ (cell.account), key));
    if (xs.some((x) => x === null)) return [];
    const pairs = xs.map((x, i) => [/** @type {number} */ (x), logs[i]]);
    if (new Set(xs).size < 2) return [];
    const fit = linearRegression(pairs);
    const share = Math.max(0, rSquared(pairs, linearRegressionLine(fit)));
    return [{ key, words, share, direction: /** @type {'slower'|'faster'} */ (fit.m < 0 ? 'slower' : 'faster') }];
  }).sort((a, b) => b.share - a.share);
  return {
    cells: counted.length,
    spread: sampleStandardDeviation(logs),
    figures,
    groups: groupsOf(counted, logs, figures[0]?.key ?? null),
  };
}

/**
 * The two groups the cells fall into: by their log throughput, else by the log of the figure
 * their throughput goes with most; null when neither falls apart (stats/groups.js).
 * @param {import('./cell-summary.js').CellResult[]} cells  each with an account
 * @param {number[]} logs  their log throughputs
 * @param {string | null} top  the key of the figure that goes with most of the spread
 * @returns {CellGroups | null}
 */
function groupsOf(cells, logs, top) {
  if (cells.length < GROUPED.trees) return null;
  const least = GROUPED.least(cells.length);
  const byFigure = () => {
    if (!top) return null;
    // a figure of 0 has a log too: page faults by a hundredth, time by a nanosecond
    const floor = top === 'minflt' ? 0.01 : 1;
    const xs = cells.map((cell) => perOp(/** @type {NonNullable<typeof cell.account>} */ (cell.account), top));
    return xs.every((x) => x !== null)
      ? twoGroups(
          xs.map((x) => Math.log(Number(x) + floor)),
          least,
        )
      : null;
  };
  const byThroughput = twoGroups(logs, least);
  const found = byThroughput ?? byFigure();
  if (!found) return null;
  const group = (/** @type {number} */ which) => {
    const members = cells.filter((_, i) => found[i] === which);
    const figures = SPREAD_FIGURES.flatMap(([key]) => {
      const xs = members.map((cell) => perOp(/** @type {NonNullable<typeof cell.account>} */ (cell.account), key));
      return xs.every((x) => x !== null) ? [[key, median(/** @type {number[]} */ (xs))]] : [];
    });
    return {
      cells: members.length,
      throughput: median(members.map((cell) => cell.throughput)),
      figures: Object.fromEntries(figures),
    };
  };
  const [one, other] = [group(1), group(0)];
  return {
    by: byThroughput ? 'throughput' : /** @type {string} */ (top),
    groups: one.throughput >= other.throughput ? [one, other] : [other, one],
  };
}
