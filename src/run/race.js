// advise's race among its candidates (as irace's F-race and successive halving race theirs):
// every candidate runs a few rounds beside the baseline; from then on, one whose gain interval
// lies wholly below the leader's (or below the baseline's, when no candidate is better) stops
// getting rounds, and the rounds go to those still in contention until their order is known
// (their intervals and the baseline's apart) or the budget runs out.
import { changeBetween } from '../stats/ratio.js';
import { pilots } from './scheduler.js';

/** Rounds each candidate runs before it can be dropped. */
export const RACE_ROUNDS = 3;

/**
 * What the race compares (advise --for): a cell's figure, and how a candidate's per-round figures
 * compare with the baseline's, as a 95% interval on a scale where higher is better and
 * `neutral` is no change.
 * @typedef {object} RaceScore
 * @property {(cell: import('../stats/cell-summary.js').CellResult) => number | null} of
 * @property {(base: number[], mine: number[]) => [number, number] | null} better
 * @property {number} neutral
 */

/** Throughput, the default: its ratio to the baseline's. @type {RaceScore} */
export const THROUGHPUT_RACE = {
  of: (cell) => cell.throughput,
  better: (base, mine) => changeBetween(base, mine).ci95,
  neutral: 1,
};

/**
 * A point's per-round figures in one mode, the pilot's aside.
 * @param {import('./scheduler.js').Measurement} point
 * @param {'workers'|'procs'} mode
 * @param {RaceScore} score
 */
const valuesOf = (point, mode, score) =>
  point.session.rounds.flatMap((round) => {
    const cell = !round.pilot ? round.cells[mode] : null;
    const value = cell ? score.of(cell) : null;
    return typeof value === 'number' && Number.isFinite(value) ? [value] : [];
  });

/**
 * The mode a candidate is ranked in: the one it runs alone, else the workers'.
 * @param {import('./scheduler.js').Measurement} point
 */
const modeOf = (point) => point.plan.only ?? 'workers';

/**
 * The rule, for runRounds: the first point is the baseline, the others its candidates.
 * @param {number} budget  seconds, the whole race's
 * @param {{ names: Map<string, string>, score?: RaceScore }} context  each point's candidate, by
 *   point id; what it races by (throughput unless said)
 * @returns {import('./scheduler.js').StopRule}
 */
export const raceOrTime =
  (budget, { names, score = THROUGHPUT_RACE }) =>
  ({ points, visited, index, elapsedSeconds, roundSeconds }) => {
    const [baseline, ...candidates] = points;
    for (const mode of /** @type {const} */ (['workers', 'procs'])) {
      const base = valuesOf(baseline, mode, score);
      const running = candidates.filter((point) => !point.session.stop && modeOf(point) === mode);
      const gains = running.flatMap((point) => {
        const mine = valuesOf(point, mode, score);
        if (base.length < RACE_ROUNDS || mine.length < RACE_ROUNDS) return [];
        const ci95 = score.better(base, mine);
        return ci95 ? [{ point, ci95 }] : [];
      });
      if (!gains.length) continue;
      // the leader: the candidate whose interval's low end is highest, or the baseline (no
      // change) when no candidate is known to beat it
      const top = gains.reduce((best, one) => (one.ci95[0] > best.ci95[0] ? one : best));
      const leader =
        top.ci95[0] > score.neutral
          ? { low: top.ci95[0], name: names.get(top.point.id) ?? top.point.id }
          : { low: score.neutral, name: 'baseline' };
      for (const { point, ci95 } of gains)
        if (ci95[1] < leader.low) {
          point.session.stop = 'dropped';
          point.session.dropped = { round: index, leader: leader.name };
        }
      // the order is known once every interval still in contention, and the baseline's 1, lie apart
      const left = gains.filter(({ point }) => !point.session.stop);
      const contending = running.filter((point) => !point.session.stop);
      if (
        left.length === contending.length &&
        apart(
          left.map(({ ci95 }) => ci95),
          score.neutral,
        )
      )
        for (const { point } of left) point.session.stop ??= 'ordered';
    }
    // a fixed --rounds is run whole
    for (const point of visited)
      if (!point.session.stop && index - pilots(point.session) >= point.plan.rounds) point.session.stop = 'rounds';
    // the baseline runs as long as any candidate does: every gain is against its rounds
    if (candidates.every((point) => point.session.stop)) baseline.session.stop ??= 'ordered';
    if (elapsedSeconds + roundSeconds > budget) for (const point of points) point.session.stop ??= 'max-time';
  };

/**
 * Whether intervals lie apart from one another and from no change (the baseline's).
 * @param {Array<[number, number]>} intervals
 * @param {number} neutral
 */
function apart(intervals, neutral) {
  const all = [...intervals, /** @type {[number, number]} */ ([neutral, neutral])].sort((a, b) => a[0] - b[0]);
  return all.every((interval, i) => i === 0 || all[i - 1][1] < interval[0]);
}
