import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scaling } from '../../src/stats/scaling.js';

// rounds of a point whose modes ran at these throughputs
const rounds = (workers, procs) =>
  workers.map((w, i) => ({ workers: { throughput: w }, procs: { throughput: procs[i] } }));
const ratio = (ci95) => ({ ci95, n: 5 });

test('efficiency against the smallest k; a mode stops gaining where its interval no longer lies above the previous k', () => {
  const reading = scaling([
    { k: 4, rounds: rounds([190, 200, 210], [300, 310, 320]), ratio: ratio([0.6, 0.7]) },
    { k: 1, rounds: rounds([100, 101, 102], [100, 101, 102]), ratio: ratio([0.95, 1.05]) },
    { k: 2, rounds: rounds([180, 190, 200], [195, 200, 205]), ratio: ratio([0.9, 1.02]) },
  ]);
  assert.equal(reading.k0, 1);
  assert.deepEqual(
    reading.workers.steps.map((step) => step.k),
    [1, 2, 4],
  );
  assert.equal(reading.workers.steps[0].efficiency, 1);
  assert.ok(Math.abs(reading.procs.steps[2].efficiency - 310 / (4 * 101)) < 1e-12);
  // workers: k=4 (190-210) overlaps k=2 (180-200); procs keep gaining
  assert.deepEqual(reading.workers.stopsGaining, { after: 2, at: 4 });
  assert.equal(reading.procs.stopsGaining, null);
  assert.equal(reading.workers.decided, true);
  assert.deepEqual(reading.ratioLeaves1, { k: 4, side: 'below' });
});

test('without 3 rounds at every k there is no interval, so no stopping point and no ratio verdict', () => {
  const reading = scaling([
    { k: 1, rounds: rounds([100, 100], [100, 100]), ratio: { ci95: [0.5, 0.6], n: 2 } },
    { k: 2, rounds: rounds([150, 150], [190, 190]), ratio: { ci95: [0.7, 0.8], n: 2 } },
  ]);
  assert.equal(reading.workers.decided, false);
  assert.equal(reading.workers.stopsGaining, null);
  assert.equal(reading.ratioLeaves1, null);
  assert.equal(reading.workers.steps[1].ci95, null);
});

test("the tree's memory against k: its slope is what one more worker adds, the parent's share taken out", () => {
  const MiB = 2 ** 20;
  // a parent of 30 MiB and 40 MiB per worker in workers mode, 38 in procs, read with some noise
  const point = (/** @type {number} */ k) => ({
    k,
    rounds: [-1, 0, 1].map((noise) => ({
      workers: { throughput: 100, memory: { anonBytes: (30 + 40 * k + noise) * MiB } },
      procs: { throughput: 100, memory: { anonBytes: (30 + 38 * k + noise) * MiB } },
    })),
    ratio: ratio([0.9, 1.1]),
  });
  const reading = scaling([point(1), point(2), point(4), point(8)]);
  const { memory } = reading.workers;
  assert.ok(memory);
  assert.deepEqual(
    memory.steps.map((step) => [step.k, step.treeMiB]),
    [
      [1, 70],
      [2, 110],
      [4, 190],
      [8, 350],
    ],
  );
  assert.ok(Math.abs(memory.perWorkerMiB - 40) < 1e-9 && Math.abs(memory.interceptMiB - 30) < 1e-9);
  assert.equal(memory.cells, 12);
  assert.ok(Math.abs((reading.procs.memory?.perWorkerMiB ?? 0) - 38) < 1e-9);
  // cells that read no memory (saved before, or smaps unreadable) give no line
  assert.equal(scaling([point(1), { k: 2, rounds: rounds([1, 1, 1], [1, 1, 1]), ratio: null }]).workers.memory, null);
});

test('the K to run: the largest k up to which each added worker still added half a worker, held to the CPUs', async () => {
  const { recommendK, ADDED_SHARE } = await import('../../src/stats/scaling.js');
  const steps = [
    { k: 1, throughput: 100 },
    { k: 2, throughput: 190 },
    { k: 4, throughput: 300 },
    { k: 8, throughput: 330 },
  ];
  const free = recommendK(steps, 16);
  assert.equal(ADDED_SHARE, 0.5);
  assert.equal(free?.k, 4);
  assert.equal(free?.limit, 'share');
  assert.deepEqual(
    free?.added.map((step) => [step.k, Math.round(step.added * 100) / 100]),
    [
      [2, 0.9],
      [4, 0.55],
      [8, 0.08],
    ],
  );
  // a quota of 2 CPUs: no k above 2, however well 4 did
  const held = recommendK(steps, 2);
  assert.equal(held?.k, 2);
  assert.equal(held?.limit, 'cpus');
  assert.equal(held?.cpus, 2);
  // still gaining at the largest k measured
  assert.equal(recommendK(steps.slice(0, 2), 8)?.limit, 'measured');
  // a sweep from k=2 with 1 CPU: its smallest k is the least it can run
  assert.equal(recommendK(steps.slice(1), 1)?.k, 2);
});
