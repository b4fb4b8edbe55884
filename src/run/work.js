// What each worker or process of a cell is handed: the task, its file and parameters, its work
// (a fixed warm-up or one until steady, capped) and the app's load beside it.
import { checkBatch } from './plan.js';

/**
 * @typedef {import('./plan.js').Plan} Plan
 * @typedef {import('./plan.js').Work} Work
 */

/**
 * The cap of a warmup until steady: ten timed windows' worth of ops, or 5 s, whichever first.
 * A task whose rate still improves then is measured as it is, and the report says the cap was hit.
 */
export const STEADY_CAP = { windows: 10, seconds: 5 };

// A task that gives op(ctx) gets its ops timed one by one, and its p99 rows rest on each
// window's: a window holds at least this many ops however slow they are (an 8 ms op: 0.8 s)
const MIN_TIMED_OPS = 100;

/**
 * The fewest ops a window of this plan may hold: MIN_TIMED_OPS for a task that gives op(ctx),
 * whose p99 is read from each window's ops; 1 otherwise.
 * @param {Readonly<Plan>} plan
 */
export const fewestOps = (plan) => (plan.task?.op ? MIN_TIMED_OPS : 1);

/**
 * What each worker or process is handed.
 * @param {Plan} plan
 * @param {Work} work
 * @param {{ alone?: boolean, timesOps?: boolean }} [cell]  alone: the cell also reads the app
 *   alone; timesOps: false in a round that times no op (scheduler.js, timedRound)
 * @returns {import('./task-runner.js').RunnerSpec}
 */
export const runnerSpec = (plan, work, { alone = false, timesOps = true } = {}) => ({
  taskUrl: plan.task.url,
  file: plan.file.path,
  fileSize: plan.file.size,
  params: plan.params,
  k: plan.k,
  warmup: work.warmup === 'steady' ? 0 : work.warmup,
  ...(work.warmup === 'steady' ? { steady: steadyWarmup(work) } : {}),
  iterations: work.iterations,
  metrics: Object.keys(plan.task.metrics),
  // a built-in task's run() is a plain loop over its ops, as the harness's loop over a task's
  // op(ctx) is, so its window can be run in tenths and its ops timed; a task with run() of its
  // own is promised one call per cell, and gets one
  slices: (plan.task.builtin || plan.task.op) && Object.keys(plan.task.metrics).length === 0,
  ...(timesOps ? {} : { timesOps: /** @type {const} */ (false) }),
  ...(plan.task.parent ? { parent: true } : {}),
  main: plan.main && { ...plan.main, alone },
  end: plan.end,
  ...(plan.semiSpaceMb ? { semiSpaceMb: plan.semiSpaceMb } : {}),
  ...(plan.pool
    ? {
        pool: {
          name: plan.pool.name,
          module: plan.pool.module,
          batch: batchOf(plan.pool.batch, work),
          isolate: plan.pool.isolate,
          processModule: plan.pool.processModule ?? null,
          // a task's own metrics, each worker's combined over its pool tasks as over workers
          combine: Object.fromEntries(
            Object.entries(plan.task.metrics).map(([name, metric]) => [name, { combine: metric.combine }]),
          ),
        },
      }
    : {}),
});

/**
 * The ops of a pool task: --batch's, at most a worker's window (a larger one would run more ops
 * than the window has, in one task, however long), or poolBatchOf's.
 * @param {number | null} batch  --batch
 * @param {Work} work
 */
function batchOf(batch, work) {
  if (batch === null) return poolBatchOf(work);
  checkBatch(batch, work.iterations);
  return batch;
}

/**
 * A pool task's ops where --batch did not say (compare --pool): a fiftieth of a worker's window,
 * so that each worker takes about 50 pool tasks a window, each long beside one dispatch (a round
 * trip of tens of µs between threads, a hundred or more to a child) and the window still many.
 * @param {Work} work
 */
export const poolBatchOf = (work) => Math.max(1, Math.round(work.iterations / 50));

/**
 * The ops of a steady warm-up's batch: a tenth of the window the work was sized with (the slices
 * the regime is judged by: a warmup that ends steady by its batches should give a window steady
 * by its tenths); a window the schedule lengthened keeps its first batches (schedule.js).
 * @param {Work} work
 */
export const warmupBatchOf = (work) => work.warmupBatch ?? Math.max(1, Math.floor(work.iterations / 10));

/**
 * Batches of warmupBatchOf ops, capped.
 * @param {Work} work
 * @returns {import('./task-runner.js').SteadyWarmup}
 */
const steadyWarmup = (work) => ({
  batch: warmupBatchOf(work),
  maxBatches: STEADY_CAP.windows * 10,
  capMs: STEADY_CAP.seconds * 1000,
});

/**
 * The plan's work when it fixes iterations; null when the session must calibrate.
 * @param {Readonly<Plan>} plan
 * @returns {Work | null}
 */
export const fixedWork = (plan) =>
  plan.iterations === null ? null : { iterations: plan.iterations, warmup: plan.warmup };
