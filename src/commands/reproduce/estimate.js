// How long a reproduce run takes, before it runs: for --list and the progress bar only.
import { roundBounds } from './bounds.js';
import { estimateRun } from '../../run/estimate.js';
import { cellsPerRound } from './runner.js';

export const approxTime = (/** @type {number} */ seconds) =>
  seconds < 90 ? `~${Math.max(1, Math.round(seconds))} s` : `~${Math.round(seconds / 60)} min`;

/**
 * @param {import('./experiments.js').Variant[]} variants
 * @param {import('./types.js').ReproduceOptions} options
 * @param {boolean} quick
 */
export function estimate(variants, options, quick) {
  const [min] = roundBounds({ ...options, quick });
  return estimateRun(
    variants.map((variant) => {
      const cells = cellsPerRound([variant]);
      return {
        window: quick ? 0 : options.duration,
        k: options.k,
        cells,
        traced: variant.trace ? cells : 0,
        calibrates: !quick,
      };
    }),
    { rounds: min },
  ).seconds;
}
