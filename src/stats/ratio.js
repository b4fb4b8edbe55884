import jstat from 'jstat';
import { max, mean, median, min, sampleStandardDeviation } from 'simple-statistics';

/** @typedef {{ median: number, mean: number, min: number, max: number, samples: number[] }} Summary */

/** @returns {Summary} */
export const summarize = (samples) => ({
  median: median(samples),
  mean: mean(samples),
  min: min(samples),
  max: max(samples),
  samples,
});

/**
 * @typedef {object} RatioStats
 * @property {number} median   median of the per-round workers/procs ratios
 * @property {number} geomean
 * @property {[number, number] | null} ci95  null with fewer than 2 rounds
 * @property {number} n
 * @property {string} method
 * @property {number[]} samples
 */

/**
 * 95% confidence interval of the workers/procs ratio from per-round ratios: a Student t
 * interval on log ratios (a ratio is multiplicative, so 0.5 and 2 sit equally far from 1),
 * which stays honest with the 3-10 rounds a person will wait for.
 * @returns {RatioStats}
 */
export function ratioStats(ratios) {
  const n = ratios.length;
  const logs = ratios.map(Math.log);
  const centre = mean(logs);
  let ci95 = null;
  if (n >= 2) {
    const half = (jstat.studentt.inv(0.975, n - 1) * sampleStandardDeviation(logs)) / Math.sqrt(n);
    ci95 = [Math.exp(centre - half), Math.exp(centre + half)];
  }
  return { median: median(ratios), geomean: Math.exp(centre), ci95, n, method: 'Student t interval on log ratios', samples: ratios };
}

const x = (value) => value.toFixed(2);

/**
 * One sentence a person can act on. Significant only when the whole interval is on one side of 1.
 * @returns {{ significant: boolean, faster: 'workers'|'procs'|null, text: string }}
 */
export function verdict({ median: ratio, ci95, n }) {
  if (!ci95) {
    return { significant: false, faster: null, text: `workers/procs ratio ${x(ratio)} from ${n} round; run --rounds 3 or more for a confidence interval` };
  }
  const [low, high] = ci95;
  if (high < 1) {
    return { significant: true, faster: 'procs', text: `procs are ${x(1 / ratio)}x faster than workers (95% CI ${x(1 / high)}-${x(1 / low)})` };
  }
  if (low > 1) {
    return { significant: true, faster: 'workers', text: `workers are ${x(ratio)}x faster than procs (95% CI ${x(low)}-${x(high)})` };
  }
  return {
    significant: false,
    faster: null,
    text: `no significant difference: workers/procs ratio ${x(ratio)} (95% CI ${x(low)}-${x(high)} spans 1); more --rounds or a longer --duration would tighten it`,
  };
}
