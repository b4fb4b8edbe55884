import { MARGIN } from '../../stats/sequential.js';
import { cpusOf } from '../../system/cpus.js';
import { completeRounds } from '../../run/scheduler.js';
import { armsOf } from './points.js';
import { scaling } from '../../stats/scaling.js';
import { sweepShortfall } from '../../stats/stopping.js';
import { endOf } from '../../saved/save.js';
import { buildPoint } from '../compare/document.js';
import { SCHEMA, version } from '../../version.js';

/**
 * The axes as measured: each a list of values, in the order the points walk them. Node is
 * named by path and the version it reported; a file by its label and path.
 * @typedef {{ k: number[], cycles: number[], file: string[], task: string[], variant: Array<{ name: string, env: Record<string, string> }>, node: Array<{ path: string, version: string }>, params: Record<string, unknown[]>, readsFile?: false }} Axes
 *   readsFile: false when no point's task reads the file (no header names it)
 */

/**
 * The sweep's results document (docs/json.md): every point's compare, the rounds' order, and
 * the scaling reading of a k axis. Every figure in it was measured in this run.
 * @param {import('./points.js').SweepRun} run
 * @param {{ environment: import('../../document/document.js').Environment, machine: import('../../system/machine-load.js').MachineCheck | null,
 *   stop: import('../../stats/stopping.js').StopRule, quick: boolean }} context  stop: the points'
 *   rule (their first's: they share it)
 */
export function buildSweepDocument(run, { environment, machine, stop, quick }) {
  const { rounds } = stop;
  const { error } = run;
  // the CPUs the header names: read once, with the machine, not again after every round
  const cores = cpusOf(environment.cpu);
  const points = run.points.map((point) => {
    const { config, point: measured } = buildPoint(point.plan, point.session, armsOf(point.plan));
    const { status, error: failed } = endOf(point.session.error);
    const { plan } = point;
    return {
      id: point.id,
      k: plan.k,
      // how many times each cell's parent started, ran and ended its workers (--cycles)
      cycles: plan.end.cycles,
      file: plan.file,
      task: plan.task.name,
      metrics: plan.task.metrics ?? {},
      params: plan.params,
      variant: point.at.variant,
      node: plan.node,
      oversubscribed: plan.k > cores,
      // a point whose task cannot run on its Node ran no cell: why, in the task's words
      status: plan.unavailable ? 'unavailable' : status,
      unavailable: plan.unavailable,
      // a point that failed alone (an advise candidate): why
      ...(failed && status === 'failed' ? { error: failed } : {}),
      config: pointConfig(config),
      // its figures and rounds, as a compare's point (through a pool: its pool, batch and dispatch)
      ...measured,
      // an advise candidate raced out: after which round, below which leader (run/race.js)
      ...(point.session.dropped ? { dropped: point.session.dropped } : {}),
    };
  });
  const maxTime = rounds === null ? run.budget : null;
  // as a compare's: a budget that ran out before a point had an interval says what would do
  const short = sweepShortfall(points, { maxTime, seconds: run.seconds });
  return {
    mmapbench: version,
    schema: SCHEMA,
    command: 'sweep',
    ...endOf(error),
    axes: axesOf(run.points),
    config: {
      precision: rounds === null && !stop.sequential ? stop.precision : null,
      ...(rounds === null && stop.sequential ? { sequential: true } : {}),
      margin: stop.margin ?? MARGIN,
      maxTime,
      rounds,
      quick,
    },
    seconds: run.seconds,
    machine,
    environment,
    order: run.rounds,
    points,
    scaling: scalingGroups(run.points, points, cores),
    ...(short ? { shortBudget: short } : {}),
  };
}

/**
 * What a point's cells did that the sweep's axes do not say: its work, its environment.
 * @param {import('../../document/document.js').ResultsDocument['config']} config  its compare document's
 */
const pointConfig = (config) => ({
  iterations: config.iterations,
  ...(config.iterationsByMode ? { iterationsByMode: config.iterationsByMode } : {}),
  warmup: config.warmup,
  duration: config.duration,
  env: config.env,
  timeout: config.timeout,
  ...(config.semiSpaceMb ? { semiSpaceMb: config.semiSpaceMb } : {}),
});

/**
 * @typedef {ReturnType<typeof buildSweepDocument> & { advice?: import('../advise/types.js').Advice }} SweepDocument
 *   advice: an `advise` run's ranking (its command is then `advise`)
 * @typedef {SweepDocument['points'][number]} SavedPoint
 */

/**
 * Each axis's values, in the order the points first use them.
 * @param {import('./points.js').SweepMeasurement[]} points
 * @returns {Axes}
 */
function axesOf(points) {
  /** @type {<T>(values: T[]) => T[]} */
  const distinct = (values) => [...new Map(values.map((value) => [JSON.stringify(value), value])).values()];
  /** @type {Record<string, unknown[]>} */
  const params = {};
  for (const name of Object.keys(points[0]?.at.params ?? {}))
    params[name] = distinct(points.map((point) => point.plan.params[name]));
  return {
    k: distinct(points.map((point) => point.plan.k)),
    cycles: distinct(points.map((point) => point.plan.end.cycles)),
    file: distinct(points.map((point) => point.plan.file.label)),
    task: distinct(points.map((point) => point.plan.task.name)),
    variant: distinct(points.map((point) => point.at.variant)),
    node: distinct(points.map((point) => ({ path: point.plan.node.path, version: point.plan.node.version }))),
    params,
    ...(points.length && points.every((point) => !point.plan.task.readsFile) ? { readsFile: false } : {}),
  };
}

/**
 * For a k axis, the scaling reading of each group of points that differ only in k.
 * @param {import('./points.js').SweepMeasurement[]} measured
 * @param {Array<{ id: string, k: number, ratio: import('../../document/document.js').ResultsDocument['ratio'] }>} points  the same, as saved
 * @param {number} cpus  the CPUs this process may use: no K above is recommended
 * @returns {Array<{ points: string[] } & import('../../stats/scaling.js').Scaling>}
 */
function scalingGroups(measured, points, cpus) {
  /** @type {Map<string, Array<{ point: import('./points.js').SweepMeasurement, document: typeof points[number] }>>} */
  const groups = new Map();
  measured.forEach((point, i) => {
    const { k, ...rest } = point.at;
    const key = JSON.stringify(rest);
    groups.set(key, [...(groups.get(key) ?? []), { point, document: points[i] }]);
  });
  return [...groups.values()]
    .filter((group) => new Set(group.map(({ document }) => document.k)).size > 1)
    .map((group) => ({
      points: group.map(({ document }) => document.id),
      ...scaling(
        group.map(({ point, document }) => ({
          k: document.k,
          rounds: completeRounds(point.session, armsOf(point.plan)).flatMap(({ cells: { workers, procs } }) =>
            workers && procs ? [{ workers, procs }] : [],
          ),
          ratio: document.ratio ?? null,
        })),
        { cpus },
      ),
    }));
}
