const x = (value) => value.toFixed(2);

/**
 * @typedef {{ median: number, ci95: [number, number] | null, n: number }} RatioLike
 * @typedef {{ verdict: 'holds'|'does not hold'|'inconclusive', text: string }} Verdict
 */

/**
 * About how many rounds would put the interval on one side of `threshold`: the half-width of a
 * t interval shrinks with 1/sqrt(n), measured on the log scale the interval is built on.
 */
export function roundsToDecide({ median, ci95, n }, threshold) {
  const half = (Math.log(ci95[1]) - Math.log(ci95[0])) / 2;
  const distance = Math.abs(Math.log(median) - Math.log(threshold));
  if (distance === 0) return null;
  return Math.ceil(n * (half / distance) ** 2);
}

function undecided(stats, threshold, what) {
  if (!stats.ci95) return { verdict: 'inconclusive', text: `${what}: one round gives no interval; run 3 or more rounds` };
  const more = roundsToDecide(stats, threshold);
  const hint = more === null ? 'the median sits on the threshold; only a different setup would decide it' : `about ${more} rounds (or longer cells) would tighten it enough`;
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
  if (!stats.ci95) return undecided(stats, threshold, what);
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
  if (!stats.ci95) return undecided(stats, low, what);
  const [a, b] = stats.ci95;
  const range = `${x(low)}-${x(high)}`;
  if (a >= low && b <= high) return { verdict: 'holds', text: `${what}: ${describe(stats)} lies within ${range}` };
  if (b < low || a > high) return { verdict: 'does not hold', text: `${what}: ${describe(stats)} lies outside ${range}` };
  return { verdict: 'inconclusive', text: `${what}: ${describe(stats)} overlaps the edge of ${range}; more rounds would tighten it` };
}

/** Several verdicts about one claim: all hold -> holds; any does not hold -> does not hold. */
export function all(verdicts) {
  if (verdicts.some((v) => v.verdict === 'does not hold')) return { verdict: 'does not hold', text: verdicts.map((v) => v.text).join('; ') };
  if (verdicts.every((v) => v.verdict === 'holds')) return { verdict: 'holds', text: verdicts.map((v) => v.text).join('; ') };
  return { verdict: 'inconclusive', text: verdicts.map((v) => v.text).join('; ') };
}

const describe = (stats) => (stats.ci95 ? `${x(stats.median)} (95% CI ${x(stats.ci95[0])}-${x(stats.ci95[1])})` : x(stats.median));
