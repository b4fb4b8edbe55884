// A calibrated point's first round as its pilot: the cells resized to the window asked for.
import { fewestOps } from './work.js';

/**
 * How the first round sized a calibrated point's cells.
 * @typedef {object} Sizing
 * @property {number} targetNs      the window asked for (--duration)
 * @property {number} calibrated    ops per worker from the calibration
 * @property {number} pilotWindowNs the first round's timed window with them, mean over its cells
 * @property {number} iterations    ops per worker from then on
 * @property {boolean} resized      false: the calibration was close enough, and the first round counts
 * @property {Partial<Record<'workers'|'procs', number>>} [byMode]  each mode's ops per worker,
 *   when a task that talks to its parent was sized mode by mode
 * @property {import('./schedule.js').Scheduled} [scheduled]  what the split of the first rounds
 *   chose (schedule.js)
 */

// The calibration times single ops in one fresh, uncontended process, and its count for the
// same window varies several-fold between runs. The first round's cells, run as every cell runs,
// say what those ops really take. More than a quarter shorter or half again as long as asked, the
// cells are resized to the window asked for, and that round, whose windows were another length,
// counts in no figure. Longer is let go further: it costs only its length, where a pilot costs a
// whole round, and cells run a little slower than the uncontended calibration as a rule, so a
// tolerance as tight as the shorter side's would pilot nearly every run
// (docs/how-it-measures.md, "Figures behind the defaults").
const SIZE_TOLERANCE = { shorter: 1.25, longer: 1.5 };
// the modes' first windows this far apart, a task that talks to its parent sizes each mode alone
const SPLIT_MODES = 4;

/**
 * Sizes a calibrated point's cells by its first complete round.
 * @param {{ arms: Array<'workers'|'procs'>, plan: Readonly<import('./plan.js').Plan>,
 *   session: { work: import('./plan.js').Work | null, sizing: Sizing | null } }} point  a Measurement (scheduler.js)
 * @param {import('../stats/cell-summary.js').RoundCells & { pilot?: true }} round  the point's
 *   first round, each arm's untraced cell run
 */
export function sizeByPilot(point, round) {
  const work = /** @type {import('./plan.js').Work} */ (point.session.work);
  const windows = point.arms.map(
    (arm) => /** @type {import('../stats/cell-summary.js').CellResult} */ (round.cells[arm]).elapsedNs,
  );
  const pilotWindowNs = windows.reduce((a, b) => a + b, 0) / windows.length;
  const targetNs = /** @type {number} */ (point.plan.duration) * 1e9;
  const factor = targetNs / Math.max(pilotWindowNs, 1);
  const calibrated = work.iterations;
  // A task that talks to its parent can be tens of times faster in one mode (a Buffer sent to a
  // thread, or to a process as JSON): the same ops would give the faster mode windows of a few
  // milliseconds, mostly their edges. Each mode gets its own ops for the window asked; the ratio
  // is one of throughputs, so it reads the same.
  const apart = windows.length === 2 && Math.max(...windows) > SPLIT_MODES * Math.min(...windows);
  if (point.plan.task?.parent && apart) {
    const byMode = Object.fromEntries(
      point.arms.map((arm, i) => [arm, Math.max(1, Math.round((calibrated * targetNs) / Math.max(windows[i], 1)))]),
    );
    point.session.work = { ...work, byMode };
    round.pilot = true;
    point.session.sizing = { targetNs, calibrated, pilotWindowNs, iterations: calibrated, resized: true, byMode };
    return;
  }
  const resized = factor > SIZE_TOLERANCE.shorter || factor < 1 / SIZE_TOLERANCE.longer;
  if (resized) {
    point.session.work = { ...work, iterations: Math.max(fewestOps(point.plan), Math.round(calibrated * factor)) };
    round.pilot = true;
  }
  point.session.sizing = {
    targetNs,
    calibrated,
    pilotWindowNs,
    iterations: /** @type {import('./plan.js').Work} */ (point.session.work).iterations,
    resized,
  };
}
