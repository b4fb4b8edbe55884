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
 * A point's per-round throughputs in one mode, the pilot's aside.
 * @param {import('./scheduler.js').Measurement} point
 * @param {'workers'|'procs'} mode
 */
const valuesOf = (point, mode) =>
  point.session.rounds.flatMap((round) => (!round.pilot && round.cells[mode] ? [round.cells[mode].throughput] : []));

/**
 * The mode a candidate is ranked in: the one it runs alone, else the workers'.
 * @param {import('./scheduler.js').Measurement} point
 */
const modeOf = (point) => point.plan.only ?? 'workers';

/**
 * The rule, for runRounds: the first point is the baseline, the others its candidates.
 * @param {number} budget  seconds, the whole race's
 * @param {{ names: Map<string, string> }} context  each point's candidate, by point id
 * @returns {import('./scheduler.js').StopRule}
 */
export const raceOrTime =
  (budget, { names }) =>
  ({ points, visited, index, elapsedSeconds, roundSeconds }) => {
    const [baseline, ...candidates] = points;
    for (const mode of /** @type {const} */ (['workers', 'procs'])) {
      const base = valuesOf(baseline, mode);
      const running = candidates.filter((point) => !point.session.stop && modeOf(point) === mode);
      const gains = running.flatMap((point) => {
        const mine = valuesOf(point, mode);
        if (base.length < RACE_ROUNDS || mine.length < RACE_ROUNDS) return [];
        const { ci95 } = changeBetween(base, mine);
        return ci95 ? [{ point, ci95 }] : [];
      });
      if (!gains.length) continue;
      // the leader: the candidate whose interval's low end is highest, or the baseline (1) when
      // no candidate is known to beat it
      const top = gains.reduce((best, one) => (one.ci95[0] > best.ci95[0] ? one : best));
      const leader =
        top.ci95[0] > 1
          ? { low: top.ci95[0], name: names.get(top.point.id) ?? top.point.id }
          : { low: 1, name: 'baseline' };
      for (const { point, ci95 } of gains)
        if (ci95[1] < leader.low) {
          point.session.stop = 'dropped';
          point.session.dropped = { round: index, leader: leader.name };
        }
      // the order is known once every interval still in contention, and the baseline's 1, lie apart
      const left = gains.filter(({ point }) => !point.session.stop);
      const contending = running.filter((point) => !point.session.stop);
      if (left.length === contending.length && apart(left.map(({ ci95 }) => ci95)))
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
 * Whether intervals lie apart from one another and from 1 (the baseline's gain).
 * @param {Array<[number, number]>} intervals
 */
function apart(intervals) {
  const all = [...intervals, /** @type {[number, number]} */ ([1, 1])].sort((a, b) => a[0] - b[0]);
  return all.every((interval, i) => i === 0 || all[i - 1][1] < interval[0]);
}
