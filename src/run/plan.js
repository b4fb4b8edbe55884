import os from 'node:os';
import { usageError } from '../errors.js';
import { loadTask } from '../tasks/index.js';
import { resolveNode } from '../system/node.js';
import { preloadProblem } from '../system/jemalloc.js';
import { parseSize, resolveFile } from './files.js';

export const DEFAULTS = { duration: 1, warmupShare: 0.25, minWarmup: 200, rounds: { compare: 5, single: 1 }, timeout: 300, file: 'med', task: 'readfilesync' };
// --smoke proves every path runs; it measures nothing worth quoting.
export const SMOKE = { iterations: 20, warmup: 2, rounds: 2, k: 2, timeout: 60 };

/**
 * @typedef {object} Plan  everything a run needs, resolved and checked before any process starts
 * @property {'workers'|'procs'|'compare'} command
 * @property {import('../tasks/index.js').LoadedTask} task
 * @property {{ path: string, size: number, label: string }} file
 * @property {{ path: string, version: string }} node
 * @property {Record<string, any>} params
 * @property {number} k
 * @property {number|null} iterations  per worker; null until calibrated from duration
 * @property {number|null} duration    seconds per cell (approximate), when calibrating
 * @property {number|null} warmup  per worker; null until iterations are known (see warmupFor)
 * @property {number} rounds
 * @property {Record<string, string>} envOverrides  --env values
 * @property {Record<string, string>} env           what the cells are started with
 * @property {number} timeout  seconds per cell
 * @property {boolean} smoke
 * @property {import('../system/trace/preflight.js').TraceSetup | null} trace  set by --trace after preflight
 * @property {string[]} warnings
 */

/** @returns {Promise<Plan>} */
export async function buildPlan(argv, command) {
  const smoke = Boolean(argv.smoke);
  const task = await loadTask(argv.task ?? DEFAULTS.task);
  const file = resolveFile(argv.file ?? task.defaultFile ?? DEFAULTS.file, argv.fixturesDir);
  const node = await resolveNode(argv.node, argv.context?.interrupt);
  const params = resolveParams(task, argv);
  const envOverrides = parseEnv(argv.env ?? []);
  if (envOverrides.LD_PRELOAD) {
    // The dynamic loader skips a library it cannot load with a warning only: check, or the
    // report would name an allocator the cells never ran with.
    const problem = preloadProblem(node.path, envOverrides.LD_PRELOAD, { ...process.env, ...envOverrides });
    if (problem) throw usageError(`--env LD_PRELOAD=${envOverrides.LD_PRELOAD}: ${problem}; pass the path of a shared library, e.g. --env LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2`);
  }
  const cores = os.availableParallelism();

  const k = checkK(argv.k ?? (smoke ? Math.min(SMOKE.k, cores) : cores), { force: argv.force, cores });
  const warnings = [];
  if (k > cores) warnings.push(oversubscribed(k, cores));

  let iterations = argv.iterations ?? null;
  let duration = null;
  if (iterations === null) {
    if (smoke && argv.duration === undefined) iterations = SMOKE.iterations;
    else duration = argv.duration ?? DEFAULTS.duration;
  }
  const warmup = argv.warmup ?? (smoke ? SMOKE.warmup : iterations === null ? null : warmupFor(iterations));
  const rounds = argv.rounds ?? (smoke ? SMOKE.rounds : command === 'compare' ? DEFAULTS.rounds.compare : DEFAULTS.rounds.single);
  const timeout = argv.timeout ?? (smoke ? SMOKE.timeout : DEFAULTS.timeout);
  const late = timeoutWarning({ duration, timeout, k, cores });
  if (late) warnings.push(late);

  return {
    command,
    task,
    file,
    node,
    params,
    k,
    iterations,
    duration,
    warmup,
    rounds,
    envOverrides,
    env: { ...process.env, ...envOverrides },
    timeout,
    smoke,
    trace: null,
    warnings,
  };
}

/** The most workers a run starts without --force: past it a typo (-k 100000) exhausts the machine. */
export const maxK = (cores) => Math.max(4 * cores, 256);

export function checkK(k, { force = false, cores }) {
  if (k > maxK(cores) && !force) {
    throw usageError(`-k ${k} is more than ${maxK(cores)} (4 × the ${cores} CPUs here, or 256, whichever is larger); pass --force to run it anyway`);
  }
  return k;
}

/** A warning when cells of about `duration` seconds may run into --timeout. */
export function timeoutWarning({ duration, timeout, k, cores }) {
  if (!duration) return null;
  const expected = duration * Math.max(1, k / cores);
  return expected * 2 > timeout
    ? `--duration ${duration} is close to --timeout ${timeout}: with k=${k} on ${cores} CPUs a cell takes about ${Math.round(expected)} s and may be terminated; raise --timeout`
    : null;
}

export const oversubscribed = (k, cores) =>
  `-k ${k} exceeds the ${cores} CPUs here: workers and processes will also compete for CPU time, not only for the kernel lock`;

/**
 * What each worker or process is handed, derived when a cell starts, so calibration can fill in
 * the plan's iterations and warmup in one place.
 * @param {Plan} plan
 * @returns {import('./agent.js').AgentSpec}
 */
export const agentSpec = (plan) => ({
  taskUrl: plan.task.url,
  file: plan.file.path,
  fileSize: plan.file.size,
  params: plan.params,
  k: plan.k,
  warmup: plan.warmup,
  iterations: plan.iterations,
  metrics: Object.keys(plan.task.metrics),
});

/**
 * Default warmup: a quarter of the timed ops. A few hundred ops leave V8 still tiering up and
 * sizing its heap for the allocation rate; on 2 cores that cost procs cells of ~1 s half their
 * throughput (measured: 41-55k ops/s with 200 warmup ops, 84-100k with 5000).
 */
export const warmupFor = (iterations) => Math.max(DEFAULTS.minWarmup, Math.round(iterations * DEFAULTS.warmupShare));

export function parseEnv(pairs) {
  const env = Object.create(null);
  for (const pair of [pairs].flat()) {
    const at = String(pair).indexOf('=');
    if (at < 1) throw usageError(`--env ${pair} is not KEY=VALUE; write it as --env MALLOC_ARENA_MAX=1`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { ...env }; // own properties only, `__proto__` included as a plain name
}

const COERCE = {
  integer(value, name) {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw usageError(`--${name} ${value} is not a positive integer; pass a whole number such as 8`);
    return number;
  },
  size(value, name) {
    const bytes = typeof value === 'number' ? value : parseSize(value);
    if (!Number.isInteger(bytes) || bytes < 1) throw usageError(`--${name} ${value} is not a size; pass bytes or a size such as 256k or 1m`);
    return bytes;
  },
  number(value, name) {
    const number = Number(value);
    if (!Number.isFinite(number)) throw usageError(`--${name} ${value} is not a number`);
    return number;
  },
  string: (value) => String(value),
};

export const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Task parameters common enough to have their own option; the rest go through --param. */
export const PARAM_OPTIONS = ['concurrency', 'poolSize', 'size', 'partition'];

/** How a user sets a parameter on the command line. */
export const paramFlag = (name) => (PARAM_OPTIONS.includes(name) ? `--${kebab(name)}` : `--param ${name}=`);

/** A parameter set to a value as typed: `--size 64k`, `--param op=stat`. */
export const paramSetting = (name, value) => `${paramFlag(name)}${PARAM_OPTIONS.includes(name) ? ' ' : ''}${value}`;

/**
 * Fills in the task's parameters from --concurrency, --pool-size and --param KEY=VALUE, with
 * the task's own defaults. A parameter the task does not declare is an error, not ignored.
 */
export function resolveParams(task, argv) {
  // no prototype: `--param __proto__=1` or `constructor=1` is a name like any other, and unknown
  const given = Object.create(null);
  for (const pair of [argv.param ?? []].flat()) {
    const at = String(pair).indexOf('=');
    if (at < 1) throw usageError(`--param ${pair} is not KEY=VALUE; write it as --param concurrency=8`);
    given[pair.slice(0, at)] = pair.slice(at + 1);
  }
  for (const name of PARAM_OPTIONS) if (argv[name] !== undefined) given[name] = argv[name];

  const declared = task.params ?? {};
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(declared, name)) {
      const known = Object.keys(declared).map(paramFlag).join(', ') || 'none';
      throw usageError(`task ${task.name} has no parameter ${name} (its parameters: ${known}); see \`mmapbench tasks\``);
    }
  }
  const params = {};
  for (const [name, spec] of Object.entries(declared)) {
    const value = given[name] ?? spec.default;
    params[name] = value === undefined ? undefined : (COERCE[spec.type] ?? COERCE.string)(value, kebab(name));
    if (spec.choices && value !== undefined && !spec.choices.includes(params[name])) {
      throw usageError(`${paramSetting(name, value)} is not one of ${spec.choices.join(', ')} (task ${task.name})`);
    }
  }
  return params;
}
