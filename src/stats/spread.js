// Why the rounds disagree: over one mode's cells, how much of the variance of their log
// throughput goes with each per-op figure of the account, as the R² of a least-squares line,
// and which way (more of it in the faster cells, or in the slower).
import { linearRegression, linearRegressionLine, rSquared, sampleStandardDeviation } from 'simple-statistics';

// fewer cells than this say nothing about what goes with what
const MIN_CELLS = 5;

/** The account's per-op figures a cell's speed may go with, and how they are said. */
export const SPREAD_FIGURES = /** @type {const} */ ([
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
 * @typedef {{ cells: number, spread: number, figures: FigureShare[] }} SpreadAttribution
 *   spread: the standard deviation of the cells' log throughput
 */

/**
 * A cell's figure per op, or null where it was not counted.
 * @param {NonNullable<import('./cell.js').CellResult['account']>} account
 * @param {string} key
 */
function perOp(account, key) {
  if (key === 'blockedNs') {
    const { cpuNs, runqNs } = account;
    return cpuNs === null || runqNs === null ? null : (account.wallNs - cpuNs - runqNs) / account.ops;
  }
  const value = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (account))[key];
  return typeof value === 'number' ? value / account.ops : null;
}

/**
 * @param {import('./cell.js').CellResult[]} cells  one mode's, of the rounds that count
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
  return { cells: counted.length, spread: sampleStandardDeviation(logs), figures };
}
