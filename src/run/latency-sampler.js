// Op latency, sampled across a whole timed window: one op in every `every` timed as a call of
// its own between two clock reads, its time kept by bucket (a histogram's recorder), never in an
// array, so the harness allocates nothing per op in the task's thread.
import { count, histogramOfRecorder, newRecorder } from '../stats/histogram.js';

/**
 * @typedef {import('../tasks/index.js').TaskContext} TaskContext
 * @typedef {import('../stats/samples.js').OpTimes} OpTimes
 */
/**
 * A task as the harness runs it: its own loop, or the harness's over its op (loopOf).
 * @typedef {import('../tasks/index.js').Task & { run: NonNullable<import('../tasks/index.js').Task['run']>,
 *   asyncOps?: boolean }} LoopedTask
 */

// Op latency is sampled across the whole window: one op in every `every` runs as a call of its
// own between two clock reads. Timing an op, with the calls that cut the window around it, costs
// about TIMED_OP_NS (scripts/latency-overhead.js measures it), and `every` is chosen so that this
// is at most LATENCY_BUDGET of the window, and so that at most MAX_TIMED ops are timed per window:
// each clock read allocates (performance.now() builds an array on Node 20), and 25,000 timed ops
// in a window grew a thread's young generation by 1.3 MiB, charged to the task's memory; 3,750
// by 0.15 MiB (docs/how-it-measures.md, "Figures behind the defaults")
const TIMED_OP_NS = 600;
const LATENCY_BUDGET = 0.01;
const MAX_TIMED = 4096;

/**
 * @typedef {{ every: number, guessed: boolean, awaits: boolean, iterations: number,
 *   counts: Map<number, number>, limit: number, timed: number, untimed: string | null }} Sampler  every: one op in this many is timed (guessed: until the
 *   first op timed says how long one takes); counts: the timed ops by bucket (a histogram's
 *   recorder); limit: the most it times
 */

// one recorder for every window of the thread, emptied for each: a window's allocations are the
// task's alone, and the harness keeps its counts by bucket, not an array of times, in the thread
const recorder = newRecorder();
/** @type {Sampler} */
const theSampler = {
  every: 1,
  guessed: true,
  awaits: false,
  iterations: 0,
  counts: recorder,
  limit: 0,
  timed: 0,
  untimed: null,
};

/**
 * How often a window can time an op: often enough that its p99 rests on many ops, seldom
 * enough that timing costs at most LATENCY_BUDGET of it, and at most MAX_TIMED times.
 * @param {number | undefined} opNs  ns per op while warming up; unknown: decided by the first
 *   op timed
 * @param {number} iterations
 * @param {boolean} [awaits]  the task's ops are async but never overlap (each is a round trip
 *   awaited before the next: a task that talks to its parent), so each has a time of its own
 * @returns {Sampler}
 */
export function latencySampler(opNs, iterations, awaits = false) {
  recorder.clear();
  // the one sampler, its fields stored afresh: a second object of the same shape, made after V8
  // optimized the loop on the first, deoptimizes it (tested: even with equal fields), and the
  // window would then recompile the harness's loop beside the app and the other workers
  theSampler.every = opNs === undefined ? 1 : everyFor(opNs, iterations);
  theSampler.guessed = opNs === undefined;
  theSampler.awaits = awaits;
  theSampler.iterations = iterations;
  theSampler.limit = Math.min(iterations, MAX_TIMED);
  theSampler.timed = 0;
  theSampler.untimed = null;
  return theSampler;
}

// a small integer (`| 0`), as the warmup's sampler holds: a field V8 has seen hold only those
// and then a double would deoptimize the harness's loop at the window's start
const everyFor = (/** @type {number} */ opNs, /** @type {number} */ iterations) =>
  Math.max(1, Math.ceil(TIMED_OP_NS / (LATENCY_BUDGET * Math.max(opNs, 1))), Math.ceil(iterations / MAX_TIMED)) | 0;

/**
 * Runs `ops` ops in runs of `every` on average, the last op of each run as a call of its own
 * between two reads of performance.now() (a double: nothing allocated per op). A run's length is
 * drawn between 1 and 2 × every - 1, so that a task with a rhythm of its own (a collection every
 * so many ops) is not sampled in step with it. A task whose run is async overlaps its ops, so
 * one op alone is not what it does: from its first call on, the rest runs as one batch, and the
 * sampler says why nothing was timed.
 * @param {LoopedTask} task
 * @param {TaskContext} ctx
 * @param {number} ops
 * @param {Sampler} sampler
 * @returns {Promise<unknown> | undefined}  a promise only where the task's run is async, so that
 *   a sync task's window takes no turn of the microtask queue: a turn could run the harness's
 *   own callbacks inside the window
 */
export function runSampled(task, ctx, ops, sampler) {
  if (sampler.awaits) return runAwaited(task, ctx, ops, sampler);
  if (sampler.untimed !== null) return runOps(task, ctx, ops);
  for (let left = ops; left > 0;) {
    const run = runLength(sampler, left);
    // called even for no op: the loop then takes one path whatever `every` is, so the warmup's
    // first ops (each timed until one says how long an op takes) optimize the code the window runs
    const first = runOps(task, ctx, run - 1);
    if (first) return overlapped(task, ctx, first, left - run + 1, sampler);
    const from = performance.now();
    const called = runOps(task, ctx, 1);
    if (called) return overlapped(task, ctx, called, left - run, sampler);
    record(sampler, performance.now() - from);
    left -= run;
  }
  return undefined;
}

/**
 * How many ops until the next timed one, that one included: between 1 and 2 × every - 1.
 * @param {Sampler} sampler
 * @param {number} left
 */
const runLength = ({ every }, left) => Math.min(1 + Math.floor(Math.random() * (2 * every - 1)), left);

/**
 * Keeps a timed op's time; without a warmup to say how long an op takes, the first one timed
 * decides how often to time the rest.
 * @param {Sampler} sampler
 * @param {number} ms
 */
function record(sampler, ms) {
  if (sampler.timed < sampler.limit) {
    count(sampler.counts, ms * 1e6);
    sampler.timed++;
  }
  if (sampler.guessed) {
    sampler.every = everyFor(ms * 1e6, sampler.iterations);
    sampler.guessed = false;
  }
}

/**
 * runSampled for a task whose async ops never overlap: each timed op is awaited between the two
 * clock reads.
 * @param {LoopedTask} task
 * @param {TaskContext} ctx
 * @param {number} ops
 * @param {Sampler} sampler
 */
async function runAwaited(task, ctx, ops, sampler) {
  for (let left = ops; left > 0;) {
    const run = runLength(sampler, left);
    if (run > 1) await task.run(ctx, run - 1);
    const from = performance.now();
    await task.run(ctx, 1);
    record(sampler, performance.now() - from);
    left -= run;
  }
}

/**
 * The rest of a window whose task turned out to be async: awaited, then run as one batch.
 * @param {LoopedTask} task
 * @param {TaskContext} ctx
 * @param {Promise<unknown>} pending
 * @param {number} left  ops not yet called
 * @param {Sampler} sampler
 */
async function overlapped(task, ctx, pending, left, sampler) {
  sampler.untimed = 'its ops overlap (run is async): no op has a time of its own';
  await pending;
  const rest = left > 0 ? runOps(task, ctx, left) : undefined;
  if (rest) await rest;
}

/**
 * One call of the task; a promise only where its run is async, so that a sync task's calls are
 * not each followed by a turn of the microtask queue.
 * @param {LoopedTask} task
 * @param {TaskContext} ctx
 * @param {number} ops
 * @returns {Promise<unknown> | undefined}
 */
export function runOps(task, ctx, ops) {
  /** @type {any} */
  const called = task.run(ctx, ops);
  return called && typeof called.then === 'function' ? called : undefined;
}

// why a window (or a pool task) timed no op
export const TOO_SHORT = 'the window was too short to time an op';
// Every other round times ops, from the second (scheduler.js, timedRound); the others time none,
// so that their memory is read as a plain script's would be: the sampled loop's compiling kept
// 0.6-0.7 MiB more in each thread's allocator (docs/how-it-measures.md, "Memory, start-up and
// tail latency")
export const UNTIMED_ROUND = 'timed in every other complete round, from the second (the others read memory)';

/**
 * What a window's sampler timed, as it crosses to the CLI: a histogram, not the times.
 * @param {Sampler} sampler
 * @returns {OpTimes}
 */
export function opTimesOf({ every, counts, timed, untimed }) {
  if (untimed !== null) return { untimed };
  if (!timed) return { untimed: TOO_SHORT };
  return { every, ops: timed, histogram: histogramOfRecorder(counts) };
}
