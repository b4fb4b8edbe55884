// What the app keeps when its workers end: read from each cell's end, contrasted as workers −
// procs (a child keeps nothing, so a ratio would divide by noise around 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differenceStats, meanInterval, neutralOf, ratioStats } from '../../src/stats/ratio.js';
import { MEASURES } from '../../src/points/measures.js';
import { contrastCell } from '../../src/document/sentences.js';
import { favouredMode } from '../../src/commands/compare/costs.js';

const MiB = 2 ** 20;
const measure = (/** @type {string} */ key) => {
  const found = MEASURES.find((one) => one.key === key);
  assert.ok(found, key);
  return found;
};
/** A cell whose parent held `before` MiB and `after` MiB after each cycle, with k workers. */
const cell = (/** @type {number} */ before, /** @type {number[]} */ after, k = 2) =>
  /** @type {any} */ ({
    workers: Array.from({ length: k }, () => ({ ops: 1 })),
    end: {
      settleMs: 50,
      beforeBytes: before * MiB,
      cycles: after.map((anon, i) => ({ teardownNs: (i + 4) * 1e6, anonBytes: anon * MiB })),
    },
  });

test('kept after the workers end is (after the first cycle − before the first worker) / K; teardown the first cycle’s', () => {
  const one = cell(8, [58, 60, 62, 64]);
  assert.equal(measure('keptMemory').of(one), 25);
  assert.equal(measure('keptLastMemory').of(one), 28);
  assert.equal(measure('teardownMs').of(one), 4);
  // 1 MiB a cycle per worker: (60 − 58) / 2
  assert.ok(Math.abs(/** @type {number} */ (measure('keptGrowthPerCycle').of(one)) - 1) < 1e-9);
  // a child's parent can read less after than before (its garbage): below 0, kept as measured
  assert.ok(Math.abs(/** @type {number} */ (measure('keptMemory').of(cell(8, [7.6]))) + 0.2) < 1e-9);
});

test("the app's own main-heap growth is not the workers': a child's parent that grew its heap by 20 MiB keeps about 0", () => {
  // 2 children; the app's requests grew its main malloc heap from 6 to 26 MiB over the cell,
  // and its anonymous memory from 40 to 60.4: the workers left it 0.2 MiB each
  const procs = cell(40, [60.4, 40.6]);
  procs.end.beforeHeapBytes = 6 * MiB;
  procs.end.cycles[0].heapBytes = 26 * MiB;
  // the heap's top came free by the second reading: the app's memory is back where it was
  procs.end.cycles[1].heapBytes = 6 * MiB;
  assert.ok(Math.abs(/** @type {number} */ (measure('keptMemory').of(procs)) - 0.2) < 1e-9);
  assert.ok(Math.abs(/** @type {number} */ (measure('keptLastMemory').of(procs)) - 0.3) < 1e-9);
  // a thread's arena is outside that heap: kept whatever the heap did
  const threads = cell(40, [90]);
  threads.end.beforeHeapBytes = 6 * MiB;
  threads.end.cycles[0].heapBytes = 6 * MiB;
  assert.equal(measure('keptMemory').of(threads), 25);
  // a heap not read (a file from before, an allocator that maps all it uses) takes nothing out
  const unread = cell(40, [60.4]);
  unread.end.beforeHeapBytes = null;
  unread.end.cycles[0].heapBytes = 26 * MiB;
  assert.ok(Math.abs(/** @type {number} */ (measure('keptMemory').of(unread)) - 10.2) < 1e-9);
});

test('one cycle gives no last-cycle row and no growth; a cell from before the end was measured gives none', () => {
  assert.equal(measure('keptLastMemory').of(cell(8, [58])), null);
  assert.equal(measure('keptGrowthPerCycle').of(cell(8, [58])), null);
  const old = /** @type {any} */ ({ workers: [{ ops: 1 }] });
  for (const key of ['keptMemory', 'teardownMs', 'keptLastMemory', 'keptGrowthPerCycle'])
    assert.equal(measure(key).of(old), null, key);
  // kept memory is contrasted as a difference, teardown as a ratio
  assert.equal(measure('keptMemory').contrast, 'difference');
  assert.equal(measure('teardownMs').contrast, undefined);
});

test('a difference has its Student t interval, is judged against 0, and prints signed in its unit', () => {
  const stats = differenceStats([24, 26, 25, 25]);
  assert.equal(stats.difference, true);
  assert.equal(stats.geomean, 25);
  assert.ok(stats.ci95 && stats.ci95[0] < 25 && stats.ci95[1] > 25);
  assert.equal(neutralOf(stats), 0);
  assert.equal(neutralOf(ratioStats([1.1, 1.2])), 1);
  // workers keep more, and less is better: procs are favoured
  assert.equal(favouredMode(stats, 'lower'), 'procs');
  // an interval across 0 decides nothing, however far it lies from 1
  assert.equal(favouredMode(differenceStats([-3, 4, 0.5, -1]), 'lower'), 'equal');
  // a t interval on differences is symmetric: the mean and its half-width
  assert.match(contrastCell(stats, measure('keptMemory')), /^\+25\.0 ±\d+\.\d MiB$/);
  assert.match(contrastCell(differenceStats([-3, 4, 0.5, -1]), measure('keptMemory')), /^\+0\.1 ±[\d.]+ MiB$/);
  // fewer than 3 rounds: the difference alone
  assert.equal(contrastCell(differenceStats([-0.2, -0.2]), measure('keptMemory')), '−0.2 MiB');
});

test('a mean with its interval: none from one value', () => {
  assert.deepEqual(meanInterval([2]), { mean: 2, ci95: null, n: 1 });
  const { mean, ci95 } = meanInterval([1, 2, 3]);
  assert.equal(mean, 2);
  assert.ok(ci95 && ci95[0] < 2 && ci95[1] > 2);
});
