import { median } from 'simple-statistics';
import { ratioStats, summarize } from './ratio.js';
import { syscallName } from '../system/trace/syscalls.js';

/**
 * @typedef {import('../system/trace/parse.js').LockWaits} LockWaits
 * @typedef {import('../system/trace/parse.js').TraceSummary} TraceSummary
 */

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
    avgNs: counted.length ? median(counted.map((w) => w.avgNs)) : null,
    maxNs: counted.length ? Math.max(...counted.map((w) => w.maxNs)) : null,
    histogram: sumHistograms(waits.map((w) => w.histogram)),
  };
}

export function sumHistograms(histograms) {
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
 * The trace section of the results: per mode, its traced cells combined and the observer
 * effect (traced / untraced throughput); for compare, per-round workers/procs ratios of total
 * and of average write wait, with the same interval as the throughput ratio.
 * @param {Array<{ index: number, cells: object, traced?: object }>} rounds
 * @param {string[]} modes
 * @param {number} [k]  workers side by side: the time waits are shares of is k × the window
 */
export function traceResults(rounds, modes, k = 1) {
  const results = { modes: {}, ratios: null };
  for (const mode of modes) {
    const traced = rounds
      .filter((round) => round.traced?.[mode])
      .map((round) => ({ index: round.index, cell: round.traced[mode] }));
    if (!traced.length) {
      results.modes[mode] = null;
      continue;
    }
    const traces = traced.map(({ cell }) => cell.trace);
    const untraced = rounds.map((round) => round.cells[mode]).filter(Boolean);
    const throughput = summarize(traced.map(({ cell }) => cell.throughput));
    const last = traced.at(-1);
    results.modes[mode] = {
      cells: traced.length,
      throughput,
      // below 1: tracing slowed the cell down
      observer: untraced.length ? throughput.median / median(untraced.map((cell) => cell.throughput)) : null,
      write: combineWaits(traces.map((t) => t.write)),
      read: combineWaits(traces.map((t) => t.read)),
      trylockFailed: median(traces.map((t) => t.trylockFailed)),
      writeHoldNs: median(traces.map((t) => t.writeHoldNs)),
      processes: { round: last.index, list: last.cell.trace.processes },
      bySyscall: { write: sumBySyscall(traces, 'write'), read: sumBySyscall(traces, 'read') },
      timeShare: timeShare(traces, k),
    };
  }
  if (modes.length === 2) {
    const both = rounds
      .filter((round) => round.traced?.workers && round.traced?.procs)
      .map((round) => [round.traced.workers.trace.write, round.traced.procs.trace.write]);
    const ratio = (pick) => {
      const samples = both.map(([w, p]) => pick(w) / pick(p)).filter((r) => Number.isFinite(r) && r > 0);
      return samples.length ? ratioStats(samples) : null;
    };
    results.ratios = both.length ? { totalWrite: ratio((w) => w.totalNs), avgWrite: ratio((w) => w.avgNs ?? 0) } : null;
  }
  return results;
}

/**
 * Each system call's acquisitions and wait over all traced cells (sums, so the rows add up to
 * the cells' totals), most acquisitions first.
 * @param {TraceSummary[]} traces
 * @param {'write'|'read'} kind
 */
export function sumBySyscall(traces, kind) {
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
 */
function timeShare(traces, k) {
  const timed = traces.filter((t) => t.windowNs > 0);
  if (!timed.length) return null;
  const share = (kind) => median(timed.map((t) => t[kind].totalNs / (k * t.windowNs)));
  return { write: share('write'), read: share('read'), windowNs: median(timed.map((t) => t.windowNs)) };
}
