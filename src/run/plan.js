import { usableCpus } from '../system/cpus.js';
import { plural } from '../words/spelling.js';
import { resolve } from 'node:path';
import { environmentError, usageError } from '../errors.js';
import { PARAM_VALUE, paramFlag, paramSetting } from '../words/vocabulary.js';
import { loadTask } from '../tasks/index.js';
import { checkPreload, inheritedEnv, inheriting } from './cell-env.js';
import { resolveNode } from '../system/node.js';
import { resolveFile } from './fixtures.js';
import { taskUnavailable } from './task-check.js';
import { memoryLimitUnavailable } from '../system/memory-limit.js';
import { resolvePool } from './pool/resolve.js';
import { MARGIN } from '../stats/sequential.js';
import { DEFAULTS, PRECISION, SMOKE_CELLS } from './defaults.js';

/**
 * What `sweep` was asked for: the axes (each a list of values; the points are their cartesian
 * product) and the options every point shares.
 * @typedef {object} SweepRequest
 * @property {{ node: Array<string|undefined>, variant: Array<{ name: string, env: Record<string, string> }>, task: Array<string|undefined>, file: Array<string|undefined>, params: Record<string, unknown[]>, k: Array<number|undefined>, cycles?: Array<number|undefined> }} axes
 * @property {MeasureOptions} shared  iterations, duration, rounds, env, ...
 */

// compare's default (run/defaults.js, PRECISION): rounds until the ratio is known to ±5% or a
// minute is spent. Short cells, many fresh trees: each tree has a speed of its own, so precision
// comes from more trees, not from longer cells (measured here: docs/how-it-measures.md). A task
// that talks to its parent (message) keeps 1 s cells even then: in 0.1 s cells its round trips
// run well below their rate, in 1 s cells at the rate of a script of round trips by hand
// (docs/tasks.md, "message").

// an adaptive run stops on width or time long before this; it bounds memory, not the run
const MAX_ROUNDS = 100_000;

/**
 * What a measuring command was asked for, converted once from the command line (or built by
 * `reproduce` for each of its settings). Nothing below the CLI reads argv.
 * @typedef {object} MeasureOptions
 * @property {'workers'|'procs'|'compare'} command
 * @property {string} [task]         built-in name or module path
 * @property {string} [file]         name, size or path
 * @property {number} [k]
 * @property {boolean} [force]       allow k above maxK
 * @property {number} [iterations]
 * @property {number} [duration]
 * @property {number | 'steady'} [warmup]  fixed ops per worker, or until the rate stops trending
 * @property {'steady'|'published'} [protocol]  published: the investigation's 2,000 iterations, no warmup
 * @property {number} [rounds]
 * @property {Record<string, string>} [env]     set in every cell
 * @property {Record<string, unknown>} [params] task parameters as given; the task's declaration types them
 * @property {string} [node]
 * @property {number} [timeout]
 * @property {string} [fixturesDir]
 * @property {boolean} [quick]
 * @property {{ bpftrace?: string, mountTracefs?: boolean, window?: 'timed'|'cell' } | null} [trace]
 * @property {number} [precision]  compare: the target relative half-width of the ratio's 95% CI
 * @property {number} [maxTime]    compare: the wall-time budget in seconds
 * @property {number} [margin]     compare: "equal" means the ratio is within ± this (a fraction)
 * @property {'workers'|'procs'} [aa]  compare: an A/A run, both arms this mode
 * @property {import('./fault.js').FaultKind} [fault]  compare: what one failing worker takes down
 * @property {'tinypool'|'workerpool'|'piscina'} [pool]  compare: run the task through this pool, its two runtimes the arms
 * @property {number} [batch]  with pool: ops of the task in one pool task
 * @property {boolean} [isolate]  with pool tinypool: a fresh worker for every pool task
 * @property {'workers'|'procs'} [only]  compare: one mode alone, for a change the other mode
 *   cannot carry (advise's transfer list for threads, serialization for processes)
 * @property {boolean} [keepUnavailable]  a task that cannot run on the Node gives a plan marked
 *   `unavailable` instead of an error (a sweep's point on an older Node)
 * @property {boolean} [inheritEnv]  also the variables Node reads at every start (STARTUP_ONLY_VARS)
 * @property {'on'|'off'} [main]  the app's own load on the parents' main threads (default on)
 * @property {number} [requestEvery]  ms between the app's requests (default 2)
 * @property {number} [requestSize]  bytes each of its requests allocates and fills (default 64 KiB)
 * @property {number} [settle]  ms the app waits after its workers ended before it reads its memory
 * @property {number} [semiSpace]  MiB of V8's semi-space in each worker (--semi-space)
 * @property {number} [cycles]  times each cell's parent starts, runs and ends its K workers
 * @property {string} [cwd]  the folder its relative paths (task, file, messages, fixtures, Node,
 *   bpftrace) are resolved against: the CLI's when it was typed, kept so that a resumed run
 *   reads the same files from any folder (default: this process's)
 * @property {boolean} [inheritAllocatorEnv]  false: drop MALLOC_*, GLIBC_TUNABLES and LD_PRELOAD
 *   inherited from the shell (a baseline must be the allocator's defaults); default true
 */

/**
 * Everything a run needs, resolved and checked before any process starts, and never changed
 * afterwards (frozen): what a run learns, such as calibrated iterations, lives in its session.
 * @typedef {object} Plan
 * @property {'workers'|'procs'|'compare'} command
 * @property {import('../tasks/index.js').LoadedTask} task
 * @property {{ path: string, size: number, label: string }} file
 * @property {import('../system/node.js').NodeBinary} node
 * @property {Record<string, any>} params
 * @property {number} k
 * @property {boolean} kDefault  k was the default, one per usable CPU
 * @property {number|null} iterations  per worker; null: calibrated from `duration` by the session
 * @property {number|null} duration    seconds per cell (approximate), when calibrating
 * @property {boolean} [schedule]  the noise of the first rounds may lengthen the window: a compare
 *   until its precision, whose window no --duration or --iterations fixed (schedule.js)
 * @property {Warmup} warmup
 * @property {number} rounds   the fixed count, or the most an adaptive run may take (see stop)
 * @property {import('../stats/stopping.js').StopRule} stop
 * @property {'workers'|'procs'|null} aa  an A/A run: both arms run this mode
 * @property {'workers'|'procs'|null} only  compare: its one mode, when the other cannot carry the change
 * @property {import('./fault.js').FaultKind | null} fault  compare --fault: after the measured
 *   rounds, one round per mode in which one worker fails this way (fault-cell.js)
 * @property {import('./pool/resolve.js').PoolPlan | null} pool  compare --pool: each cell builds
 *   this pool in its arm's runtime and runs the task through it (pool/host.js)
 * @property {import('./main-load.js').MainSpec | null} main  the app's own load on the
 *   parent's main thread while its workers run; null with --main off
 * @property {import('./ending.js').EndSpec} end  how a cell's parent ends its workers
 * @property {number | null} semiSpaceMb  MiB of V8's semi-space in each worker; null: V8's own
 * @property {Record<string, string>} envOverrides  --env values
 * @property {NodeJS.ProcessEnv} env           what the cells are started with
 * @property {number} timeout  seconds per cell
 * @property {'steady'|'published'} protocol
 * @property {boolean} quick
 * @property {(import('../trace/preflight.js').TraceSetup & { window: 'timed'|'cell' }) | null} trace
 * @property {string | null} unavailable  why the task cannot run on this Node (sweep's points
 *   only: elsewhere that is an error)
 * @property {Array<{ code: string, text: string }>} warnings
 */

/**
 * @param {MeasureOptions} options
 * @param {{ interrupt?: AbortSignal, say?: (line: string) => void, resumed?: KeptK }} [context]
 *   say: how a Node release being installed says so; resumed: where a --resume kept the k
 * @returns {Promise<Readonly<Plan>>}
 */
export async function buildPlan(options, { interrupt, say, resumed } = {}) {
  const { command } = options;
  const quick = Boolean(options.quick);
  const cwd = options.cwd ?? process.cwd();
  // the CPUs this process may use: its affinity mask and its cgroup's quota, not the host's
  const cores = usableCpus().usable;
  // checked before a task is loaded or a Node installed
  const k = checkK(options.k ?? (quick ? Math.min(SMOKE_CELLS.k, cores) : cores), {
    force: options.force,
    cores,
    resumed,
  });
  const task = await loadTask(options.task ?? DEFAULTS.task, { cwd, timeout: options.timeout, interrupt });
  const fixtures = options.fixturesDir === undefined ? undefined : resolve(cwd, options.fixturesDir);
  const file = resolveFile(options.file ?? task.defaultFile ?? DEFAULTS.file, fixtures, cwd);
  const node = await resolveNode(options.node, interrupt, say, cwd);
  const params = resolveParams(task, options.params ?? {}, cwd);
  await checkParams(task, params, modesOf({ command, aa: options.aa ?? null, only: options.only ?? null }));
  // a task that cannot run on this Node says so before any cell (sweep: the point is marked)
  const unavailable = await taskUnavailable(task, node, params, interrupt);
  if (unavailable && !options.keepUnavailable)
    throw environmentError(`task ${task.name} cannot run on Node ${node.version}: ${unavailable}`);
  const envOverrides = { ...options.env };
  if (envOverrides.LD_PRELOAD) await checkPreload(node.path, envOverrides);
  const warnings = [];
  if (k > cores) warnings.push({ code: 'oversubscribed', text: oversubscribed(k, cores) });
  const { iterations, duration, schedule, warmup, stop, rounds } = workOf(options, task, quick);
  const timeout = options.timeout ?? (quick ? SMOKE_CELLS.timeout : DEFAULTS.timeout);
  const late = timeoutWarning({ duration, timeout, k, cores });
  if (late) warnings.push({ code: 'timeout', text: late });
  const trace = options.trace ? await traceSetup(options.trace, cwd, interrupt) : null;

  return deepFreeze({
    command,
    task,
    file,
    node,
    params,
    k,
    // k chosen by the default, one per CPU: the answer says so, and how to ask for another
    kDefault: options.k === undefined && !quick,
    iterations,
    duration,
    schedule,
    warmup,
    rounds,
    stop,
    aa: options.aa ?? null,
    only: options.only ?? null,
    ...featuresOf(options, cwd, task, iterations),
    main: mainOf(options, task),
    // --quick measures nothing: it ends the workers and reads the memory at once
    end: { settleMs: options.settle ?? (quick ? 0 : DEFAULTS.settleMs), cycles: options.cycles ?? DEFAULTS.cycles },
    // each worker's young generation, as an app sets it (workers-host.js, procs-host.js)
    semiSpaceMb: options.semiSpace ?? null,
    envOverrides,
    env: { ...inheritedEnv(process.env, inheriting(options)), ...envOverrides },
    timeout,
    protocol: options.protocol ?? 'steady',
    quick,
    trace,
    unavailable,
    warnings,
  });
}

/**
 * What each cell does and when the rounds stop: a fixed count of ops or a window's seconds, the
 * warm-up, and the stop rule (compare stops on width unless --rounds or --quick fixes the count).
 * @param {MeasureOptions} options
 * @param {import('../tasks/index.js').LoadedTask} task
 * @param {boolean} quick
 */
function workOf(options, task, quick) {
  const { command } = options;
  const adaptive = command === 'compare' && options.rounds === undefined && !quick;
  let iterations = options.iterations ?? null;
  let duration = null;
  if (iterations === null) {
    if (quick && options.duration === undefined) iterations = SMOKE_CELLS.iterations;
    else duration = options.duration ?? (adaptive && !task.parent ? PRECISION.duration : DEFAULTS.duration);
  }
  /** @type {Warmup} */
  const warmup = options.warmup ?? (quick ? SMOKE_CELLS.warmup : 'steady');
  const fixedRounds = options.rounds ?? (quick ? SMOKE_CELLS.rounds : command === 'compare' ? null : DEFAULTS.rounds);
  /** @type {import('../stats/stopping.js').StopRule} */
  const stop = {
    rounds: fixedRounds,
    minRounds: PRECISION.minRounds,
    precision: options.precision ?? PRECISION.precision,
    maxSeconds: options.maxTime ?? PRECISION.maxSeconds,
    // stopping once the verdict is decided, unless the user asked for a width (stats/sequential.js)
    sequential: fixedRounds === null && options.precision === undefined,
    margin: options.margin ?? MARGIN,
  };
  const rounds = fixedRounds ?? MAX_ROUNDS;
  // the window the default chose, not one the user did: the noise may lengthen it (schedule.js)
  const schedule = adaptive && !task.parent && options.iterations === undefined && options.duration === undefined;
  return { iterations, duration, schedule, warmup, stop, rounds };
}

/**
 * A built-in's own check of its parameters against the modes that will run (message: a shape a
 * process cannot carry, a file of messages that is not one).
 * @param {import('../tasks/index.js').LoadedTask} task
 * @param {Record<string, unknown>} params
 * @param {Array<'workers'|'procs'>} modes
 */
async function checkParams(task, params, modes) {
  if (!task.builtin) return;
  const { default: module } = await import(task.url);
  const problem = module.checkParams?.(params, modes);
  if (problem) throw usageError(problem);
}

/**
 * The tracer, checked before any cell (its checks load only for a traced run).
 * @param {NonNullable<MeasureOptions['trace']>} asked
 * @param {string} cwd
 * @param {AbortSignal | undefined} interrupt
 */
async function traceSetup(asked, cwd, interrupt) {
  const { preflight } = await import('../trace/preflight.js');
  const { bpftrace } = asked;
  return {
    ...(await preflight({
      ...asked,
      // a name is looked up on PATH, a path is the user's
      bpftrace: bpftrace && /[/\\]/.test(bpftrace) ? resolve(cwd, bpftrace) : bpftrace,
      interrupt,
    })),
    window: asked.window ?? 'timed',
  };
}

/**
 * @template {object} T
 * @param {T} object
 * @returns {Readonly<T>}
 */
function deepFreeze(object) {
  for (const value of Object.values(object))
    if (value && typeof value === 'object' && !Object.isFrozen(value)) deepFreeze(value);
  return Object.freeze(object);
}

/** The most workers a run starts without --force: past it a typo (-k 100000) exhausts the machine. */
const maxK = (/** @type {number} */ cores) => Math.max(4 * cores, 256);

/**
 * Where a resumed run's k was kept: the file and its field (`resume.k`, a sweep's `resume.axes.k`).
 * @typedef {{ path: string, field: string }} KeptK
 */

/**
 * Where a --resume kept the k, for the plan's refusal to name; nothing for a new run.
 * @param {{ path: string } | null | undefined} resumed
 * @param {string} field
 * @returns {KeptK | undefined}
 */
export const keptK = (resumed, field) => (resumed ? { path: resumed.path, field } : undefined);

/**
 * Every run's k, where it is planned (and reproduce's, before its first experiment): at most
 * 4 × CPUs or 256 without --force, and never past HARD_MAX_K.
 * @param {number} k
 * @param {{ force?: boolean, cores: number, resumed?: KeptK }} machine  resumed: where a
 *   --resume kept the k, which the refusal names (`resume.k 300`) with the fix for it
 */
export function checkK(k, { force = false, cores, resumed }) {
  const as = resumed ? `--resume ${resumed.path}: ${resumed.field} ${k}` : `-k ${k}`;
  const fix = resumed ? 'add --force to go on at this k, or start a new run' : 'pass --force to run it anyway';
  // past this no machine starts a cell: each thread or process needs megabytes and a pid
  if (k > HARD_MAX_K)
    throw usageError(
      `${as} is more than ${HARD_MAX_K}, the most threads or processes one cell may start, even with --force; lower -k`,
    );
  if (k > maxK(cores) && !force) {
    throw usageError(
      `${as} is more than ${maxK(cores)} (4 × the ${cores} CPUs here, or 256, whichever is larger); ${fix}`,
    );
  }
  return k;
}

/** The most workers a cell may start, --force or not. */
export const HARD_MAX_K = 4096;

/**
 * A warning when cells of about `duration` seconds may run into --timeout.
 * @param {{ duration: number | null, timeout: number, k: number, cores: number }} run
 */
function timeoutWarning({ duration, timeout, k, cores }) {
  if (!duration) return null;
  const expected = duration * Math.max(1, k / cores);
  return expected * 2 > timeout
    ? `--duration ${duration} is close to --timeout ${timeout}: with k=${k} on ${cores} CPUs a cell takes about ${Math.round(expected)} s and may be terminated; raise --timeout`
    : null;
}

export const oversubscribed = (/** @type {number} */ k, /** @type {number} */ cores) =>
  `-k ${k} exceeds the ${plural(cores, 'CPU')} here: workers and processes will also compete for CPU time, not only for the kernel lock`;

/**
 * The work one cell does: fixed by the plan, or learned by the session's calibration.
 * @typedef {{ iterations: number, warmup: Warmup, byMode?: Partial<Record<'workers'|'procs', number>>,
 *   warmupBatch?: number }} Work
 *   byMode: a task that talks to its parent, each mode's own iterations (pilot.js, sizeByPilot);
 *   warmupBatch: a steady warm-up's batch, where the schedule lengthened the window (schedule.js)
 * @typedef {number | 'steady'} Warmup  untimed ops per worker before the barrier: a fixed count,
 *   or until the rate stops trending (task-runner.js, stoppedTrending), within STEADY_CAP
 */

// the app alone is read over this many of its requests (at least 100 ms): a p99 of its own
const ALONE_REQUESTS = 50;

/**
 * The app's load on the parent's main thread, from the options; null with --main off.
 * @param {MeasureOptions} options
 * @param {import('../tasks/index.js').LoadedTask} task
 * @returns {import('./main-load.js').MainSpec | null}
 */
function mainOf(options, task) {
  if (options.main === 'off') return null;
  const everyMs = options.requestEvery ?? DEFAULTS.everyMs;
  return {
    everyMs,
    size: options.requestSize ?? DEFAULTS.requestBytes,
    // --quick proves the path with a few requests (a smoke run); a run that measures reads 50
    aloneMs: options.quick ? 20 : Math.max(100, ALONE_REQUESTS * everyMs),
    requestUrl: task.request ? task.url : null,
  };
}

/**
 * The modes a plan's cells run: compare's two, an A/A run's one, a compare's one mode alone, or
 * the command's.
 * @param {{ command: Plan['command'], aa: Plan['aa'], only?: Plan['only'] }} plan
 * @returns {Array<'workers'|'procs'>}
 */
export const modesOf = ({ command, aa, only = null }) =>
  command === 'compare' ? (aa ? [aa] : only ? [only] : ['workers', 'procs']) : [command];

/**
 * Fills in the task's parameters from what was given (by option or --param), typed as the
 * task declares them, with the task's own defaults. A parameter the task does not declare is an
 * error, not ignored.
 * @param {import('../tasks/index.js').LoadedTask} task
 * @param {Record<string, unknown>} given
 * @param {string} [cwd]  what a relative path is relative to
 */
export function resolveParams(task, given, cwd = process.cwd()) {
  const declared = task.params ?? {};
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(declared, name)) {
      const known = Object.keys(declared).map(paramFlag).join(', ') || 'none';
      const list = task.builtin ? 'mmapbench tasks' : `mmapbench tasks --task ${task.spec}`;
      throw usageError(`task ${task.name} has no parameter ${name} (its parameters: ${known}); see \`${list}\``);
    }
  }
  /** @type {Record<string, unknown>} */
  const params = {};
  for (const [name, spec] of Object.entries(declared)) {
    const value = Object.hasOwn(given, name) && given[name] !== undefined ? given[name] : spec.default;
    params[name] =
      value === undefined
        ? undefined
        : PARAM_VALUE[spec.type ?? 'string'](paramFlag(name).replace(/=$/, ''), cwd)(value);
    if (spec.choices && value !== undefined && !spec.choices.includes(params[name])) {
      throw usageError(`${paramSetting(name, value)} is not one of ${spec.choices.join(', ')} (task ${task.name})`);
    }
  }
  return params;
}

/**
 * What a compare adds to its cells: --fault's round, --pool's pool.
 * @param {MeasureOptions} options
 * @param {string} cwd
 * @param {import('../tasks/index.js').LoadedTask} task
 * @param {number | null} iterations  a worker's window, where the plan fixes it
 * @returns {{ fault: Plan['fault'], pool: Plan['pool'] }}
 */
function featuresOf(options, cwd, task, iterations) {
  if (options.batch !== undefined && !options.pool)
    throw usageError('--batch is the ops of a pool task: give it with --pool, or drop it');
  if (options.batch !== undefined && iterations !== null) checkBatch(options.batch, iterations);
  if (options.isolate && options.pool !== 'tinypool')
    throw usageError("--isolate is tinypool's isolateWorkers: give it with --pool tinypool, or drop it");
  const pool = options.pool ? checkPool(options, task) : null;
  return {
    fault: checkFault(options.fault ?? null),
    pool: pool && resolvePool(pool, cwd, options.batch ?? null, undefined, Boolean(options.isolate)),
  };
}

/**
 * What a pool cell cannot carry yet, refused before any cell: the pool's own workers fail only as
 * the pool's (no --fault), and have no parent channel for a task that talks to one (the message
 * task: the pool's dispatch is that).
 * @param {MeasureOptions} options
 * @param {import('../tasks/index.js').LoadedTask} task
 */
function checkPool(options, task) {
  const pool = /** @type {NonNullable<MeasureOptions['pool']>} */ (options.pool);
  if (task.parent)
    throw usageError(
      `--pool ${pool} runs the task inside the pool's workers, and task ${task.name} talks to a parent of its own: choose another --task`,
    );
  if (options.fault) throw usageError(`--pool ${pool} takes no --fault yet: drop it, or measure without --pool`);
  return pool;
}

/**
 * A fault kind that can be tried here: native-oom needs a memory limit on the tree, which only
 * root, or a delegated cgroup, may set.
 * @param {import('./fault.js').FaultKind | null} kind
 */
function checkFault(kind) {
  const why = kind === 'native-oom' ? memoryLimitUnavailable() : null;
  if (why)
    throw environmentError(
      `--fault native-oom needs a memory limit on the measured tree, and none can be set here (${why}); run as root where cgroup v1's memory controller or v2's memory.max is, or choose another --fault`,
    );
  return kind;
}

/**
 * Refuses a --batch over a worker's window of `iterations` ops: checked by the plan where the
 * work is fixed, before any cell, and once a calibration has sized it (work.js).
 * @param {number} batch
 * @param {number} iterations
 */
export function checkBatch(batch, iterations) {
  if (batch > iterations)
    throw usageError(
      `--batch ${batch} is more than a worker's window of ${iterations} ops: a pool task is at most that; give --batch ${iterations} or less, or more --iterations (or a longer --duration)`,
    );
}
