// The schedule from a compare's own noise, through the scheduler with stand-in cells: where the
// windows of a tree hold the spread, the window lengthens after 8 rounds and those rounds count in
// no figure; where the trees hold it, the window stays; a window the user fixed is never touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { armSteps, completeRounds, newSession, runRounds, stopOnWidthOrTime } from '../../src/run/scheduler.js';
import { SCHEDULE_AT } from '../../src/run/schedule.js';
import { warmupBatchOf } from '../../src/run/work.js';
import { sessionOf } from '../../src/saved/resume.js';

const ARMS = /** @type {Array<'workers'|'procs'>} */ (['workers', 'procs']);
const NS_PER_OP = 20_000; // the calibration's 5,000 ops: 0.1 s, the window asked for

/** A compare sized by its calibration, stopping after `rounds` counted rounds. */
const compare = ({ schedule = true, rounds = 12 } = {}) => {
  const plan = {
    rounds,
    stop: { rounds, minRounds: 5, precision: 0.05, maxSeconds: 60 },
    iterations: null,
    duration: 0.1,
    schedule,
    warmup: 'steady',
    trace: null,
    aa: null,
  };
  return {
    id: 'p1',
    plan,
    arms: ARMS,
    steps: armSteps(plan, ARMS),
    session: newSession(plan),
    pilot: true,
    schedule: true,
  };
};

/**
 * Cells whose window runs at e^log ops/ns in its first half and e^(log + step) in its second,
 * 0.4 s of a cell beyond its window; `shape(mode, n)` gives the n-th cell's [log, step].
 * @param {(mode: string, n: number) => [number, number]} shape
 */
function cellsOf(shape) {
  /** @type {Array<{ iterations: number, batch: number | undefined }>} */
  const ran = [];
  const seen = { workers: 0, procs: 0 };
  return {
    ran,
    cells: {
      async runCell(/** @type {any} */ _plan, /** @type {any} */ work, /** @type {'workers'|'procs'} */ mode) {
        ran.push({ iterations: work.iterations, batch: warmupBatchOf(work) });
        const [log, step] = shape(mode, seen[mode]++);
        const slices = Array.from({ length: 10 }, (_, i) => ({
          ops: 100,
          ns: 100 / Math.exp(i < 5 ? log : log + step),
        }));
        return {
          mode,
          throughput: Math.exp(log + step / 2) * 1e9,
          elapsedNs: work.iterations * NS_PER_OP,
          account: { slices },
          phases: { totalNs: 0.5e9, windowNs: 0.1e9, betweenNs: 0 },
        };
      },
      async calibrate() {
        return { iterations: 5000 };
      },
    },
  };
}

test('where the windows of a tree hold the spread, the window lengthens after 8 rounds, which count in no figure', async () => {
  // each window's second half 0.4 above or below its first, the workers' by turns and the
  // procs' by pairs: every round's ratio moves by what its windows did, none by its trees
  const { ran, cells } = cellsOf((mode, n) => [-9, (mode === 'workers' ? n % 2 : Math.floor(n / 2) % 2) ? 0.4 : -0.4]);
  const p = compare();
  const run = await runRounds(/** @type {any} */ ([p]), { stop: stopOnWidthOrTime(Infinity), cells });
  assert.equal(run.error, null);
  const scheduled = p.session.sizing?.scheduled;
  assert.ok(scheduled);
  assert.equal(scheduled.after, SCHEDULE_AT);
  assert.equal(scheduled.rounds, SCHEDULE_AT);
  assert.ok(scheduled.windows > 0.9, `windows ${scheduled.windows}`);
  // at 0.8 s of trees and 0.2 s of windows a round, with no noise between trees, the longest
  // window tried (8 times) reaches the target soonest
  assert.equal(scheduled.scale, 8);
  assert.ok(scheduled.floorSeconds < scheduled.seconds);
  assert.deepEqual(
    ran.map((one) => one.iterations),
    [...Array(2 * SCHEDULE_AT).fill(5000), ...Array(2 * 12).fill(40_000)],
    '8 rounds of the first window, then the 12 asked for of the longer one',
  );
  assert.ok(
    ran.every((one) => one.batch === 500),
    'the warm-up keeps its batches of a tenth of the first window',
  );
  assert.deepEqual(
    p.session.rounds.map((round) => Boolean(round.pilot)),
    [...Array(SCHEDULE_AT).fill(true), ...Array(12).fill(false)],
  );
  assert.deepEqual(p.session.rounds[SCHEDULE_AT - 1].scheduled, { scale: 8, windows: scheduled.windows });
  assert.equal(completeRounds(p.session, ARMS).length, 12, 'every figure from windows of one length');
});

test('where the trees hold the spread, the window stays and every round counts', async () => {
  // whole windows 0.3 apart by turns, their halves alike: the trees differ, their windows do not
  const { ran, cells } = cellsOf((mode, n) => [-9 + (mode === 'workers' ? (n % 2 ? 0.3 : -0.3) : 0), 0]);
  const p = compare();
  const run = await runRounds(/** @type {any} */ ([p]), { stop: stopOnWidthOrTime(Infinity), cells });
  assert.equal(run.error, null);
  const scheduled = p.session.sizing?.scheduled;
  assert.equal(scheduled?.scale, 1);
  assert.equal(scheduled?.windows, 0);
  assert.ok(ran.every((one) => one.iterations === 5000));
  assert.ok(p.session.rounds.every((round) => !round.pilot));
  assert.equal(completeRounds(p.session, ARMS).length, 12);
});

test("a window the user fixed (--duration, --iterations, --rounds) is never rescheduled, nor advise's candidates", async () => {
  for (const p of [compare({ schedule: false }), { ...compare(), schedule: false }]) {
    const { ran, cells } = cellsOf((mode, n) => [
      -9,
      (mode === 'workers' ? n % 2 : Math.floor(n / 2) % 2) ? 0.4 : -0.4,
    ]);
    const run = await runRounds(/** @type {any} */ ([p]), { stop: stopOnWidthOrTime(Infinity), cells });
    assert.equal(run.error, null);
    assert.equal(p.session.sizing?.scheduled, undefined);
    assert.ok(ran.every((one) => one.iterations === 5000));
  }
});

test('a kept run whose window the schedule lengthened goes on with its warm-up batches as they were', () => {
  const point = {
    config: { iterations: 20_000, warmup: 'steady' },
    sizing: {
      targetNs: 1e8,
      calibrated: 5000,
      pilotWindowNs: 1e8,
      iterations: 5000,
      resized: false,
      scheduled: { scale: 4 },
    },
    rounds: [],
    seconds: 12,
  };
  assert.deepEqual(sessionOf(point, ARMS).work, { iterations: 20_000, warmup: 'steady', warmupBatch: 500 });
  const kept = {
    ...point,
    sizing: { ...point.sizing, scheduled: { scale: 1 } },
    config: { iterations: 5000, warmup: 'steady' },
  };
  assert.deepEqual(sessionOf(kept, ARMS).work, { iterations: 5000, warmup: 'steady' });
});
