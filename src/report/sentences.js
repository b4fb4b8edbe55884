// Every sentence a result is read by, from the data stats/ returns: one CI format, one wording.
import { sideOf } from '../stats/interval.js';

const x = (value) => value.toFixed(2);

/**
 * `95% CI 0.81-0.92`: the one way an interval is printed; `label: false` where a column head
 * already says it.
 */
export const formatCI = ([low, high], { label = true } = {}) => `${label ? '95% CI ' : ''}${x(low)}-${x(high)}`;

/** `0.83 (95% CI 0.81-0.92)`, or the median alone while there is no interval; `unit` follows the figures. */
export const withCI = ({ median, ci95 }, unit = '', options = {}) =>
  ci95 ? `${x(median)}${unit} (${formatCI(ci95, options)})` : `${x(median)}${unit}`;

/**
 * One sentence a person can act on, from the ratio and its verdict.
 * @param {import('../stats/ratio.js').RatioStats} ratio
 * @param {import('../stats/ratio.js').Verdict} verdict
 */
export function verdictText(ratio, verdict) {
  const { median, ci95, n } = ratio;
  if (!ci95)
    return `workers/procs ratio ${x(median)} from ${n} round; run --rounds 3 or more for a confidence interval`;
  if (verdict.faster === 'procs')
    return `procs are ${x(1 / median)}x faster than workers (${formatCI([1 / ci95[1], 1 / ci95[0]])})`;
  if (verdict.faster === 'workers') return `workers are ${x(median)}x faster than procs (${formatCI(ci95)})`;
  return `no significant difference: workers/procs ratio ${x(median)} (${formatCI(ci95)} spans 1); more --rounds or a longer --duration would tighten it`;
}

/** One sentence on the per-acquisition wait, the figure that tells contention from volume. */
export function traceReading({ avgWrite, totalWrite }) {
  if (!avgWrite) return 'no write acquisitions in one of the modes: nothing to compare';
  const total = totalWrite ? `; in total ${x(totalWrite.median)}x` : '';
  const side = sideOf(avgWrite.ci95, 1);
  if (side === null)
    return `workers waited ${x(avgWrite.median)}x as long as procs per write acquisition${total} (one round: run --rounds 3 or more for an interval)`;
  if (side === 'above')
    return `workers waited ${x(avgWrite.median)}x longer than procs per write acquisition (${formatCI(avgWrite.ci95)})${total}: they queue on one shared mmap_lock`;
  if (side === 'below')
    return `workers waited less than procs per write acquisition (${x(avgWrite.median)}x, ${formatCI(avgWrite.ci95)})${total}: no sign of a contended mmap_lock`;
  return `no significant difference in wait per write acquisition: ${x(avgWrite.median)}x (${formatCI(avgWrite.ci95)} spans 1)${total}; more --rounds would tighten it`;
}
