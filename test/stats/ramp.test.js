// A fresh worker's ramp, on timelines whose answer is known by hand: where full speed begins,
// and how fast K workers did their first 2,000 ops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellRamp, FIRST_OPS, fullSpeedAt, nsToOps } from '../../src/stats/ramp.js';

/** A ramp of 500-op batches at these rates (ops/s), each batch's end in µs from the first op. */
function rampAt(/** @type {number[]} */ rates, startNs = 0) {
  const atUs = [];
  let at = 0;
  for (const rate of rates) atUs.push((at += (500 / rate) * 1e6));
  return { startNs, batch: 500, atUs };
}

test('full speed begins after the last batch below four fifths of the window rate', () => {
  // 10k, 20k, 30k ops/s, then 50k: the third batch (ends at 50 + 25 + 16.7 ms) is the last slow one
  const ramp = rampAt([10000, 20000, 30000, 50000, 50000, 50000, 50000]);
  const at = fullSpeedAt(ramp, 50000);
  assert.equal(at.ops, 1500);
  assert.ok(Math.abs(at.ms - (50 + 25 + 1000 / 60)) < 0.01, String(at.ms));
  // already at full speed: no time to it
  assert.deepEqual(fullSpeedAt(rampAt([50000, 48000, 52000, 50000]), 50000), { ms: 0, ops: 0 });
});

test('one preempted batch after full speed moves nothing; a slow stretch does', () => {
  const once = rampAt([50000, 50000, 5000, 50000, 50000, 50000]);
  assert.deepEqual(fullSpeedAt(once, 50000), { ms: 0, ops: 0 });
  const stretch = rampAt([50000, 50000, 5000, 5000, 50000, 50000]);
  assert.equal(fullSpeedAt(stretch, 50000).ops, 2000);
});

test('the time to the n-th op is read between the batches it falls in', () => {
  const ramp = rampAt([10000, 50000, 50000, 50000]);
  // 500 ops at 10k ops/s take 50 ms; 250 more at 50k take 5 ms
  assert.equal(nsToOps(ramp, 500), 50e6);
  assert.ok(Math.abs(/** @type {number} */ (nsToOps(ramp, 750)) - 55e6) < 1);
  assert.equal(nsToOps(ramp, 2001), null, 'past the warmup: unknown');
});

test("a cell's first 2,000 ops run from the first worker's first op to the last one's 2,000th", () => {
  // two workers: one at 20k ops/s from 0, one at 40k ops/s starting 10 ms later
  const workers = [
    { opsPerSec: 20000, warmup: { ramp: rampAt([20000, 20000, 20000, 20000, 20000]) } },
    { opsPerSec: 40000, warmup: { ramp: rampAt([40000, 40000, 40000, 40000, 40000], 10e6) } },
  ];
  const ramp = cellRamp(workers);
  // the first finishes its 2,000th at 100 ms, the second at 10 + 50 ms: 4,000 ops in 100 ms
  assert.equal(ramp?.firstOps, FIRST_OPS);
  assert.ok(Math.abs(/** @type {number} */ (ramp?.firstThroughput) - 40000) < 1e-6);
  assert.equal(ramp?.toFullMs, 0);
  // a worker without a ramp (a fixed warmup) leaves the cell without one
  assert.equal(cellRamp([...workers, { opsPerSec: 1 }]), null);
  // a warmup shorter than 2,000 ops: the time to full speed, but no first-2,000 figure
  assert.equal(cellRamp([{ opsPerSec: 20000, warmup: { ramp: rampAt([5000, 20000]) } }])?.firstThroughput, null);
});
