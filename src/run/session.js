import { MmapbenchError } from '../errors.js';
import { calibrate } from './calibrate.js';
import { runCell } from './cell.js';
import { warmupFor } from './plan.js';

/**
 * @typedef {object} Round
 * @property {number} index  1-based
 * @property {Array<'workers'|'procs'>} order  the order its cells ran in
 * @property {Partial<Record<'workers'|'procs', import('../stats/cell.js').CellResult>>} cells
 */

/**
 * @typedef {object} Session
 * @property {import('./calibrate.js').Calibration | null} calibration
 * @property {Round[]} rounds  including a last, incomplete one if the run stopped inside it
 * @property {MmapbenchError | null} error  why the run stopped early, if it did
 */

/**
 * Runs the plan's rounds. Modes alternate order round by round (A B, B A, ...) so drift on a
 * noisy machine hits both. A failure or Ctrl-C ends the loop but keeps every finished cell:
 * the caller reports them and then the error.
 * @param {import('./plan.js').Plan} plan
 * @param {Array<'workers'|'procs'>} modes
 * @returns {Promise<Session>}
 */
export async function runSession(plan, modes, { interrupt, onCell } = {}) {
  /** @type {Session} */
  const session = { calibration: null, rounds: [], error: null };
  try {
    if (plan.iterations === null) {
      session.calibration = await calibrate(plan, interrupt);
      plan.iterations = session.calibration.iterations;
    }
    if (plan.warmup === null) plan.warmup = warmupFor(plan.iterations);
    for (let index = 1; index <= plan.rounds; index++) {
      const order = index % 2 === 1 ? modes : [...modes].reverse();
      const round = { index, order, cells: {} };
      session.rounds.push(round);
      for (const mode of order) {
        round.cells[mode] = await runCell(plan, mode, interrupt);
        onCell?.(round, mode);
      }
    }
  } catch (error) {
    if (!(error instanceof MmapbenchError)) throw error;
    session.error = error;
  }
  return session;
}

/** Rounds in which every mode finished: the only ones a ratio may be taken from. */
export const completeRounds = (session, modes) =>
  session.rounds.filter((round) => modes.every((mode) => round.cells[mode]));
