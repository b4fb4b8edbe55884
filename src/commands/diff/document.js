// What changed between two runs, point by point, with the uncertainty of both runs in every
// figure: the diff document, from each run's points and machine facts (files.js reads them from
// the two files).
import { decision, MARGIN } from '../../stats/sequential.js';
import { usageError } from '../../errors.js';
import { changeBetween, sideOf } from '../../stats/ratio.js';
import { SCHEMA, version } from '../../version.js';
import { cellsFigureOf, figureOf, roundCount } from '../../points/points.js';
import { FURTHER_MEASURES } from '../../points/measures.js';
import { PART_WORDS } from '../../document/account-text.js';
import { faultDiff } from '../../document/fault-words.js';

/**
 * @typedef {import('../../points/points.js').Account} Account
 * @typedef {import('../../points/points.js').Point} Point
 * @typedef {{ path: string, command: string, date: string, status?: string }} DiffRun  a run as
 *   the diff names it: its file, command and date, and its status when it did not finish
 */

/**
 * @typedef {object} PointDiff
 * @property {string} label
 * @property {{ base: number | null, new: number | null }} ratio  each run's geometric-mean ratio
 * @property {ReturnType<typeof changeBetween> | null} ratioChange  new ratio / base ratio
 * @property {Record<'workers'|'procs', ReturnType<typeof changeBetween> | null>} throughputChange
 * @property {'gap widened'|'gap narrowed'|'no change'|'no significant change'|'too few rounds'|null} verdict
 *   no change: the change's interval lies within ±10% (compare's margin); no significant change:
 *   it contains 1 and reaches past that
 * @property {{ base: number, new: number }} rounds
 * @property {AccountChange | null} [account]  how the modes' difference in time per op changed, by part
 * @property {Record<string, Record<'workers'|'procs', ReturnType<typeof changeBetween> | null>>} [measures]
 *   each measure beyond throughput both runs had: each mode's change, by its key
 *
 * @typedef {object} AccountChange
 * @property {Array<{ key: string, change: number, half: number }>} parts  new − base of workers −
 *   procs per op (ns or count), with the half-width of its approximate 95% interval
 * @property {string | null} reading  the part that changed most, in words; null when none did
 */

/**
 * The diff document (docs/json.md): every shared point's change with its CI, the facts that
 * differ between the runs, and the points only one run has.
 * @typedef {{ round: import('../../run/fault-cell.js').FaultRound, k: number } | null} RunFault
 *   a compare's fault round (--fault) and its k
 * @param {{ run: DiffRun, points: Point[], facts: Record<string, string>, fault?: RunFault }} base
 * @param {{ run: DiffRun, points: Point[], facts: Record<string, string>, fault?: RunFault }} next
 */
export function diffDocument(base, next) {
  const byKey = new Map(next.points.map((point) => [point.key, point]));
  const shared = base.points.filter((point) => byKey.has(point.key));
  if (!shared.length)
    throw usageError(
      `${base.run.path} and ${next.run.path} have no point in common (same task, file, k, --cycles, pool, environment variables and task parameters); diff two runs of the same setting`,
    );
  return {
    mmapbench: version,
    schema: SCHEMA,
    command: 'diff',
    base: base.run,
    new: next.run,
    differences: Object.keys(base.facts)
      .filter((fact) => base.facts[fact] !== next.facts[fact])
      .map((fact) => ({ fact, base: base.facts[fact], new: next.facts[fact] })),
    points: shared.map((point) => pointDiff(point, /** @type {Point} */ (byKey.get(point.key)))),
    onlyIn: {
      base: base.points.filter((point) => !byKey.has(point.key)).map((point) => point.label),
      new: next.points.filter((point) => !shared.some((s) => s.key === point.key)).map((point) => point.label),
    },
    // what one crash took down, where either run had a fault round
    ...(base.fault || next.fault
      ? {
          fault: faultDiff(base.fault?.round ?? null, next.fault?.round ?? null, {
            base: base.fault?.k ?? 0,
            new: next.fault?.k ?? 0,
          }),
        }
      : {}),
  };
}

/** @typedef {ReturnType<typeof diffDocument>} DiffDocument */

/** @param {number[]} values */
const geomean = (values) =>
  values.length ? Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length) : null;

/**
 * @param {import('../../points/points.js').Point} base
 * @param {import('../../points/points.js').Point} next
 * @returns {PointDiff}
 */
function pointDiff(base, next) {
  const both = base.ratios.length > 0 && next.ratios.length > 0;
  const ratioChange = both ? changeBetween(base.ratios, next.ratios) : null;
  /** @param {'workers'|'procs'} mode */
  const throughputChange = (mode) =>
    base.throughput[mode].length && next.throughput[mode].length
      ? changeBetween(base.throughput[mode], next.throughput[mode])
      : null;
  const [baseRatio, newRatio] = [geomean(base.ratios), geomean(next.ratios)];
  return {
    label: base.label,
    ratio: { base: baseRatio, new: newRatio },
    ratioChange,
    throughputChange: { workers: throughputChange('workers'), procs: throughputChange('procs') },
    verdict:
      ratioChange && baseRatio !== null && newRatio !== null
        ? gapVerdict(ratioChange, baseRatio, newRatio, Math.min(base.ratios.length, next.ratios.length))
        : null,
    rounds: { base: roundCount(base), new: roundCount(next) },
    ...(base.account && next.account ? { account: accountChange(base.account, next.account) } : {}),
    ...measureChanges(base, next),
  };
}

/**
 * Each measure beyond throughput that both runs had, as each mode's change.
 * @param {import('../../points/points.js').Point} base
 * @param {import('../../points/points.js').Point} next
 */
function measureChanges(base, next) {
  const changes = FURTHER_MEASURES.flatMap((measure) => {
    // like with like: a plain app's figure (memory per added worker, where a run had plain trees)
    // against another's, or else the cells' against the cells'
    const plainIn = (/** @type {import('../../points/points.js').Point} */ point) =>
      Boolean(point.plain?.[measure.key]);
    const read = plainIn(base) === plainIn(next) ? figureOf : cellsFigureOf;
    const [b, n] = [read(measure, base).perRound, read(measure, next).perRound];
    /** @param {'workers'|'procs'} mode */
    // a change is new / base on logs: a figure that can be 0 or below (what a mode kept) has none
    const of = (mode) =>
      b[mode].length && n[mode].length && [...b[mode], ...n[mode]].every((value) => value > 0)
        ? changeBetween(b[mode], n[mode])
        : null;
    const modes = { workers: of('workers'), procs: of('procs') };
    return modes.workers || modes.procs ? [[measure.key, modes]] : [];
  });
  return changes.length ? { measures: Object.fromEntries(changes) } : {};
}

/**
 * Which part of the workers − procs difference in time per op changed between two runs: for
 * each part, new − base, with an interval from both runs' (the half-widths added in quadrature,
 * an approximation of Welch's); the largest part whose interval excludes 0, with page faults
 * beside it when they changed too.
 * @param {Account} base
 * @param {Account} next
 * @returns {AccountChange}
 */
export function accountChange(base, next) {
  const half = (/** @type {{ mean: number, ci95: [number, number] | null } | null} */ stats) =>
    stats?.ci95 ? (stats.ci95[1] - stats.ci95[0]) / 2 : null;
  const parts = ['wallNs', ...Object.keys(PART_WORDS), 'minflt'].flatMap((key) => {
    const [b, n] = [base, next].map((account) => account.lines.find((line) => line.key === key)?.diff ?? null);
    const [hb, hn] = [half(b), half(n)];
    if (!b || !n || hb === null || hn === null) return [];
    return [{ key, change: n.mean - b.mean, half: Math.sqrt(hb * hb + hn * hn) }];
  });
  // on a CPU is user + system where both runs split it: one or the other, never both
  const split = parts.some(({ key }) => key === 'userNs');
  const decided = parts.filter(({ key, change, half: h }) => Math.abs(change) > h && !(split && key === 'cpuNs'));
  const top = decided.filter(({ key }) => key in PART_WORDS).sort((x, y) => Math.abs(y.change) - Math.abs(x.change))[0];
  if (!top) return { parts, reading: null };
  const µs = (/** @type {number} */ ns) => (ns / 1000).toFixed(2);
  const faults = decided.find(({ key }) => key === 'minflt');
  const reading =
    `workers − procs ${top.change > 0 ? 'grew' : 'shrank'} by ${µs(Math.abs(top.change))} µs per op of ` +
    `${PART_WORDS[top.key]} (±${µs(top.half)})` +
    (faults ? `, page faults per op ${faults.change > 0 ? '+' : '−'}${Math.abs(faults.change).toFixed(2)}` : '');
  return { parts, reading };
}

/**
 * The gap is how far the ratio is from 1, either way: it widened when the new ratio lies
 * further from 1 than the old, and only when the ratio's change is significant.
 * @param {{ ci95: [number, number] | null }} change
 * @param {number} baseRatio
 * @param {number} newRatio
 * @param {number} rounds
 * @returns {PointDiff['verdict']}
 */
function gapVerdict({ ci95 }, baseRatio, newRatio, rounds) {
  // as compare: with fewer than 3 rounds a t interval is too wide to mean anything
  if (!ci95 || rounds < 3) return 'too few rounds';
  // the change as compare's verdict reads a ratio: within its margin, no change; else undecided
  if (sideOf(ci95, 1) === 'spans') return decision(ci95, MARGIN) === 'equal' ? 'no change' : 'no significant change';
  return Math.abs(Math.log(newRatio)) > Math.abs(Math.log(baseRatio)) ? 'gap widened' : 'gap narrowed';
}
