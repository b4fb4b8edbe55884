// The gate's decision: the interval against the threshold, never the point estimate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, worstOutcome } from '../../src/stats/gate.js';

const measured = (ci95, threshold, more = {}) =>
  judge({ estimate: Math.sqrt(ci95[0] * ci95[1]), ci95, threshold, ...more });

test('pass when the whole interval is at or above the threshold, fail when it is all below', () => {
  assert.equal(measured([0.85, 0.95], 0.8).outcome, 'pass');
  assert.equal(measured([0.6, 0.75], 0.8).outcome, 'fail');
  assert.equal(measured([0.7, 0.9], 0.8).outcome, 'inconclusive');
});

test('a bound exactly on the threshold: a low bound there passes, a high bound there is not below', () => {
  assert.equal(measured([0.8, 0.9], 0.8).outcome, 'pass');
  assert.equal(measured([0.7, 0.8], 0.8).outcome, 'inconclusive');
});

test('the point estimate alone decides nothing: an estimate below the threshold with a straddling interval is inconclusive', () => {
  const result = judge({ estimate: 0.78, ci95: [0.6, 1.01], threshold: 0.8 });
  assert.equal(result.outcome, 'inconclusive');
});

test('no interval (one round) is inconclusive, with no estimate of the time it needs', () => {
  const result = judge({ estimate: 0.5, ci95: null, threshold: 0.8, rounds: 1, seconds: 3 });
  assert.equal(result.outcome, 'inconclusive');
  assert.equal(result.moreSeconds, null);
});

test('an inconclusive run says how much longer would decide it: the interval narrows as 1/sqrt(rounds)', () => {
  // log half-width 0.2 around exp(0.1) above 1: (0.2 / 0.1)^2 = 4 times the rounds, so 3 x 10 more
  const ci95 = /** @type {[number, number]} */ ([Math.exp(-0.1), Math.exp(0.3)]);
  const result = judge({ estimate: Math.exp(0.1), ci95, threshold: 1, rounds: 10, seconds: 20 });
  assert.equal(result.outcome, 'inconclusive');
  assert.ok(Math.abs(/** @type {number} */ (result.moreSeconds) - 60) < 1e-6, String(result.moreSeconds));
});

test('an estimate exactly on the threshold is never decided by running longer', () => {
  const result = judge({ estimate: 1, ci95: [0.9, 1.1], threshold: 1, rounds: 10, seconds: 20 });
  assert.deepEqual([result.outcome, result.onThreshold, result.moreSeconds], ['inconclusive', true, null]);
});

test('over several points, any fail fails the gate, else any inconclusive', () => {
  assert.equal(worstOutcome(['pass', 'inconclusive', 'fail']), 'fail');
  assert.equal(worstOutcome(['pass', 'inconclusive']), 'inconclusive');
  assert.equal(worstOutcome(['pass', 'pass']), 'pass');
});
