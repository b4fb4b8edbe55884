// `advise`'s ranking, from the sweep that measured the baseline and every candidate in the same
// rounds: each candidate's throughput against the baseline's in each mode (the ratio of their
// geometric means over rounds, with a Welch interval on the logs, as diff's), its own
// workers/procs ratio, its memory per worker against the baseline's, and how much its cells
// disagree. Every figure in it was measured in the run.
import { TO_PROCESSES } from '../../run/pool/resolve.js';
import { sampleStandardDeviation } from 'simple-statistics';
import { valueOf } from '../../points/points.js';
import { sweepPoints } from '../../document/points-of.js';
import { THROUGHPUT_RACE } from '../../run/race.js';
import { changeBetween, differenceBetween, holm } from '../../stats/ratio.js';
import { pooledChange } from '../../stats/pooled.js';
import { MEASURES } from '../../points/measures.js';
import { MODES } from '../../words/spelling.js';

/**
 * @typedef {import('./types.js').Candidate} Candidate
 * @typedef {import('./types.js').Change} Change
 * @typedef {import('./types.js').Objective} Objective
 * @typedef {import('./types.js').AdviceRow} AdviceRow
 * @typedef {import('./types.js').Advice} Advice
 * @typedef {import('../../stats/histogram.js').Histogram} Histogram
 */

/**
 * A point's per-round values of one mode: throughput, or memory (what a worker adds, or in a
 * file saved before both trees had a parent, the tree's PSS per worker: one file is all one or
 * the other). A change is a ratio of logs: a round without a positive figure has none.
 * @param {import('../../points/points.js').Point} point
 * @param {'workers'|'procs'} mode
 * @param {'throughput'|'memory'} what
 */
function perRound(point, mode, what = 'throughput') {
  const of = (/** @type {string} */ key) => point.perRound[key][mode].filter((value) => value > 0);
  if (what === 'throughput') return of('throughput');
  const added = of('addedMemory');
  return added.length ? added : of('memoryPerWorker');
}

/**
 * What each objective ranks by: its measure's key (points/measures.js), which way is better, and
 * whether a change is a difference (a figure that can be 0 or below) rather than a ratio.
 * @type {Record<Objective, { key: string, better: 'higher'|'lower', difference: boolean }>}
 */
export const OBJECTIVES = {
  throughput: { key: 'throughput', better: 'higher', difference: false },
  memory: { key: 'addedMemory', better: 'lower', difference: false },
  'kept-memory': { key: 'keptMemory', better: 'lower', difference: true },
  'main-latency': { key: 'mainRequestP99Us', better: 'lower', difference: false },
};

/** A value a change can be taken of: any for a difference, above 0 for a ratio (of logs). */
const scorable = (/** @type {number} */ value, /** @type {boolean} */ difference) => difference || value > 0;

/**
 * A point's per-round values of the objective's measure in one mode.
 * @param {import('../../points/points.js').Point} point
 * @param {'workers'|'procs'} mode
 * @param {Objective} objective
 */
function scoreValues(point, mode, objective) {
  const { key, difference } = OBJECTIVES[objective];
  if (key === 'throughput') return perRound(point, mode);
  if (key === 'addedMemory') return perRound(point, mode, 'memory');
  return (point.perRound[key]?.[mode] ?? []).filter((value) => scorable(value, difference));
}

/**
 * The change from the baseline's values to a candidate's: a ratio, or a difference.
 * @param {number[]} base
 * @param {number[]} next
 * @param {boolean} difference
 * @returns {Change | null}
 */
const changeOf = (base, next, difference) =>
  base.length >= 2 && next.length >= 2
    ? difference
      ? differenceBetween(base, next)
      : changeBetween(base, next)
    : null;

/**
 * Whether a change is an improvement by the objective: more throughput, less of anything else.
 * @param {Change} change
 * @param {Objective} objective
 */
export const improves = (change, objective) => {
  const { better } = OBJECTIVES[objective];
  const neutral = change.difference ? 0 : 1;
  return better === 'higher' ? change.change > neutral : change.change < neutral;
};

/**
 * What advise's race compares a candidate with the baseline by (run/race.js), for what it ranks
 * by: throughput's log ratio, or a cost's turned so that higher is better, the log of the
 * baseline's over the candidate's, or for what the app keeps (which can be 0) the baseline's less
 * the candidate's.
 * Each cell's own figure: the pooled p99 is the ranking's, read once the race is over.
 * @param {Objective} objective
 * @returns {import('../../run/race.js').RaceScore}
 */
export function raceScoreOf(objective) {
  if (objective === 'throughput') return THROUGHPUT_RACE;
  const { key, difference } = OBJECTIVES[objective];
  const measure = /** @type {import('../../points/measures.js').Measure} */ (MEASURES.find((one) => one.key === key));
  return {
    of: (cell) => {
      const value = valueOf(measure, cell);
      return value !== null && scorable(value, difference) ? value : null;
    },
    gain: (base, mine) => (difference ? base - mine : Math.log(base / mine)),
  };
}

/**
 * How each candidate's figures are read against the baseline's (the sweep's first point): its
 * per-round change from the baseline, in throughput and in the objective's score.
 * @param {import('../sweep/document.js').SweepDocument} document
 * @param {Objective} objective
 */
function scoring(document, objective) {
  const { difference } = OBJECTIVES[objective];
  const { points } = document;
  // each point's figures as every reader reads them
  const read = sweepPoints(document);
  const [base] = read;
  const change = (/** @type {number[]} */ a, /** @type {number[]} */ b) =>
    a.length >= 2 && b.length >= 2 ? changeBetween(a, b) : null;
  const baseline = Object.fromEntries(MODES.map((mode) => [mode, perRound(base, mode)]));
  const baseScore = Object.fromEntries(MODES.map((mode) => [mode, scoreValues(base, mode, objective)]));
  // a pooled measure (the app's request p99) is read from every round's timings pooled, as
  // compare reads it, where the cells kept them
  const pooled = MEASURES.find((measure) => measure.key === OBJECTIVES[objective].key)?.pooled;
  /** @param {any} point  a saved point  @param {'workers'|'procs'} mode */
  const timings = (point, mode) =>
    (point.rounds ?? []).flatMap((/** @type {any} */ round) => {
      const cell = round.pilot ? null : round[mode];
      const histogram = cell && pooled ? pooled.histogram(cell) : null;
      return histogram?.length ? [histogram] : [];
    });
  /**
   * A pooled measure's change from the baseline's timings to a candidate's, where both kept
   * them; with too few rounds for the bootstrap's interval, the per-round values' Welch one, wide
   * as it is, where it has one.
   * @param {Change | null} perRound
   * @param {Histogram[]} before
   * @param {Histogram[]} after
   * @returns {Change | null}
   */
  const pooledOr = (perRound, before, after) => {
    const one =
      pooled && before.length && after.length ? pooledChange(before, after, pooled.percentile, pooled.bits) : null;
    return one && (one.ci95 || !perRound?.ci95) ? one : perRound;
  };
  /** a candidate's score in each mode against the baseline's */
  const scoreOf = (/** @type {number} */ i) =>
    /** @type {AdviceRow['gain']} */ (
      Object.fromEntries(
        MODES.map((mode) => [
          mode,
          pooledOr(
            changeOf(baseScore[mode], scoreValues(read[i], mode, objective), difference),
            timings(points[0], mode),
            timings(points[i], mode),
          ),
        ]),
      )
    );
  // processes instead of threads: the baseline's procs against its workers
  const procsScore = pooledOr(
    changeOf(baseScore.workers, baseScore.procs, difference),
    timings(points[0], 'workers'),
    timings(points[0], 'procs'),
  );
  return { read, base, baseline, change, scoreOf, procsScore };
}

/**
 * @param {import('../sweep/document.js').SweepDocument} document  the sweep of the candidates, its points
 *   in candidate order
 * @param {Array<Pick<Candidate, 'name' | 'kind' | 'apply'> & Partial<Pick<Candidate, 'mode'>>>} candidates  the same order, the baseline first
 * @param {{ missing: Advice['missing'], skipped: Advice['skipped'], defaults?: Advice['defaults'], objective?: Objective }} found
 * @returns {Advice}
 */
export function adviceOf(document, candidates, { missing, skipped, defaults = [], objective = 'throughput' }) {
  const { read, base, baseline, change, scoreOf, procsScore } = scoring(document, objective);
  /** @type {AdviceRow[]} */
  const rows = document.points.flatMap((point, i) => {
    const candidate = candidates[i];
    // the baseline at another k (--k-auto) gives the K to run, and is ranked with no fix
    if (candidate.kind === 'k') return [];
    const gain = Object.fromEntries(MODES.map((mode) => [mode, change(baseline[mode], perRound(read[i], mode))]));
    const mode = candidate.mode ?? 'workers';
    const logs = perRound(read[i], mode).map(Math.log);
    const score = scoreOf(i);
    const failed = point.status === 'failed';
    /** @type {AdviceRow} */
    const row = {
      id: point.id,
      name: candidate.name,
      kind: candidate.kind,
      apply: candidate.apply,
      mode,
      status:
        point.status === 'unavailable'
          ? 'unavailable'
          : failed
            ? 'failed'
            : score[mode]
              ? 'measured'
              : 'too few rounds',
      why: point.unavailable ?? (failed ? (point.error?.message ?? 'it failed') : null),
      gain: /** @type {AdviceRow['gain']} */ (gain),
      score,
      ratio: point.ratio ?? null,
      memory: change(perRound(base, mode, 'memory'), perRound(read[i], mode, 'memory')),
      spread: logs.length >= 3 ? sampleStandardDeviation(logs) : null,
      verdict: null,
      rank: null,
      dropped: /** @type {any} */ (point).dropped ?? null,
    };
    return [row];
  });
  rows.push(procsRow(base, baseline, change, procsScore, document.points[0]?.pool));
  judge(rows, objective);
  const [baseRow, ...others] = rows;
  const measured = ranked(others, objective);
  const bestIn = (/** @type {'workers'|'procs'} */ mode) =>
    measured.find((row) => row.mode === mode && row.verdict === 'better')?.name ?? null;
  return {
    baseline: base.id,
    for: objective,
    rows: [baseRow, ...measured, ...others.filter((row) => row.status !== 'measured')],
    missing,
    skipped,
    defaults,
    best: bestIn('workers'),
    bestProcs: bestIn('procs'),
  };
}

/**
 * Processes instead of threads: the baseline's procs against its workers, as one more row;
 * through a pool (--pool), the pool's own switch to its process runtime.
 * @param {ReturnType<typeof scoring>['base']} base
 * @param {ReturnType<typeof scoring>['baseline']} baseline
 * @param {ReturnType<typeof scoring>['change']} change
 * @param {Change | null} procsScore
 * @param {{ name: string, runtimes: Record<'workers'|'procs', string> }} [pool]
 * @returns {AdviceRow}
 */
function procsRow(base, baseline, change, procsScore, pool) {
  return {
    id: base.id,
    name: pool ? `${pool.name}'s process runtime` : 'processes instead of threads',
    kind: 'procs',
    apply: pool
      ? TO_PROCESSES[/** @type {keyof typeof TO_PROCESSES} */ (pool.name)]
      : 'run the K workers as child processes (child_process.fork) rather than Worker threads',
    mode: 'workers',
    status: procsScore ? 'measured' : 'too few rounds',
    why: null,
    gain: { workers: change(baseline.workers, baseline.procs), procs: null },
    score: { workers: procsScore, procs: null },
    ratio: null,
    memory: change(perRound(base, 'workers', 'memory'), perRound(base, 'procs', 'memory')),
    spread: baseline.procs.length >= 3 ? sampleStandardDeviation(baseline.procs.map(Math.log)) : null,
    verdict: null,
    rank: null,
    dropped: null,
  };
}

/**
 * Each row's verdict, all the comparisons at once: a family of ten, not ten at 5% each (Holm).
 * @param {AdviceRow[]} rows  the baseline first
 * @param {Objective} objective
 */
function judge(rows, objective) {
  const tested = rows.map((row, i) => (i === 0 || row.status !== 'measured' ? null : (scoreIn(row)?.p ?? null)));
  const known = holm(tested);
  rows.forEach((row, i) => {
    const score = scoreIn(row);
    // no interval, no verdict; the baseline against itself is tested by no one: unclear
    if (!score?.ci95) return;
    row.verdict = known[i] ? (improves(score, objective) ? 'better' : 'worse') : 'unclear';
  });
}

/**
 * The measured rows, the best first (the most throughput, the least of anything else), ranked
 * within their mode: the workers' first, then the fixes for processes alone. A rank is a range
 * where intervals overlap: which rows of its mode lie wholly above its own, and which wholly below.
 * @param {AdviceRow[]} others  every row but the baseline's
 * @param {Objective} objective
 */
function ranked(others, objective) {
  const sign = OBJECTIVES[objective].better === 'higher' ? -1 : 1;
  const measured = others
    .filter((row) => row.status === 'measured')
    .sort(
      (a, b) =>
        Number(a.mode === 'procs') - Number(b.mode === 'procs') ||
        sign * ((scoreIn(a)?.change ?? 0) - (scoreIn(b)?.change ?? 0)),
    );
  for (const row of measured) {
    const mine = scoreIn(row)?.ci95;
    const group = measured.filter((other) => other.mode === row.mode);
    // wholly better than its interval, and wholly worse
    const higher = group.filter((other) => mine && (scoreIn(other)?.ci95?.[0] ?? -Infinity) > mine[1]).length;
    const lower = group.filter((other) => mine && (scoreIn(other)?.ci95?.[1] ?? Infinity) < mine[0]).length;
    const [better, worse] = sign < 0 ? [higher, lower] : [lower, higher];
    row.rank = mine ? [better + 1, group.length - worse] : null;
  }
  return measured;
}

/**
 * A row's score in the mode that ranks it.
 * @param {AdviceRow} row
 */
export const scoreIn = (row) => row.score[row.mode];
