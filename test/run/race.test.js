// advise's race, on sessions made up round by round: who is dropped, when, below whom, and when
// the order is known.
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
const decide = (/** @type {any[]} */ points, elapsedSeconds = 10) =>
  raceOrTime(60, { names })({
    points: /** @type {any} */ (points),
    visited: /** @type {any} */ (points),
    index: points[0].session.rounds.length,
    elapsedSeconds,
    roundSeconds: 5,
  });

test('after 3 rounds, a candidate wholly below the leader gets no more rounds; the others race on', () => {
  const noisy = (/** @type {number} */ level) => [level * 0.97, level * 1.03, level, level * 0.99];
  const points = [point('p1', noisy(100)), point('p2', noisy(300)), point('p3', noisy(110)), point('p4', noisy(290))];
  decide(points);
  assert.equal(points[2].session.stop, 'dropped');
  assert.deepEqual(/** @type {any} */ (points[2].session).dropped, { round: 4, leader: 'fast' });
  // fast and near overlap: still in contention, and the baseline runs while they do
  assert.equal(points[1].session.stop, null);
  assert.equal(points[3].session.stop, null);
  assert.equal(points[0].session.stop, null);
});

test('no candidate is dropped before it has 3 rounds; a budget stops everyone', () => {
  const short = [point('p1', [100, 101]), point('p2', [300, 301]), point('p3', [50, 51])];
  assert.equal(RACE_ROUNDS, 3);
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

test('once the leader stands alone, known above 1, the order is known and the race ends', () => {
  const points = [
    point('p1', [100, 101, 99, 100]),
    point('p2', [300, 303, 297, 300]),
    point('p3', [150, 151, 149, 150]),
  ];
  decide(points);
  assert.deepEqual(
    points.map((one) => one.session.stop),
    ['ordered', 'ordered', 'dropped'],
  );
});

test('a leader alone whose interval spans 1 races on: whether it beats the baseline is not known', () => {
  const points = [point('p1', [100, 101, 99, 100]), point('p2', [100, 106, 95, 102]), point('p3', [50, 51, 49, 50])];
  decide(points);
  assert.deepEqual(
    points.map((one) => one.session.stop),
    [null, null, 'dropped'],
  );
});

test("when no candidate beats the baseline, those surely worse than it are dropped below 'baseline'", () => {
  const points = [point('p1', [100, 101, 99, 100]), point('p2', [100, 104, 96, 101]), point('p3', [50, 51, 49, 50])];
  decide(points);
  assert.equal(points[2].session.stop, 'dropped');
  assert.equal(/** @type {any} */ (points[2].session).dropped.leader, 'baseline');
  assert.equal(points[1].session.stop, null, 'its interval spans 1: in contention');
});

test('a candidate for processes alone races in its own mode', () => {
  const points = [
    point('p1', [100, 101, 99, 100]),
    point('p2', [300, 303, 297, 300]),
    point('p3', [120, 121, 119, 120], 'procs'),
  ];
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
    session: {
      stop: /** @type {string | null} */ (null),
      rounds: values.map((kept, index) => ({ index: index + 1, cells: { workers: cell(kept), procs: cell(0) } })),
    },
  });
  const points = [
    keeps('p1', [16, 17, 15, 16]),
    keeps('p2', [0.1, 0.2, 0, 0.1]),
    keeps('p3', [40, 41, 39, 40]),
    keeps('p4', [0.3, 0, 0.2, 0.1]),
  ];
  raceOrTime(60, { names, score: raceScoreOf('kept-memory') })({
    points: /** @type {any} */ (points),
    visited: /** @type {any} */ (points),
    index: 4,
    elapsedSeconds: 10,
    roundSeconds: 5,
  });
  assert.equal(points[2].session.stop, 'dropped');
  assert.deepEqual(/** @type {any} */ (points[2].session).dropped, { round: 4, leader: 'fast' });
  // the two that keep about nothing overlap: both race on
  assert.equal(points[1].session.stop, null);
  assert.equal(points[3].session.stop, null);
});
