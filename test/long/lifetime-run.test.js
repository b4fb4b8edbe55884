// No process outlives the CLI, however it ends (SIGKILL, the machine's limits, a task that exits
// or floods the channel): the processes of a run are found by the marker every cell carries in
// its environment. Signals that come twice: test/long/lifetime.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
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
  processesMarked,
  startMarked,
  TREE,
  treeUp,
  uniqueMark,
  until,
  measured,
} from '../helpers.js';
import { spinningMarker } from '../fixtures/spins.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const cellsRunning = (k) => (mark) => processesMarked(mark).length >= k;

for (const mode of ['workers', 'procs']) {
  test(`${mode}: a SIGKILLed CLI leaves no busy cell behind (procs: only the kernel's parent-death signal can do it)`, async () => {
    // both workers inside the timed loop, which spins for a minute
    const spinning = (mark) => [0, 1].every((index) => existsSync(spinningMarker(mark, index)));
    const { run, mark } = await startMarked(
      [mode, '--task', fixture('spins.js'), '-k', '2', '--iterations', '10', '--warmup', '0'],
      (mark) => cellsRunning(mode === 'procs' ? 3 : 1)(mark) && spinning(mark),
    );
    run.kill('SIGKILL');
    await run;
    await goneWithin(mark, 2000);
  });
}

/** The watcher a CLI started (src/system/watcher.sh), while it runs: its pid, or undefined. */
const watcherOf = (/** @type {number | undefined} */ cli) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .find((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return args.some((arg) => arg.endsWith('watcher.sh')) && args.some((arg) => arg.includes(`mmapbench-${cli}-`));
      } catch {
        return false;
      }
    });

// Where the CLI may make a cgroup (root here, and in CI), a task's whole tree is in it.
const cgroups = process.getuid?.() === 0 || process.env.CI ? {} : { skip: 'needs root to make a cgroup for the cells' };
for (const mode of ['workers', 'procs']) {
  test(
    `${mode}: a SIGKILLed CLI leaves nothing its task started, at any depth, in its process group or out of it`,
    cgroups,
    async () => {
      const { run, mark } = await startMarked(TREE(mode), treeUp(2, 7));
      run.kill('SIGKILL');
      await run;
      await goneWithin(mark, 2000);
      // and the watcher that ended them is gone, with the run's cgroup
      assert.ok(await until(() => !watcherOf(run.pid), 2000), 'the watcher exited');
    },
  );
}

test(
  'a SIGKILLed CLI leaves nothing that a task module started at its top level while it loaded',
  cgroups,
  async () => {
    const mark = uniqueMark();
    // the load probe inherits the CLI's environment: the marker rides there
    const run = execa(process.execPath, [BIN, 'compare', '--no-save', '--task', fixture('spawns-at-load.mjs')], {
      reject: false,
      env: { ...ENV, MMAPBENCH_TEST_MARK: mark },
    });
    assert.ok(await until(() => processesMarked(mark).filter((pid) => pid !== run.pid).length >= 3, 10000));
    run.kill('SIGKILL');
    await run;
    await goneWithin(mark, 2000);
  },
);

test("without a cgroup (MMAPBENCH_CGROUP=0) a SIGKILLed CLI still leaves nothing of its cells' process groups", async () => {
  const { run, mark } = await startMarked(TREE('procs', 'escape=no', 'depth=5'), treeUp(2, 6), {
    env: { MMAPBENCH_CGROUP: '0' },
  });
  run.kill('SIGKILL');
  await run;
  await goneWithin(mark, 2000);
});

test(
  'what a task leaves running at any depth, an orphan of init included, ends with its cell and is counted',
  cgroups,
  async () => {
    const mark = uniqueMark();
    const result = await cli([...TREE('workers', 'spin=1'), '--json', '--env', `MMAPBENCH_TEST_MARK=${mark}`]);
    assert.equal(result.exitCode, 0, result.stderr);
    const [cell] = measured(result.stdout).rounds.map((round) => round.workers);
    assert.ok(cell.strays >= 2 * 7, `strays: ${cell.strays}`);
    assert.deepEqual(processesMarked(mark), []);
  },
);

test('a task module calling process.exit(0) at its top level is a task that does not load (exit 2), never exit 0', async () => {
  for (const extra of [[], ['--json']]) {
    const result = await cli(['compare', '--task', fixture('exits-at-load.js'), '--quick', ...extra]);
    assert.equal(result.exitCode, 2);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^mmapbench: task module \S+exits-at-load\.js failed to load: it ended the process while loading \(exit code 0: does it call process\.exit\?\); check that `node \S+` runs and ends$/,
    );
  }
});

/** The processes in a cgroup that have not exited (zombies aside). */
const running = (dir) =>
  readFileSync(join(dir, 'tasks'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
      } catch {
        return false;
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
        // however the refusal surfaced (a failed start, an abort, a killed parent), the line names
        // the machine's limit and the fix
        /^mmapbench: (could not start (process|worker thread) \d+: (spawn \S+ )?EAGAIN|(process \d+|the procs parent process) could not start its threads|process \d+ was killed by SIGABRT|the procs parent process was killed by SIGKILL .*this cgroup's pids limit \(pids\.max \d+\) was reached).*lower -k( or free resources)?$/,
      );
      // none of the run's processes runs; a procs child whose parent died exits as a zombie that
      // init reaps (here every two seconds or so), until when the cgroup still counts it
      assert.deepEqual(running(dir), [], 'no process of the run runs');
      assert.ok(
        await until(() => readFileSync(join(dir, 'pids.current'), 'utf8').trim() === '0', 10000),
        'no process of the run is left',
      );
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
