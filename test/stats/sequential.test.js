import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ALPHA,
  FINAL_ALPHA,
  SEQUENCE_ALPHA,
  SEQUENCE_ROUNDS,
  decision,
  lookInterval,
  sequenceDecides,
  verdictOf,
} from '../../src/stats/sequential.js';
import { stopReason } from '../../src/stats/stopping.js';

// Round series with a known shape: a ratio and a spread of its logs, the same deviations in
// every series (so a series is a fixed input, not a draw)
const DEVIATIONS = [0.9, -1.1, 0.3, -0.4, 1.4, -0.7, 0.1, -0.5, 0.8, -1.3, 0.6, -0.2, 1.0, -0.9, 0.2, -0.2];
const series = (/** @type {number} */ ratio, /** @type {number} */ sd, n = DEVIATIONS.length) =>
  Array.from({ length: n }, (_, i) => ratio * Math.exp(sd * DEVIATIONS[i % DEVIATIONS.length]));
const RULE = { rounds: null, minRounds: 5, precision: 0.05, maxSeconds: Infinity, sequential: true, margin: 0.1 };
const state = (/** @type {number[]} */ ratios) => ({
  n: ratios.length,
  ci95: null,
  elapsedSeconds: 0,
  roundSeconds: 0,
});

test('the error is split between the sequence and the last look, and adds up to the whole', () => {
  assert.equal(SEQUENCE_ALPHA + FINAL_ALPHA, ALPHA);
  assert.ok(
    SEQUENCE_ALPHA < FINAL_ALPHA,
    'the last look keeps most of it, so it stays nearly as narrow as a fixed-n one',
  );
});

test('a series twice as slow in a thread decides "procs faster": at the first look with a narrow spread, later with a wide one', () => {
  const narrow = series(0.5, 0.05, SEQUENCE_ROUNDS);
  assert.equal(sequenceDecides(narrow, 0.1), true);
  assert.equal(stopReason(RULE, state(narrow), narrow), 'decided');
  const verdict = verdictOf(narrow, { look: 'sequence', margin: 0.1 });
  assert.deepEqual([verdict.outcome, verdict.faster, verdict.look], ['procs', 'procs', 'sequence']);
  assert.equal(verdict.confidence, 1 - SEQUENCE_ALPHA);
  // a round's spread of 0.3, as the default task's: not at the first look, but within 16 rounds
  const wide = series(0.5, 0.3);
  assert.equal(sequenceDecides(wide.slice(0, SEQUENCE_ROUNDS), 0.1), false);
  assert.equal(sequenceDecides(wide, 0.1), true);
});

test('the sequence never decides before its first look, however far apart the modes are', () => {
  const ratios = series(0.2, 0.01, SEQUENCE_ROUNDS - 1);
  assert.equal(sequenceDecides(ratios, 0.1), false);
  assert.equal(stopReason(RULE, state(ratios), ratios), null);
  // a verdict asked for before then (an interrupted run) is an ordinary interval, said as such
  assert.equal(verdictOf(ratios, { look: 'sequence', margin: 0.1 }).look, 'fixed');
});

test('a series alike in both modes, with a narrow spread, decides "equal within the margin"', () => {
  const ratios = series(1.01, 0.02);
  assert.equal(decision(lookInterval(ratios, 'sequence'), 0.1), 'equal');
  assert.equal(stopReason(RULE, state(ratios), ratios), 'decided');
  // a narrower margin than its interval: not equal, and not faster either
  assert.equal(decision(lookInterval(ratios, 'sequence'), 0.01), null);
});

test('a wide series around 1 stays undecided at every look, and its last look is inconclusive', () => {
  const ratios = series(1, 0.4);
  for (let n = SEQUENCE_ROUNDS; n <= ratios.length; n++) assert.equal(sequenceDecides(ratios.slice(0, n), 0.1), false);
  const verdict = verdictOf(ratios, { look: 'final', margin: 0.1 });
  assert.deepEqual([verdict.outcome, verdict.significant, verdict.look], ['inconclusive', false, 'final']);
  assert.ok(verdict.interval && verdict.interval[0] < 1 && verdict.interval[1] > 1);
});

test('the sequence is never narrower than a fixed-n interval at the same rounds, and the last look lies between', () => {
  for (let n = 2; n <= 200; n++) {
    const ratios = series(0.9, 0.3, n);
    const [fixedLow, fixedHigh] = /** @type {[number, number]} */ (lookInterval(ratios, 'fixed'));
    const [finalLow, finalHigh] = /** @type {[number, number]} */ (lookInterval(ratios, 'final'));
    const [seqLow, seqHigh] = /** @type {[number, number]} */ (lookInterval(ratios, 'sequence'));
    assert.ok(seqLow < finalLow && finalLow < fixedLow, `n=${n}: low bounds in order`);
    assert.ok(seqHigh > finalHigh && finalHigh > fixedHigh, `n=${n}: high bounds in order`);
  }
});

test('with --precision the rounds stop on width, not on a decision; with --rounds on the count', () => {
  const ratios = series(0.5, 0.05, SEQUENCE_ROUNDS);
  const width = { ...RULE, sequential: false };
  // a series the sequence would decide at once: with --precision only its width stops it
  assert.equal(stopReason(width, { ...state(ratios), ci95: [0.4, 0.6] }, ratios), null);
  assert.equal(stopReason(width, { ...state(ratios), ci95: [0.49, 0.51] }, ratios), 'precision');
  assert.equal(stopReason({ ...RULE, rounds: 20 }, state(ratios), ratios), null);
  assert.equal(stopReason({ ...RULE, rounds: SEQUENCE_ROUNDS }, state(ratios), ratios), 'rounds');
});

test('an interval decides by where it lies: off 1 either way, or inside the margin', () => {
  assert.equal(decision([1.01, 1.2], 0.1), 'workers');
  assert.equal(decision([0.5, 0.99], 0.1), 'procs');
  assert.equal(decision([0.95, 1.05], 0.1), 'equal');
  // the band is [1/1.1, 1.1]: symmetric on the log scale
  assert.equal(decision([1 / 1.1, 1.1], 0.1), 'equal');
  assert.equal(decision([0.9, 1.05], 0.1), null);
  assert.equal(decision(null, 0.1), null);
});
