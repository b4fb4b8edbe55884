// Runs inside every measured worker thread and child process, so it imports nothing from
// node_modules: a cell's process tree stays as light as the bare loop it is compared with.

import { UNTIMED_ROUND, latencySampler, opTimesOf, runOps, runSampled } from './latency-sampler.js';
import { minorFaults, readCounters, watchGc, windowAccount } from './thread-counters.js';
import { setUpTask } from './set-up.js';

/**
 * What a host reports, declared where the statistics read it (stats/samples.js).
 * @typedef {import('../stats/samples.js').HostTimeline} HostTimeline
 * @typedef {import('../stats/samples.js').WarmupDone} WarmupDone
 * @typedef {import('../stats/samples.js').OpTimes} OpTimes
 * @typedef {import('../stats/samples.js').ThreadTimeline} ThreadTimeline
 * @typedef {import('../stats/samples.js').CellMain} CellMain
 */

/** @typedef {import('../tasks/index.js').TaskContext} TaskContext */
/** @typedef {import('./latency-sampler.js').LoopedTask} LoopedTask */
/** @typedef {import('./thread-counters.js').Counters} Counters */
// The tenths a timed window is cut into for the regime (see measure)
export const SLICES = 10;

export { hostTimeline } from './set-up.js';

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
 * @property {SteadyWarmup} [steady]  after the `warmup` ops, warm up until the rate stops trending
 * @property {number} iterations
 * @property {string[]} metrics  the names of the metrics the task declared
 * @property {boolean} [slices]  run the timed window in tenths, for the regime (built-in tasks
 *   without metrics of their own)
 * @property {false} [timesOps]  false: a round that times no op (scheduler.js, timedRound), so
 *   that its memory is read as a plain script's
 * @property {'process'|'thread'} [parentOver]  calibration only: whom a task that talks to its
 *   parent talks to (calibrate-host.js)
 * @property {boolean} [parent]  the task talks to the worker's parent: the host gives each worker
 *   a channel to it (parent-channel.js) and echoes what comes over it
 * @property {import('./main-load.js').MainSpec | null} [main]  the app's own load on the host's
 *   main thread; null or absent: none (--main off)
 * @property {import('./ending.js').EndSpec} [end]  a cell's host, told to end its workers once the
 *   CLI has read the tree's memory: how long to settle, how many cycles in all
 * @property {number} [semiSpaceMb]  MiB of V8's semi-space in each worker, set as an app sets
 *   it: a thread's resourceLimits, a child's execArgv
 * @property {import('./fault.js').FaultSpec | null} [fault]  a fault round's (compare --fault, fault.js):
 *   which worker fails, how, and after how many ops
 */

/**
 * Warming up until steady: batches of `batch` ops (a tenth of the timed window, the slice the
 * regime is judged by) until the rate stops trending and V8 has stopped installing optimized
 * code, or `maxBatches` or `capMs`, whichever first.
 * @typedef {{ batch: number, maxBatches: number, capMs: number }} SteadyWarmup
 */

// Steady: the median time per op of the last three batches is no more than 5% below the median of
// the three before (median: one batch preempted on 2 CPUs must not end or prolong the warmup)
const STEADY_WINDOW = 3;
const STEADY_GAIN = 0.05;

// V8 compiles a hot function with TurboFan on a helper thread, beside the worker, and the op's
// rate hardly shows it: a warmup steady by its rate alone (2,500 readFileSync ops at 0.1 s
// windows) left those jobs (readFileSync's own path, the harness's sampled loop) inside the
// windows, where on 2 CPUs they kept the app's main thread from a CPU: its timer came 0.5 ms or
// more late on 4-7% of its ticks, against 0.3-2.2% once the warmup waited for them
// (docs/how-it-measures.md, "The loop lag beside the workers in 0.1 s windows"). Their code lands
// on the heap when installed: the warmup goes on until the heap's code has not grown for this
// many batches.
const TIER_STILL = 3;

/**
 * Whether V8 is still installing optimized code: the heap's code grew within the last
 * TIER_STILL batches.
 * @param {number[]} codeSizes  the heap's code and metadata (bytes) after each batch so far
 */
export function stillTiering(codeSizes) {
  if (codeSizes.length <= TIER_STILL) return true;
  return codeSizes.at(-1) !== codeSizes.at(-1 - TIER_STILL);
}

/**
 * Whether a warmup's batches have stopped getting faster.
 * @param {number[]} perOp  ns per op of each batch so far
 */
export function stoppedTrending(perOp) {
  if (perOp.length < 2 * STEADY_WINDOW) return false;
  const recent = median(perOp.slice(-STEADY_WINDOW));
  const before = median(perOp.slice(-2 * STEADY_WINDOW, -STEADY_WINDOW));
  return recent >= (1 - STEADY_GAIN) * before;
}

const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * What a host sends the CLI, and what each of its workers measured.
 * @typedef {{ index: number, pid: number, ops: number, start: string, end: string,
 *   metrics?: Record<string, number>, account?: import('./thread-counters.js').WindowAccount,
 *   slices?: import('./thread-counters.js').Slice[], warmup?: WarmupDone, timeline?: ThreadTimeline,
 *   opTimes?: OpTimes, droppedOutput?: number }} Sample
 *   start, end: process.hrtime.bigint() as text; account: where the thread's time in the window
 *   went; slices: its tenths; warmup: how long it warmed up, when until steady; timeline: when
 *   the thread got through the phases before and after its window
 * @typedef {{ cpuUs: number, involuntarySwitches: number }} Usage
 * @typedef {{ message: string, stack?: string, slow?: boolean }} SerializedError
 * @typedef {{ p50Ns: number, p99Ns: number, meanNs: number, samples: number }} Latency
 * @typedef {{ type: 'ready' }} ReadyMessage
 * @typedef {{ type: 'result', samples?: Sample[], usage?: Usage, latency?: Latency,
 *   host?: HostTimeline & { requested?: string }, children?: Array<HostTimeline & { pid?: number }>,
 *   anonymousBefore?: number | null, parentCpuNs?: number, main?: CellMain,
 *   fault?: object, pool?: { tasks: number, busyNs: number, windowNs: number } }} ResultMessage
 *   samples, usage and host (how its process started, and when it asked for its first worker)
 *   from a cell's host, latency from the calibration host; children: procs mode's K processes,
 *   their own starts and releases; anonymousBefore: the host's anonymous memory before it
 *   started any worker; parentCpuNs: for a task that talks to its parent, the host's main
 *   thread's CPU time from the release to the last result; main: the app's own work on the
 *   host's main thread (main-load.js)
 * @typedef {SerializedError & { type: 'failed', worker?: number, notStarted?: boolean,
 *   code?: string, exitCode?: number, signal?: string, main?: boolean, ending?: boolean }} FailedMessage  main:
 *   the app's request on the host's main thread failed, not a worker (slow: it took too long); ending: ending the workers
 *   after the windows failed (a worker that would not exit)
 * @typedef {ReadyMessage | ResultMessage | FailedMessage | import('./ending.js').EndedMessage | { type: 'unfinished', members: number[] }} HostMessage
 * @typedef {{ task: LoopedTask, ctx: TaskContext, spec: RunnerSpec,
 *   warmup?: WarmupDone, opNs?: number, loaded: bigint, setUp: bigint, warm: bigint }} Prepared  opNs: ns per
 *   op while warming up; loaded: when the entry had loaded, before the task; setUp, warm: when
 *   setup and warmup were done
 */

// off only to measure what the account itself costs (scripts/account-overhead.js)
export const accounting = () => process.env.MMAPBENCH_ACCOUNT !== 'off';
// off only to measure what sampling op latency costs (scripts/account-overhead.js --off latency)
const sampling = () => process.env.MMAPBENCH_LATENCY !== 'off';
/** Whether a window of `iterations` ops could time some of them: a built-in task's, cut in tenths. */
const timeableWindow = (/** @type {RunnerSpec} */ spec, /** @type {number} */ iterations) =>
  accounting() && spec.slices === true && iterations >= SLICES && sampling();
/** Whether it does: in the rounds that time ops (scheduler.js, timedRound), not the others. */
const sampledWindow = (/** @type {RunnerSpec} */ spec, /** @type {number} */ iterations) =>
  timeableWindow(spec, iterations) && spec.timesOps !== false;
/**
 * What a window that could have timed ops says in a round that times none.
 * @param {RunnerSpec} spec
 * @param {number} iterations
 * @returns {OpTimes | null}
 */
const untimedRound = (spec, iterations) =>
  timeableWindow(spec, iterations) && spec.timesOps === false ? { untimed: UNTIMED_ROUND } : null;

/**
 * One pool task's ops (compare --pool, pool/work.js), run as a window's are: through the sampler
 * where a window of the task times some (as often as a worker's window of `spec.iterations`
 * would: over the window's pool tasks, as many timed as one window). The warmup's tasks run the
 * same code, so V8 optimizes what the window runs.
 * @param {{ task: LoopedTask, ctx: TaskContext, spec: RunnerSpec, opNs?: number }} set  opNs: ns
 *   per op of the last task, which says how often to time one
 * @param {number} ops
 * @param {{ timed: boolean, counted: boolean }} asked  timed: a task of the window, whose sampled
 *   op times come back with it; counted: with the thread's counters read around its ops (a fresh
 *   worker a task, whose host cannot read them before and after the window)
 * @returns {Promise<{ start: bigint, end: bigint, counters?: [Counters, Counters], opTimes?: OpTimes,
 *   metrics?: Record<string, number> }>}  metrics: what a task of its own reported for these ops
 */
export async function poolBatch(set, ops, { timed, counted }) {
  const { task, ctx, spec } = set;
  const sampler = sampledWindow(spec, spec.iterations)
    ? latencySampler(set.opNs, spec.iterations, awaitsOf(spec, task))
    : null;
  const before = counted && accounting() ? readCounters() : null;
  const start = process.hrtime.bigint();
  /** @type {any} */
  let returned = sampler ? runSampled(task, ctx, ops, sampler) : task.run(ctx, ops); // a user's task may return anything
  if (returned && typeof returned.then === 'function') returned = await returned;
  const end = process.hrtime.bigint();
  const after = before ? readCounters() : null;
  set.opNs = Number(end - start) / Math.max(ops, 1);
  const opTimes = sampler ? opTimesOf(sampler) : untimedRound(spec, spec.iterations);
  const metrics = sampler ? null : declaredMetrics(returned?.metrics, spec.metrics);
  return {
    start,
    end,
    ...(before && after ? { counters: /** @type {[Counters, Counters]} */ ([before, after]) } : {}),
    ...(timed && opTimes ? { opTimes } : {}),
    ...(metrics && timed ? { metrics } : {}),
  };
}

/**
 * Whether a task's async ops are awaited one by one (a task that talks to its parent, or an
 * op(ctx) task whose ops turned out async), so each has a time of its own.
 * @param {RunnerSpec} spec
 * @param {LoopedTask} task
 */
const awaitsOf = (spec, task) => spec.parent === true || /** @type {{ asyncOps?: boolean }} */ (task).asyncOps === true;

/**
 * Loads the task and runs setup and warmup: everything that must not be timed.
 * @param {RunnerSpec & { warmupMs?: number }} spec  warmupMs: warm up for at most this long
 * @param {number} index
 * @param {TaskContext['mode']} mode
 * @param {() => Promise<void> | void} [allSetUp]  resolves once every worker of the cell is set up
 * @param {import('./parent-channel.js').ParentChannel} [parent]  for a task that talks to its
 *   parent (`parent: true`), the channel to it
 * @param {import('./set-up.js').SetUp} [set]  the task, already loaded and set up by the entry
 *   (set-up.js), before the harness loaded
 * @returns {Promise<Prepared>}
 */
export async function prepare(spec, index, mode, allSetUp = async () => {}, parent = undefined, set = undefined) {
  const { module, ctx, loaded, setUp } = set ?? (await setUpTask(spec, index, mode, parent));
  const task = loopOf(module);
  // The counters' /proc files are opened and read once before the warmup, not first at the
  // release: the harness calls the fs functions a task calls (openSync, readSync) with other
  // strings and arguments, and doing so first beside the window deoptimized the task's own
  // optimized openSync there, recompiling it on a V8 thread inside the window's first tenth
  // (docs/how-it-measures.md, "The window's first tenth"). After setup: not the app's start-up.
  if (accounting()) {
    readCounters();
    minorFaults();
  }
  // No worker warms up before all K are set up: start-up (to the last one set up) is then what
  // adding K workers costs, not slowed by the first ones' warmups on the same CPUs, and the K
  // warm up side by side, as they will run.
  await allSetUp();
  // The warmup runs the ops as the window will: through the sampler where the window times
  // some, as often as the window will (from the last batch's time per op; until then, each op
  // until one says how long an op takes), a sampler afresh for each batch as for each window. V8
  // then optimizes the harness's loop (runSampled and what it calls) with the task's before the
  // window, and a steady warmup waits for those compile jobs (stillTiering).
  const sampled = sampledWindow(spec, spec.iterations);
  // how long an op took while warming up: how often the window can afford to time one
  /** @type {number | undefined} */
  let opNs;
  // as measure() has it: a task whose async ops never overlap has each awaited (an op(ctx) task
  // is known to be async from its first op on)
  const warmRun = (/** @type {number} */ ops, /** @type {number | undefined} */ ns = opNs) =>
    sampled
      ? runSampled(task, ctx, ops, latencySampler(ns, spec.iterations, awaitsOf(spec, task)))
      : task.run(ctx, ops);
  if (spec.warmupMs === undefined) {
    if (spec.warmup > 0) {
      const from = process.hrtime.bigint();
      await warmRun(spec.warmup);
      opNs = Number(process.hrtime.bigint() - from) / spec.warmup;
    }
  } else {
    // doubling batches: a slow op (a 16 MiB read in 8 KiB requests) stops after a few, a fast
    // one gets its full count in a handful of calls
    const until = performance.now() + spec.warmupMs;
    for (let done = 0, batch = 1; done < spec.warmup && performance.now() < until; done += batch, batch *= 2) {
      const ops = Math.min(batch, spec.warmup - done);
      const from = process.hrtime.bigint();
      await warmRun(ops);
      opNs = Number(process.hrtime.bigint() - from) / ops;
    }
  }
  const warmup = spec.steady ? await warmUntilSteady(warmRun, spec.steady) : undefined;
  if (warmup) opNs = (warmup.ms * 1e6) / Math.max(warmup.ops, 1);
  return { task, ctx, spec, warmup, opNs, loaded, setUp, warm: process.hrtime.bigint() };
}

/**
 * A task that gives one op (`op(ctx)`) as one with a loop (`run`): the ops one after another,
 * with nothing of the harness's between two; an async op is awaited before the next, so ops
 * never overlap and each has a time of its own. The loop is sync while the ops are, so a sync
 * task's window takes no turn of the microtask queue (runSampled).
 * @param {import('../tasks/index.js').Task} task  with op or run (loadTask checked)
 * @returns {LoopedTask}
 */
export function loopOf(task) {
  const { op } = task;
  if (typeof op !== 'function' || typeof task.run === 'function') return /** @type {LoopedTask} */ (task);
  /** @type {LoopedTask} */
  const looped = {
    .../** @type {import('../tasks/index.js').TaskShape} */ (task),
    run(ctx, iterations) {
      for (let i = 0; i < iterations; i++) {
        /** @type {any} */
        const called = op(ctx);
        if (called && typeof called.then === 'function') {
          looped.asyncOps = true;
          return (async () => {
            await called;
            for (let j = i + 1; j < iterations; j++) await op(ctx);
          })();
        }
      }
      return undefined;
    },
  };
  return looped;
}

/**
 * Runs the task in batches until its rate stops trending (a cold heap faulted in, V8 tiered up)
 * and V8 has stopped installing optimized code, or the cap. Timed with the same clock as the
 * window, between calls, never inside one; the heap's code read between them too.
 * @param {(ops: number, opNs: number | undefined) => unknown} run  runs `ops` ops as the window
 *   will, given the time per op so far
 * @param {SteadyWarmup} steady
 * @returns {Promise<WarmupDone>}
 */
async function warmUntilSteady(run, { batch, maxBatches, capMs }) {
  /** @type {number[]} */
  const perOp = [];
  /** @type {number[]} */
  const codeSizes = [];
  // loaded here, not with the harness: not part of the worker's start-up
  const { getHeapCodeStatistics } = await import('node:v8');
  const from = performance.now();
  // the ramp: when each batch ended, in µs from the first op, one clock read a batch
  /** @type {number[]} */
  const atUs = [];
  const first = process.hrtime.bigint();
  for (;;) {
    const start = process.hrtime.bigint();
    /** @type {any} */
    const called = run(batch, perOp.at(-1));
    if (called && typeof (/** @type {any} */ (called).then) === 'function') await called;
    const end = process.hrtime.bigint();
    perOp.push(Number(end - start) / batch);
    atUs.push(Math.round(Number(end - first) / 1e3));
    const ms = performance.now() - from;
    codeSizes.push(getHeapCodeStatistics().code_and_metadata_size);
    const trending = !stoppedTrending(perOp) || stillTiering(codeSizes);
    if (!trending || perOp.length >= maxBatches || ms >= capMs)
      return { ops: perOp.length * batch, ms, capped: trending, ramp: { from: String(first), batch, atUs } };
  }
}

/**
 * The timed part: the task's own loop bracketed by the monotonic clock, so the harness adds
 * nothing per iteration. Around it, outside the window, this thread's counters are read for the
 * account of where its time went. A built-in task without metrics of its own runs in ten calls,
 * a tenth of the ops each, with the clock read between them (the regime: still warming up, or
 * steady). A user's task, or one with its own metrics, is called once, as promised.
 * @param {Prepared} prepared
 * @param {number} iterations
 * @returns {Promise<Sample>}
 */
export async function measure({ task, ctx, spec, warmup, opNs, loaded, setUp, warm }, iterations) {
  const accounted = accounting();
  const slicing = accounted && spec.slices === true && iterations >= SLICES;
  const gc = accounted ? watchGc() : null;
  const before = accounted ? readCounters() : null;
  const gcFrom = performance.now();
  // allocated before the clock starts: the window allocates nothing of the harness's
  // a task whose async ops never overlap (a round trip to the parent, a user's async op(ctx))
  // has each awaited between the two clock reads
  const sampler = sampledWindow(spec, iterations) ? latencySampler(opNs, iterations, awaitsOf(spec, task)) : null;
  let lastFaults = slicing ? minorFaults() : null;
  const start = process.hrtime.bigint();
  /** @type {any} */
  let returned; // a user's task may return anything
  /** @type {import('./thread-counters.js').Slice[] | undefined} */
  let slices;
  let end = start;
  if (slicing) {
    slices = [];
    let last = start;
    for (let slice = 0, done = 0; slice < SLICES; slice++) {
      const ops = Math.floor((iterations * (slice + 1)) / SLICES) - done;
      const called = sampler ? runSampled(task, ctx, ops, sampler) : runOps(task, ctx, ops);
      if (called) await called;
      end = process.hrtime.bigint();
      // page faults at the edges of the first and the last tenth only: two reads inside the window
      const now = slice === 0 || slice >= SLICES - 2 ? minorFaults() : null;
      slices.push({
        ns: Number(end - last),
        ops,
        minflt: now === null || lastFaults === null ? null : now - lastFaults,
      });
      done += ops;
      last = end;
      lastFaults = now;
    }
  } else {
    returned = task.run(ctx, iterations);
    if (returned && typeof returned.then === 'function') returned = await returned;
    end = process.hrtime.bigint();
  }
  const gcTo = performance.now();
  const after = accounted ? readCounters() : null;
  await task.teardown?.(ctx);
  /** @type {Sample} */
  const sample = { index: ctx.index, pid: process.pid, ops: iterations, start: String(start), end: String(end) };
  if (gc && before && after) {
    const pauses = await gc.between(gcFrom, gcTo);
    gc.stop();
    sample.account = { ...windowAccount(before, after, pauses), wallNs: Number(end - start) };
  }
  if (slices) sample.slices = slices;
  const opTimes = sampler ? opTimesOf(sampler) : untimedRound(spec, iterations);
  if (opTimes) sample.opTimes = opTimes;
  if (warmup) sample.warmup = warmup;
  const metrics = declaredMetrics(returned?.metrics, spec.metrics);
  if (metrics) sample.metrics = metrics;
  sample.timeline = { loaded: String(loaded), setUp: String(setUp), warm: String(warm) };
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
  // the app's request past its time (main-load.js): said as that, not as a throw
  ...(error instanceof Error && /** @type {{ slow?: unknown }} */ (error).slow === true ? { slow: true } : {}),
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
