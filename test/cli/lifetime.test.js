// No process outlives the CLI, however it ends (SIGKILL, a second Ctrl-C, a repeated signal),
// and what finished is printed whatever the signals: the processes of a run are found by the
// marker every cell carries in its environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import {
  asRoot,
  BIN,
  cli,
  ENV,
  fixture,
  goneWithin,
  processCounter,
  processesMarked,
  startMarked,
  uniqueMark,
} from '../helpers.js';
import { spinningMarker } from '../fixtures/spins.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// bin/mmapbench.js counts a signal within this long of the first as the same Ctrl-C
const REPEAT_MS = 300;

const cellsRunning = (k) => (mark) => processesMarked(mark).length >= k;

for (const mode of ['workers', 'procs']) {
  test(`${mode}: a SIGKILLed CLI leaves no busy cell behind (procs: only the kernel's parent-death signal can do it)`, async () => {
    // both workers inside the timed loop, which spins for a minute
    const spinning = (mark) => [0, 1].every((index) => existsSync(spinningMarker(mark, index)));
    const { run, mark } = await startMarked(
      [mode, '--task', fixture('spins.js'), '-k', '2', '--iterations', '10', '--warmup', '0'],
      (mark) => cellsRunning(mode === 'procs' ? 2 : 1)(mark) && spinning(mark),
    );
    run.kill('SIGKILL');
    await run;
    await goneWithin(mark, 2000);
  });
}

test('two SIGINTs milliseconds apart (a terminal, `timeout -s INT`) are one Ctrl-C: what finished is printed, exit 130', async () => {
  const seen = new Map();
  const roundTwo = (mark) => (seen.get(mark) ?? seen.set(mark, processCounter(mark)).get(mark))() >= 4;
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
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.status, 'interrupted');
  assert.ok(doc.rounds.filter((round) => round.complete).length >= 1, 'the finished rounds are in the document');
  assert.doesNotMatch(result.stderr, /again/);
  await goneWithin(mark, 1000);
});

test('a second SIGTERM while cells ignore the first: they are killed, what finished is printed, exit 143', async () => {
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
  // not a wait for something to happen: a second signal is "again" only past the repeat window
  await sleep(2 * REPEAT_MS);
  run.kill('SIGTERM');
  const result = await run;
  assert.equal(result.exitCode, 143, result.stderr);
  assert.match(result.stderr, /SIGTERM again: killing the cells now/);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.status, 'interrupted');
  assert.equal(doc.rounds.filter((round) => round.complete).length, 1, 'round one is kept');
  await goneWithin(mark, 1000);
});

test('a task module calling process.exit(0) at its top level never makes a command exit 0', async () => {
  for (const extra of [[], ['--json']]) {
    const result = await cli(['compare', '--task', fixture('exits-at-load.js'), '--quick', ...extra]);
    assert.equal(result.exitCode, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'mmapbench: exited before the command finished (did a task module call process.exit?)');
  }
});

/** A pids cgroup (v1) of its own for one CLI run, so it can run out of processes safely. */
function pidsCgroup(t, max) {
  const dir = join('/sys/fs/cgroup/pids', `mmapbench-test-${process.pid}-${Date.now()}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'pids.max'), String(max));
  t.after(async () => {
    for (let i = 0; i < 50; i++) {
      try {
        rmdirSync(dir);
        return;
      } catch {
        await sleep(50);
      }
    }
  });
  return dir;
}

const inCgroup = (dir, args, mark) =>
  execa(
    'sh',
    [
      '-c',
      `echo $$ > ${dir}/cgroup.procs && exec "$@"`,
      'sh',
      process.execPath,
      BIN,
      ...args,
      '--env',
      `MMAPBENCH_TEST_MARK=${mark}`,
    ],
    { reject: false, env: ENV },
  );

for (const [mode, k] of [
  ['procs', 20],
  ['workers', 40],
]) {
  test(
    `${mode}: running out of processes or threads is "the machine can't" (exit 3), one line, nothing left`,
    asRoot,
    async (t) => {
      const dir = pidsCgroup(t, 40);
      const mark = uniqueMark();
      const result = await inCgroup(dir, [mode, '-k', String(k), '--quick'], mark);
      assert.equal(result.exitCode, 3, result.stderr);
      const lines = result.stderr.split('\n').filter((line) => !line.includes('warning:'));
      assert.equal(lines.length, 1, result.stderr);
      assert.match(
        lines[0],
        /^mmapbench: (could not start (process|worker thread) \d+: EAGAIN|process \d+ could not start its threads|process \d+ was killed by SIGABRT).*lower -k( or free resources)?$/,
      );
      assert.equal(readFileSync(join(dir, 'pids.current'), 'utf8').trim(), '0', 'no process of the run is left');
    },
  );
}

test('a task that floods the channel to the CLI is stopped and named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const task = join(dir, 'floods.mjs');
  writeFileSync(
    task,
    "export default { name: 'floods', run() { for (let i = 0; i < 300000; i++) process.send?.({ junk: i }); } };\n",
  );
  const result = await cli(['procs', '--task', task, '--quick']);
  assert.equal(result.exitCode, 1);
  assert.match(
    result.stderr,
    /^mmapbench: process \d failed: a task must not use process.send: the channel to mmapbench is the harness's \(task floods/,
  );
});
