import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noiseSplit } from '../../src/stats/noise.js';
import { noiseText, stopText } from '../../src/document/sentences.js';

/**
 * A cell whose window ran at e^log ops/ns in its first half and e^(log + step) in its second:
 * ten tenths of 100 ops each.
 * @param {number} log
 * @param {number} step
 */
const cell = (log, step) => ({
  throughput: Math.exp(log + step / 2) * 1e9,
  account: {
    slices: Array.from({ length: 10 }, (_, i) => ({ ops: 100, ns: 100 / Math.exp(i < 5 ? log : log + step) })),
  },
});

// six rounds: the log ratio +0.3, -0.3 by turns (sample variance 6 × 0.09 / 5 = 0.108); each
// window's second half 0.2 above or below its first by turns (var(difference) 6 × 0.04 / 5 =
// 0.048, a whole window's within its tree 0.048 / 4 = 0.012 a mode, 0.024 both): 22% between
// windows, 78% between trees. A round's cells cost 0.4 s beyond their 0.1 s windows.
const document = () => ({
  config: { precision: 0.05, duration: 0.1 },
  stop: 'max-time',
  phases: {
    modes: {
      workers: { totalNs: 0.5e9, windowNs: 0.1e9, betweenNs: 0 },
      procs: { totalNs: 0.5e9, windowNs: 0.1e9, betweenNs: 0 },
    },
  },
  rounds: Array.from({ length: 6 }, (_, i) => {
    const sign = i % 2 ? -1 : 1;
    return {
      complete: true,
      workers: cell(-9 + 0.15 * sign, 0.2 * sign),
      procs: cell(-9 - 0.15 * sign, 0.2 * sign),
    };
  }),
});

test("the split: the windows' share from each window's halves, the rest the trees'; the floor from it", () => {
  const noise = noiseSplit(/** @type {any} */ (document()));
  assert.ok(noise);
  assert.equal(noise.rounds, 6);
  assert.ok(Math.abs(noise.sd - Math.sqrt(0.108)) < 1e-9, String(noise.sd));
  assert.ok(Math.abs(noise.windows - 0.024 / 0.108) < 1e-9, String(noise.windows));
  assert.ok(Math.abs(noise.trees - 0.084 / 0.108) < 1e-9, String(noise.trees));
  // the two trees of a round moved apart, never together: no drift they share
  assert.equal(noise.drift, 0);
  // ±5% (0.0488 in logs) at 0.108 a round: t(n − 1) × √(0.108 / n) within it from n = 176 by
  // hand (t(175) 1.974 × 0.02477 = 0.0489, t(176) ...: 175-178), at 1 s a round; windows twice as
  // long: 0.084 + 0.012 = 0.096, about 156 rounds of 1.2 s, 187 s: this run's length is the floor
  assert.equal(noise.floor?.scale, 1);
  assert.ok(noise.seconds !== null && noise.seconds >= 175 && noise.seconds <= 178, String(noise.seconds));
});

test('the split wants 5 complete rounds with both cells halved, and a target', () => {
  const few = document();
  few.rounds = few.rounds.slice(0, 4);
  assert.equal(noiseSplit(/** @type {any} */ (few)), null);
  const untimed = document();
  for (const round of untimed.rounds) /** @type {any} */ (round.workers).account = null;
  assert.equal(noiseSplit(/** @type {any} */ (untimed)), null);
  assert.equal(noiseSplit(/** @type {any} */ ({ ...document(), config: { precision: null } })), null);
});

test('--verbose says where the noise lives, and the stop line whether waiting helps', () => {
  const base = document();
  const noise = {
    rounds: 6,
    sd: 0.33,
    trees: 0.78,
    windows: 0.22,
    drift: 0.05,
    floor: { scale: 1, seconds: 176 },
    seconds: 176,
  };
  const doc = /** @type {any} */ ({
    ...base,
    noise,
    ratio: null,
    seconds: 40,
    config: { ...base.config, maxTime: 40 },
  });
  assert.equal(
    noiseText(doc),
    "noise: the rounds' log ratios spread by 0.33 (sd), 78% of it between fresh trees and 22% between windows of a tree (each window's halves); a round's two trees ran 0.05 faster or slower together (the machine's drift), which their ratio cancels; ±5.0% needs about 3 min here: the trees disagree by themselves",
  );
  // the stop line has said how many more rounds: it says why only rounds help
  const stopped = stopText({ ...doc, ratio: { n: 6, ci95: [0.7, 1.4], halfWidth: 0.41 } }) ?? '';
  assert.match(
    stopped,
    /would reach ±5\.0%: --max-time \d+; 78% of the rounds' spread is between fresh trees, which only more rounds narrow$/,
  );
  // windows three times as long would be quicker: the line names the --duration that gives them
  doc.noise = { ...noise, trees: 0.3, windows: 0.7, floor: { scale: 3, seconds: 80 }, seconds: 150 };
  assert.match(noiseText(doc) ?? '', /; ±5\.0% needs about 80 s here with --duration 0\.3 \(3 min with this run's\)$/);
  // a length that saves under 15% is within what the split moves by: not named; nor are the
  // trees, where most of the noise lies between windows
  doc.noise = { ...noise, trees: 0.3, windows: 0.7, floor: { scale: 2, seconds: 140 }, seconds: 150 };
  assert.match(noiseText(doc) ?? '', /; ±5\.0% needs about 3 min here$/);
  // a run that reached its target has nothing to wait for
  assert.doesNotMatch(stopText({ ...doc, stop: 'precision', ratio: { n: 6, halfWidth: 0.04 } }) ?? '', /needs/);
});
