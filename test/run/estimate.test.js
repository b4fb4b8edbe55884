import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COSTS, cellSeconds, estimateRun, windowOf } from '../../src/run/estimate.js';

const setting = { window: 0.1, k: 2, cells: 2 };

test('fixed rounds: every cell of every setting, the calibrations first, bpftrace per traced cell', () => {
  const plain = estimateRun([setting, setting], { rounds: 3 });
  assert.equal(plain.rounds, 3);
  assert.equal(plain.cells, 3 * 4);
  assert.equal(plain.seconds, 3 * 4 * cellSeconds(0.1, 2));
  const calibrated = estimateRun([{ ...setting, calibrates: true }, setting], { rounds: 3 });
  assert.equal(calibrated.seconds, plain.seconds + COSTS.calibration);
  const traced = estimateRun([{ ...setting, cells: 4, traced: 2 }], { rounds: 1 });
  assert.equal(traced.seconds, 4 * cellSeconds(0.1, 2) + 2 * COSTS.traceAttach);
  // --cycles: each cell starts, warms and runs its workers that many times
  const cycled = estimateRun([{ ...setting, cycles: 4 }], { rounds: 3 });
  assert.equal(cycled.cells, 3 * 2);
  assert.equal(cycled.seconds, 3 * 2 * 4 * cellSeconds(0.1, 2));
});

test('a budget: as many rounds as fit after the calibration, never fewer than the minimum', () => {
  const perRound = 2 * cellSeconds(0.1, 2);
  const fit = estimateRun([setting], { rounds: null, budget: 10 * perRound, minRounds: 3 });
  assert.equal(fit.rounds, 10);
  assert.ok(fit.seconds <= 10 * perRound + 1e-9);
  // compare and sweep alike count the calibration against the budget
  const calibrated = estimateRun([{ ...setting, calibrates: true }], { rounds: null, budget: 10 * perRound });
  assert.ok(calibrated.rounds < fit.rounds);
  assert.equal(estimateRun([setting], { rounds: null, budget: 0, minRounds: 3 }).rounds, 3);
});

test("a plan's window: its --duration; fixed --iterations count a second; --quick's few ops none", () => {
  assert.equal(windowOf({ duration: 0.3, quick: false }), 0.3);
  assert.equal(windowOf({ duration: null, quick: false }), 1);
  assert.equal(windowOf({ duration: null, quick: true }), 0);
});
