// The CI gate in words, drawn from the document's figures (document/gate.js): the line a job's
// log ends with, and the markdown appended to GitHub's step summary.
import { plural } from '../words/lists.js';
import { about, formatCI } from '../document/sentences.js';
import { fixed } from '../words/numbers.js';

/** @typedef {import('../document/gate.js').Gate} Gate */
/** @typedef {import('../document/gate.js').PointJudgement} PointJudgement */

// Beyond this, "run longer" is no advice: the ratio is within noise of the threshold.
const PRACTICAL_SECONDS = 3600;

const OUTCOME_WORDS = /** @type {const} */ ({ pass: 'passed', fail: 'failed', inconclusive: 'inconclusive' });

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
 * The last line of a gated run: the outcome, the rule, and the points that decided it; a file
 * saved with its line keeps that one.
 * @param {Gate} gate
 */
export function gateLine(gate) {
  if (gate.line !== undefined) return gate.line;
  // a change's points have no rounds to add: which option would decide it is not asked
  const fixedRounds = gate.fixedRounds ?? true;
  const note = gate.differences?.length
    ? ` (the runs differ in ${gate.differences.join(', ')}: the change may be theirs, not the code's)`
    : '';
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
    ...(gate ? [`${icon} **${gateLine(gate)}**`, ''] : []),
    "<details><summary>the run's tables</summary>",
    '',
    tables.trimEnd(),
    '',
    '</details>',
    '',
    '',
  ].join('\n');
}
