import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineWaits, sumBySyscall, sumHistograms, traceResults } from '../../src/trace/counts.js';

const waits = (count, totalNs, maxNs, histogram = []) => ({
  count,
  totalNs,
  avgNs: count ? totalNs / count : null,
  maxNs: count ? maxNs : null,
  histogram,
});
const bucket = (lowNs, count) => ({ lowNs, highNs: lowNs * 2 - 1, count });

test('combineWaits: medians per cell, the largest max, histograms summed', () => {
  const combined = combineWaits([
    waits(10, 1000, 300, [bucket(64, 4), bucket(128, 6)]),
    waits(30, 9000, 900, [bucket(128, 10), bucket(256, 20)]),
    waits(20, 4000, 500, [bucket(256, 20)]),
  ]);
  assert.equal(combined.count, 20);
  assert.equal(combined.totalNs, 4000);
  assert.equal(combined.avgNs, 200); // median of 100, 300, 200
  assert.equal(combined.maxNs, 900);
  assert.deepEqual(combined.histogram, [bucket(64, 4), bucket(128, 16), bucket(256, 40)]);
});

test('combineWaits: cells without acquisitions give no average rather than 0', () => {
  const combined = combineWaits([waits(0, 0, 0), waits(0, 0, 0)]);
  assert.equal(combined.avgNs, null);
  assert.equal(combined.maxNs, null);
});

test('sumHistograms keeps the negative bucket first', () => {
  assert.deepEqual(
    sumHistograms([[{ lowNs: 1, highNs: 1, count: 1 }], [{ lowNs: null, highNs: -1, count: 2 }]]).map((b) => b.lowNs),
    [null, 1],
  );
});

const cell = (throughput, write) => ({
  throughput,
  trace: {
    write,
    read: waits(0, 0, 0),
    trylockFailed: 0,
    writeHoldNs: 0,
    processes: [{ pid: 1, comm: 'node', writes: write.count }],
  },
});

test('traceResults: per-round ratios of total and average write wait, observer effect per mode', () => {
  const rounds = [1, 2, 3].map((index) => ({
    index,
    cells: { workers: { throughput: 100 }, procs: { throughput: 200 } },
    traced: { workers: cell(90, waits(100, 100 * 20 * index, 1)), procs: cell(180, waits(50, 50 * 2 * index, 1)) },
  }));
  const results = traceResults(rounds, ['workers', 'procs']);
  assert.equal(results.modes.workers.cells, 3);
  assert.ok(Math.abs(results.modes.workers.observer - 0.9) < 1e-12);
  // total: (100*20) / (50*2) = 20 every round; average: 20 / 2 = 10
  assert.deepEqual(
    results.ratios.totalWrite.samples.map((r) => Math.round(r * 1e9) / 1e9),
    [20, 20, 20],
  );
  assert.deepEqual(
    results.ratios.avgWrite.samples.map((r) => Math.round(r * 1e9) / 1e9),
    [10, 10, 10],
  );
  assert.equal(results.modes.procs.processes.round, 3);
});

test('traceResults: a round where procs took no write lock gives no ratio sample, not Infinity', () => {
  const rounds = [
    { index: 1, cells: {}, traced: { workers: cell(1, waits(5, 50, 1)), procs: cell(1, waits(0, 0, 0)) } },
  ];
  const { ratios } = traceResults(rounds, ['workers', 'procs']);
  assert.equal(ratios.totalWrite, null);
  assert.equal(ratios.avgWrite, null);
});

test('traceResults: a mode with no traced cell is null; a single mode has no ratios', () => {
  const results = traceResults([{ index: 1, cells: { workers: { throughput: 1 } } }], ['workers']);
  assert.equal(results.modes.workers, null);
  assert.equal(results.ratios, null);
});

test('sumBySyscall: each call summed over the cells, named, so the rows add up to the totals', () => {
  const traces = [
    {
      bySyscall: {
        write: [
          { syscall: 10, count: 5, totalNs: 50 },
          { syscall: null, count: 1, totalNs: 7 },
        ],
      },
    },
    {
      bySyscall: {
        write: [
          { syscall: 11, count: 2, totalNs: 9 },
          { syscall: 10, count: 4, totalNs: 40 },
        ],
      },
    },
    {}, // a cell traced before the breakdown existed
  ];
  const rows = sumBySyscall(traces, 'write');
  assert.deepEqual(
    rows.map(({ syscall, count, totalNs }) => [syscall, count, totalNs]),
    [
      [10, 9, 90],
      [11, 2, 9],
      [null, 1, 7],
    ],
  );
  assert.equal(rows.find((row) => row.syscall === null).name, 'none: kernel work');
  assert.equal(sumBySyscall(traces, 'read').length, 0);
});

test('traceResults: time on the lock is total wait / (k × traced window), the median over cells', () => {
  const withWindow = (throughput, totalNs, windowNs) => {
    const traced = cell(throughput, waits(10, totalNs, 1));
    return { ...traced, trace: { ...traced.trace, windowNs } };
  };
  const rounds = [1, 2, 3].map((index) => ({
    index,
    cells: { workers: { throughput: 1 } },
    traced: { workers: withWindow(1, 1e6 * index, 1e9) },
  }));
  const { timeShare } = traceResults(rounds, ['workers'], 2).modes.workers;
  assert.deepEqual(timeShare, { write: 2e6 / 2e9, read: 0, windowNs: 1e9 });
});

test("traceResults: the app's main thread's waits, the parent's by thread id, per traced cell; none where the trace did not count them", () => {
  const traced = (/** @type {number} */ writes) => ({
    ...cell(90, waits(100, 2000, 1)),
    memory: { processes: [{ pid: 7 }, { pid: 8 }] },
    trace: {
      ...cell(90, waits(100, 2000, 1)).trace,
      processes: [
        { pid: 8, comm: 'node', writes: 60, main: { writes: 60, writeNs: 600, reads: 0, readNs: 0 } },
        { pid: 7, comm: 'node', writes: 40, main: { writes, writeNs: writes * 10, reads: 3, readNs: 30 } },
      ],
    },
  });
  const rounds = [4, 6, 8].map((writes, i) => ({ index: i + 1, cells: {}, traced: { workers: traced(writes) } }));
  assert.deepEqual(traceResults(rounds, ['workers']).modes.workers.mainThread, {
    cells: 3,
    writes: 6,
    writeNs: 60,
    reads: 3,
    readNs: 30,
  });
  // a script from before it counted main threads
  const before = rounds.map((round) => ({
    ...round,
    traced: {
      workers: {
        ...round.traced.workers,
        trace: { ...round.traced.workers.trace, processes: [{ pid: 7, writes: 1 }] },
      },
    },
  }));
  assert.equal(traceResults(before, ['workers']).modes.workers.mainThread, null);
});
