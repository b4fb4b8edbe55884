// Ctrl-C in a sweep: every finished point and round kept (test/cli/lifetime.test.js keeps the
// signals and the process lifetimes of a single run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, goneWithin, processCounter, startMarked } from '../helpers.js';

test('sweep: Ctrl-C keeps every finished point and round, prints the JSON, exit 130, nothing left running', async () => {
  const seen = new Map();
  // with k=1 a round of two points starts 4 processes (a host and a process at each): 5 means round 2
  const roundTwo = (mark) => (seen.get(mark) ?? seen.set(mark, processCounter(mark)).get(mark))() >= 5;
  const { run, mark } = await startMarked(
    [
      'sweep',
      '--task',
      fixture('slow.js'),
      '--file',
      'small,med',
      '-k',
      '1',
      '--iterations',
      '5',
      '--warmup',
      '0',
      '--json',
    ],
    roundTwo,
  );
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.status, 'interrupted');
  assert.deepEqual(
    doc.points.map((point) => point.stop),
    ['interrupted', 'interrupted'],
  );
  for (const point of doc.points) assert.equal(point.rounds[0].complete, true, `${point.id}: round 1 is kept`);
  await goneWithin(mark, 1000);
});
