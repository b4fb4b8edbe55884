// The latency histogram: buckets as fine as promised, counts kept through merging and coarsening,
// percentiles as HdrHistogram reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bucketOf,
  coarsen,
  countOf,
  histogramOf,
  mergeHistograms,
  percentileOf,
  SAVED_BITS,
} from '../../src/stats/histogram.js';

test('a value falls in a bucket no wider than 1/64 of it, and exact below 64 ns', () => {
  for (const ns of [1, 7, 63]) assert.equal(bucketOf(ns), ns);
  assert.equal(bucketOf(0.2), 1, 'under a nanosecond counts as one');
  for (const ns of [64, 65, 1000, 12_345, 999_999, 3e9]) {
    const lower = bucketOf(ns);
    assert.ok(lower <= ns && ns - lower < ns / 64, `${ns} in [${lower}, …)`);
    assert.equal(bucketOf(lower), lower, 'a lower bound is its own bucket');
  }
});

test('percentiles are read as HdrHistogram reads them, within 1/128 of the exact order statistic', () => {
  // a long tail, as op times have: most near 10 µs, one in fifty near 1 ms
  const values = Array.from({ length: 10_000 }, (_, i) => (i % 50 === 0 ? 1e6 + i : 10_000 + (i % 997) * 3));
  const histogram = histogramOf(values);
  const sorted = [...values].sort((a, b) => a - b);
  for (const p of [50, 99, 99.9, 100]) {
    const exact = sorted[Math.ceil((p / 100) * sorted.length) - 1];
    const read = /** @type {number} */ (percentileOf(histogram, p));
    assert.ok(Math.abs(read - exact) <= exact / 128, `p${p}: ${read} against ${exact}`);
  }
  assert.equal(percentileOf([], 99), null);
});

test('merging adds counts bucket by bucket; coarsening keeps every count in wider buckets', () => {
  const a = histogramOf([100, 100, 5000]);
  const b = histogramOf([100, 7000, 1e6]);
  const merged = mergeHistograms([a, b]);
  assert.equal(countOf(merged), 6);
  assert.deepEqual(
    merged.find(([lower]) => lower === 100),
    [100, 3],
  );
  assert.deepEqual(
    merged.map(([lower]) => lower),
    [...merged.map(([lower]) => lower)].sort((x, y) => x - y),
    'by lower bound',
  );
  const wide = coarsen(histogramOf(Array.from({ length: 1000 }, (_, i) => 1000 + i)), SAVED_BITS);
  assert.equal(countOf(wide), 1000);
  assert.ok(wide.length <= 2 * 2 ** SAVED_BITS, `${wide.length} buckets for one octave and a bit`);
});
