// The CI gate of compare, sweep and diff as data for the saved document: what was asked, each
// point's judgement, and what its line needs to say which option would decide it. The line a
// job's log ends with is drawn from it (cli/finish.js).
import { judge, worstOutcome } from '../stats/gate.js';
import { MODES } from '../words/spelling.js';

/**
 * @typedef {import('../stats/gate.js').Judgement & { id: string, label: string, rounds: number | null,
 *   seconds: number | null }} PointJudgement  rounds, seconds: what the interval cost (null in a diff)
 *
 * @typedef {object} Gate  the document's `gate` (docs/json.md)
 * @property {'ratio'|'change'} kind  ratio: compare and sweep (workers/procs at or above the
 *   threshold); change: diff (new / base at or above 1 − the allowed worsening)
 * @property {string} rule  what was asked, as typed: `--fail-below 0.8`
 * @property {string} subject  what is judged: `workers/procs`, `A/B`, or a change's name
 * @property {import('../stats/gate.js').Outcome} outcome  the worst of the points'
 * @property {boolean} failInconclusive  whether inconclusive exits 5 (else 0)
 * @property {PointJudgement[]} points
 * @property {boolean} [fixedRounds]  a ratio gate's run had --rounds: more rounds, not more time,
 *   would decide it
 * @property {string[]} [differences]  a change gate's: the facts the two runs differ in
 * @property {string} [line]  the sentence the run ended with, as files saved before the gate kept
 *   figures only had it (cli/finish.js draws it now)
 */

/** A fraction as the user typed it: 0.1 is `10%`. */
const percentText = (/** @type {number} */ fraction) => `${Number((fraction * 100).toFixed(2))}%`;
/**
 * The gate of a compare or sweep: each point's workers/procs interval against `threshold`.
 * @param {Array<{ id: string, label: string, ratio: import('../stats/ratio.js').RatioStats | null, seconds: number }>} points
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
    return { id: point.id, label: point.label, ...judgement, rounds: point.ratio?.n ?? 0, seconds: point.seconds };
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
    maxWorsening !== undefined ? `--max-worsening ${percentText(maxWorsening)}` : null,
    maxSlowdown !== undefined ? `--max-slowdown ${percentText(maxSlowdown)}` : null,
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
