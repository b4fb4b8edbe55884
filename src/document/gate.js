// The CI gate of compare, sweep and diff: a threshold and an interval give one of three outcomes
// (never the point estimate: on a shared runner a gate that fails on noise is switched off within
// a week), and the gate as data for the saved document: what was asked, each point's judgement,
// and what its line needs to say which option would decide it. The line a job's log ends with is
// drawn from it (cli/finish.js).
import { MODES, percentText } from '../words/spelling.js';

/**
 * @typedef {Judgement & { id: string, label: string, rounds: number | null,
 *   seconds: number | null, confidence?: number, look?: import('../stats/sequential.js').Look }} PointJudgement
 *   rounds, seconds: what the interval cost (null in a diff); confidence, look: of the interval (a
 *   compare's or sweep's verdict's: `sequence`, valid at every round, or `final`, the budget's
 *   last look; absent in files saved before, and in a diff: 95%)
 *
 * @typedef {object} Gate  the document's `gate` (docs/json.md)
 * @property {'ratio'|'change'} kind  ratio: compare and sweep (workers/procs at or above the
 *   threshold); change: diff (new / base at or above 1 − the allowed worsening)
 * @property {string} rule  what was asked, as typed: `--fail-below 0.8`
 * @property {string} subject  what is judged: `workers/procs`, `A/B`, or a change's name
 * @property {Outcome} outcome  the worst of the points'
 * @property {boolean} failInconclusive  whether inconclusive exits 5 (else 0)
 * @property {PointJudgement[]} points
 * @property {boolean} [fixedRounds]  a ratio gate's run had --rounds: more rounds, not more time,
 *   would decide it
 * @property {string[]} [differences]  a change gate's: the facts the two runs differ in
 * @property {string} [line]  the sentence the run ended with, as files saved before the gate kept
 *   figures only had it (cli/finish.js draws it now)
 */

/** A fraction as the user typed it: 0.1 is `10%`. */
/**
 * The gate of a compare or sweep: each point's workers/procs interval against `threshold`.
 * @param {Array<{ id: string, label: string, ratio: import('../stats/ratio.js').RatioStats | null, seconds: number,
 *   confidence?: number, look?: import('../stats/sequential.js').Look }>} points  confidence, look: of the interval,
 *   where it is the verdict's (95%, a fixed-n one, unless said)
 * @param {{ threshold: number, failInconclusive: boolean, aa?: string | null, fixedRounds: boolean }} request
 * @returns {Gate}
 */
export function ratioGate(points, { threshold, failInconclusive, aa = null, fixedRounds }) {
  const judged = points.map((point) => {
    const judgement = judge({
      estimate: point.ratio?.n ? point.ratio.geomean : null,
      ci95: point.ratio?.ci95 ?? null,
      threshold,
      rounds: point.ratio?.n,
      seconds: point.seconds,
    });
    return {
      id: point.id,
      label: point.label,
      ...judgement,
      confidence: point.confidence ?? 0.95,
      look: point.look ?? 'fixed',
      rounds: point.ratio?.n ?? 0,
      seconds: point.seconds,
    };
  });
  return {
    kind: /** @type {const} */ ('ratio'),
    rule: `--fail-below ${threshold}`,
    subject: aa ? 'A/B' : 'workers/procs',
    outcome: worstOutcome(judged.map((point) => point.outcome)),
    failInconclusive,
    points: judged,
    fixedRounds,
  };
}

/**
 * The gate of a diff: each shared point's change (new / base) against 1 − the allowed worsening,
 * for the ratio (--max-worsening) and for each mode's throughput (--max-slowdown).
 * @param {Array<{ label: string, ratioChange: ChangeLike | null, throughputChange: Record<'workers'|'procs', ChangeLike | null> }>} points
 * @param {{ maxWorsening?: number, maxSlowdown?: number, failInconclusive: boolean, differences: string[] }} request
 *   fractions (0.1 for 10%); differences: the facts the two runs differ in
 * @returns {Gate}
 *
 * @typedef {{ change: number, ci95: [number, number] | null }} ChangeLike
 */
export function changeGate(points, { maxWorsening, maxSlowdown, failInconclusive, differences }) {
  /** @type {PointJudgement[]} */
  const judged = [];
  for (const [index, point] of points.entries()) {
    /** @type {Array<[string, ChangeLike | null, number]>} */
    const changes = [];
    if (maxWorsening !== undefined) changes.push(['workers/procs', point.ratioChange, maxWorsening]);
    if (maxSlowdown !== undefined)
      for (const mode of MODES)
        if (point.throughputChange[mode]) changes.push([`${mode} ops/s`, point.throughputChange[mode], maxSlowdown]);
    for (const [what, change, allowed] of changes) {
      judged.push({
        id: `p${index + 1}`,
        label: `${point.label}: ${what}`,
        ...judge({ estimate: change?.change ?? null, ci95: change?.ci95 ?? null, threshold: 1 - allowed }),
        rounds: null,
        seconds: null,
      });
    }
  }
  const rule = [
    maxWorsening !== undefined ? `--max-worsening ${percentText(maxWorsening, 2)}` : null,
    maxSlowdown !== undefined ? `--max-slowdown ${percentText(maxSlowdown, 2)}` : null,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    kind: /** @type {const} */ ('change'),
    rule,
    subject: 'new/base',
    outcome: worstOutcome(judged.map((point) => point.outcome)),
    failInconclusive,
    points: judged,
    differences,
  };
}

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
