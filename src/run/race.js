// advise's race among its candidates (as irace's F-race and successive halving race theirs):
// every candidate runs a few rounds beside the baseline; from then on, one whose gain interval
// lies wholly below the leader's (or below the baseline's, when no candidate is better) stops
// getting rounds, and the rounds go to those still in contention until their order is known
// (their intervals and the baseline's apart) or the budget runs out. The race looks after every
// round, so its intervals are compare's confidence sequence (stats/sequential.js), valid at every
// look at once, on each round's gain over the baseline's cell of the same round: at 0.5% each, a
// race of ten candidates drops or orders one wrongly at most 5% of the time (Bonferroni).
import { SEQUENCE_ROUNDS, sequenceInterval } from '../stats/sequential.js';
import { roundsRun } from './scheduler.js';

/** Rounds each candidate runs before it can be dropped: the sequence's first look. */
export const RACE_ROUNDS = SEQUENCE_ROUNDS;

/**
 * What the race compares (advise --for): a cell's figure, and a round's gain, the candidate's cell
 * against the baseline's of the same round, on an additive scale where higher is better and 0 is
 * no change (a log ratio, or a difference for a figure that can be 0).
 * @typedef {object} RaceScore
 * @property {(cell: import('../stats/cell-summary.js').CellResult) => number | null} of
 * @property {(base: number, mine: number) => number} gain
 */

/** Throughput, the default: the log of its ratio to the baseline's. @type {RaceScore} */
export const THROUGHPUT_RACE = {
  of: (cell) => cell.throughput,
  gain: (base, mine) => Math.log(mine / base),
};

/**
 * A point's figures in one mode by round, the pilots' aside.
 * @param {import('./scheduler.js').Measurement} point
 * @param {'workers'|'procs'} mode
 * @param {RaceScore} score
 * @returns {Map<number, number>}
 */
const valuesOf = (point, mode, score) =>
  new Map(
    point.session.rounds.flatMap((round) => {
      const cell = !round.pilot ? round.cells[mode] : null;
      const value = cell ? score.of(cell) : null;
      return typeof value === 'number' && Number.isFinite(value) ? [[round.index, value]] : [];
    }),
  );

/**
 * A candidate's gains over the baseline, round by round where both have a figure.
 * @param {Map<number, number>} base @param {Map<number, number>} mine @param {RaceScore} score
 */
const gainsOf = (base, mine, score) =>
  [...mine].flatMap(([index, value]) => {
    const before = base.get(index);
    const gain = before === undefined ? NaN : score.gain(before, value);
    return Number.isFinite(gain) ? [gain] : [];
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
        const each = gainsOf(base, valuesOf(point, mode, score), score);
        const interval = each.length >= RACE_ROUNDS ? sequenceInterval(each) : null;
        return interval ? [{ point, interval }] : [];
      });
      if (!gains.length) continue;
      // the leader: the candidate whose interval's low end is highest, or the baseline (no
      // change) when no candidate is known to beat it
      const top = gains.reduce((best, one) => (one.interval[0] > best.interval[0] ? one : best));
      const leader =
        top.interval[0] > 0
          ? { low: top.interval[0], name: names.get(top.point.id) ?? top.point.id }
          : { low: 0, name: 'baseline' };
      for (const { point, interval } of gains)
        if (interval[1] < leader.low) {
          point.session.stop = 'dropped';
          point.session.dropped = { round: index, leader: leader.name };
        }
      // the order is known once every interval still in contention, and the baseline's 0, lie apart
      const left = gains.filter(({ point }) => !point.session.stop);
      const contending = running.filter((point) => !point.session.stop);
      if (left.length === contending.length && apart(left.map(({ interval }) => interval)))
        for (const { point } of left) point.session.stop ??= 'ordered';
    }
    // a fixed --rounds is run whole
    for (const point of visited) if (!point.session.stop && roundsRun(point)) point.session.stop = 'rounds';
    // the baseline runs as long as any candidate does: every gain is against its rounds
    if (candidates.every((point) => point.session.stop)) baseline.session.stop ??= 'ordered';
    if (elapsedSeconds + roundSeconds > budget) for (const point of points) point.session.stop ??= 'max-time';
  };

/**
 * Whether intervals of gain lie apart from one another and from no change (the baseline's 0).
 * @param {Array<[number, number]>} intervals
 */
function apart(intervals) {
  const all = [...intervals, /** @type {[number, number]} */ ([0, 0])].sort((a, b) => a[0] - b[0]);
  return all.every((interval, i) => i === 0 || all[i - 1][1] < interval[0]);
}
