// Verdicts from constructed per-round ratios: only the interval decides, never the median alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioStats } from '../../../src/stats/ratio.js';
import { above, all, below, roundsToDecide, within } from '../../../src/commands/reproduce/verdict.js';

const tight = ratioStats([0.58, 0.6, 0.62, 0.59, 0.61]); // procs ~1.65x faster, narrow
const wide = ratioStats([0.5, 0.9, 1.2, 0.6, 1.1]); // straddles 1
const flat = ratioStats([0.99, 1.01, 1.0, 0.98, 1.02]);

test('below: the interval wholly under the threshold holds, wholly over does not hold', () => {
  assert.equal(below(tight, 1, 'procs faster').verdict, 'holds');
  assert.equal(below(tight, 0.5, 'procs 2x faster').verdict, 'does not hold');
  assert.equal(below(wide, 1, 'procs faster').verdict, 'inconclusive');
});

test('inconclusive says what would decide it', () => {
  const { text } = below(wide, 1, 'procs faster');
  assert.match(text, /95% CI .* straddles 1\.00; about \d+ rounds in all \(or steadier cells\) would decide it/);
  assert.match(below(ratioStats([0.7]), 1, 'x').text, /one round gives no interval/);
});

test('roundsToDecide grows as the median nears the threshold', () => {
  const near = roundsToDecide({ median: 0.95, ci95: [0.8, 1.1], n: 5 }, 1);
  const far = roundsToDecide({ median: 0.8, ci95: [0.65, 0.98], n: 5 }, 1);
  assert.ok(near > far, `${near} > ${far}`);
  assert.equal(roundsToDecide({ median: 1, ci95: [0.9, 1.1], n: 5 }, 1), null);
});

test('above mirrors below', () => {
  assert.equal(above(ratioStats([1.3, 1.35, 1.32, 1.31]), 1, 'workers faster').verdict, 'holds');
  assert.equal(above(tight, 1, 'workers faster').verdict, 'does not hold');
  assert.equal(above(wide, 1, 'workers faster').verdict, 'inconclusive');
});

test('within: inside holds, outside does not hold, across an edge is inconclusive', () => {
  assert.equal(within(flat, [0.97, 1.03], 'within 3%').verdict, 'holds');
  assert.equal(within(tight, [0.97, 1.03], 'within 3%').verdict, 'does not hold');
  assert.equal(within(wide, [0.97, 1.03], 'within 3%').verdict, 'inconclusive');
});

test('all: any contradiction wins, then any doubt', () => {
  const holds = { verdict: 'holds', text: 'a' };
  const no = { verdict: 'does not hold', text: 'b' };
  const maybe = { verdict: 'inconclusive', text: 'c' };
  assert.equal(all([holds, holds]).verdict, 'holds');
  assert.equal(all([holds, maybe]).verdict, 'inconclusive');
  assert.equal(all([maybe, no]).verdict, 'does not hold');
});

test('within: an interval across the edge of the band says how many rounds would decide it', () => {
  const { verdict, text } = within(ratioStats([0.85, 1.0, 0.95, 0.9, 1.05]), [0.9, 1.1], 'workers tuned / default');
  assert.equal(verdict, 'inconclusive');
  assert.match(text, /overlaps the edge of 0\.90-1\.10; about \d+ rounds in all \(or steadier cells\) would decide it/);
});
