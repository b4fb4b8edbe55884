// Round five of hostile inputs, the rows that run fault rounds and pools (the rest are
// test/cli/round-five.test.js): each test is one row of what broke, and fails on the code
// before it was mended. What a run's figures are is never asserted, only what it does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, cli, ENV, fixture, keptIn, namedAgain, noneLeft, uniqueMark, measured } from '../helpers.js';
import { memoryLimitUnavailable, ownV1Memory } from '../../src/system/memory-limit.js';

const LIMIT = { timeout: 90000 };
const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The cgroup folders of the CLI whose pid is `pid`, in every hierarchy mounted under
 * /sys/fs/cgroup: the run's own group (v2) and a fault round's memory limit (v1 or v2) are
 * named with it.
 * @param {number} pid
 */
function cgroupsOf(pid) {
  /** @type {string[]} */
  const found = [];
  const walk = (/** @type {string} */ dir, /** @type {number} */ depth) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('mmapbench-') && entry.name.includes(`-${pid}-`)) found.push(path);
      else if (depth < 6) walk(path, depth + 1);
    }
  };
  walk('/sys/fs/cgroup', 0);
  return found;
}

/** Every `mmapbench-fault-*` folder under /sys/fs/cgroup, at any depth. */
/**
 * The `mmapbench-fault-*` folders where a fault round makes them (below this process's own v1
 * memory cgroup) or made them before (the hierarchy's root): polled while a round runs, which a
 * walk of every hierarchy is too slow for on a busy machine.
 */
const faultLimits = () =>
  [...new Set(['/sys/fs/cgroup/memory', ownV1Memory()])].flatMap((dir) => {
    try {
      return readdirSync(dir)
        .filter((name) => name.startsWith('mmapbench-fault-'))
        .map((name) => join(dir, name));
    } catch {
      return [];
    }
  });

/** Whether a cgroup folder holds a process whose environment carries `mark`. */
function holdsMarked(/** @type {string} */ dir, /** @type {string} */ mark) {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .some((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`MMAPBENCH_TEST_MARK=${mark}`));
  } catch {
    return false;
  }
}

const readOr = (/** @type {string} */ path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** A process's parent, from /proc/PID/stat; NaN once it is gone. */
const parentOf = (/** @type {number} */ pid) => Number(readOr(`/proc/${pid}/stat`).split(') ')[1]?.split(' ')[1]);

/** Polls every 20 ms until `ready()` holds or `ms` pass; says whether it held. */
async function until(/** @type {() => boolean} */ ready, ms = 30000) {
  for (const end = Date.now() + ms; Date.now() < end; await pause(20)) if (ready()) return true;
  return ready();
}

const nativeOom = memoryLimitUnavailable();

/** `compare --quick -k 2 --fault native-oom`, its cells marked, started. @param {string} mark */
const nativeOomRun = (mark) =>
  execa(
    process.execPath,
    [
      BIN,
      ...['compare', '--quick', '-k', '2', '--fault', 'native-oom', '--no-save'],
      '--env',
      `MMAPBENCH_TEST_MARK=${mark}`,
    ],
    { reject: false, env: ENV },
  );

test(
  'row 1: SIGKILL at any moment of a native-oom fault round leaves no cgroup in any hierarchy, and the limit sits below the CLI',
  { ...LIMIT, skip: nativeOom && !process.env.CI ? `--fault native-oom cannot run here: ${nativeOom}` : false },
  async () => {
    // the moments: as the workers' round's limit is made, and 150 ms into the procs' (its child
    // allocating towards the limit)
    for (const [round, after] of [
      [1, 0],
      [2, 150],
    ]) {
      const mark = uniqueMark();
      const run = nativeOomRun(mark);
      const pid = /** @type {number} */ (run.pid);
      const limits = new Set();
      // a limit of this run's holds one of its marked processes, whatever the folder's name
      const seen = () => {
        for (const dir of faultLimits()) if (holdsMarked(dir, mark)) limits.add(dir);
        return limits.size >= round;
      };
      assert.ok(await until(seen), `round ${round}'s memory limit was made`);
      // below the CLI's own memory cgroup, never at a hierarchy's root
      const own = /^\d+:(?:[^:\n]*,)?memory(?:,[^:\n]*)?:(\/.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, 'utf8'));
      for (const dir of limits)
        if (dir.startsWith('/sys/fs/cgroup/memory/'))
          assert.equal(dir, join('/sys/fs/cgroup/memory', own?.[1] ?? '/', dir.split('/').at(-1)));
      await pause(after);
      run.kill('SIGKILL');
      await run;
      await noneLeft(mark);
      assert.ok(await until(() => cgroupsOf(pid).length === 0, 15000), `left: ${cgroupsOf(pid).join(', ')}`);
      for (const dir of limits) assert.equal(existsSync(dir), false);
    }
  },
);

test(
  "row 24: native-oom's memory limit holds the failing child alone in procs (the app stays out of it), the app's process in workers",
  { ...LIMIT, skip: nativeOom && !process.env.CI ? `--fault native-oom cannot run here: ${nativeOom}` : false },
  async () => {
    const mark = uniqueMark();
    const run = nativeOomRun(mark);
    /** @type {Map<string, Map<number, number>>} each of the run's limits: the pids it held, with their parents */
    const held = new Map();
    while (run.exitCode === null) {
      for (const dir of faultLimits()) {
        if (!holdsMarked(dir, mark)) continue;
        const pids = held.get(dir) ?? new Map();
        held.set(dir, pids);
        for (const pid of readOr(join(dir, 'cgroup.procs')).split('\n').filter(Boolean).map(Number))
          if (!pids.has(pid)) pids.set(pid, parentOf(pid));
      }
      await pause(10);
    }
    const result = await run;
    assert.equal(result.exitCode, 0, result.stderr);
    await noneLeft(mark);
    const seen = JSON.stringify([...held].map(([dir, pids]) => [dir, [...pids]]));
    assert.equal(held.size, 2, `one limit a mode: ${seen}`);
    const [workers, procs] = [...held.values()];
    // workers: the app's process, which the CLI started
    assert.deepEqual([...workers.values()], [run.pid], seen);
    // procs: one process, started by the app, which stays out
    assert.equal(procs.size, 1, seen);
    assert.notEqual([...procs.values()][0], run.pid, seen);
  },
);

test(
  'row 2: a run stopped in its fault rounds goes on with --resume to the fault rounds alone: no new measured round, the faulted mode kept',
  LIMIT,
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'mmapbench-five-'));
    const mark = uniqueMark();
    const run = execa(
      process.execPath,
      [BIN, 'compare', '--quick', '-k', '2', '--fault', 'throw', '--out', out, '--env', `MMAPBENCH_TEST_MARK=${mark}`],
      { reject: false, env: ENV },
    );
    // the workers' fault round said, the procs' under way: interrupt it
    await new Promise((resolve) =>
      run.stderr?.on('data', (chunk) => String(chunk).includes('--fault throw, workers:') && resolve(undefined)),
    );
    run.kill('SIGINT');
    assert.equal((await run).exitCode, 130);
    await noneLeft(mark);
    const kept = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
    const [point] = kept.document.points;
    assert.equal(point.rounds.length, 2);
    assert.equal(point.fault.procs, undefined);
    const resumed = await cli(['compare', '--resume', kept.path, ...namedAgain(kept.document), '--json']);
    assert.equal(resumed.exitCode, 0, resumed.stderr);
    const document = measured(resumed.stdout);
    assert.equal(document.status, 'complete');
    assert.deepEqual(
      document.rounds.map((/** @type {any} */ round) => round.index),
      [1, 2],
    );
    assert.deepEqual(document.fault.workers, point.fault.workers);
    assert.equal(document.fault.procs.workersLost, 1);
    assert.doesNotMatch(resumed.stderr, /--fault throw, workers:/);
    await noneLeft(mark);
  },
);

test(
  "rows 14 and 22: a task's process.exit through a pool fails the cell at once, said in one clean line with its code",
  LIMIT,
  async () => {
    for (const pool of ['tinypool', 'workerpool'])
      for (const [where, code] of [
        ['op', 5],
        ['setup', 4],
      ]) {
        const args = ['compare', '--quick', '-k', '1', '--pool', pool, '--task', fixture('exits-in-pool.mjs')];
        // a --timeout far beyond what failing takes: waiting it out is the bug
        const result = await cli([...args, '--param', `where=${where}`, '--timeout', '60', '--no-save'], {
          timeout: 30000,
        });
        assert.equal(result.exitCode, 1, `${pool} ${where}: ${result.stderr}`);
        assert.equal(
          result.stderr.trim(),
          `mmapbench: a worker exited with code ${code} before finishing (task exits-in-pool); a task must not exit the thread or process it runs in`,
        );
      }
  },
);

test(
  "row 13: through a pool, a task's output is held to the 1 MiB a stream may queue, the rest dropped, counted and said",
  LIMIT,
  async () => {
    for (const pool of ['workerpool', 'tinypool']) {
      const result = await cli([
        ...['compare', '--pool', pool, '--task', fixture('writes-per-op.mjs'), '-k', '2'],
        ...['--iterations', '3000', '--rounds', '1', '--json', '--no-save'],
      ]);
      assert.equal(result.exitCode, 0, `${pool}: ${result.stderr.slice(-600)}`);
      const document = measured(result.stdout);
      const cells = document.rounds.flatMap((/** @type {any} */ round) => [round.workers, round.procs]);
      assert.ok(
        cells.every((/** @type {any} */ cell) => cell.droppedOutput > 0),
        `${pool}: every cell dropped some`,
      );
      assert.match(
        result.stderr,
        /^mmapbench: warning: the task wrote to stdout or stderr faster than it is written out: [\d.]+ [MG]iB past the 1 MiB a stream may hold queued was dropped, in 2 cells/m,
      );
    }
  },
);

test(
  'row 16: a fault the task handles takes nothing down: its round ends at once, nothing lost or replaced, and the run ends',
  LIMIT,
  async () => {
    // a throw the task swallows (a process.exit it replaces takes the same way)
    for (const kind of ['throw']) {
      const mark = uniqueMark();
      const result = await cli(
        [
          ...[
            'compare',
            '--quick',
            '-k',
            '2',
            '--fault',
            kind,
            '--task',
            fixture('handles-faults.mjs'),
            '--timeout',
            '60',
          ],
          ...['--no-save', '--json', '--env', `MMAPBENCH_TEST_MARK=${mark}`],
        ],
        { timeout: 40000 },
      );
      assert.equal(result.exitCode, 0, `${kind}: ${result.stderr}`);
      const { fault } = measured(result.stdout);
      for (const mode of ['workers', 'procs']) {
        assert.equal(fault[mode].appSurvived, true, mode);
        assert.equal(fault[mode].workersLost, 0, mode);
        assert.equal(fault[mode].replaceMs, null, mode);
        assert.match(fault[mode].event, /^none/, mode);
      }
      assert.match(result.stderr, new RegExp(`--fault ${kind}, procs: nothing \\(the task handled it`));
      await noneLeft(mark);
    }
  },
);

test('row 17: no fault round starts once --max-time is spent, and the answer says so', LIMIT, async () => {
  const result = await cli(['compare', '-k', '1', '--fault', 'throw', '--max-time', '0.5', '--no-save', '--json']);
  assert.equal(result.exitCode === 0 || result.exitCode === 6, true, result.stderr);
  const { fault } = measured(result.stdout);
  assert.deepEqual(fault, { kind: 'throw', unrun: 'max-time' });
  assert.doesNotMatch(result.stderr, /--fault throw, (workers|procs):/);
  const text = await cli(['compare', '-k', '1', '--fault', 'throw', '--max-time', '0.5', '--no-save']);
  assert.match(text.stdout.replace(/\n/g, ' '), /--fault throw: no fault round ran, --max-time being spent/);
});

test(
  "row 19: --verbose prints a task's stack with its control characters escaped, raw or through either pool",
  LIMIT,
  async () => {
    for (const pool of [[], ['--pool', 'tinypool'], ['--pool', 'workerpool']]) {
      const args = ['compare', '--quick', '-k', '1', ...pool, '--task', fixture('throws-controls.mjs'), '--no-save'];
      const result = await cli([...args, '--verbose']);
      assert.equal(result.exitCode, 1, result.stderr);
      // eslint-disable-next-line no-control-regex -- what must not reach the terminal
      assert.doesNotMatch(result.stderr, /[\u0007\u001b\r]/, pool.join(' '));
      assert.match(result.stderr, /bad \\u001b\]0;owned\\u0007 \\u001b\[2J\\r done/, pool.join(' '));
    }
  },
);

test(
  "row 20: a task's teardown runs through a pool as raw, once a worker a cell, and its failure or hang fails the run",
  LIMIT,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mmapbench-five-teardown-'));
    const task = ['--task', fixture('tears-down.mjs')];
    for (const pool of [[], ['--pool', 'tinypool'], ['--pool', 'workerpool']]) {
      const log = join(dir, `${pool[1] ?? 'raw'}.log`);
      const result = await cli([
        'compare',
        '--quick',
        '-k',
        '2',
        ...pool,
        ...task,
        '--param',
        `log=${log}`,
        '--no-save',
      ]);
      assert.equal(result.exitCode, 0, result.stderr);
      // 2 rounds, 2 cells a round, 2 workers a cell
      const lines = readFileSync(log, 'utf8').trim().split('\n').sort();
      assert.equal(lines.length, 8, pool.join(' '));
      assert.deepEqual([...new Set(lines)], ['procs 0', 'procs 1', 'workers 0', 'workers 1'], pool.join(' '));
    }
    for (const pool of ['tinypool', 'workerpool']) {
      const args = ['compare', '--quick', '-k', '2', '--pool', pool, ...task, '--no-save'];
      const throws = await cli([...args, '--param', 'how=throws']);
      assert.equal(throws.exitCode, 1, throws.stderr);
      assert.match(throws.stderr, /^mmapbench: a (worker|process) failed: the teardown failed \(task tears-down/);
    }
    // one that hangs meets --timeout, as a raw one's
    const hangs = await cli([
      ...['compare', '--quick', '-k', '2', '--pool', 'tinypool', ...task, '--no-save'],
      ...['--param', 'how=hangs', '--timeout', '2'],
    ]);
    assert.equal(hangs.exitCode, 1, hangs.stderr);
    assert.match(hangs.stderr, /did not finish within --timeout 2s \(task tears-down\)/);
  },
);
