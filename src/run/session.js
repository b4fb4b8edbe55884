import { MmapbenchError } from '../errors.js';
import { startTrace } from '../system/trace/tracer.js';
import { calibrate } from './calibrate.js';
import { runCell } from './cell.js';
import { warmupFor } from './plan.js';

/**
 * @typedef {object} Round
 * @property {number} index  1-based
 * @property {Array<'workers'|'procs'>} order  the order its cells ran in
 * @property {Partial<Record<'workers'|'procs', import('../stats/cell.js').CellResult>>} cells
 * @property {Partial<Record<'workers'|'procs', object>>} [traced]  with --trace: the same cells
 *   run again under mmap-lock.bt, each with its `trace`
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
 * the caller reports them and then the error. With plan.trace, each mode also runs once under
 * bpftrace per round, before or after its untraced cell by turns, so the observer effect shows.
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
        for (const traced of variants(plan, index)) {
          if (!traced) round.cells[mode] = await runCell(plan, mode, interrupt);
          else (round.traced ??= {})[mode] = await runCell(plan, mode, interrupt, { trace: tracerFor(plan) });
          onCell?.(round, mode);
        }
      }
    }
  } catch (error) {
    // Whatever went wrong, the rounds that finished are the caller's to report first.
    session.error = error instanceof MmapbenchError ? error : new MmapbenchError(`internal error: ${error.message}`, { cause: error });
  }
  return session;
}

const variants = (plan, index) => (!plan.trace ? [false] : index % 2 === 1 ? [false, true] : [true, false]);

// Every cell is a child of this process; the script follows descendants of the pid it is given.
const tracerFor = (plan) => ({ window: plan.trace.window, start: () => startTrace({ bpftrace: plan.trace.bpftrace, root: process.pid }) });

/** Rounds in which every mode finished: the only ones a ratio may be taken from. */
export const completeRounds = (session, modes) =>
  session.rounds.filter((round) => modes.every((mode) => round.cells[mode]));
