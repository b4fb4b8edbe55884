import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineMetrics, summarizeCell } from '../../src/stats/cell-summary.js';

const base = 10n ** 15n; // hrtime values are large; the summary must not lose precision

test('aggregate throughput is total ops over latest end minus earliest start', () => {
  const cell = summarizeCell('procs', [
    { index: 1, pid: 11, ops: 1000, start: String(base + 1000n), end: String(base + 1_000_000_000n) },
    { index: 0, pid: 10, ops: 1000, start: String(base), end: String(base + 500_000_000n) },
  ]);
  assert.equal(cell.totalOps, 2000);
  assert.equal(cell.elapsedNs, 1_000_000_000);
  assert.equal(cell.throughput, 2000);
  assert.equal(cell.releaseSkewNs, 1000);
  assert.deepEqual(
    cell.workers.map((w) => w.index),
    [0, 1],
  );
  assert.equal(cell.workers[0].startNs, 0);
  assert.equal(cell.workers[1].startNs, 1000);
  assert.equal(cell.workers[0].opsPerSec, 2000);
  // the straggler shows: worker 1 ran at about half worker 0's rate
  assert.ok(Math.abs(cell.spread - 0.5) < 0.001);
});

test('combineMetrics: sum, max and mean across workers, null when no worker reported', () => {
  const workers = [{ metrics: { a: 1, b: 5, c: 2 } }, { metrics: { a: 3, b: 4, c: 4 } }, {}];
  const declared = { a: { combine: 'sum' }, b: { combine: 'max' }, c: { combine: 'mean' }, d: { combine: 'sum' } };
  assert.deepEqual(combineMetrics(workers, declared), { a: 4, b: 5, c: 3, d: null });
});
