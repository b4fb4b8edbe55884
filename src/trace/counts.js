import { median } from 'simple-statistics';
import { ratioStats, summarize } from '../stats/ratio.js';
import { syscallName, syscallNumber } from './syscalls.js';
import { treesOf } from '../stats/trees.js';

/**
 * @typedef {import('./parse.js').LockWaits} LockWaits
 * @typedef {import('../stats/samples.js').TraceSummary} TraceSummary
 * @typedef {import('./parse.js').Bucket} Bucket
 * @typedef {import('../stats/cell-summary.js').CellResult} CellResult
 * @typedef {import('../stats/cell-summary.js').Mode} Mode
 * @typedef {import('../stats/ratio.js').RatioStats} RatioStats
 * @typedef {CellResult & { trace: TraceSummary }} TracedCell
 */

/** @param {CellResult | undefined} cell @returns {cell is TracedCell} */
const isTraced = (cell) => cell?.trace !== undefined;

/**
 * One mode's traced cells in one record: counts and totals are per-cell medians (a cell is the
 * unit every other figure is given for), the histogram is summed so its shape has every event,
 * max is the largest seen.
 * @param {LockWaits[]} waits
 */
export function combineWaits(waits) {
  const counted = waits.filter((w) => w.count > 0);
  return {
    count: median(waits.map((w) => w.count)),
    totalNs: median(waits.map((w) => w.totalNs)),
    avgNs: counted.length ? median(counted.map((w) => w.avgNs ?? 0)) : null,
    maxNs: counted.length ? Math.max(...counted.map((w) => w.maxNs ?? 0)) : null,
    histogram: sumHistograms(waits.map((w) => w.histogram)),
  };
}

/**
 * @param {Bucket[][]} histograms
 * @returns {Bucket[]}
 */
export function sumHistograms(histograms) {
  /** @type {Map<number, Bucket>} */
  const byLow = new Map();
  for (const bucket of histograms.flat()) {
    const key = bucket.lowNs ?? -Infinity;
    const seen = byLow.get(key);
    if (seen) seen.count += bucket.count;
    else byLow.set(key, { ...bucket });
  }
  return [...byLow.entries()].sort(([a], [b]) => a - b).map(([, bucket]) => bucket);
}

/**
 * The trace section of the document: per mode, its traced cells combined and the observer
 * effect (traced / untraced throughput); for compare, per-round workers/procs ratios of total
 * and of average write wait, with the same interval as the throughput ratio.
 * @param {import('../stats/cell-summary.js').RoundCells[]} rounds
 * @param {Mode[]} modes
 * @param {number} [k]  workers side by side: the time waits are shares of is k × the window
 */
export function traceResults(rounds, modes, k = 1) {
  /** @type {{ modes: Partial<Record<Mode, ReturnType<typeof modeTrace> | null>>, ratios: { totalWrite: RatioStats | null, avgWrite: RatioStats | null } | null }} */
  const summary = { modes: {}, ratios: null };
  for (const mode of modes) {
    const traced = rounds.flatMap((round) => {
      const cell = round.traced?.[mode];
      return isTraced(cell) ? [{ index: round.index, cell }] : [];
    });
    if (!traced.length) {
      summary.modes[mode] = null;
      continue;
    }
    const untraced = rounds.flatMap((round) => round.cells[mode] ?? []);
    summary.modes[mode] = modeTrace(traced, untraced, k);
  }
  if (modes.length === 2) {
    const both = rounds.flatMap((round) => {
      const workers = round.traced?.workers;
      const procs = round.traced?.procs;
      return isTraced(workers) && isTraced(procs) ? [[workers.trace.write, procs.trace.write]] : [];
    });
    const ratio = (/** @type {(waits: LockWaits) => number} */ pick) => {
      const samples = both.map(([w, p]) => pick(w) / pick(p)).filter((r) => Number.isFinite(r) && r > 0);
      return samples.length ? ratioStats(samples) : null;
    };
    summary.ratios = both.length ? { totalWrite: ratio((w) => w.totalNs), avgWrite: ratio((w) => w.avgNs ?? 0) } : null;
  }
  return summary;
}

/**
 * One mode's traced cells, combined.
 * @param {Array<{ index: number, cell: TracedCell }>} traced  at least one
 * @param {CellResult[]} untraced  the same mode's cells without the tracer
 * @param {number} k
 */
function modeTrace(traced, untraced, k) {
  const traces = traced.map(({ cell }) => cell.trace);
  const throughput = summarize(traced.map(({ cell }) => cell.throughput));
  const last = traced[traced.length - 1];
  return {
    cells: traced.length,
    throughput,
    // below 1: tracing slowed the cell down
    observer: untraced.length ? throughput.median / median(untraced.map((cell) => cell.throughput)) : null,
    write: combineWaits(traces.map((t) => t.write)),
    read: combineWaits(traces.map((t) => t.read)),
    trylockFailed: median(traces.map((t) => t.trylockFailed)),
    writeHoldNs: median(traces.map((t) => t.writeHoldNs)),
    processes: { round: last.index, list: last.cell.trace.processes },
    mainThread: mainThreadWaits(traced),
    bySyscall: { write: sumBySyscall(traces, 'write'), read: sumBySyscall(traces, 'read') },
    timeShare: timeShare(traces, k),
    // the traced trees' states, with what the trace counted per op in each
    trees: treesOf(
      traced.map(({ cell }) => cell),
      tracedPerOp,
    ),
  };
}

// the write acquisitions under these system calls, per op, beside the states' page faults
const STATE_SYSCALLS = ['mprotect', 'madvise', 'munmap'];

/**
 * A traced tree's figures per op: its mmap_lock write waits (ns) and write acquisitions under
 * each of STATE_SYSCALLS.
 * @param {any} cell  a traced cell
 * @returns {Record<string, number | null>}
 */
function tracedPerOp(cell) {
  const ops = cell.totalOps;
  const write = cell.trace?.bySyscall?.write ?? [];
  return {
    lockWaitNs: ops > 0 ? cell.trace.write.totalNs / ops : null,
    ...Object.fromEntries(
      STATE_SYSCALLS.map((name) => {
        const number = syscallNumber(name);
        const found = write.find((/** @type {{ syscall: number | null }} */ one) => one.syscall === number);
        return [name, ops > 0 && number !== null ? (found?.count ?? 0) / ops : null];
      }),
    ),
  };
}

/**
 * The app's main thread's waits: the parent's main thread (the cell's first process; its thread
 * id is its pid), per traced cell, the median over cells; null where no cell says which process
 * was the parent, or the trace did not count main threads (a script from before).
 * @param {Array<{ cell: TracedCell }>} traced
 * @returns {import('./parse.js').ThreadWaits & { cells: number } | null}
 */
function mainThreadWaits(traced) {
  const found = traced.flatMap(({ cell }) => {
    const parent = cell.memory?.processes?.[0]?.pid;
    const process = cell.trace.processes.find((one) => one.pid === parent);
    // a parent with no write acquisition of its own is not listed: its main thread waited for none
    if (parent === undefined || (process && !process.main)) return [];
    return [process?.main ?? { writes: 0, writeNs: 0, reads: 0, readNs: 0 }];
  });
  if (!found.length) return null;
  const middle = (/** @type {'writes'|'writeNs'|'reads'|'readNs'} */ key) => median(found.map((waits) => waits[key]));
  return {
    cells: found.length,
    writes: middle('writes'),
    writeNs: middle('writeNs'),
    reads: middle('reads'),
    readNs: middle('readNs'),
  };
}

/**
 * Each system call's acquisitions and wait over all traced cells (sums, so the rows add up to
 * the cells' totals), most acquisitions first.
 * @param {TraceSummary[]} traces
 * @param {'write'|'read'} kind
 */
export function sumBySyscall(traces, kind) {
  /** @type {Map<number | null, { syscall: number | null, name: string, count: number, totalNs: number }>} */
  const rows = new Map();
  for (const { syscall, count, totalNs } of traces.flatMap((t) => t.bySyscall?.[kind] ?? [])) {
    const row = rows.get(syscall) ?? { syscall, name: syscallName(syscall, kind), count: 0, totalNs: 0 };
    row.count += count;
    row.totalNs += totalNs;
    rows.set(syscall, row);
  }
  return [...rows.values()].sort((a, b) => b.count - a.count);
}

/**
 * How much of the workers' time the lock took: total wait / (k × the traced window), per cell,
 * the median over cells; null where the window is unknown. An upper bound on what removing the
 * waits could win: a thread not waiting may still not run.
 * @param {TraceSummary[]} traces
 * @param {number} k
 */
function timeShare(traces, k) {
  const timed = traces.flatMap((t) => (t.windowNs && t.windowNs > 0 ? [{ ...t, windowNs: t.windowNs }] : []));
  if (!timed.length) return null;
  const share = (/** @type {'write'|'read'} */ kind) => median(timed.map((t) => t[kind].totalNs / (k * t.windowNs)));
  return { write: share('write'), read: share('read'), windowNs: median(timed.map((t) => t.windowNs)) };
}
