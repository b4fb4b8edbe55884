// Whether a kept run may go on: its new rounds are averaged with the kept ones into one ratio,
// so they must measure what the kept rounds measured. Decided from the rounds themselves where
// they say it (the workers a cell ran, the ops each did, the arms an A/A run had), and from the
// settings that shaped them where they do not (task, file, protocol, --quick), never from the
// options a person may have edited to ask for something else. compare, sweep and advise ask it.
import { usageError } from '../errors.js';
import { MODES } from '../words/spelling.js';

/**
 * What a kept point's rounds ran: a compare's document, or one point of a sweep.
 * @typedef {{ k: number, task: string, module: string | null | undefined, file: string | undefined,
 *   fileSize: number | undefined, protocol: string | undefined, aa: string | null | undefined, quick: boolean,
 *   params: unknown, pool: string | null, isolate: boolean | undefined }} Setting  undefined: a field the file
 *   does not keep, so not compared; pool: the pool's name, null for a raw run
 */

/**
 * The pool a kept point ran through, as its document names it, and whether its rounds say so
 * (a pool cell keeps its pool's own share, `pool`, a raw one none).
 * @param {any} point
 */
const keptPool = (point) => ({
  pool: typeof point.pool?.name === 'string' ? point.pool.name : null,
  isolate: point.pool ? Boolean(point.pool.isolate) : undefined,
});

/**
 * What the kept file says its rounds ran.
 * @param {any} point  a compare's document, or a sweep's point
 * @param {any} document  the whole document (a sweep's, for --quick)
 * @returns {Setting}
 */
function keptSetting(point, document) {
  const { config } = point;
  // a sweep's point names its task and file beside its config, which keeps its work alone
  if (document.command !== 'compare' && document.command !== 'workers' && document.command !== 'procs')
    return {
      k: point.k,
      task: point.task,
      module: undefined,
      file: point.file?.path,
      fileSize: point.file?.size,
      protocol: config.protocol,
      aa: undefined,
      quick: Boolean(document.config?.quick),
      params: point.params ?? {},
      ...keptPool(point),
    };
  return {
    k: config.k,
    task: config.task?.name,
    module: config.task?.module ?? null,
    file: config.file?.path,
    fileSize: config.file?.size,
    protocol: config.protocol,
    aa: document.aa ?? null,
    quick: Boolean(config.quick),
    params: config.params ?? {},
    ...keptPool(point),
  };
}

/**
 * What new rounds of `plan` would run.
 * @param {import('../run/plan.js').Plan} plan
 * @returns {Setting}
 */
const plannedSetting = (plan) => ({
  k: plan.k,
  task: plan.task.name,
  module: plan.task.builtin ? null : plan.task.url,
  file: plan.file.path,
  fileSize: plan.file.size,
  protocol: plan.protocol,
  aa: plan.aa,
  quick: plan.quick,
  params: plan.params,
  pool: plan.pool?.name ?? null,
  isolate: plan.pool ? plan.pool.isolate : undefined,
});

/** The fields compared, with the option that sets each, as a resumed file names it. */
const SETTINGS = /** @type {const} */ ([
  ['task', 'task'],
  ['module', 'task'],
  ['file', 'file'],
  ['fileSize', 'file'],
  ['protocol', 'protocol'],
  ['aa', 'aa'],
  ['quick', 'quick'],
  ['params', 'params'],
  ['pool', 'pool'],
  ['isolate', 'isolate'],
]);

const shown = (/** @type {unknown} */ value) =>
  value === null || value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Refuses to go on with a kept point whose rounds measured something other than what new rounds
 * of `plan` would: another k (the workers each kept cell ran), task, file, protocol, A/A arm or
 * --quick; or work (ops a worker) other than what its rounds did, or that would not fit a
 * cell's --timeout at the pace its calibration measured.
 * @param {any} point  a compare's document, or a sweep's point
 * @param {any} document  the whole kept document
 * @param {import('../run/plan.js').Plan} plan  what new rounds would run
 * @param {{ path: string, field: string, at?: string }} where  the file; the field its settings
 *   are in (`resume`, `resume.axes`); the point, in a sweep (`point p2`)
 */
export function checkContinues(point, document, plan, { path, field, at = '' }) {
  const refuse = (/** @type {string} */ why) =>
    usageError(`--resume ${path}${at ? ` (${at})` : ''}: ${why}; restore the file or start a new run`);
  const then = keptSetting(point, document);
  const now = plannedSetting(plan);
  const rounds = Array.isArray(point.rounds) ? point.rounds : [];
  for (const round of rounds)
    for (const mode of MODES) {
      const ran = round?.[mode]?.workers;
      if (Array.isArray(ran) && ran.length && ran.length !== now.k)
        throw refuse(
          `${field}.k asks for ${now.k} workers, but round ${round.index} ran ${ran.length} in ${mode} (the rounds' own count is the truth)`,
        );
      // an A/A run's second arm runs the first's mode, under the name procs
      const arm = round?.[mode]?.mode;
      if (mode === 'procs' && typeof arm === 'string' && (arm === 'procs' ? null : arm) !== now.aa)
        throw refuse(`${field}.aa is ${shown(now.aa)}, but round ${round.index}'s second arm ran ${arm}`);
      // a pool cell keeps its pool's share of the window; a raw one has none
      const cell = round?.[mode];
      if (cell && typeof cell === 'object' && Boolean(cell.pool) !== Boolean(now.pool))
        throw refuse(
          now.pool
            ? `${field}.pool asks for pool ${now.pool}, but round ${round.index}'s ${mode} cell ran without a pool`
            : `${field}.pool asks for no pool, but round ${round.index}'s ${mode} cell ran through one`,
        );
    }
  if (then.k !== now.k) throw refuse(`${field}.k is ${now.k}, but its rounds ran at k ${then.k}`);
  for (const [name, option] of SETTINGS) {
    if (then[name] === undefined) continue;
    if (JSON.stringify(then[name]) !== JSON.stringify(now[name]))
      throw refuse(
        `${field}.${option} asks for ${option} ${shown(now[name])}, but its rounds ran ${shown(then[name])}`,
      );
  }
  checkWork(point, plan, refuse, field);
}

/**
 * The work a kept point goes on with (config.iterations, and the sizing it came from) is the
 * work its rounds did, and fits a cell's --timeout.
 * @param {any} point
 * @param {import('../run/plan.js').Plan} plan
 * @param {(why: string) => Error} refuse
 * @param {string} field
 */
function checkWork(point, plan, refuse, field) {
  const { config } = point;
  const iterations = config.iterations;
  if (iterations === null || iterations === undefined) return;
  if (!Number.isSafeInteger(iterations) || iterations < 1)
    throw refuse(`config.iterations must be a whole number of ops a worker (it is ${iterations})`);
  // through a pool, the window is whole pool tasks of `batch` ops, which the pool gives to
  // whichever worker is free: the cell's ops, not each worker's, are the work
  const batch = point.pool ? point.pool.batch : null;
  if (point.pool && (!Number.isSafeInteger(batch) || batch < 1))
    throw refuse(`pool.batch must be a whole number of ops a pool task (it is ${shown(batch)})`);
  const asked = plan.pool?.batch ?? null;
  if (batch && asked !== null && asked !== batch)
    throw refuse(`${field}.batch asks for ${asked} ops a pool task, but its rounds ran ${batch}`);
  for (const round of point.rounds ?? []) {
    if (round?.pilot) continue; // a pilot ran other work, as it may
    for (const mode of MODES) {
      const expected = config.iterationsByMode?.[mode] ?? iterations;
      const workers = round?.[mode]?.workers ?? [];
      if (batch) {
        const whole = Math.ceil((plan.k * expected) / batch) * batch;
        const ops = workers.reduce(
          (/** @type {number} */ sum, /** @type {any} */ worker) => sum + (worker?.ops ?? 0),
          0,
        );
        if (workers.length && ops !== whole)
          throw refuse(
            `config.iterations says ${expected} ops a worker, ${whole} in whole pool tasks of ${batch} for ${plan.k}, but round ${round.index}'s ${mode} cell ran ${ops}`,
          );
        continue;
      }
      const ran = workers.find((/** @type {any} */ worker) => worker?.ops !== expected);
      if (ran)
        throw refuse(
          `config.iterations says ${expected} ops a worker, but in round ${round.index} ${mode}' worker ${ran.index} ran ${ran.ops}`,
        );
    }
  }
  if (plan.iterations !== undefined && plan.iterations !== null && plan.iterations !== iterations)
    throw refuse(`${field}.iterations is ${plan.iterations}, but its rounds ran ${iterations} ops a worker`);
  const sizing = point.sizing;
  const scale = sizing?.scheduled?.scale ?? 1;
  if (sizing?.iterations !== undefined && scale > 1 && Math.round(sizing.iterations * scale) !== iterations)
    throw refuse(
      `sizing.iterations ${sizing.iterations} lengthened ${scale}x is not the ${iterations} ops config.iterations says its rounds ran`,
    );
  // at the pace the run calibrated, one window of the kept work must end within a cell's timeout
  const meanNs = point.calibration?.meanNs;
  const most = Math.max(iterations, ...Object.values(config.iterationsByMode ?? {}).map(Number));
  if (typeof meanNs === 'number' && meanNs > 0 && (most * meanNs) / 1e9 > plan.timeout)
    throw refuse(
      `config.iterations ${most} would take ${Math.round((most * meanNs) / 1e9)} s a window at the ${Math.round(meanNs)} ns an op it calibrated, more than a cell's --timeout ${plan.timeout} s`,
    );
}

/**
 * What names a sweep's point whatever its place in the table: the values it was measured at.
 * @param {{ k: number, task: string, file: string, params: unknown, variant: string, node: string, cycles: unknown }} at
 */
const pointKey = (at) => JSON.stringify([at.k, at.task, at.file, at.params, at.variant, at.node, at.cycles]);

/**
 * A kept sweep's planned points, each under the id of the kept point measured at its values, in
 * the kept table's order: kept rounds attach by what they measured, never by place, so a resumed
 * file whose axes were reordered goes on as it was. Axes that ask for points other than the kept
 * ones are refused, naming a point they would add or drop: no kept point is left out of the file
 * and no new one runs beside rounds of another request.
 * @template {{ id: string, at: { variant: { name: string } }, plan: import('../run/plan.js').Plan }} P
 * @param {P[]} planned
 * @param {any} document  the kept sweep
 * @param {string} path
 * @param {{ asks: string, field: string, fix: string }} [planning]  what planned the points (a
 *   sweep's axes, or the candidates an advise run finds on the machine), the field of the file
 *   that set their work, and how to mend it
 * @returns {P[]}
 */
export function keptPoints(
  planned,
  document,
  path,
  { asks, field, fix } = {
    asks: 'resume.axes',
    field: 'resume.axes',
    fix: 'restore resume.axes as the run began, or start a new run',
  },
) {
  const refuse = (/** @type {string} */ why) => usageError(`--resume ${path}: ${why}; ${fix}`);
  const describe = (/** @type {any} */ at) =>
    `k ${at.k}, ${at.task}, ${at.file}${at.variant && at.variant !== 'default' ? `, ${at.variant}` : ''}`;
  const ofPlanned = (/** @type {P} */ point) => ({
    k: point.plan.k,
    task: point.plan.task.name,
    file: point.plan.file.path,
    params: point.plan.params,
    variant: point.at.variant.name,
    node: point.plan.node.path,
    cycles: point.plan.end.cycles,
  });
  /** @type {Map<string, P>} */
  const byKey = new Map();
  for (const point of planned) byKey.set(pointKey(ofPlanned(point)), point);
  const kept = /** @type {any[]} */ (document.points ?? []);
  const matched = kept.map((point) => {
    const at = {
      k: point.k,
      task: point.task,
      file: point.file?.path,
      params: point.params ?? {},
      variant: point.variant?.name,
      node: point.node?.path,
      // a file from before points kept their cycles ran each cell's workers once
      cycles: point.cycles ?? 1,
    };
    const found = byKey.get(pointKey(at));
    if (!found)
      throw refuse(
        `${asks} no longer asks for point ${point.id} (${describe(at)}), which kept ${point.rounds?.length ?? 0} rounds`,
      );
    return { kept: point, planned: found };
  });
  const taken = new Set(matched.map(({ planned: one }) => one));
  const added = planned.find((point) => !taken.has(point));
  if (added) throw refuse(`${asks} asks for a point the kept run never planned (${describe(ofPlanned(added))})`);
  return matched.map(({ kept: point, planned: one }) => {
    checkContinues(point, document, one.plan, { path, field, at: `point ${point.id}` });
    return { ...one, id: point.id };
  });
}
