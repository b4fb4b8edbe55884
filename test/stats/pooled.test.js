// The app's request p99 is read from every round's requests pooled, with an interval from
// drawing whole rounds: a cell holds about 50 requests, too few for a p99 of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { histogramOf, mergeHistograms, percentileOf, SAVED_BITS, coarsen } from '../../src/stats/histogram.js';
import { POOLED_MIN_ROUNDS, pooledPercentile, pooledRatioStats } from '../../src/stats/pooled.js';

/** A round's histogram of `n` request times: mostly `fast` ns, `slow` of them `slowNs`. */
const round = (/** @type {number} */ n, /** @type {number} */ fast, slow = 0, slowNs = fast * 40) => {
  const times = Float64Array.from({ length: n }, (_, i) => (i < slow ? slowNs : fast + (i % 7) * 100));
  return coarsen(histogramOf(times, n), SAVED_BITS);
};

test('the pooled percentile is the percentile of every round merged, not a median of each round’s', () => {
  // one round in 4 holds the slow requests: each round's own p99 is fast in 3 of 4, the app's is slow
  const rounds = Array.from({ length: 20 }, (_, i) => round(50, 50_000, i % 4 === 0 ? 3 : 0));
  const read = pooledPercentile(rounds, 99, SAVED_BITS);
  assert.ok(read);
  assert.equal(read.value, percentileOf(mergeHistograms(rounds), 99, SAVED_BITS));
  const perRound = rounds.map((one) => /** @type {number} */ (percentileOf(one, 99, SAVED_BITS))).sort((a, b) => a - b);
  assert.ok(read.value > perRound[10], 'above the median of the rounds’ own p99s');
  assert.ok(read.ci95);
  assert.ok(read.ci95[0] <= read.value && read.value <= read.ci95[1]);
});

test('the interval is the same every time the same rounds are read, and absent below the minimum of rounds', () => {
  const rounds = Array.from({ length: 12 }, (_, i) => round(50, 40_000 + i * 1000, i % 3));
  assert.deepEqual(pooledPercentile(rounds, 99, SAVED_BITS), pooledPercentile(rounds, 99, SAVED_BITS));
  const few = pooledPercentile(rounds.slice(0, POOLED_MIN_ROUNDS - 1), 99, SAVED_BITS);
  assert.ok(few);
  assert.equal(few.ci95, null);
  assert.equal(pooledPercentile([], 99, SAVED_BITS), null);
});

test('a pooled ratio keeps each round’s pair together and reads the two pooled percentiles', () => {
  const pairs = /** @type {Array<[any, any]>} */ (
    Array.from({ length: 16 }, (_, i) => [round(50, 100_000, i % 2), round(50, 50_000, i % 2)])
  );
  const stats = pooledRatioStats(pairs, 99, SAVED_BITS);
  assert.ok(stats);
  assert.equal(stats.pooled, true);
  const [a, b] = [0, 1].map((arm) => percentileOf(mergeHistograms(pairs.map((pair) => pair[arm])), 99, SAVED_BITS));
  assert.equal(stats.median, /** @type {number} */ (a) / /** @type {number} */ (b));
  assert.equal(stats.n, 16);
  assert.equal(stats.samples.length, 16);
  assert.ok(stats.ci95 && stats.ci95[0] <= stats.median && stats.median <= stats.ci95[1]);
  // the same arm on both sides: 1, and only 1, in every draw
  const same = pooledRatioStats(/** @type {Array<[any, any]>} */ (pairs.map(([one]) => [one, one])), 99, SAVED_BITS);
  assert.deepEqual(same?.ci95, [1, 1]);
  assert.equal(pooledRatioStats(/** @type {any} */ (pairs.map(([one]) => [one, []])), 99, SAVED_BITS), null);
});

test('a pooled change between two runs of unrelated rounds: new / base, each run drawn on its own, with a p of no change', async () => {
  const { pooledChange } = await import('../../src/stats/pooled.js');
  const base = Array.from({ length: 12 }, (_, i) => round(50, 100_000 + i * 2000));
  const slower = Array.from({ length: 9 }, (_, i) => round(50, 200_000 + i * 4000));
  const change = pooledChange(base, slower, 99, SAVED_BITS);
  assert.ok(change);
  const [a, b] = [base, slower].map((rounds) => percentileOf(mergeHistograms(rounds), 99, SAVED_BITS));
  assert.equal(change.change, /** @type {number} */ (b) / /** @type {number} */ (a));
  assert.ok(change.ci95 && change.ci95[0] <= change.change && change.change <= change.ci95[1]);
  assert.ok(change.ci95[0] > 1 && /** @type {number} */ (change.p) < 0.05, 'twice as slow everywhere: known');
  assert.equal(pooledChange(base, slower.slice(0, 3), 99, SAVED_BITS)?.ci95, null);
  assert.equal(pooledChange(base, [], 99, SAVED_BITS), null);
});
