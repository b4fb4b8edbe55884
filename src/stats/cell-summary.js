import { cellAccount } from './account.js';
import { cellLatency } from './latency.js';
import { cellRamp } from './ramp.js';

/**
 * @typedef {object} WorkerSample  one worker or process of one cell
 * @property {number} index
 * @property {number} pid
 * @property {number} ops
 * @property {number} startNs  start of its timed loop, ns after the cell's earliest start
 * @property {number} endNs    end of its timed loop, same origin
 * @property {number} opsPerSec
 * @property {Record<string, number>} [metrics]  what the task returned, declared metrics only
 * @property {import('./samples.js').WarmupDone} [warmup]  how long it warmed up, when
 *   until steady
 */

/**
 * @typedef {object} CellResult
 * @property {'workers'|'procs'} mode
 * @property {number} throughput   total ops / (latest end - earliest start), ops/s
 * @property {number} totalOps
 * @property {number} elapsedNs
 * @property {number} releaseSkewNs  latest start - earliest start: how tight the barrier was
 * @property {number} spread       slowest / fastest worker ops/s (1 = even)
 * @property {WorkerSample[]} workers
 * @property {Record<string, number | null>} [metrics]  the task's own figures, combined across workers
 * @property {import('./samples.js').TraceSummary} [trace]  with --trace: the cell's
 *   mmap_lock waits
 * @property {MachineShare} [machine]  what the tree got of the machine while it ran
 * @property {import('./latency.js').CellLatency | import('./latency.js').NoLatency} [latency]  per-op
 *   latency of the ops timed one by one, merged over the workers
 * @property {import('../system/memory.js').TreeMemory} [memory]  what the tree held at the end of
 *   its timed windows
 * @property {import('./account.js').CellAccount} [account]  where its workers' time went
 * @property {import('./ramp.js').CellRamp} [ramp]  its fresh workers' first ops, from their warmups
 *   until steady: the first FIRST_OPS ops' throughput and the time to full speed
 * @property {import('./phases.js').Phases} [phases]  where the cell's wall time went, spawn to exit
 * @property {number} [strays]  processes the task started and left running, killed when the cell
 *   ended
 * @property {number} [droppedOutput]  bytes the task wrote past what its threads' streams may hold
 *   (run/task-output.js)
 * @property {number} [parentCpuNs]  a task that talks to its parent: the parent's main thread's
 *   CPU time from the release to the last result (answering the workers)
 * @property {{ tasks: number, busyNs: number, windowNs: number }} [pool]  a pool cell's (compare
 *   --pool): the pool tasks of its window, the time its workers spent in their ops, and their
 *   windows summed (each worker's first op to its last): the rest is the pool's dispatch
 * @property {import('./samples.js').CellMain} [main]  the app's own work on the parent's
 *   main thread: its requests' times and its event loop's delay, alone and while the workers ran
 * @property {{ settleMs: number, beforeBytes: number | null, beforeHeapBytes?: number | null, cycles: import('./samples.js').EndCycle[] }} [end]
 *   the app ending its workers after the windows: its anonymous memory before its first worker,
 *   and each cycle's teardown and its anonymous memory after (garbage collected before each)
 */

/**
 * What the statistics read of a round: its cells by arm, and the traced ones.
 * @typedef {'workers'|'procs'} Mode
 * @typedef {object} RoundCells
 * @property {number} index  1-based
 * @property {Partial<Record<Mode, CellResult>>} cells
 * @property {Partial<Record<Mode, CellResult>>} [traced]  the same arms run again under the
 *   tracer, each cell with its `trace`
 * @property {Partial<Record<Mode, import('./trees.js').PlainTree>>} [plain]  a plain tree
 *   of each arm's work after its cells, in a compare's every other round (run/plain-tree.js)
 */

/**
 * @typedef {object} MachineShare
 * @property {number} cpuMs  CPU time of the cell's processes (all threads), release to the end
 * @property {number | null} cpuShare  cpuMs over what min(k, CPUs) busy workers would use; the
 *   CPU-bound tasks are near 1, below ~0.5 something else took the CPU
 * @property {number} involuntarySwitches  times the cell's threads were preempted
 * @property {number | null} stealMs  CPU time the hypervisor took from this VM meanwhile
 */

/**
 * Aggregates one cell on one clock: process.hrtime is CLOCK_MONOTONIC, so starts and ends
 * from different processes on one host are comparable.
 * @param {'workers'|'procs'} mode
 * @param {Array<{ index: number, pid: number, ops: number, start: string | bigint, end: string | bigint,
 *   metrics?: Record<string, number>, account?: import('./samples.js').WindowAccount,
 *   slices?: import('./samples.js').Slice[], opTimes?: import('./samples.js').OpTimes,
 *   warmup?: import('./samples.js').WarmupDone }>} samples  what each worker or process
 *   reported; start and end are process.hrtime.bigint(), as text when they came through a message
 * @param {Record<string, { combine?: Combine }>} [declared]  the task's declared metrics
 * @returns {CellResult}
 */
export function summarizeCell(mode, samples, declared = {}) {
  const starts = samples.map((s) => BigInt(s.start));
  const ends = samples.map((s) => BigInt(s.end));
  const origin = starts.reduce((a, b) => (b < a ? b : a));
  const last = ends.reduce((a, b) => (b > a ? b : a));
  const latestStart = starts.reduce((a, b) => (b > a ? b : a));
  const elapsedNs = Number(last - origin);
  // each fresh worker's first op after the cell's first one's: their warmups side by side
  const warmStarts = samples.flatMap((s) => (s.warmup?.ramp?.from ? [BigInt(s.warmup.ramp.from)] : []));
  const warmOrigin = warmStarts.length ? warmStarts.reduce((a, b) => (b < a ? b : a)) : 0n;
  const workers = samples
    .map((s, i) => {
      const startNs = Number(starts[i] - origin);
      const endNs = Number(ends[i] - origin);
      /** @type {WorkerSample} */
      const worker = {
        index: s.index,
        pid: s.pid,
        ops: s.ops,
        startNs,
        endNs,
        opsPerSec: (s.ops * 1e9) / Math.max(endNs - startNs, 1),
      };
      if (s.metrics) worker.metrics = s.metrics;
      if (s.warmup) {
        const { ramp, ...warmup } = s.warmup;
        worker.warmup = ramp?.from
          ? {
              ...warmup,
              ramp: { startNs: Number(BigInt(ramp.from) - warmOrigin), batch: ramp.batch, atUs: ramp.atUs },
            }
          : s.warmup;
      }
      return worker;
    })
    .sort((a, b) => a.index - b.index);
  const totalOps = workers.reduce((sum, w) => sum + w.ops, 0);
  const rates = workers.map((w) => w.opsPerSec);
  const account = cellAccount(samples);
  const latency = cellLatency(samples);
  const ramp = cellRamp(workers);
  return {
    mode,
    throughput: (totalOps * 1e9) / Math.max(elapsedNs, 1),
    totalOps,
    elapsedNs,
    releaseSkewNs: Number(latestStart - origin),
    spread: Math.min(...rates) / Math.max(...rates),
    workers,
    ...(Object.keys(declared).length ? { metrics: combineMetrics(workers, declared) } : {}),
    ...(account ? { account } : {}),
    ...(latency ? { latency } : {}),
    ...(ramp ? { ramp } : {}),
  };
}

/** @typedef {'sum'|'max'|'mean'} Combine */

/** @type {Record<Combine, (values: number[]) => number>} */
const COMBINE = {
  sum: (values) => values.reduce((a, b) => a + b, 0),
  max: (values) => Math.max(...values),
  mean: (values) => values.reduce((a, b) => a + b, 0) / values.length,
};

/**
 * Each declared metric over the workers that reported it, combined as the task declares.
 * @param {Array<{ metrics?: Record<string, number> }>} workers
 * @param {Record<string, { combine?: Combine }>} declared
 * @returns {Record<string, number | null>}
 */
export function combineMetrics(workers, declared) {
  /** @type {Record<string, number | null>} */
  const combined = {};
  for (const [name, { combine = 'sum' }] of Object.entries(declared)) {
    const values = workers
      .map((w) => w.metrics?.[name])
      .filter(/** @returns {v is number} */ (v) => typeof v === 'number' && Number.isFinite(v));
    combined[name] = values.length ? COMBINE[combine](values) : null;
  }
  return combined;
}
