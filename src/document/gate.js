// The CI gate of compare, sweep and diff as data for the saved document, and in words: the line
// a job's log ends with, and the markdown appended to GitHub's step summary.
import { plural } from '../words/lists.js';
import { judge, worstOutcome } from '../stats/gate.js';
import { about, formatCI } from './sentences.js';
import { MODES } from '../words/modes.js';
import { fixed } from '../words/numbers.js';

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
 * @property {string} line  the sentence the run ends with
 */

// Beyond this, "run longer" is no advice: the ratio is within noise of the threshold.
const PRACTICAL_SECONDS = 3600;

const OUTCOME_WORDS = /** @type {const} */ ({ pass: 'passed', fail: 'failed', inconclusive: 'inconclusive' });

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
  const gate = {
    kind: /** @type {const} */ ('ratio'),
    rule: `--fail-below ${threshold}`,
    subject: aa ? 'A/B' : 'workers/procs',
    outcome: worstOutcome(judged.map((point) => point.outcome)),
    failInconclusive,
    points: judged,
  };
  return { ...gate, line: gateLine(gate, { fixedRounds }) };
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
  const gate = {
    kind: /** @type {const} */ ('change'),
    rule,
    subject: 'new/base',
    outcome: worstOutcome(judged.map((point) => point.outcome)),
    failInconclusive,
    points: judged,
  };
  const differ = differences.length
    ? ` (the runs differ in ${differences.join(', ')}: the change may be theirs, not the code's)`
    : '';
  return { ...gate, line: gateLine(gate, { fixedRounds: true, note: differ }) };
}

/**
 * One point's judgement in words: `0.62 (95% CI 0.55-0.70) is below 0.8`.
 * @param {PointJudgement} point
 * @param {{ fixedRounds: boolean, single: boolean }} options  single: the run's only point, so
 *   the suggestion can name the option that gives it the time
 */
function judgementText(point, { fixedRounds, single }) {
  const canRunLonger = point.rounds !== null;
  if (!point.ci95 || point.estimate === null)
    return `${point.estimate === null ? 'no figure' : fixed(point.estimate)}: one round gives no interval${canRunLonger ? '; run at least 2 rounds' : ''}`;
  const figure = `${fixed(point.estimate)} (${formatCI(point.ci95)})`;
  if (point.outcome === 'pass') return `${figure} is at or above ${point.threshold}`;
  if (point.outcome === 'fail') return `${figure} is below ${point.threshold}`;
  if (point.onThreshold) return `${figure} sits on ${point.threshold}: no run length decides it`;
  if (point.moreSeconds === null || !point.rounds || !point.seconds) return `${figure} straddles ${point.threshold}`;
  if (point.moreSeconds > PRACTICAL_SECONDS)
    return `${figure} straddles ${point.threshold}, so close to it that no practical run decides it (about ${Math.round(point.moreSeconds / 3600)} h more); choose a threshold further from the ratio`;
  const moreRounds = Math.max(1, Math.round(point.moreSeconds / (point.seconds / point.rounds)));
  const option = !single
    ? ''
    : fixedRounds
      ? ` (--rounds ${point.rounds + moreRounds})`
      : ` (--max-time ${Math.ceil(point.seconds + point.moreSeconds)})`;
  return `${figure} straddles ${point.threshold}; about ${about(point.moreSeconds)} more would decide it${option}`;
}

/**
 * The last line of a gated run: the outcome, the rule, and the points that decided it.
 * @param {Omit<Gate, 'line'>} gate
 * @param {{ fixedRounds: boolean, note?: string }} options  note: said before whether the job fails
 */
function gateLine(gate, { fixedRounds, note = '' }) {
  const head = `gate ${OUTCOME_WORDS[gate.outcome]} (${gate.subject}, ${gate.rule})`;
  const tail =
    gate.outcome === 'inconclusive'
      ? gate.failInconclusive
        ? '; failing the job (--fail-inconclusive)'
        : '; not failing the job (--fail-inconclusive would)'
      : '';
  if (gate.points.length === 1) {
    const [point] = gate.points;
    return `${head}: ${gate.kind === 'change' ? `${point.label} ` : ''}${judgementText(point, { fixedRounds, single: true })}${note}${tail}`;
  }
  const deciding = gate.points.filter((point) => point.outcome === gate.outcome);
  const counts = /** @type {const} */ (['pass', 'fail', 'inconclusive'])
    .map((outcome) => ({ outcome, n: gate.points.filter((point) => point.outcome === outcome).length }))
    .filter(({ n }) => n)
    .map(({ outcome, n }) => `${n} ${OUTCOME_WORDS[outcome]}`)
    .join(', ');
  const shown = gate.outcome === 'pass' ? [] : deciding.slice(0, 3);
  const detail = shown.map((point) => `${point.label}: ${judgementText(point, { fixedRounds, single: false })}`);
  if (deciding.length > shown.length && shown.length) detail.push(`${deciding.length - shown.length} more`);
  return `${head}: ${plural(gate.points.length, gate.kind === 'change' ? 'change' : 'point')}, ${counts}${detail.length ? `; ${detail.join('; ')}` : ''}${note}${tail}`;
}

/**
 * What GitHub shows for a step (appended to $GITHUB_STEP_SUMMARY): the command and its verdict,
 * the gate's outcome, and the tables as `--markdown` prints them, folded (a run's rounds make a
 * long table).
 * @param {{ title: string, verdict: string | null, gate: Gate | null, tables: string }} parts
 */
export function stepSummary({ title, verdict, gate, tables }) {
  const icon = gate ? { pass: '✅', fail: '❌', inconclusive: '⚠️' }[gate.outcome] : '';
  return [
    `**${title}**${verdict ? `: ${verdict}` : ''}`,
    '',
    ...(gate ? [`${icon} **${gate.line}**`, ''] : []),
    "<details><summary>the run's tables</summary>",
    '',
    tables.trimEnd(),
    '',
    '</details>',
    '',
    '',
  ].join('\n');
}
