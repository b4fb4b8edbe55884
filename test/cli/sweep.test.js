// `mmapbench sweep`: the structure of its table, JSON and charts on tiny --smoke sweeps, the
// order rounds visit the points in, variants and Node binaries reaching the cells, and a
// failure keeping what finished. Nothing here asserts a duration or a throughput.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixture, processesMarked, uniqueMark } from '../helpers.js';

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

test('compare --json and sweep --json have one shape: the run, the rounds in order, and points each holding its figures and rounds', async () => {
  const [compare, sweep] = await Promise.all(
    [['compare'], ['sweep', '-k', '1,2']].map(async (args) => {
      const result = await cli([...args, '--smoke', '--main', 'off', '--json', '--no-save']);
      assert.equal(result.exitCode, 0, result.stderr);
      return JSON.parse(result.stdout);
    }),
  );
  // the sweep's own reading of its axes beside the run's fields, a compare's A/A arm beside its;
  // warnings where the run had any
  const own = { sweep: ['axes', 'scaling', 'warnings'], compare: ['aa', 'warnings'] };
  const run = (/** @type {any} */ document, /** @type {string[]} */ apart) =>
    Object.keys(document).filter((key) => !apart.includes(key));
  assert.deepEqual(run(compare, own.compare).sort(), run(sweep, own.sweep).sort());
  for (const document of [compare, sweep]) {
    assert.deepEqual(
      document.order.flatMap((/** @type {{ points: string[] }} */ round) => round.points).sort(),
      document.points.flatMap((/** @type {any} */ point) => point.rounds.map(() => point.id)).sort(),
      `${document.command}: each point's rounds in the order`,
    );
    for (const point of document.points)
      for (const key of ['stop', 'seconds', 'workers', 'procs', 'ratio', 'verdict', 'calibration', 'sizing', 'rounds'])
        assert.ok(key in point, `${document.command} ${point.id}: ${key}`);
  }
  assert.deepEqual(
    compare.points.map((/** @type {{ id: string }} */ point) => point.id),
    ['p1'],
  );
});
