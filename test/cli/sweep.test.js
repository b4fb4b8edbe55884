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
