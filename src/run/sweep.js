import { usageError } from '../errors.js';
import { stopReason } from '../stats/stopping.js';
import { calibrate } from './calibrate.js';
import { runCell } from './cell.js';
import { roundOrder } from './interleave.js';
import { buildPlan, fixedWork, warmupFor } from './plan.js';
import { sessionError, widthSoFar } from './session.js';

/** The most points a sweep runs without --force: past it a typo costs hours. */
export const MAX_POINTS = 64;

const MODES = /** @type {Array<'workers'|'procs'>} */ (['workers', 'procs']);

/**
 * What `sweep` was asked for: the axes (each a list of values; the points are their cartesian
 * product) and the options every point shares.
 * @typedef {object} SweepRequest
 * @property {{ node: Array<string|undefined>, variant: Array<{ name: string, env: Record<string, string> }>, task: Array<string|undefined>, file: Array<string|undefined>, params: Record<string, unknown[]>, k: Array<number|undefined> }} axes
 * @property {import('./plan.js').MeasureOptions} shared  iterations, duration, rounds, env, ...
 */

/**
 * One point of a sweep: the setting and the compare it runs.
 * @typedef {object} Point
 * @property {string} id  p1, p2, ... in table order
 * @property {{ node: string|undefined, variant: { name: string, env: Record<string, string> }, task: string|undefined, file: string|undefined, params: Record<string, unknown>, k: number|undefined }} at
 * @property {import('./plan.js').MeasureOptions} options
 */

/**
 * The points of a sweep, in table order: k varies fastest, then the task parameters, the file,
 * the variant, the task and the node, so rows that differ only in k sit together.
 * @param {SweepRequest} request
 * @returns {Point[]}
 */
export function sweepPoints({ axes, shared }) {
  const paramNames = Object.keys(axes.params);
  const lists = [axes.node, axes.task, axes.variant, axes.file, ...paramNames.map((name) => axes.params[name]), axes.k];
  const combos = product(lists);
  if (combos.length > MAX_POINTS && !shared.force) {
    const sizes = lists.map((values) => values.length).filter((n) => n > 1);
    throw usageError(
      `the sweep has ${combos.length} points (${sizes.join(' × ')}), more than ${MAX_POINTS}; shorten a list, or pass --force to run them all`,
    );
  }
  return combos.map(([node, task, variant, file, ...rest], index) => {
    const k = /** @type {number|undefined} */ (rest.pop());
    const params = Object.fromEntries(paramNames.map((name, i) => [name, rest[i]]));
    return {
      id: `p${index + 1}`,
      at: { node, task, variant, file, params, k },
      options: {
        ...shared,
        command: 'compare',
        node,
        task,
        file,
        k,
        params: { ...shared.params, ...params },
        env: { ...shared.env, ...variant.env },
      },
    };
  });
}

/**
 * @param {any[][]} lists
 * @returns {any[][]}
 */
const product = (lists) =>
  lists.reduce((combos, list) => combos.flatMap((combo) => list.map((value) => [...combo, value])), [[]]);

/**
 * Plans every point before anything runs, so a bad value at the last point is a usage error
 * now rather than a failure an hour in.
 * @param {Point[]} points
 * @param {{ interrupt?: AbortSignal }} [context]
 */
export async function planPoints(points, context) {
  const planned = [];
  for (const point of points) planned.push({ ...point, plan: await buildPlan(point.options, context) });
  return planned;
}

/**
 * @typedef {Point & { plan: Readonly<import('./plan.js').Plan>, session: import('./session.js').Session }} MeasuredPoint
 *
 * @typedef {object} SweepRun  what a sweep measured
 * @property {MeasuredPoint[]} points  each with its own session, as compare's
 * @property {Array<{ index: number, points: string[] }>} rounds  which points each round visited, in order
 * @property {import('../errors.js').MmapbenchError | null} error
 * @property {number} seconds
 * @property {number} budget  the wall-time budget of the whole sweep, in seconds
 */

/**
 * Runs every point's compare in shared rounds: a round visits each point still running, one
 * step further along each time (A B C, B C A, ...), both modes at each in alternating order,
 * so drift on the machine spreads over all the points rather than landing on the last ones.
 * A point stops on its own once its ratio is within --precision (or after --rounds); the whole
 * sweep stops when every point has, or when one more round would overrun the budget. A failure
 * or Ctrl-C keeps every finished cell.
 * @param {Array<Point & { plan: Readonly<import('./plan.js').Plan> }>} planned
 * @param {{ budget: number, interrupt?: AbortSignal, onCell?: (point: MeasuredPoint, round: import('./session.js').Round, mode: string) => void }} options
 * @returns {Promise<SweepRun>}
 */
export async function runSweep(planned, { budget, interrupt, onCell }) {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  /** @type {MeasuredPoint[]} */
  const points = planned.map((point) => ({
    ...point,
    session: { calibration: null, work: fixedWork(point.plan), rounds: [], error: null, stop: null, seconds: 0 },
  }));
  /** @type {SweepRun} */
  const run = { points, rounds: [], error: null, seconds: 0, budget };
  // a point's own time: its calibration and its cells, not the other points' in between
  const timed = async (point, work) => {
    const from = performance.now();
    try {
      return await work();
    } finally {
      point.session.seconds += (performance.now() - from) / 1000;
    }
  };
  try {
    for (const point of points) {
      if (point.session.work) continue;
      const calibration = await timed(point, () => calibrate(point.plan, interrupt));
      point.session.calibration = calibration;
      point.session.work = {
        iterations: calibration.iterations,
        warmup: point.plan.warmup ?? warmupFor(calibration.iterations),
      };
    }
    for (let index = 1; ; index++) {
      const running = points.filter((point) => !point.session.stop);
      if (!running.length) break;
      const roundStarted = elapsed();
      const visit = roundOrder(running, index);
      run.rounds.push({ index, points: visit.map((point) => point.id) });
      for (const point of visit) {
        const order = roundOrder(MODES, index);
        /** @type {import('./session.js').Round} */
        const round = { index, order, cells: {} };
        point.session.rounds.push(round);
        for (const mode of order) {
          round.cells[mode] = await timed(point, () => runCell(point.plan, point.session.work, mode, interrupt));
          onCell?.(point, round, mode);
        }
      }
      const roundSeconds = elapsed() - roundStarted;
      for (const point of visit) {
        point.session.stop = stopReason(
          { ...point.plan.stop, maxSeconds: Infinity },
          { ...widthSoFar(point.session, MODES), elapsedSeconds: 0, roundSeconds: 0 },
        );
      }
      // the budget is the sweep's: when one more round would overrun it, every point stops
      if (elapsed() + roundSeconds > budget) for (const point of points) point.session.stop ??= 'max-time';
    }
  } catch (caught) {
    run.error = sessionError(caught);
    // the points still running did not finish: each reports the error after its rounds
    for (const point of points.filter((p) => !p.session.stop)) {
      point.session.error = run.error;
      point.session.stop = run.error.kind === 'interrupted' ? 'interrupted' : 'failed';
    }
  }
  run.seconds = elapsed();
  return run;
}
