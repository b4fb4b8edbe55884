import { environmentError, usageError } from '../../errors.js';
import { buildPlan } from '../../run/plan.js';
import { armSteps, newSession, runRounds, stopOnWidthOrTime } from '../../run/scheduler.js';
import { raceOrTime } from '../../run/race.js';
import { MODES } from '../../words/spelling.js';

/** The most points a sweep runs without --force: past it a typo costs hours. */
export const MAX_POINTS = 64;

/** @typedef {import('../../run/plan.js').SweepRequest} SweepRequest */

/**
 * One setting of a sweep, where its axes cross: where it is and the compare it runs.
 * @typedef {object} SweepSetting
 * @property {string} id  p1, p2, ... in table order
 * @property {{ node: string|undefined, variant: { name: string, env: Record<string, string> }, task: string|undefined, file: string|undefined, params: Record<string, unknown>, k: number|undefined, cycles: number|undefined }} at
 * @property {import('../../run/plan.js').MeasureOptions} options
 */

/**
 * The points of a sweep, in table order: k varies fastest, then the task parameters, the file,
 * the variant, the task and the node, so rows that differ only in k sit together.
 * @param {SweepRequest} request
 * @returns {SweepSetting[]}
 */
export function sweepSettings({ axes, shared }) {
  const paramNames = Object.keys(axes.params);
  const lists = [
    axes.node,
    axes.task,
    axes.variant,
    axes.file,
    ...paramNames.map((name) => axes.params[name]),
    axes.cycles ?? [undefined],
    axes.k,
  ];
  const combos = product(lists);
  if (combos.length > MAX_POINTS && !shared.force) {
    const sizes = lists.map((values) => values.length).filter((n) => n > 1);
    throw usageError(
      `the sweep has ${combos.length} points (${sizes.join(' × ')}), more than ${MAX_POINTS}; shorten a list, or pass --force to run them all`,
    );
  }
  return combos.map(([node, task, variant, file, ...rest], index) => {
    const k = /** @type {number|undefined} */ (rest.pop());
    const cycles = /** @type {number|undefined} */ (rest.pop());
    const params = Object.fromEntries(paramNames.map((name, i) => [name, rest[i]]));
    return {
      id: `p${index + 1}`,
      at: { node, task, variant, file, params, k, cycles },
      options: {
        ...shared,
        command: 'compare',
        node,
        task,
        file,
        k,
        cycles: cycles ?? shared.cycles,
        params: { ...shared.params, ...params },
        env: { ...shared.env, ...variant.env },
        // a task a Node cannot run (readfilesync-into on Node 20) marks its point, not the sweep
        keepUnavailable: true,
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

/** @typedef {SweepSetting & { plan: Readonly<import('../../run/plan.js').Plan> }} PlannedSetting  a setting with the plan it runs */

/**
 * Plans every setting before anything runs, so a bad value at the last one is a usage error
 * now rather than a failure an hour in.
 * @param {SweepSetting[]} settings
 * @param {{ interrupt?: AbortSignal, say?: (line: string) => void, resumed?: import('../../run/plan.js').KeptK }} [context]
 * @returns {Promise<PlannedSetting[]>}
 */
export async function planSettings(settings, context) {
  const planned = [];
  for (const setting of settings) planned.push({ ...setting, plan: await buildPlan(setting.options, context) });
  return planned;
}

/**
 * A point's arms: both modes, or the one an advise candidate runs in alone (plan.only).
 * @param {Readonly<import('../../run/plan.js').Plan>} plan
 * @returns {Array<'workers'|'procs'>}
 */
export const armsOf = (plan) => (plan.only ? [plan.only] : MODES);

/**
 * @typedef {import('../../run/scheduler.js').Measurement & { at: SweepSetting['at'], options: SweepSetting['options'] }} SweepMeasurement
 *
 * @typedef {object} SweepRun  what a sweep measured
 * @property {SweepMeasurement[]} points  each with its own session, as compare's
 * @property {Array<{ index: number, points: string[] }>} rounds  which points each round visited, in order
 * @property {import('../../errors.js').MmapbenchError | null} error
 * @property {number} seconds
 * @property {number} budget  the wall-time budget of the whole sweep, in seconds
 */

/**
 * Runs every point's compare in shared rounds (run/scheduler.js): a round visits each point still
 * running, both modes at each in alternating order. A point stops on its own once its ratio is
 * within --precision (or after --rounds); the whole sweep stops when every point has, or when
 * one more round would overrun the budget. A failure or Ctrl-C keeps every finished cell.
 * @param {PlannedSetting[]} planned
 * @param {object} options
 * @param {number} options.budget
 * @param {AbortSignal} [options.interrupt]
 * @param {(point: SweepMeasurement, round: import('../../run/scheduler.js').Round, mode: string) => void} [options.onCell]
 * @param {(run: SweepRun) => void} [options.onRound]  after each point's round: the sweep so far
 * @param {{ sessions: Map<string, import('../../run/scheduler.js').Session>, rounds: SweepRun['rounds'], seconds: number }} [options.resumed]
 *   a kept sweep to go on from: its points' sessions by id, the rounds' visits, its time
 * @param {boolean} [options.isolate]  a point that fails stops alone (advise's candidates)
 * @param {import('../../run/race.js').RaceScore | false} [options.race]  the first point is a baseline its
 *   others race against (advise), by this score
 * @returns {Promise<SweepRun>}
 */
export async function runSweep(
  planned,
  { budget, interrupt, onCell, onRound, resumed, isolate = false, race = false },
) {
  /** @type {SweepMeasurement[]} */
  const points = planned.map((point) => {
    const kept = resumed?.sessions.get(point.id);
    return {
      ...point,
      arms: armsOf(point.plan),
      steps: armSteps(point.plan, armsOf(point.plan)),
      pilot: true,
      session: kept ? { ...kept, stop: null, error: null } : newSession(point.plan),
    };
  });
  const runnable = points.filter((point) => !point.plan.unavailable);
  if (!runnable.length)
    throw environmentError(
      `no point of the sweep can run here: ${points[0].plan.task.name} on Node ${points[0].plan.node.version}: ${points[0].plan.unavailable}`,
    );
  const run = await runRounds(runnable, {
    // advise's candidates race (run/race.js); a sweep's points stop on their own precision
    stop: race
      ? raceOrTime(budget, {
          names: new Map(planned.map((point) => [point.id, point.at.variant.name])),
          score: race,
        })
      : stopOnWidthOrTime(budget),
    budget,
    interrupt,
    onCell: (point, round, step) => onCell?.(/** @type {SweepMeasurement} */ (point), round, step.arm),
    onRound: (_, __, seconds, soFar) => onRound?.({ points, rounds: soFar.rounds, error: null, seconds, budget }),
    resumed,
    isolate,
  });
  return { points, rounds: run.rounds, error: run.error, seconds: run.seconds, budget };
}
