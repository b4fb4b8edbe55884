// Ctrl-C in a sweep: every finished point and round kept; signals that come twice (two SIGINTs
// milliseconds apart, a second SIGTERM). test/long/lifetime-run.test.js keeps one Ctrl-C and the
// process lifetimes of a single run. Without a cgroup: what a task started, however it detached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cli,
  fixture,
  goneWithin,
  measured,
  noneLeft,
  processCounter,
  processesMarked,
  startMarked,
  TREE,
  treeUp,
  uniqueMark,
} from '../helpers.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('sweep: Ctrl-C keeps every finished point and round, prints the JSON, exit 130, nothing left running', async () => {
  const seen = new Map();
  // with k=1 a round of two points starts 6 processes (at each a workers host, and the procs
  // parent with its child): 7 means round 2
  const roundTwo = (mark) => (seen.get(mark) ?? seen.set(mark, processCounter(mark)).get(mark))() >= 7;
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

test('two SIGINTs milliseconds apart (a terminal, `timeout -s INT`) are one Ctrl-C: what finished is printed, exit 130', async () => {
  const seen = new Map();
  // k=2: a round starts 4 processes (a workers host; the procs parent and its two children)
  const roundTwo = (mark) => (seen.get(mark) ?? seen.set(mark, processCounter(mark)).get(mark))() >= 5;
  const { run, mark } = await startMarked(
    [
      'compare',
      '--task',
      fixture('slow.js'),
      '--iterations',
      '5',
      '--warmup',
      '0',
      '--rounds',
      '20',
      '-k',
      '2',
      '--json',
    ],
    roundTwo,
  );
  run.kill('SIGINT');
  await sleep(5);
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  const doc = measured(result.stdout);
  assert.equal(doc.status, 'interrupted');
  assert.ok(doc.rounds.filter((round) => round.complete).length >= 1, 'the finished rounds are in the document');
  assert.doesNotMatch(result.stderr, /again/);
  await goneWithin(mark, 1000);
});

test('processes that ignore SIGTERM still end on the first: their parent kills them; what finished is printed, exit 143', async () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  // both round-2 processes are inside their timed loop, ignoring SIGTERM
  const ignoring = (mark) => [0, 1].every((i) => existsSync(join(fixtures, `med.late-${mark}-procs.spinning-${i}`)));
  // round 1 runs workers then procs; round 2 starts with procs, whose cells ignore SIGTERM and spin
  const { run, mark } = await startMarked(
    [
      'compare',
      '--task',
      fixture('late.js'),
      '--iterations',
      '5',
      '--warmup',
      '0',
      '--rounds',
      '3',
      '-k',
      '2',
      '--json',
      '--fixtures-dir',
      fixtures,
    ],
    ignoring,
    { env: { LATE: 'hang' } },
  );
  run.kill('SIGTERM');
  const result = await run;
  assert.equal(result.exitCode, 143, result.stderr);
  // the procs parent ends its children when it is stopped, so no second signal is needed
  assert.doesNotMatch(result.stderr, /again/);
  const doc = measured(result.stdout);
  assert.equal(doc.status, 'interrupted');
  assert.equal(doc.rounds.filter((round) => round.complete).length, 1, 'round one is kept');
  await goneWithin(mark, 1000);
});

for (const mode of ['workers', 'procs']) {
  test(`${mode}: without a cgroup (MMAPBENCH_CGROUP=0) a SIGKILLed CLI still leaves nothing its task started, however it detached`, async () => {
    const { run, mark } = await startMarked(TREE(mode), treeUp(2, 7), { env: { MMAPBENCH_CGROUP: '0' } });
    run.kill('SIGKILL');
    await run;
    await goneWithin(mark, 3000);
  });
}

test('without a cgroup (MMAPBENCH_CGROUP=0), what a task leaves running, an orphan of init or a process in a session of its own included, ends with its cell and is counted', async () => {
  const mark = uniqueMark();
  const result = await cli([...TREE('workers', 'spin=1'), '--json', '--env', `MMAPBENCH_TEST_MARK=${mark}`], {
    env: { MMAPBENCH_CGROUP: '0' },
  });
  assert.equal(result.exitCode, 0, result.stderr);
  const [cell] = measured(result.stdout).rounds.map((round) => round.workers);
  assert.ok(cell.strays >= 2 * 7, `strays: ${cell.strays}`);
  assert.match(result.stderr, /^mmapbench: warning: the task left \d+ processes running when/m);
  assert.deepEqual(processesMarked(mark), []);
});

test(
  'processes a task starts end with its cell, whether they ignore SIGTERM or leave its process group, and the run says so',
  { timeout: 30000 },
  async () => {
    for (const args of [['--quick'], ['--max-time', '2', '--duration', '0.05']]) {
      const mark = uniqueMark();
      const result = await cli([
        'compare',
        '--task',
        fixture('spawns-children.js'),
        ...args,
        '--no-save',
        '--env',
        `MMAPBENCH_TEST_MARK=${mark}`,
      ]);
      assert.ok([0, 6].includes(result.exitCode), result.stderr);
      assert.match(
        result.stderr,
        /^mmapbench: warning: the task left \d+ processes running when (its cell|\d+ of its cells) ended; mmapbench killed them: end the processes a task starts in its teardown$/m,
      );
      await noneLeft(mark);
    }
  },
);
