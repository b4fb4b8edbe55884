// A compare's schedule, from where its own noise lives (stats/noise.js): once SCHEDULE_AT rounds
// have run at the window asked for, the split of their spread says which window length reaches
// the target soonest. Where that saves WORTH_CHANGING or more of the time still to go, every
// cell from then on runs the longer window, and the rounds so far count in no figure, as a
// pilot's do: every figure compares windows of one length. Where the trees hold the noise, a
// longer window only costs time, and the window stays. Its warm-up stays the one it had: a
// longer window is more timed ops, not a longer start (docs/how-it-measures.md, "The schedule").
import { noiseSplit, WORTH_CHANGING } from '../stats/noise.js';
import { phasesSummary } from '../stats/phases.js';
import { warmupBatchOf } from './work.js';

// rounds read before choosing: a split from fewer moves by more than the choice is worth
export const SCHEDULE_AT = 8;

/**
 * What the split of the first rounds chose.
 * @typedef {object} Scheduled
 * @property {number} after    the round after which it chose
 * @property {number} rounds   the complete rounds it read
 * @property {number} trees    their spread's share between fresh trees (0-1)
 * @property {number} windows  its share between windows of one tree
 * @property {number} scale    the window from then on, as a multiple of the one asked for: 1 kept it
 * @property {number} seconds  about how long the window asked for would still have taken
 * @property {number} floorSeconds  about how long the chosen one takes, its rounds from the first
 */

/**
 * After a complete round of a point whose plan lets the noise choose its window: reads the
 * split once SCHEDULE_AT rounds are in, and lengthens the window where that is worth it.
 * @param {{ arms: Array<'workers'|'procs'>, plan: Readonly<import('./plan.js').Plan>,
 *   session: { sizing: import('./pilot.js').Sizing | null, work: import('./plan.js').Work | null,
 *   rounds: Round[] }, schedule?: boolean }} point  a Measurement (scheduler.js)
 * @param {Round} round  the round just finished
 *
 * @typedef {import('../stats/cell-summary.js').RoundCells & { pilot?: true,
 *   scheduled?: { scale: number, windows: number } }} Round  a scheduler's round (scheduler.js)
 */
export function scheduleByNoise({ arms, plan, session, schedule }, round) {
  const { sizing, work } = session;
  if (!schedule || !plan.schedule || !sizing || !work || sizing.scheduled || arms.length !== 2) return;
  const complete = session.rounds.filter((one) => !one.pilot && arms.every((arm) => one.cells[arm]));
  if (complete.length < SCHEDULE_AT) return;
  const phases = phasesSummary(complete, arms);
  const split = noiseSplit({
    rounds: complete.map((one) => ({ complete: true, workers: one.cells.workers, procs: one.cells.procs })),
    config: { precision: plan.stop.precision },
    phases,
  });
  if (!split?.floor || split.seconds === null || !phases) return;
  const seconds = Math.max(0, split.seconds - (complete.length * phases.roundNs) / 1e9);
  const worth = split.floor.scale > 1 && split.floor.seconds <= (1 - WORTH_CHANGING) * seconds;
  const scale = worth ? split.floor.scale : 1;
  sizing.scheduled = {
    after: round.index,
    rounds: complete.length,
    trees: split.trees,
    windows: split.windows,
    scale,
    seconds,
    floorSeconds: split.floor.seconds,
  };
  if (!worth) return;
  session.work = {
    ...work,
    iterations: Math.round(work.iterations * scale),
    warmupBatch: warmupBatchOf(work),
  };
  for (const one of complete) one.pilot = true;
  round.scheduled = { scale, windows: split.windows };
}
