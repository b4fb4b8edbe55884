import jstat from 'jstat';

const x = (value) => value.toFixed(2);

/**
 * @typedef {{ median: number, ci95: [number, number] | null, n: number } | null} RatioLike  null: nothing measured
 * @typedef {{ verdict: 'holds'|'does not hold'|'inconclusive', text: string }} Verdict
 */

/**
 * About how many rounds would put the interval on one side of `threshold`, if the spread of the
 * per-round log ratios stayed as measured: the smallest n whose t interval half-width
 * t(n-1) * sd / sqrt(n) is under the median's distance from the threshold.
 */
export function roundsToDecide({ median, ci95, n }, threshold, limit = 1000) {
  const distance = Math.abs(Math.log(median) - Math.log(threshold));
  if (distance === 0) return null;
  const half = (Math.log(ci95[1]) - Math.log(ci95[0])) / 2;
  const sd = (half * Math.sqrt(n)) / jstat.studentt.inv(0.975, n - 1);
  for (let rounds = n + 1; rounds <= limit; rounds++) {
    if ((jstat.studentt.inv(0.975, rounds - 1) * sd) / Math.sqrt(rounds) < distance) return rounds;
  }
  return null;
}

function undecided(stats, threshold, what) {
  if (!stats) return { verdict: 'inconclusive', text: `${what}: no round measured both sides yet` };
  if (!stats.ci95) return { verdict: 'inconclusive', text: `${what}: one round gives no interval; run 3 or more rounds` };
  const more = roundsToDecide(stats, threshold);
  const hint = more === null ? 'the median sits on or next to the threshold; more rounds would hardly decide it' : `about ${more} rounds in all (or steadier cells) would decide it`;
  return { verdict: 'inconclusive', text: `${what}: 95% CI ${x(stats.ci95[0])}-${x(stats.ci95[1])} straddles ${x(threshold)}; ${hint}` };
}

/**
 * A claim that a ratio is below (or above) a threshold, e.g. "procs are faster": workers/procs
 * below 1. Decided only by the interval: wholly on the claimed side holds, wholly on the other
 * does not hold, across it is inconclusive.
 * @param {RatioLike} stats @param {number} threshold @param {string} what
 * @returns {Verdict}
 */
function side(stats, threshold, what, claimed) {
  if (!stats?.ci95) return undecided(stats, threshold, what);
  const [low, high] = stats.ci95;
  const under = high < threshold;
  if (!under && !(low > threshold)) return undecided(stats, threshold, what);
  const holds = claimed === 'below' ? under : !under;
  return { verdict: holds ? 'holds' : 'does not hold', text: `${what}: ${describe(stats)} ${under ? '<' : '>'} ${x(threshold)}` };
}

export const below = (stats, threshold, what) => side(stats, threshold, what, 'below');
export const above = (stats, threshold, what) => side(stats, threshold, what, 'above');

/**
 * A claim that a ratio stays within [low, high] ("within noise"): the whole interval inside
 * holds, the whole interval outside does not hold.
 * @returns {Verdict}
 */
export function within(stats, [low, high], what) {
  if (!stats?.ci95) return undecided(stats, low, what);
  const [a, b] = stats.ci95;
  const range = `${x(low)}-${x(high)}`;
  if (a >= low && b <= high) return { verdict: 'holds', text: `${what}: ${describe(stats)} lies within ${range}` };
  if (b < low || a > high) return { verdict: 'does not hold', text: `${what}: ${describe(stats)} lies outside ${range}` };
  const edge = Math.abs(Math.log(stats.median / low)) < Math.abs(Math.log(stats.median / high)) ? low : high;
  const more = roundsToDecide(stats, edge);
  const hint = more === null ? 'the median sits on or next to the edge; more rounds would hardly decide it' : `about ${more} rounds in all (or steadier cells) would decide it`;
  return { verdict: 'inconclusive', text: `${what}: ${describe(stats)} overlaps the edge of ${range}; ${hint}` };
}

/** Several verdicts about one claim: all hold -> holds; any does not hold -> does not hold. */
export function all(verdicts) {
  if (verdicts.some((v) => v.verdict === 'does not hold')) return { verdict: 'does not hold', text: verdicts.map((v) => v.text).join('; ') };
  if (verdicts.every((v) => v.verdict === 'holds')) return { verdict: 'holds', text: verdicts.map((v) => v.text).join('; ') };
  return { verdict: 'inconclusive', text: verdicts.map((v) => v.text).join('; ') };
}

const describe = (stats) => (stats.ci95 ? `${x(stats.median)} (95% CI ${x(stats.ci95[0])}-${x(stats.ci95[1])})` : x(stats.median));
