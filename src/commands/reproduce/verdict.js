import { bandOf, sideOf } from '../../stats/ratio.js';
import { formatCI, withCI } from '../../document/sentences.js';
import { halfWidth, roundsUntilHalfWidth } from '../../stats/stopping.js';
import { fixed } from '../../words/spelling.js';

/**
 * @typedef {{ median: number, ci95: [number, number] | null, n: number, confidence?: number } | null} RatioLike
 *   null: nothing measured; confidence: of an interval that is not a 95% one (data.js)
 * @typedef {{ verdict: 'holds'|'does not hold'|'inconclusive', text: string, halfWidth: number | null }} Verdict
 *   halfWidth: of the interval the verdict rests on (the widest, for several), null without one:
 *   the run adds rounds until every claim's is narrow enough, never until a claim is decided
 */

/** The relative half-width of a claim's interval, null while it has none. */
const widthOf = (/** @type {RatioLike} */ stats) => halfWidth(stats?.ci95 ?? null);

/**
 * @param {RatioLike} stats
 * @param {'holds'|'does not hold'|'inconclusive'} verdict
 * @param {string} text
 * @returns {Verdict}
 */
const judged = (stats, verdict, text) => ({ verdict, text, halfWidth: widthOf(stats) });

/**
 * About how many rounds would put the interval on one side of `threshold`, if the spread of the
 * per-round log ratios stayed as measured: the smallest n whose t interval half-width
 * t(n-1) * sd / sqrt(n) is under the median's distance from the threshold.
 * @param {NonNullable<RatioLike>} stats
 * @param {number} threshold
 */
export function roundsToDecide(stats, threshold, limit = 1000) {
  const distance = Math.abs(Math.log(stats.median) - Math.log(threshold));
  return distance === 0 ? null : roundsUntilHalfWidth(stats, distance, { from: stats.n + 1, limit });
}

/**
 * @param {RatioLike} stats
 * @param {number} threshold
 * @param {string} what
 * @returns {Verdict}
 */
function undecided(stats, threshold, what) {
  if (!stats) return judged(stats, 'inconclusive', `${what}: no round measured both sides yet`);
  const { ci95 } = stats;
  if (!ci95) return judged(stats, 'inconclusive', `${what}: one round gives no interval; run 3 or more rounds`);
  const more = roundsToDecide(stats, threshold);
  const hint =
    more === null
      ? 'the median sits on or next to the threshold; more rounds would hardly decide it'
      : `about ${more} rounds in all (or steadier cells) would decide it`;
  return judged(
    stats,
    'inconclusive',
    `${what}: ${formatCI(ci95, { confidence: stats.confidence })} straddles ${fixed(threshold)}; ${hint}`,
  );
}

/**
 * A claim that a ratio is below (or above) a threshold, e.g. "procs are faster": workers/procs
 * below 1. Decided only by the interval: wholly on the claimed side holds, wholly on the other
 * does not hold, across it is inconclusive.
 * @param {RatioLike} stats @param {number} threshold @param {string} what
 * @param {'below'|'above'} claimed
 * @returns {Verdict}
 */
function side(stats, threshold, what, claimed) {
  const found = sideOf(stats?.ci95 ?? null, threshold);
  if (!stats || found === null || found === 'spans') return undecided(stats, threshold, what);
  return judged(
    stats,
    found === claimed ? 'holds' : 'does not hold',
    `${what}: ${withCI(stats)} ${found === 'below' ? '<' : '>'} ${fixed(threshold)}`,
  );
}

/** @param {RatioLike} stats @param {number} threshold @param {string} what */
export const below = (stats, threshold, what) => side(stats, threshold, what, 'below');
/** @param {RatioLike} stats @param {number} threshold @param {string} what */
export const above = (stats, threshold, what) => side(stats, threshold, what, 'above');

/**
 * A claim that a ratio stays within [low, high] ("within noise"): the whole interval inside
 * holds, the whole interval outside does not hold.
 * @param {RatioLike} stats
 * @param {[number, number]} band
 * @param {string} what
 * @returns {Verdict}
 */
export function within(stats, [low, high], what) {
  const ci95 = stats?.ci95;
  if (!stats || !ci95) return undecided(stats, low, what);
  const range = `${fixed(low)}-${fixed(high)}`;
  const band = bandOf(ci95, [low, high]);
  if (band === 'inside') return judged(stats, 'holds', `${what}: ${withCI(stats)} lies within ${range}`);
  if (band === 'outside') return judged(stats, 'does not hold', `${what}: ${withCI(stats)} lies outside ${range}`);
  const edge = Math.abs(Math.log(stats.median / low)) < Math.abs(Math.log(stats.median / high)) ? low : high;
  const more = roundsToDecide(stats, edge);
  const hint =
    more === null
      ? 'the median sits on or next to the edge; more rounds would hardly decide it'
      : `about ${more} rounds in all (or steadier cells) would decide it`;
  return judged(stats, 'inconclusive', `${what}: ${withCI(stats)} overlaps the edge of ${range}; ${hint}`);
}

/**
 * Several verdicts about one claim: all hold -> holds; any does not hold -> does not hold.
 * @param {Verdict[]} verdicts
 * @returns {Verdict}
 */
export function all(verdicts) {
  const text = verdicts.map((v) => v.text).join('; ');
  const widths = verdicts.map((v) => v.halfWidth);
  const halfWidth = widths.every((width) => width !== null) ? Math.max(...widths) : null;
  if (verdicts.some((v) => v.verdict === 'does not hold')) return { verdict: 'does not hold', text, halfWidth };
  if (verdicts.every((v) => v.verdict === 'holds')) return { verdict: 'holds', text, halfWidth };
  return { verdict: 'inconclusive', text, halfWidth };
}
