// `mmapbench sweep`: the structure of its table, JSON and charts on tiny --smoke sweeps, the
// order rounds visit the points in, variants and Node binaries reaching the cells, and a
// failure keeping what finished. Nothing here asserts a duration or a throughput.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { cli, fixture, processesMarked, uniqueMark } from '../helpers.js';

const GRID = ['sweep', '-k', '1,2', '--variant', 'default', '--variant', 'arena1:MALLOC_ARENA_MAX=1', '--smoke'];

test('sweep --json: axes, every point with its figures and rounds, and rounds visiting the points in rotation', async () => {
  const result = await cli([...GRID, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.command, 'sweep');
  assert.equal(doc.status, 'complete');
  assert.deepEqual(doc.axes.k, [1, 2]);
  assert.deepEqual(doc.axes.variant, [
    { name: 'default', env: {} },
    { name: 'arena1', env: { MALLOC_ARENA_MAX: '1' } },
  ]);
  assert.deepEqual(doc.config, { precision: null, maxTime: null, rounds: 2, quick: true });
  assert.deepEqual(
    doc.points.map((p) => [p.id, p.variant.name, p.k, p.task, p.file.label]),
    [
      ['p1', 'default', 1, 'readfilesync', 'med (64 KiB)'],
      ['p2', 'default', 2, 'readfilesync', 'med (64 KiB)'],
      ['p3', 'arena1', 1, 'readfilesync', 'med (64 KiB)'],
      ['p4', 'arena1', 2, 'readfilesync', 'med (64 KiB)'],
    ],
  );
  for (const point of doc.points) {
    assert.equal(point.stop, 'rounds');
    assert.ok(point.workers.throughput.median > 0 && point.procs.throughput.median > 0);
    assert.equal(point.ratio.n, 2);
    assert.ok(point.ratio.median > 0);
    assert.equal(point.ratio.ci95.length, 2);
    assert.ok('halfWidth' in point.ratio);
    assert.equal(point.rounds.length, 2);
    assert.ok(point.rounds.every((round) => round.complete && round.ratio > 0));
    // modes alternate round by round at each point
    assert.deepEqual(
      point.rounds.map((round) => round.order),
      [
        ['workers', 'procs'],
        ['procs', 'workers'],
      ],
    );
    assert.deepEqual(point.config.env, point.variant.env);
    assert.equal(point.node.version, doc.environment.node.version);
  }
  // round 2 starts one point further along: drift lands on every point, not on the last
  assert.deepEqual(doc.order, [
    { index: 1, points: ['p1', 'p2', 'p3', 'p4'] },
    { index: 2, points: ['p2', 'p3', 'p4', 'p1'] },
  ]);
  assert.equal(doc.scaling.length, 2);
  assert.deepEqual(
    doc.scaling.map((group) => group.points),
    [
      ['p1', 'p2'],
      ['p3', 'p4'],
    ],
  );
  for (const group of doc.scaling) {
    assert.deepEqual(
      group.workers.steps.map((step) => step.k),
      [1, 2],
    );
    assert.equal(group.workers.steps[0].efficiency, 1);
    assert.equal(group.workers.decided, false, 'two rounds give no throughput interval');
    // the K to run, its rule and its inputs: at most the CPUs this process may use
    for (const mode of ['workers', 'procs']) {
      const { recommended } = group[mode];
      assert.ok([1, 2].includes(recommended.k), mode);
      assert.equal(recommended.share, 0.5);
      assert.equal(recommended.cpus, doc.environment.cpu.usable);
      assert.ok(recommended.k <= recommended.cpus);
      assert.deepEqual(
        recommended.added.map((/** @type {any} */ step) => step.k),
        [2],
      );
      assert.ok(['share', 'cpus', 'measured'].includes(recommended.limit));
    }
  }
  assert.equal(typeof doc.environment.cpu.usable, 'number');
  assert.equal(doc.environment.cpu.host, os.cpus().length);
});

test('a failure at one point keeps the rounds every point finished, prints them, and leaves nothing running', async () => {
  const mark = uniqueMark();
  // p1 (readfilesync) finishes its first round before p2 (throws) fails in its first cell
  const result = await cli([
    'sweep',
    '--task',
    `readfilesync,${fixture('throws.js')}`,
    '-k',
    '2',
    '--smoke',
    '--json',
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
  ]);
  assert.equal(result.exitCode, 1, result.stderr);
  assert.match(result.stderr, /^mmapbench: .*disk on fire/m);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.status, 'failed');
  const [first, second] = doc.points;
  assert.equal(first.rounds.length, 1);
  assert.equal(first.rounds[0].complete, true);
  assert.ok(first.ratio.median > 0);
  assert.equal(first.stop, 'failed');
  assert.equal(second.stop, 'failed');
  assert.equal(second.ratio, null);
  assert.deepEqual(processesMarked(mark), []);
});
