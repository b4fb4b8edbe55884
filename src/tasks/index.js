import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { usageError } from '../errors.js';

/** Built-in tasks, in the order `mmapbench tasks` lists them. */
export const BUILTIN_TASKS = [
  'readfilesync',
  'reuse-buffer',
  'readfilesync-into',
  'readfile-async',
  'pool-size',
  'alloc-unsafe',
  'crypto-random',
  'zlib',
  'json',
  'wasm-grow',
  'threadpool-clog',
  'fs-promises',
  'throttle',
];

/**
 * @typedef {object} TaskContext
 * @property {string} file      absolute path of the file the task reads
 * @property {number} fileSize  its size in bytes
 * @property {Record<string, any>} params  task parameters, defaults filled in
 * @property {number} index     0-based index of this worker or process
 * @property {number} k         how many run side by side
 * @property {'workers'|'procs'|'calibrate'} mode
 * @property {Record<string, any>} state  the task's own scratch space (setup -> run -> teardown)
 */

/**
 * @typedef {object} TaskParam
 * @property {string} description
 * @property {'integer'|'size'|'number'|'string'} [type]  default string
 * @property {any} [default]  left out: the parameter is undefined unless given
 * @property {any[]} [choices]
 */

/**
 * A figure a task measures besides its ops, returned by run() as `{ metrics: { name: number } }`
 * from every worker and combined across the cell's workers.
 * @typedef {object} TaskMetric
 * @property {string} description
 * @property {'ops/s'|'count'|'ms'|'ratio'} unit
 * @property {'sum'|'max'|'mean'} combine  across the workers of one cell
 */

/**
 * The interface of a task module, built-in or the user's own (default export, ESM or CommonJS).
 * @typedef {object} Task
 * @property {string} [name]
 * @property {string} [description]
 * @property {Record<string, TaskParam>} [params]
 * @property {Record<string, TaskMetric>} [metrics]
 * @property {string} [defaultFile]  what --file defaults to for this task
 * @property {string} [reference]  the published figure the task relates to, and its source
 * @property {TaskFix[]} [fixes]  the task's own fixes, which `advise` measures beside it
 * @property {(params: Record<string, any>) => string | null | Promise<string | null>} [unavailable]
 *   why the task cannot run on this Node (or machine), or null; asked once, on the Node the
 *   cells run on, before any cell starts
 * @property {(ctx: TaskContext) => void | Promise<void>} [setup]
 * @property {(ctx: TaskContext, iterations: number) => void | { metrics: Record<string, number> } | Promise<void | { metrics: Record<string, number> }>} run
 * @property {(ctx: TaskContext) => void | Promise<void>} [teardown]
 */

/**
 * One of a task's own fixes: the same work done another way, as another task (a built-in's
 * name, or a path relative to the task's own module) or as other parameters of this one.
 * @typedef {object} TaskFix
 * @property {string} name  how the ranking names it
 * @property {string} change  the change to the user's code, in a few words
 * @property {string} [task]  run this task instead
 * @property {Record<string, unknown>} [params]  with these parameters
 */

/**
 * @typedef {object} LoadedTask
 * @property {string} name
 * @property {string} description
 * @property {Record<string, TaskParam>} params
 * @property {Record<string, TaskMetric>} metrics
 * @property {string | undefined} defaultFile
 * @property {string | null} reference
 * @property {string} url       file URL the workers import
 * @property {string} spec      what --task said: a name or a path
 * @property {boolean} builtin
 * @property {boolean} checksNode  it has `unavailable`, to be asked on the cells' Node
 * @property {TaskFix[]} fixes
 */

/** @type {unknown[]} */
export const METRIC_UNITS = ['ops/s', 'count', 'ms', 'ratio'];
/** @type {unknown[]} */
export const METRIC_COMBINE = ['sum', 'max', 'mean'];
/** @type {unknown[]} */
export const PARAM_TYPES = ['integer', 'size', 'number', 'string'];

const isPlainObject = (/** @type {unknown} */ value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A task's `metrics` and `params` declarations, checked when it loads rather than mid-run.
 * @param {Record<string, any>} task  the module's export, not yet known to be a Task
 * @param {string} spec
 */
function checkDeclarations(task, spec) {
  const bad = (/** @type {string} */ what) => usageError(`task module ${spec}: ${what} (see examples/my-task.mjs)`);
  /** @type {Array<[string, (declaration: any) => string | null]>} */
  const checks = [
    ['metrics', checkMetric],
    ['params', checkParam],
  ];
  for (const [field, check] of checks) {
    if (task[field] === undefined) continue;
    if (!isPlainObject(task[field])) throw bad(`${field} must be an object keyed by name`);
    for (const [name, declaration] of Object.entries(task[field])) {
      if (!isPlainObject(declaration)) throw bad(`${field}.${name} must be an object`);
      const problem = check(declaration);
      if (problem) throw bad(`${field}.${name}.${problem}`);
    }
  }
}

/** @param {{ unit?: unknown, combine?: unknown }} declaration */
const checkMetric = ({ unit, combine = 'sum' }) =>
  !METRIC_UNITS.includes(unit)
    ? `unit must be one of ${METRIC_UNITS.join(', ')} (it is ${JSON.stringify(unit)})`
    : !METRIC_COMBINE.includes(combine)
      ? `combine must be one of ${METRIC_COMBINE.join(', ')} (it is ${JSON.stringify(combine)})`
      : null;

/** @param {{ type?: unknown, choices?: unknown }} declaration */
const checkParam = ({ type = 'string', choices }) =>
  !PARAM_TYPES.includes(type)
    ? `type must be one of ${PARAM_TYPES.join(', ')} (it is ${JSON.stringify(type)})`
    : choices !== undefined && !Array.isArray(choices)
      ? 'choices must be an array'
      : null;

/**
 * A task's `fixes`, checked when it loads: each names itself and its change, and says what it
 * runs instead (another task, other parameters, or both).
 * @param {unknown} fixes
 * @param {string} spec
 */
function checkFixes(fixes, spec) {
  if (fixes === undefined) return;
  const bad = (/** @type {string} */ what) => usageError(`task module ${spec}: ${what} (see examples/my-task.mjs)`);
  if (!Array.isArray(fixes)) throw bad('fixes must be an array of { name, change, task?, params? }');
  for (const [i, fix] of fixes.entries()) {
    if (!isPlainObject(fix) || typeof fix.name !== 'string' || typeof fix.change !== 'string')
      throw bad(`fixes[${i}] must have a name and a change, both strings`);
    if (fix.task !== undefined && typeof fix.task !== 'string')
      throw bad(`fixes[${i}].task must be a task's name or path`);
    if (fix.params !== undefined && !isPlainObject(fix.params)) throw bad(`fixes[${i}].params must be an object`);
    if (fix.task === undefined && fix.params === undefined) throw bad(`fixes[${i}] must give a task, params, or both`);
  }
}

const looksLikePath = (/** @type {string} */ spec) => /[/\\]/.test(spec) || /\.[cm]?js$/.test(spec);

/**
 * Resolves `--task NAME|PATH` and checks the module the way a worker will load it, so a broken
 * task is reported once, here, instead of K times from inside the cell.
 * @param {string} spec
 * @returns {Promise<LoadedTask>}
 */
export async function loadTask(spec, cwd = process.cwd()) {
  let url;
  let builtin = false;
  if (BUILTIN_TASKS.includes(spec)) {
    url = new URL(`./${spec}.js`, import.meta.url).href;
    builtin = true;
  } else if (looksLikePath(spec)) {
    const path = resolve(cwd, spec);
    if (!existsSync(path))
      throw usageError(
        `task module ${spec} not found (looked at ${path}); pass a path to a .js/.mjs/.cjs file or a built-in task (see \`mmapbench tasks\`)`,
      );
    url = pathToFileURL(path).href;
  } else {
    throw usageError(
      `unknown task "${spec}"; built-in tasks are ${BUILTIN_TASKS.join(', ')}, or pass a path such as ./my-task.js`,
    );
  }

  let module;
  try {
    module = await import(url);
  } catch (error) {
    throw usageError(`task module ${spec} failed to load: ${error.message}; check that \`node ${spec}\` runs`, error);
  }
  const task = module.default ?? module;
  if (typeof task?.run !== 'function') {
    const has = task && typeof task === 'object' ? Object.keys(task).join(', ') || 'nothing' : typeof task;
    throw usageError(
      `task module ${spec} has no run(ctx, iterations) function (it exports ${has}); export default { run(ctx, iterations) { ... } } (see examples/my-task.mjs)`,
    );
  }
  for (const hook of ['setup', 'teardown', 'unavailable']) {
    if (task[hook] !== undefined && typeof task[hook] !== 'function') {
      throw usageError(`task module ${spec}: ${hook} must be a function or left out`);
    }
  }
  checkDeclarations(task, spec);
  checkFixes(task.fixes, spec);
  return {
    name: task.name ?? spec,
    description: task.description ?? '',
    params: task.params ?? {},
    metrics: task.metrics ?? {},
    defaultFile: task.defaultFile,
    reference: task.reference ?? null,
    url,
    spec,
    builtin,
    checksNode: typeof task.unavailable === 'function',
    fixes: task.fixes ?? [],
  };
}
