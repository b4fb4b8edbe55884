// How the first round's sizing of the cells is told: the sentence under the ratio, and the
// --ci line of a pilot round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sizingText } from '../../../src/commands/compare/words.js';
import { roundLines } from '../../../src/cli/terminal.js';

const sizing = { targetNs: 1e8, calibrated: 6360, pilotWindowNs: 1.62e8, iterations: 3926, resized: true };

test('the sizing sentence says how long the cells were, what the calibration got wrong and what ran instead', () => {
  assert.equal(
    sizingText({ sizing }),
    "cells of 0.10 s: the calibration's 6,360 ops per worker ran 0.16 s in the first round, so the rounds after it ran 3,926 (the first counts in no figure)",
  );
  assert.equal(
    sizingText({ sizing: { ...sizing, pilotWindowNs: 0.9e8, iterations: 6360, resized: false } }),
    "cells of 0.10 s: the calibration's 6,360 ops per worker ran 0.09 s in the first round",
  );
  assert.equal(sizingText({ sizing: null }), null, 'fixed work: nothing was sized');
});

test('--ci: a pilot round is named as one and left out of the interval so far', () => {
  let written = '';
  const line = roundLines(/** @type {any} */ ({ write: (/** @type {string} */ text) => (written += text) }));
  const round = (/** @type {number} */ index, /** @type {number} */ ratio, pilot = false) =>
    /** @type {any} */ ({
      index,
      ...(pilot ? { pilot: true } : {}),
      cells: { workers: { throughput: ratio * 100 }, procs: { throughput: 100 } },
    });
  line(round(1, 3, true));
  line(round(2, 1));
  const [pilot, first] = written.trim().split('\n');
  assert.equal(pilot, 'mmapbench: round 1: workers/procs 3.00; a pilot: it sized the cells, and counts in no figure');
  assert.match(first, /^mmapbench: round 2: workers\/procs 1\.00; so far 1\.00; \d+ s$/);
});

test("the schedule's choice: what the first rounds held, the window from then on, and the rounds set aside", () => {
  const scheduled = { after: 9, rounds: 8, trees: 0.3, windows: 0.7, scale: 4, seconds: 80, floorSeconds: 30 };
  assert.equal(
    sizingText({ sizing: { ...sizing, scheduled } }),
    "cells of 0.10 s: the calibration's 6,360 ops per worker ran 0.16 s in the first round, so the rounds after it ran 3,926 (the first counts in no figure); rounds 2-9 held 70% of their spread between windows of one tree: from round 10 windows 4x as long (about 30 s to the target, against 80 s more at the first length), and those rounds count in no figure",
  );
  assert.match(
    /** @type {string} */ (
      sizingText({ sizing: { ...sizing, scheduled: { ...scheduled, scale: 1, trees: 0.9, windows: 0.1 } } })
    ),
    /; rounds 2-9 held 90% of their spread between fresh trees and 10% between windows of one: no longer window reaches the target sooner, so the window stayed$/,
  );
});

test('--ci: the round after which the schedule lengthened the window says so, and the interval starts again', () => {
  let written = '';
  const line = roundLines(/** @type {any} */ ({ write: (/** @type {string} */ text) => (written += text) }));
  const round = (/** @type {number} */ index, /** @type {number} */ ratio, extra = {}) =>
    /** @type {any} */ ({
      index,
      ...extra,
      cells: { workers: { throughput: ratio * 100 }, procs: { throughput: 100 } },
    });
  line(round(1, 3));
  line(round(2, 2, { pilot: true, scheduled: { scale: 4, windows: 0.7 } }));
  line(round(3, 1));
  const lines = written.trim().split('\n');
  assert.equal(
    lines[1],
    "mmapbench: round 2: workers/procs 2.00; windows of one tree held 70% of the rounds' spread: windows 4x as long from here, and the rounds so far count in no figure",
  );
  assert.match(lines[2], /^mmapbench: round 3: workers\/procs 1\.00; so far 1\.00; \d+ s$/, 'round 1 left out');
});

test("--ci: a run that stops once decided shows the interval its rule looks through, from the rule's first look", () => {
  const linesOf = (/** @type {boolean} */ sequential) => {
    let written = '';
    const line = roundLines(/** @type {any} */ ({ write: (/** @type {string} */ text) => (written += text) }), {
      sequential,
    });
    [1.1, 0.9, 1.2, 0.8, 1.05, 0.95].forEach((ratio, i) =>
      line(
        /** @type {any} */ ({
          index: i + 1,
          cells: { workers: { throughput: ratio * 100 }, procs: { throughput: 100 } },
        }),
      ),
    );
    return written.trim().split('\n');
  };
  const sequential = linesOf(true);
  assert.match(sequential[3], /; so far [\d.]+; \d+ s$/, 'round 4: before the first look, no interval');
  assert.match(sequential[4], /; so far [\d.]+ \(99\.5% CI [\d.]+-[\d.]+, valid at every round, ±[\d.]+%\); \d+ s$/);
  const fixed = linesOf(false);
  assert.match(
    fixed[2],
    /; so far [\d.]+ \(95% CI [\d.]+-[\d.]+, ±[\d.]+%\); \d+ s$/,
    'a fixed-n 95% interval from round 3',
  );
});
