import { MmapbenchError } from '../errors.js';
import { startTrace } from '../system/trace/tracer.js';
import { calibrate } from './calibrate.js';
import { runCell } from './cell.js';
import { roundOrder } from './interleave.js';
import { ratioStats, roundRatio } from '../stats/ratio.js';
import { stopReason } from '../stats/stopping.js';
import { fixedWork, warmupFor } from './plan.js';

/**
 * @typedef {object} Round
 * @property {number} index  1-based
 * @property {Array<'workers'|'procs'>} order  the order its cells ran in
 * @property {Partial<Record<'workers'|'procs', import('../stats/cell.js').CellResult>>} cells
 * @property {Partial<Record<'workers'|'procs', object>>} [traced]  with --trace: the same cells
 *   run again under mmap-lock.bt, each with its `trace`
 */

/**
 * @typedef {object} Session  what a run learned and measured
 * @property {import('./calibrate.js').Calibration | null} calibration
 * @property {import('./plan.js').Work | null} work  iterations and warmup every cell ran
 * @property {Round[]} rounds  including a last, incomplete one if the run stopped inside it
 * @property {MmapbenchError | null} error  why the run stopped early, if it did
 * @property {'rounds'|'precision'|'max-time'|'interrupted'|'failed'|null} stop  why it stopped
 * @property {number} seconds  wall time from the start of the session, calibration included
 */

/**
 * Runs the plan's rounds. Modes alternate order round by round (A B, B A, ...) so drift on a
 * noisy machine hits both. A failure or Ctrl-C ends the loop but keeps every finished cell:
 * the caller reports them and then the error. With plan.trace, each mode also runs once under
 * bpftrace per round, before or after its untraced cell by turns, so the observer effect shows.
 * @param {import('./plan.js').Plan} plan
 * @param {Array<'workers'|'procs'>} modes
 * @param {{ interrupt?: AbortSignal, onCell?: (round: Round, mode: 'workers'|'procs') => void }} [hooks]
 * @returns {Promise<Session>}
 */
export async function runSession(plan, modes, { interrupt, onCell } = {}) {
  /** @type {Session} */
  const session = { calibration: null, work: fixedWork(plan), rounds: [], error: null, stop: null, seconds: 0 };
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  try {
    if (!session.work) {
      session.calibration = await calibrate(plan, interrupt);
      const { iterations } = session.calibration;
      session.work = { iterations, warmup: plan.warmup ?? warmupFor(iterations) };
    }
    for (let index = 1; index <= plan.rounds; index++) {
      const roundStarted = elapsed();
      const order = roundOrder(modes, index);
      const round = { index, order, cells: {} };
      session.rounds.push(round);
      for (const mode of order) {
        for (const traced of plan.trace ? roundOrder([false, true], index) : [false]) {
          // an A/A run keeps the arms' names (workers = A, procs = B) but runs plan.aa in both
          const runs = plan.aa ?? mode;
          if (!traced) round.cells[mode] = await runCell(plan, session.work, runs, interrupt);
          else
            (round.traced ??= {})[mode] = await runCell(plan, session.work, runs, interrupt, {
              trace: tracerFor(plan),
            });
          onCell?.(round, mode);
        }
      }
      session.stop = stopReason(plan.stop, {
        ...widthSoFar(session, modes),
        elapsedSeconds: elapsed(),
        roundSeconds: elapsed() - roundStarted,
      });
      if (session.stop) break;
    }
  } catch (error) {
    // Whatever went wrong, the rounds that finished are the caller's to report first.
    session.error = sessionError(error);
    session.stop = session.error.kind === 'interrupted' ? 'interrupted' : 'failed';
  }
  session.seconds = elapsed();
  return session;
}

/** What ended a run early, as the error the caller reports after the rounds that finished. */
export const sessionError = (error) =>
  error instanceof MmapbenchError ? error : new MmapbenchError(`internal error: ${error.message}`, { cause: error });

/** The interval so far: of the workers/procs ratio for compare; a single mode stops on count. */
export function widthSoFar(session, modes) {
  const complete = completeRounds(session, modes);
  if (modes.length !== 2) return { n: complete.length, ci95: null };
  const ratios = complete.map(roundRatio);
  return ratios.length ? { n: ratios.length, ci95: ratioStats(ratios).ci95 } : { n: 0, ci95: null };
}

// Every cell is a child of this process; the script follows descendants of the pid it is given.
const tracerFor = (plan) => ({
  window: plan.trace.window,
  start: () => startTrace({ bpftrace: plan.trace.bpftrace, root: process.pid }),
});

/** Rounds in which every mode finished: the only ones a ratio may be taken from. */
export const completeRounds = (session, modes) =>
  session.rounds.filter((round) => modes.every((mode) => round.cells[mode]));
