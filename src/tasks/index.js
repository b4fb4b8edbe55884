import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { usageError } from '../errors.js';
import { escapeText } from '../escape.js';
import { runBoxed } from '../system/containment.js';
import { notAFile, sha256Of } from '../system/safe-fs.js';
import { describeExport, MARK } from './declared.js';

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
  'message',
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
 * @property {ParentChannel} [parent]  a built-in task that declares `parent: true` (message):
 *   the channel to the worker's parent, which sends every request straight back
 */

/**
 * What a task that talks to its parent gets as `ctx.parent` (run/parent-channel.js makes it).
 * @typedef {object} ParentChannel
 * @property {(value: unknown, transfer?: import('node:worker_threads').TransferListItem[]) => Promise<unknown>} request
 *   sends `value` (moving what `transfer` lists, in workers mode) and resolves with what came back
 * @property {() => void} [close]  ends a parent this module started (the calibration's)
 */

/**
 * @typedef {object} TaskParam
 * @property {string} description
 * @property {'integer'|'size'|'number'|'string'|'path'} [type]  default string; a path is resolved
 *   against the working directory
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
 * The interface of a task module, built-in or the user's own (default export, ESM or CommonJS):
 * what every task may have, and one of `op` and `run`, never both.
 * @typedef {TaskShape & ({ op: TaskOp, run?: undefined } | { run: TaskRun, op?: undefined })} Task
 */
/** One op, sync or async: the harness loops, awaiting an async op before the next, and times ops one by one. @typedef {(ctx: TaskContext) => unknown} TaskOp */
/**
 * The timed loop, for a task that must own it: called once per cell with all its ops.
 * @typedef {(ctx: TaskContext, iterations: number) => void | { metrics: Record<string, number> } | Promise<void | { metrics: Record<string, number> }>} TaskRun
 */

/**
 * What a task module has besides its op or its loop.
 * @typedef {object} TaskShape
 * @property {string} [name]
 * @property {string} [description]
 * @property {Record<string, TaskParam>} [params]
 * @property {Record<string, TaskMetric>} [metrics]
 * @property {string} [defaultFile]  what --file defaults to for this task
 * @property {boolean} [readsFile]  false: its ops read no file (`ctx.file`), so no header names one
 * @property {string} [reference]  the published figure the task relates to, and its source
 * @property {TaskFix[]} [fixes]  the task's own fixes, which `advise` measures beside it
 * @property {boolean} [parent]  built-in tasks only: an op is a round trip to the worker's parent
 *   (`ctx.parent`), awaited before the next, so each op is timed on its own though run is async
 * @property {(params: Record<string, any>, modes: Array<'workers'|'procs'>) => string | null} [checkParams]
 *   built-in tasks only: why these parameters cannot be measured in these modes (a usage error,
 *   before any cell), or null
 * @property {(params: Record<string, any>) => TaskFix[]} [fixesFor]  built-in tasks only: the
 *   fixes for these parameters, in place of `fixes` (message: the shapes and serializations
 *   the given one is not)
 * @property {(params: Record<string, any>) => string | null | Promise<string | null>} [unavailable]
 *   why the task cannot run on this Node (or machine), or null; asked once, on the Node the
 *   cells run on, before any cell starts
 * @property {(ctx: TaskContext) => void | Promise<void>} [setup]
 * @property {(ctx: TaskContext) => void | Promise<void>} [teardown]
 * @property {(context: { params: Record<string, any>, size: number, index: number, state: object }) => unknown} [request]
 *   the app's own request, served on the parent's main thread while the workers run (in place of
 *   the default one, --request-size bytes allocated and filled)
 */

/**
 * One of a task's own fixes: the same work done another way, as another task (a built-in's
 * name, or a path relative to the task's own module) or as other parameters of this one.
 * @typedef {object} TaskFix
 * @property {string} name  how the ranking names it
 * @property {string} change  the change to the user's code, in a few words
 * @property {string} [task]  run this task instead
 * @property {Record<string, unknown>} [params]  with these parameters
 * @property {'workers'|'procs'} [mode]  the one mode the change applies to: measured and ranked
 *   in that mode alone (a transfer list exists only between threads)
 */

/**
 * @typedef {object} LoadedTask
 * @property {string} name
 * @property {string} description
 * @property {Record<string, TaskParam>} params
 * @property {Record<string, TaskMetric>} metrics
 * @property {string | undefined} defaultFile
 * @property {boolean} readsFile  its ops read the run's file (Task.readsFile)
 * @property {string | null} reference
 * @property {string} url       file URL the workers import
 * @property {string} spec      what --task said: a name or a path
 * @property {string | null} sha256  a user's module: its file's SHA-256 when it loaded (what
 *   --resume checks the module against); null for a built-in
 * @property {boolean} builtin
 * @property {boolean} checksNode  it has `unavailable`, to be asked on the cells' Node
 * @property {boolean} op  it gives one op (`op(ctx)`), which the harness loops and times
 * @property {boolean} request  it has `request(context)`: the app's own request, served on the
 *   parent's main thread while the workers run (instead of the default one)
 * @property {boolean} parent  its ops talk to the worker's parent (Task.parent)
 * @property {TaskFix[]} fixes
 */

/** @type {unknown[]} */
export const METRIC_UNITS = ['ops/s', 'count', 'ms', 'ratio'];
/** @type {unknown[]} */
export const METRIC_COMBINE = ['sum', 'max', 'mean'];
/** @type {unknown[]} */
export const PARAM_TYPES = ['integer', 'size', 'number', 'string', 'path'];

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
  if (!Array.isArray(fixes)) throw bad('fixes must be an array of { name, change, task?, params?, mode? }');
  for (const [i, fix] of fixes.entries()) {
    if (!isPlainObject(fix) || typeof fix.name !== 'string' || typeof fix.change !== 'string')
      throw bad(`fixes[${i}] must have a name and a change, both strings`);
    if (fix.task !== undefined && typeof fix.task !== 'string')
      throw bad(`fixes[${i}].task must be a task's name or path`);
    if (fix.params !== undefined && !isPlainObject(fix.params)) throw bad(`fixes[${i}].params must be an object`);
    if (fix.task === undefined && fix.params === undefined) throw bad(`fixes[${i}] must give a task, params, or both`);
    if (fix.mode !== undefined && fix.mode !== 'workers' && fix.mode !== 'procs')
      throw bad(`fixes[${i}].mode must be "workers" or "procs", or left out for both`);
  }
}

/** The most a task module's own file may hold: past it, it is not a module a person wrote. */
const MAX_MODULE_BYTES = 64 * 1024 ** 2;

/**
 * The SHA-256 of a user's task module (its own file, not what it imports).
 * @param {string} path  absolute
 * @param {string} spec  as the user named it
 */
export const moduleSha256 = (path, spec) =>
  sha256Of(path, MAX_MODULE_BYTES, (problem, cause) =>
    usageError(`task module ${spec}: ${problem}; pass a .js/.mjs/.cjs file`, cause),
  );

export const looksLikePath = (/** @type {string} */ spec) => /[/\\]/.test(spec) || /\.[cm]?js$/.test(spec);

// A user's module has this long to load unless --timeout is shorter: a top level that has not
// settled by then never will (an await on nothing, a loop).
const LOAD_TIMEOUT_SECONDS = 30;

/**
 * A task module's URL from the path given as --task, checked to be a file.
 * @param {string} spec
 * @param {string} cwd
 */
function moduleUrl(spec, cwd) {
  if (!looksLikePath(spec))
    throw usageError(
      `unknown task "${spec}"; built-in tasks are ${BUILTIN_TASKS.join(', ')}, or pass a path such as ./my-task.js`,
    );
  const path = resolve(cwd, spec);
  if (!existsSync(path))
    throw usageError(
      `task module ${spec} not found (looked at ${path}); pass a path to a .js/.mjs/.cjs file or a built-in task (see \`mmapbench tasks\`)`,
    );
  // a FIFO would hold the load probe until its time is up, a folder fail it obscurely
  const problem = notAFile(statSync(path));
  if (problem) throw usageError(`task module ${spec} is ${problem}; pass a .js/.mjs/.cjs file`);
  return pathToFileURL(path).href;
}

/**
 * Resolves `--task NAME|PATH` and checks the module the way a worker will load it, so a broken
 * task is reported once, here, instead of K times from inside the cell. A user's module is
 * loaded in a process of its own (loadInChild), never in the CLI's.
 * @param {string} spec
 * @param {{ cwd?: string, timeout?: number, interrupt?: AbortSignal }} [options]  timeout in
 *   seconds, for a user's module
 * @returns {Promise<LoadedTask>}
 */
export async function loadTask(spec, { cwd = process.cwd(), timeout, interrupt } = {}) {
  const builtin = BUILTIN_TASKS.includes(spec);
  const url = builtin ? new URL(`./${spec}.js`, import.meta.url).href : moduleUrl(spec, cwd);
  const seconds = Math.min(timeout ?? LOAD_TIMEOUT_SECONDS, LOAD_TIMEOUT_SECONDS);
  const { task, exports } = builtin ? await loadHere(url) : await loadInChild(url, spec, seconds, interrupt);
  if (task.run !== 'function' && task.op !== 'function') {
    throw usageError(
      `task module ${spec} has no op(ctx) nor run(ctx, iterations) function (it exports ${exports}); export default { op(ctx) { ... } } (see examples/my-task.mjs)`,
    );
  }
  if (task.run === 'function' && task.op === 'function')
    throw usageError(
      `task module ${spec} exports both op and run; give op(ctx) (one op: the harness loops and times them) or run(ctx, iterations) (a loop of your own), not both`,
    );
  for (const hook of /** @type {const} */ (['op', 'setup', 'teardown', 'unavailable', 'request'])) {
    if (task[hook] !== 'undefined' && task[hook] !== 'function') {
      throw usageError(`task module ${spec}: ${hook} must be a function or left out`);
    }
  }
  const declared = task.declared;
  checkDeclarations(declared, spec);
  checkFixes(declared.fixes, spec);
  return {
    // shown in every table, progress line and step summary: a control character in either
    // (an escape sequence, a line break) is shown escaped, never obeyed by a terminal
    name: escapeText(declared.name ?? spec),
    description: escapeText(declared.description ?? ''),
    params: declared.params ?? {},
    metrics: declared.metrics ?? {},
    defaultFile: declared.defaultFile,
    readsFile: declared.readsFile !== false,
    reference: declared.reference ?? null,
    url,
    spec,
    builtin,
    sha256: builtin ? null : moduleSha256(fileURLToPath(url), spec),
    checksNode: task.unavailable === 'function',
    request: task.request === 'function',
    op: task.op === 'function',
    parent: builtin && declared.parent === true,
    fixes: declared.fixes ?? [],
  };
}

/**
 * The fixes `advise` measures for a task run with these parameters: a built-in's own choice for
 * them (fixesFor), or the fixes it declares.
 * @param {LoadedTask} task
 * @param {Record<string, any>} params  resolved, defaults included
 * @returns {Promise<TaskFix[]>}
 */
export async function fixesOf(task, params) {
  if (!task.builtin) return task.fixes;
  const { default: module } = await import(task.url);
  return module.fixesFor?.(params) ?? task.fixes;
}

/** A built-in task: mmapbench's own code, imported here. @param {string} url */
async function loadHere(url) {
  const module = await import(url);
  return describeExport(module.default ?? module);
}

/**
 * Imports a user's module in a child Node (load-probe.js) that is killed after `seconds` or on
 * Ctrl-C, and reads what it declares.
 * @param {string} url
 * @param {string} spec
 * @param {number} seconds
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<import('./declared.js').Described>}
 */
async function loadInChild(url, spec, seconds, interrupt) {
  const probe = fileURLToPath(new URL('./load-probe.js', import.meta.url));
  // what the module's top level starts ends with the probe (its box)
  const result = await runBoxed(process.execPath, [probe, url], {
    interrupt,
    env: { NODE_OPTIONS: '' },
    timeout: seconds * 1000,
    // nothing to clean up in a probe, and a module spinning at load never runs a SIGTERM handler
    killSignal: 'SIGKILL',
    maxBuffer: 1024 * 1024,
  });
  const fix = `check that \`node ${spec}\` runs and ends`;
  if (result.timedOut)
    throw usageError(
      `task module ${spec} did not finish loading within ${seconds} s (its top level never settled: an await that never resolves, or a loop); ${fix}`,
    );
  const line = String(result.stdout)
    .split('\n')
    .findLast((text) => text.startsWith(MARK));
  if (line === undefined) {
    const why =
      result.exitCode === 13
        ? 'its top level awaits a promise that never settles (Node exit code 13)'
        : result.signal
          ? `it was killed by ${result.signal} while loading`
          : `it ended the process while loading (exit code ${result.exitCode}: does it call process.exit?)`;
    throw usageError(`task module ${spec} failed to load: ${why}; ${fix}`);
  }
  const answer = JSON.parse(line.slice(MARK.length));
  if (answer.error) throw usageError(`task module ${spec} failed to load: ${answer.error}; ${fix}`);
  return answer;
}
