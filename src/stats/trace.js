import { median } from 'simple-statistics';
import { ratioStats, summarize } from './ratio.js';

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
 */
export function traceResults(rounds, modes) {
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
