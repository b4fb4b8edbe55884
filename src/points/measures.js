// What every view shows of each mode, in one list. A per-mode statistic is measured per cell
// (src/run/), read from the cell and printed by its entry here; the document summarizes it over
// the complete rounds, and the compare and sweep tables, the HTML page, diff and the exports
// pick it up from this list (docs/development.md, "Adding a statistic").
import { linearRegression } from 'simple-statistics';
import { SAVED_BITS } from '../stats/histogram.js';
import { fixed, ops } from '../words/spelling.js';

/**
 * @typedef {import('../stats/cell-summary.js').CellResult} CellResult
 * @typedef {object} Measure
 * @property {string} key  its name in a mode's summary (`results.workers[key]`) and in exports
 * @property {string} name  in words, as a table's row and a chart's title say it
 * @property {string} unit  as exports label it
 * @property {'higher'|'lower'} better  which way is an improvement
 * @property {(cell: CellResult) => number | null} of  the cell's figure; null where it could
 *   not be had
 * @property {(cell: CellResult) => string | null} [why]  why a cell has no figure, in a few words
 * @property {(value: number) => string} format  a value with its unit, for a table
 * @property {string} [short]  the row's name in the default answer's table, where `name` would
 *   take a second line there (15 characters leave the figures room for 6-digit throughputs)
 * @property {string} axis  a chart's axis title, with which way is better
 * @property {number} digits  decimals a chart's axis shows
 * @property {'difference'} [contrast]  workers − procs rather than workers/procs: a figure a mode
 *   may have none of (what the app keeps: 0 with children), where a ratio means nothing
 * @property {{ histogram: (cell: CellResult) => import('../stats/histogram.js').Histogram | null,
 *   percentile: number, bits: number, scale: number, timings: string, perCell: string }} [pooled]  a percentile of what every cell timed, pooled:
 *   the mode's figure and the ratio are read from the pooled histogram (stats/pooled.js), where a
 *   cell holds too few for that percentile of its own (in the measure's unit: ns × `scale`);
 *   `of` stays each cell's own
 * @property {(tree: import('../stats/trees.js').PlainTree) => number | null} [plain]  a plain
 *   tree's figure (run/plain-tree.js): where a run had plain trees beside its cells, the mode's
 *   figure and the ratio are theirs, an app's without mmapbench's runner, and the cells' are
 *   the harness's, shown apart (points/points.js, figureOf)
 */

const MiB = 2 ** 20;

/**
 * The app's anonymous memory before its first worker and after each cycle (bytes, its garbage
 * collected), each less what its own main malloc heap grew by since the first reading: its
 * requests' Buffers grow that heap by themselves, by 0 or 20 MiB as the heap's top happens to be
 * free at a reading, while a worker thread's mallocs go to arenas of their own (run/ending.js).
 * A file from before the heap was read gives the readings as they are. Null without an end.
 * @param {CellResult['end']} end
 * @returns {Array<number | null> | null}
 */
export function appMemoryByCycle(end) {
  if (!end || typeof end.beforeBytes !== 'number') return null;
  const heapFrom = end.beforeHeapBytes;
  const less = (/** @type {number | null | undefined} */ heap) =>
    typeof heapFrom === 'number' && typeof heap === 'number' ? heap - heapFrom : 0;
  return [
    end.beforeBytes,
    ...end.cycles.map((cycle) =>
      typeof cycle.anonBytes === 'number' ? cycle.anonBytes - less(cycle.heapBytes) : null,
    ),
  ];
}

/**
 * What the workers left the app per worker once a cycle's had ended: the app's memory then, less
 * before its first worker, its own heap's growth out of both (appMemoryByCycle), over K.
 * @param {CellResult} cell
 * @param {number} cycle  0 the first, -1 the last
 */
const keptAfter = ({ end, workers }, cycle) => {
  const memory = appMemoryByCycle(end);
  const after = memory?.slice(1).at(cycle);
  return memory && typeof after === 'number'
    ? (after - /** @type {number} */ (memory[0])) / workers.length / MiB
    : null;
};

/**
 * How much more the app keeps per worker with each cycle: the least-squares slope of what it
 * kept over the cycle's number, in MiB per worker per cycle; null with fewer than 2 cycles.
 * @param {CellResult} cell
 */
const keptGrowth = (cell) => {
  const cycles = cell.end?.cycles.length ?? 0;
  if (cycles < 2) return null;
  /** @type {Array<[number, number]>} */
  const points = [];
  for (let i = 0; i < cycles; i++) {
    const kept = keptAfter(cell, i);
    if (kept === null) return null;
    points.push([i + 1, kept]);
  }
  return linearRegression(points).m;
};

/** MiB that may be below 0 (the app can hold less after than before), with a true minus sign. */
const signedMiB = (/** @type {number} */ value, digits = 1) =>
  `${value < 0 && Number(Math.abs(value).toFixed(digits)) !== 0 ? '−' : ''}${fixed(Math.abs(value), digits)} MiB`;

/**
 * What a cell's K workers added to their parent's anonymous memory, MiB a worker, whether or not
 * they timed ops (addedMemory below reads it in the rounds that time none); null where nothing
 * was added or it was not read.
 * @param {Pick<CellResult, 'memory' | 'workers' | 'main'>} cell
 */
export function addedMiB({ memory, workers, main }) {
  if (typeof memory?.anonBytes !== 'number' || typeof memory.anonymousBefore !== 'number') return null;
  const added = memory.anonBytes - memory.anonymousBefore - Math.max(0, main?.buffersAdded ?? 0);
  return added > 0 ? added / workers.length / MiB : null;
}

/** @type {Measure[]} */
export const MEASURES = [
  {
    key: 'throughput',
    name: 'throughput',
    unit: 'ops/s',
    better: 'higher',
    of: (cell) => cell.throughput,
    format: (value) => `${ops(value)} ops/s`,
    axis: 'ops/s (higher is faster)',
    digits: 0,
  },
  {
    key: 'firstThroughput',
    name: 'first 2,000 ops',
    short: 'first 2k ops',
    unit: 'ops/s',
    better: 'higher',
    // K fresh workers' first 2,000 ops each, timed in their warmup from the first worker's first
    // op to the last one's 2,000th: what a worker spawned per job does (stats/ramp.js)
    of: ({ ramp }) => ramp?.firstThroughput ?? null,
    format: (value) => `${ops(value)} ops/s`,
    axis: "ops/s of fresh workers' first 2,000 ops (higher is faster)",
    digits: 0,
  },
  {
    key: 'toFullSpeedMs',
    name: 'to full speed',
    unit: 'ms',
    better: 'lower',
    // from a fresh worker's first op until its rate stays within a fifth of its window's (the
    // median worker of the cell; stats/ramp.js)
    // workers − procs: a mode may take no time at all to it
    contrast: 'difference',
    of: ({ ramp }) => ramp?.toFullMs ?? null,
    format: (value) => `${fixed(value, 0)} ms`,
    axis: 'ms from the first op to full speed (lower is sooner)',
    digits: 0,
  },
  {
    key: 'addedMemory',
    name: 'memory per added worker',
    short: 'memory/worker',
    unit: 'MiB',
    better: 'lower',
    // the anonymous memory (heaps, stacks, arenas) the K workers added to their parent, at the
    // end of the timed window: the tree's less the parent's before it started any, over K. Not
    // PSS: the Node binary's pages are in the page cache once whatever runs, and PSS would split
    // them among whatever else runs (docs/how-it-measures.md, "What a mode costs")
    // The app's own load (main thread) allocates too: its Buffers not yet collected are the app's,
    // not what the workers added
    // Nothing or less added reads nothing: the app's Buffers outgrew what the tree's anonymous
    // memory did, or no worker was left to hold any (a cell is a figure, never a clamp at 0)
    // A round whose workers timed ops has none: the sampled loop's compiling kept more in each
    // thread's allocator than a plain script's loop, so the figure comes from the rounds that
    // time no op (run/scheduler.js, timedRound)
    of: (cell) => (cell.memory?.timedOps ? null : addedMiB(cell)),
    // A cell's workers hold mmapbench's runner too (its modules: about 0.6 MiB a child on
    // reuse-buffer, docs/how-it-measures.md): where the run had plain trees, what the app's own
    // workers add is theirs
    plain: (tree) => tree.addedMiB ?? null,
    // (a cell saved before both trees had a parent has no anonBytes at all: nothing to say)
    why: ({ memory }) =>
      memory?.unavailable ??
      (memory?.timedOps
        ? 'read in the rounds that time no op (every other complete round, from the first): none ran'
        : null) ??
      (memory?.anonBytes === null
        ? 'smaps_rollup has no Pss_Anon nor Anonymous'
        : typeof memory?.anonBytes === 'number'
          ? 'the tree held no more anonymous memory than the app did before its workers (less its own Buffers)'
          : null),
    format: (value) => `${fixed(value, 1)} MiB`,
    axis: 'MiB per added worker (lower takes less)',
    digits: 1,
  },
  {
    key: 'readyMs',
    name: 'start-up',
    unit: 'ms',
    better: 'lower',
    // from the parent's first request (new Worker, fork) until the last worker had loaded its
    // task and run its setup: what adding K workers to a running app waits for
    of: ({ phases }) => (typeof phases?.startUpNs === 'number' ? phases.startUpNs / 1e6 : null),
    format: (value) => `${fixed(value, 0)} ms`,
    axis: 'ms from the request to every worker set up (lower is sooner)',
    digits: 0,
  },
  {
    key: 'keptMemory',
    name: 'kept after end',
    unit: 'MiB',
    better: 'lower',
    contrast: 'difference',
    // the app's anonymous memory once it has ended its K workers (terminate, kill) and waited
    // --settle, less before its first worker, over K, its main heap's own growth out of it: what
    // the workers leave it (run/ending.js, appMemoryByCycle)
    of: (cell) => keptAfter(cell, 0),
    format: (value) => signedMiB(value),
    axis: 'MiB per worker the app keeps after they end (lower keeps less)',
    digits: 1,
  },
  {
    key: 'teardownMs',
    name: 'teardown',
    unit: 'ms',
    better: 'lower',
    // from the app's request to end its K workers to the last one's exit event
    of: ({ end }) => (end?.cycles.length ? end.cycles[0].teardownNs / 1e6 : null),
    format: (value) => `${fixed(value, 1)} ms`,
    axis: 'ms from the request to end the workers to their last exit (lower is sooner)',
    digits: 1,
  },
  {
    key: 'keptLastMemory',
    name: 'kept, last cycle',
    short: 'kept after last',
    unit: 'MiB',
    better: 'lower',
    contrast: 'difference',
    // --cycles N: what the app keeps per worker after it has started, run and ended them N times
    of: (cell) => ((cell.end?.cycles.length ?? 0) >= 2 ? keptAfter(cell, -1) : null),
    format: (value) => signedMiB(value),
    axis: 'MiB per worker the app keeps after the last cycle (lower keeps less)',
    digits: 1,
  },
  {
    key: 'keptGrowthPerCycle',
    name: 'kept growth/cycle',
    short: 'growth/cycle',
    unit: 'MiB',
    better: 'lower',
    contrast: 'difference',
    // --cycles N: the least-squares slope of what the app kept after each cycle, per worker
    of: keptGrowth,
    format: (value) => signedMiB(value, 2),
    axis: 'MiB per worker more kept with each cycle (lower grows less)',
    digits: 2,
  },
  {
    key: 'latencyP99Us',
    name: 'op latency p99',
    unit: 'µs',
    better: 'lower',
    // each cell's 99th percentile over the ops its workers timed, one in every few across their
    // windows (run/latency-sampler.js)
    of: ({ latency }) => (latency && 'p99Ns' in latency ? latency.p99Ns / 1e3 : null),
    why: ({ latency }) => (latency && 'untimed' in latency ? latency.untimed : null),
    format: (value) => `${value < 100 ? fixed(value, 1) : ops(value)} µs`,
    axis: 'µs per op, 99th percentile (lower is better)',
    digits: 1,
  },
  {
    key: 'latencyP999Us',
    name: 'op latency p99.9',
    unit: 'µs',
    better: 'lower',
    // the same ops' 99.9th percentile; a cell saved before the ops were sampled across the whole
    // window has none: its p99.9 rested on a handful of ops
    of: ({ latency }) => (latency && 'histogram' in latency ? latency.p999Ns / 1e3 : null),
    why: ({ latency }) => (latency && 'untimed' in latency ? latency.untimed : null),
    format: (value) => `${value < 100 ? fixed(value, 1) : ops(value)} µs`,
    axis: 'µs per op, 99.9th percentile (lower is better)',
    digits: 1,
  },
  {
    key: 'mainRequestP99Us',
    name: 'app request p99',
    unit: 'µs',
    better: 'lower',
    // the app's own requests on the parent's main thread, from the release to the last result:
    // each timed alone (run/main-load.js); the figure is the 99th percentile of every round's
    // requests pooled, as an app's p99 over its life is (a cell serves about 50)
    of: ({ main }) => (main?.during ? main.during.p99Ns / 1e3 : null),
    pooled: {
      histogram: ({ main }) => main?.during?.histogram ?? null,
      percentile: 99,
      bits: SAVED_BITS,
      scale: 1e-3,
      timings: 'requests',
      perCell: 'about 50',
    },
    format: (value) => `${value < 100 ? fixed(value, 1) : ops(value)} µs`,
    axis: "µs per request on the app's main thread, 99th percentile (lower is better)",
    digits: 1,
  },
  {
    key: 'lagP99Ms',
    name: 'app loop lag p99',
    short: 'app lag p99',
    unit: 'ms',
    better: 'lower',
    // how much later than its interval the app's timer called each request (run/main-load.js),
    // over the same stretch: what the main thread's event loop, busy or kept from a CPU, made
    // it wait; the 99th percentile of every round's ticks pooled, as the request p99 is (a cell
    // ticks about 50 to 500 times)
    of: ({ main }) => (main?.during?.lag ? main.during.lag.p99Ns / 1e6 : null),
    pooled: {
      histogram: ({ main }) => main?.during?.lag?.histogram ?? null,
      percentile: 99,
      bits: SAVED_BITS,
      scale: 1e-6,
      timings: 'ticks',
      perCell: '50 to 500',
    },
    format: (value) => `${fixed(value, 2)} ms`,
    axis: "ms the app's timer ran late, 99th percentile (lower is better)",
    digits: 2,
  },
];

/**
 * What cells saved before both trees had a parent hold, under their old keys: read from such
 * cells only (a cell of now has `anonBytes` and `startUpNs`), named by their definition and
 * "old", and never compared with the figures above, which mean something else
 * (docs/how-it-measures.md, "What a mode costs").
 * @type {Measure[]}
 */
const SAVED_BEFORE = [
  {
    key: 'memoryPerWorker',
    name: 'memory per worker (tree PSS / k, old)',
    short: 'old memory',
    unit: 'MiB',
    better: 'lower',
    of: ({ memory, workers }) =>
      memory?.pssBytes && !('anonBytes' in memory) ? memory.pssBytes / workers.length / MiB : null,
    format: (value) => `${fixed(value, 1)} MiB`,
    axis: "MiB per worker, the tree's PSS / k (lower takes less)",
    digits: 1,
  },
  {
    key: 'startUpMs',
    name: 'start-up (from spawn, old)',
    short: 'old start-up',
    unit: 'ms',
    better: 'lower',
    of: ({ phases: p }) =>
      p && p.startUpNs === undefined ? (p.spawnNs + p.nodeNs + p.loadNs + p.threadsNs + p.setupNs) / 1e6 : null,
    format: (value) => `${fixed(value, 0)} ms`,
    axis: 'ms from spawn to every worker set up (lower is sooner)',
    digits: 0,
  },
  {
    key: 'nodeStartMs',
    name: "Node's own start (old)",
    unit: 'ms',
    better: 'lower',
    of: ({ phases: p }) => (p && p.startUpNs === undefined ? p.nodeNs / 1e6 : null),
    format: (value) => `${fixed(value, 0)} ms`,
    axis: "ms of Node's own start (lower is sooner)",
    digits: 0,
  },
  {
    key: 'loopDelayP99Ms',
    name: 'old loop lag p99',
    short: 'old lag p99',
    unit: 'ms',
    better: 'lower',
    // Node's monitorEventLoopDelay on a 1 ms timer, the 1 ms included: each cell's own p99 over
    // a stretch too short for one, where a cell of now keeps its timer's lag
    of: ({ main }) => (main?.during?.loopDelay && !main.during.lag ? main.during.loopDelay.p99Ns / 1e6 : null),
    format: (value) => `${fixed(value, 2)} ms`,
    axis: "ms the main thread's event loop ran late, 99th percentile, 1 ms included (lower is better)",
    digits: 2,
  },
];
MEASURES.push(...SAVED_BEFORE);

export const THROUGHPUT = MEASURES[0];
/** Every measure but throughput, which the tables, the ratio and the gate already carry. */
export const FURTHER_MEASURES = MEASURES.slice(1);
