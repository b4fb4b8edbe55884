// The stopping rule with a stub sampler: no process runs, nothing is timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioStats } from '../../src/stats/ratio.js';
import { shortBudgetText } from '../../src/document/sentences.js';
import {
  budgetShortfall,
  halfWidth,
  roundSeconds,
  roundsForPrecision,
  stopReason,
  sweepShortfall,
} from '../../src/stats/stopping.js';

const RULE = { rounds: null, minRounds: 5, precision: 0.05, maxSeconds: 60 };

/** Feeds per-round ratios one at a time, one second a round, until the rule stops. */
function simulate(rule, ratios) {
  const taken = [];
  for (const ratio of ratios) {
    taken.push(ratio);
    const { ci95, n } = ratioStats(taken);
    const reason = stopReason(rule, { n, ci95, elapsedSeconds: taken.length, roundSeconds: 1 });
    if (reason) return { reason, n };
  }
  return { reason: null, n: taken.length };
}

test('the half-width is relative to the ratio, from the interval on the log scale', () => {
  assert.equal(halfWidth(null), null);
  assert.ok(Math.abs(halfWidth([0.95 / 1.05, 0.95 * 1.05]) - 0.05) < 1e-12);
});

test('a quiet machine stops on width, but never before the minimum number of rounds', () => {
  const steady = Array.from({ length: 50 }, () => 0.8);
  assert.deepEqual(simulate(RULE, steady), { reason: 'precision', n: 5 });
  const wobbly = Array.from({ length: 200 }, (_, i) => 0.8 * (1 + 0.1 * Math.sin(i * 1.7)));
  const stopped = simulate(RULE, wobbly);
  assert.equal(stopped.reason, 'precision');
  assert.ok(stopped.n > 5 && stopped.n < 60, `${stopped.n} rounds`);
});

test('a noisy machine runs into the budget and says so', () => {
  const noisy = Array.from({ length: 200 }, (_, i) => (i % 2 ? 0.5 : 1.5));
  assert.deepEqual(simulate(RULE, noisy), { reason: 'max-time', n: 60 });
});

test('the budget is not overrun by the next round', () => {
  assert.equal(stopReason(RULE, { n: 3, ci95: [0.5, 2], elapsedSeconds: 55, roundSeconds: 6 }), 'max-time');
  assert.equal(stopReason(RULE, { n: 3, ci95: [0.5, 2], elapsedSeconds: 50, roundSeconds: 6 }), null);
});

test('--rounds fixes the count whatever the width', () => {
  const rule = { ...RULE, rounds: 3 };
  assert.equal(stopReason(rule, { n: 2, ci95: [0.99, 1.01], elapsedSeconds: 1000, roundSeconds: 1 }), null);
  assert.equal(stopReason(rule, { n: 3, ci95: null, elapsedSeconds: 1, roundSeconds: 1 }), 'rounds');
});

test('rounds for a precision grow as the target tightens, and are at least those run', () => {
  const stats = ratioStats([0.7, 0.9, 0.8, 1.0, 0.75, 0.85]);
  const at10 = roundsForPrecision(stats, 0.1);
  const at5 = roundsForPrecision(stats, 0.05);
  assert.ok(at10 >= stats.n && at5 > at10, `${at10} ${at5}`);
  assert.equal(roundsForPrecision(ratioStats([0.8]), 0.05), null);
});

test('a budget that ran out before an interval: what a round took and a --max-time with room for 3 counted rounds', () => {
  const cell = (totalMs) => ({ phases: { totalNs: totalMs * 1e6, betweenNs: 0 } });
  const rounds = [{ workers: cell(900), procs: cell(1000), pilot: /** @type {const} */ (true) }];
  assert.equal(roundSeconds(rounds[0]), 1.9);
  assert.deepEqual(budgetShortfall({ stop: 'max-time', maxTime: 0.5, seconds: 3, counted: 0, rounds }), {
    maxTime: 0.5,
    counted: 0,
    roundSeconds: 1.9,
    pilot: true,
    // 3 + 3 × 1.9 = 8.7, up to a whole second
    suggestMaxTime: 9,
  });
  // fives from 10 s on, tens from a minute
  assert.equal(budgetShortfall({ stop: 'max-time', maxTime: 5, seconds: 8, counted: 1, rounds })?.suggestMaxTime, 15);
  assert.equal(budgetShortfall({ stop: 'max-time', maxTime: 30, seconds: 40, counted: 2, rounds })?.suggestMaxTime, 45);
  assert.equal(budgetShortfall({ stop: 'max-time', maxTime: 60, seconds: 61, counted: 0, rounds })?.suggestMaxTime, 70);
  // an interval reached, another stop, or no phases to time a round by: nothing to say
  assert.equal(budgetShortfall({ stop: 'max-time', maxTime: 5, seconds: 6, counted: 3, rounds }), null);
  assert.equal(budgetShortfall({ stop: 'rounds', maxTime: null, seconds: 6, counted: 1, rounds }), null);
  assert.equal(
    budgetShortfall({ stop: 'max-time', maxTime: 5, seconds: 6, counted: 0, rounds: [{ workers: {} }] }),
    null,
  );
  // spent calibrating, before any round: a round costs at least that
  assert.deepEqual(budgetShortfall({ stop: 'max-time', maxTime: 0.5, seconds: 0.6, counted: 0, rounds: [] }), {
    maxTime: 0.5,
    counted: 0,
    roundSeconds: null,
    pilot: false,
    // 0.6 + 4 × 0.6 = 3
    suggestMaxTime: 3,
  });
});

test("a sweep's budget (advise's too) ran short: the point with fewest counted rounds decides, and a round costs every point's", () => {
  const cell = (totalMs) => ({ phases: { totalNs: totalMs * 1e6, betweenNs: 0 } });
  const point = (counted, { stop = 'max-time', status = 'complete', pilot = false } = {}) => ({
    stop,
    status,
    ratio: counted ? { n: counted } : null,
    rounds: [{ workers: cell(500), procs: cell(500), ...(pilot ? { pilot: /** @type {const} */ (true) } : {}) }],
  });
  assert.deepEqual(sweepShortfall([point(0, { pilot: true }), point(1)], { maxTime: 0.5, seconds: 4 }), {
    maxTime: 0.5,
    counted: 0,
    roundSeconds: 2,
    pilot: true,
    // a round of the sweep is one of each point
    points: 2,
    // 4 + 3 × 2
    suggestMaxTime: 10,
  });
  // a failed or unavailable point has no rounds to give, whatever the budget
  assert.equal(
    sweepShortfall([point(3), point(0, { status: 'failed' }), point(0, { status: 'unavailable', stop: null })], {
      maxTime: 1,
      seconds: 4,
    }),
    null,
  );
  assert.equal(sweepShortfall([point(1, { stop: 'rounds' })], { maxTime: null, seconds: 4 }), null);
  // a point run in one mode alone (advise's transfer list: threads) has no ratio: its rounds with
  // that mode's cell count, a pilot's aside
  const alone = (/** @type {number} */ n) => ({
    stop: 'max-time',
    status: 'complete',
    ratio: null,
    rounds: [
      { workers: cell(500), pilot: /** @type {const} */ (true) },
      ...Array.from({ length: n }, () => ({ workers: cell(500) })),
    ],
  });
  assert.equal(sweepShortfall([point(3), alone(3)], { maxTime: 10, seconds: 9 }), null);
  assert.equal(sweepShortfall([point(3), alone(1)], { maxTime: 10, seconds: 9 })?.counted, 1);
});

test('row 22: a sweep whose budget ran out says what a round of all its points would take, not that one took it', () => {
  const cell = { phases: { totalNs: 0.6e9, betweenNs: 0.1e9 } };
  const ran = {
    stop: 'max-time',
    status: 'incomplete',
    ratio: null,
    rounds: [{ pilot: true, workers: cell, procs: cell }],
  };
  const none = { stop: 'max-time', status: 'incomplete', ratio: null, rounds: [] };
  const short = /** @type {NonNullable<ReturnType<typeof sweepShortfall>>} */ (
    sweepShortfall([ran, ran, none], { maxTime: 10, seconds: 11 })
  );
  assert.equal(short.points, 3);
  const text = shortBudgetText(short, 11);
  assert.match(
    text,
    /^no round counted within the 10 s budget: a round of the 3 points that can run would take ~?4(\.\d)? s/,
  );
  assert.doesNotMatch(text, /the first round took/);
  // a compare's own round is one it ran
  const one = /** @type {any} */ (
    budgetShortfall({ stop: 'max-time', maxTime: 10, seconds: 11, counted: 0, rounds: ran.rounds })
  );
  assert.equal(one.points, undefined);
  assert.match(shortBudgetText(one, 11), /the first round took/);
});
