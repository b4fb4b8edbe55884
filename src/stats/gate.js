// A CI gate: a threshold and an interval give one of three outcomes. Never the point estimate:
// on a shared runner a gate that fails on noise is switched off within a week.

/**
 * @typedef {'pass'|'fail'|'inconclusive'} Outcome
 *
 * @typedef {object} Judgement
 * @property {Outcome} outcome  pass: the whole interval is at or above the threshold; fail: the
 *   whole interval is below it; inconclusive: it straddles the threshold, or there is none
 * @property {number} threshold
 * @property {number | null} estimate  the geometric mean the interval is around
 * @property {[number, number] | null} ci95
 * @property {number | null} moreSeconds  inconclusive, from a run that can go on: about how much
 *   longer would decide it (the interval narrows as 1/sqrt(rounds)); null when not known (fewer
 *   than 2 rounds, a diff of saved runs) or never (onThreshold)
 * @property {boolean} onThreshold  the estimate is the threshold: no run length decides it
 */

/**
 * Judges an interval against a threshold it must stay at or above. A bound exactly on the
 * threshold: a low bound there passes (at or above); a high bound there is not below it.
 * @param {{ estimate: number | null, ci95: [number, number] | null, threshold: number,
 *   rounds?: number, seconds?: number }} measured  rounds and seconds: what the interval cost,
 *   for the estimate of how much more would decide it
 * @returns {Judgement}
 */
export function judge({ estimate, ci95, threshold, rounds, seconds }) {
  const base = { threshold, estimate, ci95, moreSeconds: null, onThreshold: false };
  if (!ci95 || estimate === null) return { ...base, outcome: 'inconclusive' };
  if (ci95[0] >= threshold) return { ...base, outcome: 'pass' };
  if (ci95[1] < threshold) return { ...base, outcome: 'fail' };
  if (estimate === threshold) return { ...base, outcome: 'inconclusive', onThreshold: true };
  return {
    ...base,
    outcome: 'inconclusive',
    moreSeconds: moreSecondsToDecide(estimate, ci95, threshold, rounds, seconds),
  };
}

/**
 * Rounds needed for the interval's half-width (in logs) to shrink to the estimate's distance
 * from the threshold, at the cost per round so far. A rough guide: the t quantile also shrinks
 * with more rounds, and the estimate moves.
 * @param {number} estimate
 * @param {[number, number]} ci95
 * @param {number} threshold
 * @param {number} [rounds]
 * @param {number} [seconds]
 */
function moreSecondsToDecide(estimate, [low, high], threshold, rounds, seconds) {
  if (!rounds || !seconds) return null;
  const distance = Math.abs(Math.log(estimate) - Math.log(threshold));
  const half = (Math.log(high) - Math.log(low)) / 2;
  const needed = rounds * (half / distance) ** 2;
  return Math.max(1, Math.ceil(needed - rounds)) * (seconds / rounds);
}

/**
 * The outcome that decides a gate over several points: any fail, else any inconclusive.
 * @param {Outcome[]} outcomes
 * @returns {Outcome}
 */
export const worstOutcome = (outcomes) =>
  outcomes.includes('fail') ? 'fail' : outcomes.includes('inconclusive') ? 'inconclusive' : 'pass';
