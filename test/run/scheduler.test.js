// The one round scheduler with a stand-in cell runner: order, stop rules, resume, hooks and
// failures, without a process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MmapbenchError } from '../../src/errors.js';
import { armSteps, completeRounds, newSession, runRounds, stopOnWidthOrTime } from '../../src/run/scheduler.js';

const ARMS = /** @type {Array<'workers'|'procs'>} */ (['workers', 'procs']);

/** A plan as buildPlan makes it, reduced to what the scheduler reads. */
const plan = ({ rounds = null, iterations = 10, trace = null, aa = null, precision = 0.05 } = {}) => ({
  rounds: rounds ?? 100_000,
  stop: { rounds, minRounds: 5, precision, maxSeconds: 60 },
  iterations,
  warmup: iterations === null ? 'steady' : 2,
  trace,
  aa,
});

const point = (id, p = plan()) => ({ id, plan: p, arms: ARMS, steps: armSteps(p, ARMS), session: newSession(p) });

/** Cells that record what ran; throughput from `speed(mode, n)` (the n-th cell of that mode). */
function stand_in({ speed = () => 1000, failAt = Infinity, calibrated = 50 } = {}) {
  const ran = [];
  return {
    ran,
    cells: {
      async runCell(p, work, mode, _interrupt, { trace } = {}) {
        ran.push({ plan: p, mode, traced: Boolean(trace), work });
        if (ran.length >= failAt) throw new MmapbenchError('process 42 was killed by SIGKILL');
        return { throughput: speed(mode, ran.filter((r) => r.mode === mode).length), mode };
      },
      async calibrate() {
        return { iterations: calibrated };
      },
    },
  };
}

test('one point, fixed rounds: the arms alternate their order round by round, and it stops on the count', async () => {
  const { ran, cells } = stand_in();
  const p = point('p1', plan({ rounds: 3 }));
  const run = await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells });
  assert.equal(run.error, null);
  assert.equal(p.session.stop, 'rounds');
  assert.deepEqual(
    p.session.rounds.map((round) => round.order),
    [
      ['workers', 'procs'],
      ['procs', 'workers'],
      ['workers', 'procs'],
    ],
  );
  assert.deepEqual(
    ran.map((r) => r.mode),
    ['workers', 'procs', 'procs', 'workers', 'workers', 'procs'],
  );
  assert.ok(p.session.rounds.every((round) => round.cells.workers && round.cells.procs));
});

test('many points: each round visits them one step further along, and each stops on its own', async () => {
  const { ran, cells } = stand_in();
  const points = [point('p1', plan({ rounds: 2 })), point('p2', plan({ rounds: 3 })), point('p3', plan({ rounds: 3 }))];
  const run = await runRounds(points, { stop: stopOnWidthOrTime(Infinity), cells });
  assert.deepEqual(run.rounds, [
    { index: 1, points: ['p1', 'p2', 'p3'] },
    { index: 2, points: ['p2', 'p3', 'p1'] },
    { index: 3, points: ['p2', 'p3'] },
  ]);
  assert.deepEqual(
    points.map((p) => p.session.rounds.length),
    [2, 3, 3],
  );
  assert.equal(ran.length, 16);
});

test('stop on width: a steady ratio stops at the minimum rounds; a budget already spent stops every point', async () => {
  const steady = stand_in({ speed: (mode) => (mode === 'workers' ? 900 : 1000) });
  const p = point('p1');
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells: steady.cells });
  assert.equal(p.session.stop, 'precision');
  assert.equal(p.session.rounds.length, 5);

  // a ratio that keeps swinging never gets narrow: the budget (0 s) ends it after one round
  const swinging = stand_in({ speed: (mode, n) => (mode === 'workers' ? (n % 2 ? 500 : 2000) : 1000) });
  const points = [point('p1'), point('p2')];
  await runRounds(points, { stop: stopOnWidthOrTime(0), cells: swinging.cells });
  assert.deepEqual(
    points.map((q) => [q.session.stop, q.session.rounds.length]),
    [
      ['max-time', 1],
      ['max-time', 1],
    ],
  );
});

test('a plan without iterations is calibrated once, before any round, and the hook sees it', async () => {
  const { ran, cells } = stand_in({ calibrated: 77 });
  const p = point('p1', plan({ rounds: 1, iterations: null }));
  const seen = [];
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells, onCalibrated: (q, c) => seen.push([q.id, c]) });
  assert.deepEqual(seen, [['p1', { iterations: 77 }]]);
  // the warmup is the plan's: a count, or until steady (in tenths of the calibrated ops)
  assert.deepEqual(p.session.work, { iterations: 77, warmup: 'steady' });
  assert.ok(ran.every((r) => r.work === p.session.work));
});

test('with a tracer, each arm also runs traced, before or after its untraced cell by turns', async () => {
  const { ran, cells } = stand_in();
  const p = { ...point('p1', plan({ rounds: 2, trace: { window: 'timed' } })), tracer: { window: 'timed' } };
  p.steps = armSteps(p.plan, ARMS);
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells });
  assert.deepEqual(
    ran.map((r) => `${r.mode}${r.traced ? '+t' : ''}`),
    ['workers', 'workers+t', 'procs', 'procs+t', 'procs+t', 'procs', 'workers+t', 'workers'],
  );
  assert.ok(p.session.rounds.every((round) => round.traced.workers && round.traced.procs));
});

test('an A/A run files its cells under both arms but runs one mode', async () => {
  const { ran, cells } = stand_in();
  const p = point('p1', plan({ rounds: 2, aa: 'workers' }));
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells });
  assert.ok(ran.every((r) => r.mode === 'workers'));
  assert.ok(p.session.rounds.every((round) => round.cells.workers && round.cells.procs));
});

test('resume: skipped cells do not run, and the hooks see every cell that did, in order', async () => {
  const { ran, cells } = stand_in();
  const p = point('p1', plan({ rounds: 2 }));
  const events = [];
  await runRounds([p], {
    // reproduce's way: its records hold the skipped cells, and its rule counts rounds by index
    stop: ({ points, index }) => {
      if (index >= 2) for (const one of points) one.session.stop = 'rounds';
    },
    cells,
    skip: (_, index, step) => index === 1 && step.arm === 'workers',
    beforeCell: (_, step) => events.push(`before ${step.arm}`),
    onCell: (_, round, step) => events.push(`done ${round.index} ${step.arm}`),
  });
  assert.equal(ran.length, 3);
  assert.deepEqual(events, [
    'before procs',
    'done 1 procs',
    'before procs',
    'done 2 procs',
    'before workers',
    'done 2 workers',
  ]);
});

test('a failure keeps every finished cell; the points still running carry the error', async () => {
  // round 1: four cells; round 2 visits p2 alone, whose second cell fails
  const { cells } = stand_in({ failAt: 6 });
  const points = [point('p1', plan({ rounds: 1 })), point('p2', plan({ rounds: 3 }))];
  const run = await runRounds(points, { stop: stopOnWidthOrTime(Infinity), cells });
  assert.match(run.error.message, /killed by SIGKILL/);
  assert.equal(points[0].session.stop, 'rounds', 'a point done before the failure keeps its own stop');
  assert.equal(points[0].session.error, null);
  assert.equal(points[1].session.stop, 'failed');
  assert.equal(points[1].session.error, run.error);
  assert.equal(points[1].session.rounds.length, 2);
  assert.ok(points[1].session.rounds[0].cells.procs, "the failed point's finished round is kept");
  assert.equal(Object.keys(points[1].session.rounds[1].cells).length, 1, 'and the cell it finished of the next');
});

test('Ctrl-C is an interruption, not a failure; an error that is not ours is an internal error', async () => {
  const interrupted = {
    calibrate: async () => ({}),
    runCell: async () => Promise.reject(new MmapbenchError('stopped', { kind: 'interrupted' })),
  };
  const p = point('p1');
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells: interrupted });
  assert.equal(p.session.stop, 'interrupted');

  const broken = {
    calibrate: async () => ({}),
    runCell: async () => Promise.reject(new TypeError('x is not a function')),
  };
  const q = point('p1');
  const run = await runRounds([q], { stop: stopOnWidthOrTime(Infinity), cells: broken });
  assert.equal(q.session.stop, 'failed');
  assert.match(run.error.message, /^internal error: x is not a function/);
});

/** Cells whose window takes `nsPerOp` × ops, as a real cell's elapsedNs. */
function timedCells(nsPerOp, calibrated) {
  const ran = [];
  return {
    ran,
    cells: {
      async runCell(_p, work, mode) {
        ran.push(work.iterations);
        return { throughput: 1000, mode, elapsedNs: work.iterations * nsPerOp };
      },
      async calibrate() {
        return { iterations: calibrated };
      },
    },
  };
}

const calibratedPoint = (rounds) => ({
  ...point('p1', { ...plan({ rounds, iterations: null }), duration: 0.1 }),
  pilot: true,
});

test("a calibrated point's first round sizes its cells: far off, it is resized and that round is a pilot counted nowhere", async () => {
  // the calibration's 5,000 ops take 0.2 s in the cells: twice the 0.1 s asked for
  const { ran, cells } = timedCells(40_000, 5000);
  const p = calibratedPoint(3);
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells });
  assert.deepEqual(ran, [5000, 5000, 2500, 2500, 2500, 2500, 2500, 2500], 'a pilot, then the 3 rounds asked for');
  assert.deepEqual(p.session.sizing, {
    targetNs: 1e8,
    calibrated: 5000,
    pilotWindowNs: 2e8,
    iterations: 2500,
    resized: true,
  });
  assert.deepEqual(
    p.session.rounds.map((round) => Boolean(round.pilot)),
    [true, false, false, false],
  );
  assert.equal(completeRounds(p.session, ARMS).length, 3, 'the pilot is in no figure');
  assert.equal(p.session.work.iterations, 2500);
});

test('a calibration whose windows were up to a quarter shorter or half again as long is kept, and its first round counts', async () => {
  for (const nsPerOp of [22_000, 16_400, 29_000]) {
    // 0.11 s, 0.082 s (0.1 / 1.22), 0.145 s
    const { ran, cells } = timedCells(nsPerOp, 5000);
    const p = calibratedPoint(2);
    await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells });
    assert.deepEqual(ran, [5000, 5000, 5000, 5000], `${nsPerOp} ns an op`);
    assert.equal(p.session.sizing.resized, false);
    assert.equal(p.session.sizing.pilotWindowNs, nsPerOp * 5000);
    assert.equal(completeRounds(p.session, ARMS).length, 2);
  }
});

test('windows more than a quarter shorter or half again as long as asked make the first round a pilot', async () => {
  for (const [nsPerOp, resizedTo] of [
    [15_000, 6667], // 0.075 s
    [31_000, 3226], // 0.155 s
  ]) {
    const { ran, cells } = timedCells(nsPerOp, 5000);
    const p = calibratedPoint(1);
    await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells });
    assert.deepEqual(ran, [5000, 5000, resizedTo, resizedTo], `${nsPerOp} ns an op`);
    assert.equal(p.session.sizing.resized, true);
  }
});

test('fixed work and points that do not ask for it are never sized', async () => {
  const fixed = timedCells(40_000, 5000);
  const p = { ...point('p1', plan({ rounds: 2, iterations: 5000 })), pilot: true };
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells: fixed.cells });
  assert.deepEqual(fixed.ran, [5000, 5000, 5000, 5000]);
  assert.equal(p.session.sizing, null);
  const unasked = timedCells(40_000, 5000);
  const q = { ...calibratedPoint(2), pilot: false };
  await runRounds([q], { stop: stopOnWidthOrTime(Infinity), cells: unasked.cells });
  assert.deepEqual(unasked.ran, [5000, 5000, 5000, 5000]);
});

test('isolate: a point whose cells fail stops alone with its error, and the others run on; without it the run ends', async () => {
  /** Cells of `broken`'s plan throw; the rest measure. */
  const cellsFailingFor = (/** @type {any} */ broken) => ({
    async runCell(/** @type {any} */ p, /** @type {any} */ _work, /** @type {string} */ mode) {
      if (p === broken) throw new MmapbenchError('task threw: this fix throws', { kind: 'run' });
      return { throughput: 1000, mode };
    },
    async calibrate() {
      return { iterations: 50 };
    },
  });
  const [good, bad] = [point('p1', plan({ rounds: 3 })), point('p2', plan({ rounds: 3 }))];
  const run = await runRounds([good, bad], {
    stop: stopOnWidthOrTime(Infinity),
    cells: cellsFailingFor(bad.plan),
    isolate: true,
  });
  assert.equal(run.error, null);
  assert.equal(bad.session.stop, 'failed');
  assert.match(bad.session.error?.message ?? '', /this fix throws/);
  assert.equal(good.session.stop, 'rounds');
  assert.equal(completeRounds(good.session, ARMS).length, 3);

  const [again, broken] = [point('p1', plan({ rounds: 3 })), point('p2', plan({ rounds: 3 }))];
  const ended = await runRounds([again, broken], {
    stop: stopOnWidthOrTime(Infinity),
    cells: cellsFailingFor(broken.plan),
  });
  assert.match(ended.error?.message ?? '', /this fix throws/);
  assert.equal(again.session.stop, 'failed');
});

test('isolate does not hold Ctrl-C: an interrupted cell still ends every point', async () => {
  const cells = {
    async runCell() {
      throw new MmapbenchError('interrupted', { kind: 'interrupted' });
    },
    async calibrate() {
      return { iterations: 50 };
    },
  };
  const [a, b] = [point('p1', plan({ rounds: 3 })), point('p2', plan({ rounds: 3 }))];
  const run = await runRounds([a, b], { stop: stopOnWidthOrTime(Infinity), cells, isolate: true });
  assert.equal(run.error?.kind, 'interrupted');
  assert.deepEqual([a.session.stop, b.session.stop], ['interrupted', 'interrupted']);
});

test("a task that talks to its parent, its modes' windows far apart, sizes each mode alone; any other task keeps one count", async () => {
  // workers 20 µs an op, procs 1 ms: 5,000 ops are 0.1 s in threads and 5 s in processes
  const perOp = { workers: 20_000, procs: 1_000_000 };
  const run = async (/** @type {boolean} */ parent) => {
    /** @type {Array<[string, number]>} */
    const ran = [];
    const cells = {
      async runCell(/** @type {any} */ _p, /** @type {any} */ work, /** @type {'workers'|'procs'} */ mode) {
        ran.push([mode, work.iterations]);
        return { throughput: 1000, mode, elapsedNs: work.iterations * perOp[mode] };
      },
      async calibrate() {
        return { iterations: 5000 };
      },
    };
    const base = calibratedPoint(2);
    const p = { ...base, plan: { ...base.plan, task: { ...base.plan.task, parent } } };
    await runRounds([/** @type {any} */ (p)], { stop: stopOnWidthOrTime(Infinity), cells });
    return { p, ran };
  };
  const talks = await run(true);
  assert.deepEqual(talks.p.session.work.byMode, { workers: 5000, procs: 100 });
  assert.deepEqual(
    talks.ran
      .slice(2)
      .map(([mode, ops]) => `${mode} ${ops}`)
      .sort(),
    ['procs 100', 'procs 100', 'workers 5000', 'workers 5000'],
  );
  assert.equal(talks.p.session.rounds[0].pilot, true);
  const alone = await run(false);
  assert.equal(alone.p.session.work.byMode, undefined);
  assert.ok(
    alone.ran.slice(2).every(([, ops]) => ops === alone.ran[2][1]),
    'the same ops in both modes',
  );
});

test("a budget spent stops the run where it is: no calibration and no point's round starts after it, none left half run", async () => {
  const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let calibrations = 0;
  const slow = {
    async runCell(/** @type {any} */ _p, /** @type {any} */ _work, /** @type {string} */ mode) {
      await pause(20);
      return { throughput: 1000, mode };
    },
    async calibrate() {
      calibrations++;
      await pause(30);
      return { iterations: 50 };
    },
  };
  // five points to calibrate, 30 ms or more each, in a budget of 50 ms: the third never starts
  const calibrating = Array.from({ length: 5 }, (_, i) => point(`c${i}`, plan({ iterations: null })));
  const first = await runRounds(calibrating, { stop: stopOnWidthOrTime(0.05), budget: 0.05, cells: slow });
  // one at least (the budget is checked before each); never all five, each taking 30 ms or more
  assert.ok(calibrations >= 1 && calibrations < 5, `${calibrations} calibrations`);
  assert.ok(calibrating.every((p) => p.session.stop === 'max-time' && p.session.rounds.length === 0));
  assert.deepEqual(first.rounds, []);

  // four points of fixed work, a round of two 20 ms cells each: the budget runs out in round 1
  const fixed = Array.from({ length: 4 }, (_, i) => point(`f${i}`));
  const second = await runRounds(fixed, { stop: stopOnWidthOrTime(0.05), budget: 0.05, cells: slow });
  assert.ok(fixed.every((p) => p.session.stop === 'max-time'));
  const visited = fixed.filter((p) => p.session.rounds.length);
  assert.ok(visited.length >= 1 && visited.length < 4, `${visited.length} points visited`);
  assert.ok(visited.every((p) => p.session.rounds.every((round) => round.cells.workers && round.cells.procs)));
  assert.deepEqual(second.rounds, [{ index: 1, points: visited.map((p) => p.id) }]);
});

/** A kept session, as --resume reads it back: rounds filed under each arm that ran. */
const keptSession = (p, rounds) => ({
  ...newSession(p.plan),
  rounds: rounds.map(({ index, arms }) => ({
    index,
    order: arms,
    cells: Object.fromEntries(arms.map((arm) => [arm, { throughput: 1000, mode: arm }])),
  })),
});

test('round five, row 3: --rounds N means N complete rounds, an interrupted round kept before them counting for none', async () => {
  const { ran, cells } = stand_in();
  const p = point('p1', plan({ rounds: 2 }));
  // interrupted in round 1, after its workers cell
  p.session = keptSession(p, [{ index: 1, arms: ['workers'] }]);
  const run = await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells, resumed: { seconds: 1, rounds: [] } });
  assert.equal(run.error, null);
  assert.equal(p.session.stop, 'rounds');
  assert.equal(completeRounds(p.session, ARMS).length, 2);
  assert.equal(ran.length, 4);
});

test('round five, row 2: a kept point that ran its rounds (a run stopped in its fault rounds) runs none more on --resume', async () => {
  const { ran, cells } = stand_in();
  const p = point('p1', plan({ rounds: 2 }));
  p.session = keptSession(p, [
    { index: 1, arms: ['workers', 'procs'] },
    { index: 2, arms: ['procs', 'workers'] },
  ]);
  await runRounds([p], { stop: stopOnWidthOrTime(Infinity), cells, resumed: { seconds: 1, rounds: [] } });
  assert.equal(p.session.stop, 'rounds');
  assert.deepEqual(ran, []);
  assert.equal(p.session.rounds.length, 2);
});

test("round five, row 3: a resumed sweep's point that had its rounds runs no more while its sibling finishes its own", async () => {
  const { ran, cells } = stand_in();
  const done = point('p1', plan({ rounds: 2 }));
  const behind = point('p2', plan({ rounds: 2 }));
  done.session = keptSession(done, [
    { index: 1, arms: ['workers', 'procs'] },
    { index: 2, arms: ['procs', 'workers'] },
  ]);
  behind.session = keptSession(behind, [
    { index: 1, arms: ['workers', 'procs'] },
    { index: 2, arms: ['procs'] },
  ]);
  await runRounds([done, behind], { stop: stopOnWidthOrTime(Infinity), cells, resumed: { seconds: 1, rounds: [] } });
  assert.equal(completeRounds(done.session, ARMS).length, 2);
  assert.equal(completeRounds(behind.session, ARMS).length, 2);
  assert.ok(ran.every((cell) => cell.plan === behind.plan));
});

test("issue 102: a point's first complete round times no op and reads memory, its second times ops, and so on; a pilot round moves nothing", async () => {
  // a pilot (the calibration's windows twice as long as asked), then four rounds
  const timed = [];
  const p = calibratedPoint(4);
  await runRounds([p], {
    stop: stopOnWidthOrTime(Infinity),
    cells: {
      async runCell(_p, work, mode, _interrupt, { timesOps } = {}) {
        timed.push(timesOps);
        return { throughput: 1000, mode, elapsedNs: work.iterations * 40_000 };
      },
      async calibrate() {
        return { iterations: 5000 };
      },
    },
  });
  assert.deepEqual(
    p.session.rounds.map((round) => Boolean(round.pilot)),
    [true, false, false, false, false],
  );
  // two cells a round: the pilot's, then the complete rounds 1 to 4
  assert.deepEqual(timed, [false, false, false, false, true, true, false, false, true, true]);
});

test('issue 102: a compare with plain trees runs one of each arm after its cells in every other round, from the second, on their work; none in a pilot', async () => {
  const { ran, cells } = stand_in();
  /** @type {Array<{ mode: string, work: { iterations: number, warmup: number } }>} */
  const plain = [];
  const p = { ...point('p1', plan({ rounds: 4 })), steps: armSteps(plan({ rounds: 4 }), ARMS, { plain: true }) };
  const run = await runRounds([p], {
    stop: stopOnWidthOrTime(Infinity),
    cells: {
      ...cells,
      async runPlain(_plan, work, mode) {
        plain.push({ mode, work });
        return { ops: work.iterations, minflt: 0, throughput: 1000, warmup: work.warmup };
      },
    },
  });
  assert.equal(run.error, null);
  assert.equal(ran.length, 8, 'the cells as without them');
  assert.deepEqual(
    p.session.rounds.map((round) => Object.keys(round.plain ?? {})),
    [[], ['workers', 'procs'], [], ['procs', 'workers']],
  );
  // the plan's fixed warm-up and window
  assert.ok(plain.every((one) => one.work.iterations === 10 && one.work.warmup === 2));
  // the steps say so without running: round 2 ends in the plain trees, its arms' order turned
  assert.deepEqual(
    armSteps(plan(), ARMS, { plain: true })(2).map((step) => [step.arm, Boolean(step.plain)]),
    [
      ['procs', false],
      ['workers', false],
      ['workers', true],
      ['procs', true],
    ],
  );
  assert.ok(armSteps(plan(), ARMS, { plain: true })(3).every((step) => !step.plain));

  // a pilot round (its cells ran the calibration's work) runs none
  const piloted = { ...point('p2', plan({ rounds: 2 })), steps: armSteps(plan({ rounds: 2 }), ARMS, { plain: true }) };
  piloted.session.rounds.push({ index: 1, order: ARMS, cells: {} });
  const again = stand_in();
  let plainRuns = 0;
  await runRounds([piloted], {
    stop: stopOnWidthOrTime(Infinity),
    cells: {
      ...again.cells,
      async runPlain() {
        plainRuns++;
        return { ops: 1, minflt: 0, throughput: 1, warmup: 0 };
      },
    },
    beforeCell: (pointNow) => {
      const round = pointNow.session.rounds.at(-1);
      if (round.index === 2) round.pilot = true;
    },
  });
  const pilotRound = piloted.session.rounds.find((round) => round.index === 2);
  assert.equal(pilotRound?.pilot, true);
  assert.equal(pilotRound?.plain, undefined, 'round 2 was a pilot: no plain tree');
  // the rounds after it go on to their own: round 4's
  assert.deepEqual(
    piloted.session.rounds.flatMap((round) => (round.plain ? [round.index] : [])),
    [4],
  );
  assert.equal(plainRuns, 2);
});
