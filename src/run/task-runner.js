// Runs inside every measured worker thread and child process, so it imports nothing from
// node_modules: a cell's process tree stays as light as the bare loop it is compared with.

/** @typedef {import('../tasks/index.js').TaskContext} TaskContext */

/**
 * @typedef {object} RunnerSpec  what each worker or process is handed
 * @property {string} taskUrl file URL of the task module
 * @property {string} file
 * @property {number} fileSize
 * @property {Record<string, any>} params
 * @property {number} k
 * @property {number} warmup
 * @property {number} [warmupMs]  stop warming up after about this long even if `warmup` ops
 *   have not run (calibration, which does not know yet how long an op takes)
 * @property {number} iterations
 * @property {string[]} metrics  the names of the metrics the task declared
 */

/**
 * What a host sends the CLI, and what each of its workers measured.
 * @typedef {{ index: number, pid: number, ops: number, start: string, end: string,
 *   metrics?: Record<string, number> }} Sample  start, end: process.hrtime.bigint() as text
 * @typedef {{ cpuUs: number, involuntarySwitches: number }} Usage
 * @typedef {{ message: string, stack?: string }} SerializedError
 * @typedef {{ p50Ns: number, p99Ns: number, meanNs: number, samples: number }} Latency
 * @typedef {{ type: 'ready' }} ReadyMessage
 * @typedef {{ type: 'result', samples?: Sample[], usage?: Usage, latency?: Latency }} ResultMessage
 *   samples and usage from a cell's hosts, latency from the calibration host
 * @typedef {SerializedError & { type: 'failed', worker?: number, notStarted?: boolean,
 *   code?: string, exitCode?: number }} FailedMessage
 * @typedef {ReadyMessage | ResultMessage | FailedMessage} HostMessage
 * @typedef {{ task: import('../tasks/index.js').Task, ctx: TaskContext, spec: RunnerSpec }} Prepared
 */

/**
 * Loads the task and runs setup and warmup: everything that must not be timed.
 * @param {RunnerSpec & { warmupMs?: number }} spec  warmupMs: warm up for at most this long
 * @param {number} index
 * @param {TaskContext['mode']} mode
 * @returns {Promise<Prepared>}
 */
export async function prepare(spec, index, mode) {
  const module = await import(spec.taskUrl);
  /** @type {import('../tasks/index.js').Task} */
  const task = module.default ?? module;
  /** @type {TaskContext} */
  const ctx = {
    file: spec.file,
    fileSize: spec.fileSize,
    params: spec.params,
    index,
    k: spec.k,
    mode,
    state: {},
  };
  await task.setup?.(ctx);
  if (spec.warmupMs === undefined) {
    if (spec.warmup > 0) await task.run(ctx, spec.warmup);
  } else {
    // doubling batches: a slow op (a 16 MiB read in 8 KiB requests) stops after a few, a fast
    // one gets its full count in a handful of calls
    const until = performance.now() + spec.warmupMs;
    for (let done = 0, batch = 1; done < spec.warmup && performance.now() < until; done += batch, batch *= 2)
      await task.run(ctx, Math.min(batch, spec.warmup - done));
  }
  return { task, ctx, spec };
}

/**
 * The timed part: one call into the task's own loop, bracketed by the monotonic clock, so the
 * harness adds two clock reads per worker and nothing per iteration.
 * @param {Prepared} prepared
 * @param {number} iterations
 * @returns {Promise<Sample>}
 */
export async function measure({ task, ctx, spec }, iterations) {
  const start = process.hrtime.bigint();
  /** @type {any} */
  let returned = task.run(ctx, iterations); // a user's task may return anything
  if (returned && typeof returned.then === 'function') returned = await returned;
  const end = process.hrtime.bigint();
  await task.teardown?.(ctx);
  /** @type {Sample} */
  const sample = { index: ctx.index, pid: process.pid, ops: iterations, start: String(start), end: String(end) };
  const metrics = declaredMetrics(returned?.metrics, spec.metrics);
  if (metrics) sample.metrics = metrics;
  return sample;
}

/**
 * Only what the task declared crosses to the CLI, and only finite numbers: a task returning a
 * huge or odd object must not fill the CLI's memory.
 * @param {unknown} returned
 * @param {string[]} declared
 * @returns {Record<string, number> | null}
 */
function declaredMetrics(returned, declared = []) {
  if (!returned || typeof returned !== 'object') return null;
  /** @type {Record<string, number>} */
  const kept = {};
  for (const name of declared) {
    const value = Object.hasOwn(returned, name) ? /** @type {Record<string, unknown>} */ (returned)[name] : undefined;
    if (typeof value === 'number' && Number.isFinite(value)) kept[name] = value;
  }
  return Object.keys(kept).length ? kept : null;
}

const MAX_MESSAGE = 2000;
const MAX_STACK = 20000;

/**
 * Errors cross thread and process boundaries as plain data, of bounded size.
 * @param {unknown} error
 * @returns {SerializedError}
 */
export const serializeError = (error) => ({
  message: (error instanceof Error ? error.message : String(error)).slice(0, MAX_MESSAGE),
  stack: error instanceof Error ? error.stack?.slice(0, MAX_STACK) : undefined,
});

/**
 * What the kernel gave this process between two readings: CPU time (all its threads) and
 * involuntary context switches (preempted while it wanted to run). A cell whose tree got much
 * less CPU than its timed loops asked for was competing with something else.
 * @param {NodeJS.ResourceUsage} before
 * @param {NodeJS.ResourceUsage} after
 * @returns {{ cpuUs: number, involuntarySwitches: number }}
 */
export const usageBetween = (before, after) => ({
  cpuUs: after.userCPUTime - before.userCPUTime + after.systemCPUTime - before.systemCPUTime,
  involuntarySwitches: after.involuntaryContextSwitches - before.involuntaryContextSwitches,
});
