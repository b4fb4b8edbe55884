// advise's race, on sessions made up round by round: who is dropped, when, below whom, and when
// the order is known, through the confidence sequence compare's verdict looks through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { raceOrTime, RACE_ROUNDS } from '../../src/run/race.js';

/**
 * A point whose rounds' workers throughputs are given.
 * @param {string} id
 * @param {number[]} values
 * @param {'workers'|'procs'|null} [only]
 */
const point = (id, values, only = null) => ({
  id,
  plan: { only, rounds: 1000 },
  arms: ['workers', 'procs'],
  session: {
    stop: /** @type {string | null} */ (null),
    rounds: values.map((throughput, index) => ({
      index: index + 1,
      cells: { [only ?? 'workers']: { throughput }, procs: { throughput } },
    })),
  },
});
const names = new Map([
  ['p1', 'baseline'],
  ['p2', 'fast'],
  ['p3', 'slow'],
  ['p4', 'near'],
]);
/**
 * `rounds` rounds around `level`, each point's noise its own (a race's gains are read round by
 * round, so points whose rounds moved together would have no spread at all).
 * @param {number} level @param {number} seed
 */
const around = (level, seed, { rounds = 8, noise = 0.02 } = {}) =>
  Array.from({ length: rounds }, (_, i) => level * (1 + noise * Math.sin(seed * 7.1 + i * 2.3)));
const decide = (/** @type {any[]} */ points, elapsedSeconds = 10) =>
  raceOrTime(60, { names })({
    points: /** @type {any} */ (points),
    visited: /** @type {any} */ (points),
    index: points[0].session.rounds.length,
    elapsedSeconds,
    roundSeconds: 5,
  });

test("after 5 rounds, a candidate whose gain sequence lies wholly below the leader's gets no more rounds; the others race on", () => {
  const points = [
    point('p1', around(100, 1)),
    point('p2', around(300, 2)),
    point('p3', around(110, 3)),
    point('p4', around(290, 4)),
  ];
  decide(points);
  assert.equal(points[2].session.stop, 'dropped');
  assert.deepEqual(/** @type {any} */ (points[2].session).dropped, { round: 8, leader: 'fast' });
  // fast and near overlap: still in contention, and the baseline runs while they do
  assert.equal(points[1].session.stop, null);
  assert.equal(points[3].session.stop, null);
  assert.equal(points[0].session.stop, null);
});

test("no candidate is dropped before the sequence's first look (5 rounds); a budget stops everyone", () => {
  const short = [
    point('p1', around(100, 1).slice(0, 4)),
    point('p2', around(300, 2).slice(0, 4)),
    point('p3', around(50, 3).slice(0, 4)),
  ];
  assert.equal(RACE_ROUNDS, 5);
  decide(short);
  assert.deepEqual(
    short.map((one) => one.session.stop),
    [null, null, null],
  );
  decide(short, 58);
  assert.deepEqual(
    short.map((one) => one.session.stop),
    ['max-time', 'max-time', 'max-time'],
  );
});

test('the race looks through the sequence, not a 95% interval: a gap a 95% interval would drop at 5 rounds races on', () => {
  // the third candidate's gain is below the leader's by about 4 of its spreads: a fixed 95%
  // interval pair would lie apart, the sequence's at 5 rounds do not
  const noisy = (/** @type {number} */ level, /** @type {number} */ seed) =>
    around(level, seed, { rounds: 5, noise: 0.1 });
  const points = [point('p1', noisy(100, 1)), point('p2', noisy(160, 2)), point('p3', noisy(110, 3))];
  decide(points);
  assert.deepEqual(
    points.map((one) => one.session.stop),
    [null, null, null],
  );
});

test('once the leader stands alone, known above 1, the order is known and the race ends', () => {
  const points = [point('p1', around(100, 1)), point('p2', around(300, 2)), point('p3', around(150, 3))];
  decide(points);
  assert.deepEqual(
    points.map((one) => one.session.stop),
    ['ordered', 'ordered', 'dropped'],
  );
});

test('a leader alone whose interval spans 1 races on: whether it beats the baseline is not known', () => {
  const points = [
    point('p1', around(100, 1)),
    point('p2', around(101, 2, { noise: 0.05 })),
    point('p3', around(50, 3)),
  ];
  decide(points);
  assert.deepEqual(
    points.map((one) => one.session.stop),
    [null, null, 'dropped'],
  );
});

test("when no candidate beats the baseline, those surely worse than it are dropped below 'baseline'", () => {
  const points = [
    point('p1', around(100, 1)),
    point('p2', around(100, 2, { noise: 0.05 })),
    point('p3', around(50, 3)),
  ];
  decide(points);
  assert.equal(points[2].session.stop, 'dropped');
  assert.equal(/** @type {any} */ (points[2].session).dropped.leader, 'baseline');
  assert.equal(points[1].session.stop, null, 'its interval spans 1: in contention');
});

test('a candidate for processes alone races in its own mode', () => {
  const points = [point('p1', around(100, 1)), point('p2', around(300, 2)), point('p3', around(120, 3), 'procs')];
  decide(points);
  // below the workers' leader, but it is measured in procs, against the baseline's procs
  assert.notEqual(points[2].session.stop, 'dropped');
});

test('raced by a cost where less is better and 0 is possible (what the app keeps): the one that keeps far more is dropped', async () => {
  const { raceScoreOf } = await import('../../src/commands/advise/advice.js');
  const MiB = 2 ** 20;
  // a cell whose 2 workers left the app `kept` MiB each once they ended
  const cell = (/** @type {number} */ kept) => ({
    throughput: 100,
    workers: [{}, {}],
    end: { settleMs: 10, beforeBytes: 10 * MiB, cycles: [{ teardownNs: 5e6, anonBytes: (10 + 2 * kept) * MiB }] },
  });
  const keeps = (/** @type {string} */ id, /** @type {number[]} */ values) => ({
    id,
    plan: { only: null, rounds: 1000 },
    arms: ['workers', 'procs'],
    session: {
      stop: /** @type {string | null} */ (null),
      rounds: values.map((kept, index) => ({ index: index + 1, cells: { workers: cell(kept), procs: cell(0) } })),
    },
  });
  const points = [
    keeps('p1', [16, 17, 15, 16, 16.5, 15.5, 16, 17]),
    keeps('p2', [0.1, 0.2, 0, 0.1, 0.3, 0, 0.1, 0.2]),
    keeps('p3', [40, 41, 39, 40, 39.5, 40.5, 41, 40]),
    keeps('p4', [0.3, 0, 0.2, 0.1, 0, 0.2, 0.1, 0]),
  ];
  raceOrTime(60, { names, score: raceScoreOf('kept-memory') })({
    points: /** @type {any} */ (points),
    visited: /** @type {any} */ (points),
    index: 8,
    elapsedSeconds: 10,
    roundSeconds: 5,
  });
  assert.equal(points[2].session.stop, 'dropped');
  assert.deepEqual(/** @type {any} */ (points[2].session).dropped, { round: 8, leader: 'fast' });
  // the two that keep about nothing overlap: both race on
  assert.equal(points[1].session.stop, null);
  assert.equal(points[3].session.stop, null);
});
