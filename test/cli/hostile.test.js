// Tasks and files that misbehave on purpose, against docs/exit-codes.md's promises: no hang
// that Ctrl-C cannot end, no round lost, no process left behind. Each test has a time limit of
// its own, so a hang fails it rather than the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ownCgroup } from '../../src/system/containment.js';
import { BIN, childrenOf, cli, ENV, fixture, until } from '../helpers.js';

const LIMIT = { timeout: 30000 };

/** The CLI's load probe for `task`, once it runs: its pid, or undefined. */
const probeOf = (/** @type {number} */ pid, /** @type {string} */ task) =>
  childrenOf(pid).find((child) => {
    try {
      const command = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      return command.includes('load-probe.js') && command.includes(task);
    } catch {
      return false;
    }
  });

for (const task of ['never-settles-at-load.mjs', 'spins-at-load.mjs']) {
  test(
    `a task module whose top level never settles (${task}) is a usage error within --timeout, not a hang`,
    LIMIT,
    async () => {
      const result = await cli(['compare', '--task', fixture(task), '--timeout', '2', '--max-time', '5']);
      assert.equal(result.exitCode, 2);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        /^mmapbench: task module \S+ did not finish loading within 2 s \(its top level never settled: an await that never resolves, or a loop\); check that `node \S+` runs and ends$/,
      );
    },
  );

  test(`Ctrl-C ends the CLI while ${task} loads, and its load probe with it`, LIMIT, async () => {
    for (const args of [['compare', '--no-save'], ['tasks']]) {
      const run = execa(process.execPath, [BIN, ...args, '--task', fixture(task)], { reject: false, env: ENV });
      assert.ok(await until(() => probeOf(run.pid, task) !== undefined, 10000), 'the load probe started');
      const probe = Number(probeOf(run.pid, task));
      run.kill('SIGINT');
      const result = await run;
      assert.equal(result.exitCode, 130, `${args[0]}: ${result.stderr}`);
      assert.ok(await until(() => !existsSync(`/proc/${probe}`), 5000), 'the load probe is gone');
    }
  });
}

test(
  'a top-level await that never settles, with nothing keeping the process alive, is named as that (exit 2)',
  LIMIT,
  async () => {
    for (const command of ['compare', 'tasks']) {
      const result = await cli([command, '--task', fixture('awaits-at-load.mjs')]);
      assert.equal(result.exitCode, 2);
      assert.match(
        result.stderr,
        /^mmapbench: task module \S+awaits-at-load\.mjs failed to load: its top level awaits a promise that never settles \(Node exit code 13\); check that `node \S+` runs and ends$/,
      );
    }
  },
);

test(
  'a run() whose promise never settles is named as that where Node ends the thread (exit 13), a timeout where IPC keeps it alive',
  LIMIT,
  async () => {
    // three failures, none a measurement: side by side
    const runs = [
      ['workers', '--iterations', '10'],
      ['compare', '--max-time', '5'],
      ['procs', '--iterations', '10', '--timeout', '2'],
    ];
    const results = await Promise.all(
      runs.map((args) => cli([...args, '--task', fixture('awaits-forever.js'), '-k', '1', '--no-save'])),
    );
    for (const [i, args] of runs.entries()) {
      const result = results[i];
      assert.equal(result.exitCode, 1, result.stderr);
      const last = result.stderr.trim().split('\n').at(-1);
      assert.match(
        last,
        args[0] === 'procs'
          ? /^mmapbench: the procs parent process did not finish within --timeout 2s \(task awaits-forever; process 0 had not ended its window\) and was terminated/
          : /^mmapbench: (worker 0|the calibration process) stopped waiting \(exit code 13\): a promise of the task's setup, run or teardown never settled, and nothing kept the thread alive \(task awaits-forever\); make every promise the task returns resolve or reject$/,
      );
    }
  },
);

test('a run that failed before any cell finished saves nothing and does not offer --resume', LIMIT, async () => {
  const result = await cli(['compare', '--task', fixture('throws-at-once.js'), '--max-time', '5']);
  assert.equal(result.exitCode, 1);
  assert.match(result.stderr, /the calibration run failed: disk on fire/);
  assert.doesNotMatch(result.stdout + result.stderr, /--resume|saved /);
});

for (const [change, edit, problem] of /** @type {Array<[string, (document: any) => void, string]>} */ ([
  [
    'a figure changed to a word',
    (document) => (document.rounds[0].procs.throughput = 'fast'),
    'rounds[0].procs.throughput must be a number (it is "fast")',
  ],
  // a view wrapped it before, in time in the square of its length (minutes), deaf to SIGTERM
  [
    'a task name of 10 MB',
    (document) => (document.config.task.name = 'x'.repeat(10 * 1024 * 1024)),
    'config.task.name is 10485760 characters long; mmapbench saves at most 16384 in a field',
  ],
])) {
  test(
    `a saved file with ${change} is refused by report, diff and --resume at once (exit 2), naming the field`,
    LIMIT,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mmapbench-corrupt-'));
      const good = fixture('saved/compare.json');
      const document = JSON.parse(readFileSync(good, 'utf8'));
      edit(document);
      document.status = 'incomplete';
      const bad = join(dir, 'compare.json');
      writeFileSync(bad, JSON.stringify(document));
      for (const [args, what] of [
        [['report', bad], bad],
        [['diff', good, bad], `diff ${bad}`],
        [['compare', '--resume', bad], `--resume ${bad}`],
      ]) {
        const result = await cli(args, { timeout: 30000 });
        assert.equal(result.exitCode, 2, `${args[0]}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        assert.equal(
          result.stderr,
          `mmapbench: ${what}: ${problem}; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/saved/results.schema.json)`,
        );
      }
    },
  );
}

test(
  'advise checks what compare checks, with its exit codes: a --node that is no Node (2), a budget that counts no round (6)',
  LIMIT,
  async () => {
    // whether or not --only keeps the candidate
    const node = await cli(['advise', '--node', 'abc', '--only', 'TOP_PAD', '--no-save']);
    assert.equal(node.exitCode, 2);
    assert.equal(node.stdout, '');
    assert.match(node.stderr, /^mmapbench: --node abc is not an executable file \(ENOENT\) nor a Node version; /);

    const short = await cli(['advise', '--only', 'TOP_PAD', '--max-time', '0.1', '--no-save', '--json']);
    const document = JSON.parse(short.stdout);
    assert.equal(document.shortBudget?.maxTime, 0.1, 'the budget ran out before any interval');
    // as compare: no counted round is exit 6 with a budget to give; one or two are said, exit 0
    assert.equal(short.exitCode, document.shortBudget.counted === 0 ? 6 : 0, short.stderr);
    if (short.exitCode === 6)
      assert.match(
        short.stderr,
        /^mmapbench: no round (counted|ran) within the 0\.1 s budget: .*; give --max-time \d+ or more$/m,
      );
  },
);

test('a FIFO or a device named as a file to read is refused at once (exit 2), never read', LIMIT, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-fifo-'));
  const fifo = join(dir, 'fifo.json');
  await execa('mkfifo', [fifo]);
  const saved = fixture('saved/compare-quick.json');
  // each would block in a read (a FIFO with no writer) or never end (/dev/zero) before the fix
  // each is refused before anything runs: side by side, as none measures
  const cases = /** @type {Array<[string[], string]>} */ ([
    [['compare', '--task', 'message', '--message', fifo], 'a FIFO'],
    [['compare', '--task', 'message', '--message', '/dev/zero'], 'a character device'],
    [['report', fifo], 'a FIFO'],
    [['report', '/dev/zero'], 'a character device'],
    [['diff', saved, fifo], 'a FIFO'],
    [['compare', '--resume', fifo], 'a FIFO'],
    [['compare', '--file', fifo], 'not a regular file'],
    [['compare', '--task', fifo], 'a FIFO'],
    [['restore', '--thp-restore-file', fifo], 'a FIFO'],
  ]);
  await Promise.all(
    cases.map(async ([args, kind]) => {
      const result = await cli(args, { timeout: 10000 });
      assert.equal(result.exitCode, args[0] === 'restore' ? 3 : 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`^mmapbench: .*${kind}`), args.join(' '));
    }),
  );
});

test(
  'an output that is an input, or another output, by any name (a symbolic or hard link) is refused before anything is written',
  LIMIT,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mmapbench-alias-'));
    const results = join(dir, 'a.json');
    copyFileSync(fixture('saved/compare-quick.json'), results);
    const text = readFileSync(results, 'utf8');
    symlinkSync(results, join(dir, 'a-link.json'));
    linkSync(results, join(dir, 'hard.json'));
    mkdirSync(join(dir, 'exo'));
    for (const [args, message] of [
      [
        ['report', 'a-link.json', '--html', 'a.json'],
        /^mmapbench: --html a\.json would replace a-link\.json, which report reads \(the same file by another name\); write it to another file$/,
      ],
      [
        ['report', 'hard.json', '--html', 'a.json'],
        /^mmapbench: --html a\.json would replace hard\.json, which report reads \(the same file by another name\)/,
      ],
      [
        // a link is refused as a link, whatever it names
        ['report', 'a.json', '--export', 'bencher=./a-link.json'],
        /^mmapbench: --export bencher=\.\/a-link\.json: \.\/a-link\.json is a symbolic link \(to \S+a\.json\); mmapbench writes only regular files, never through a link/,
      ],
      [
        ['report', 'a.json', '--html', 'p.html', '--export', 'bencher=p.html'],
        /^mmapbench: --export bencher=p\.html would replace the page --html p\.html writes/,
      ],
      [
        ['compare', '--ci', '--quick', '--out', 'exo', '--export', 'bencher=exo/compare-ci.json'],
        /^mmapbench: --export bencher=exo\/compare-ci\.json would replace the results file exo\/compare-ci\.json/,
      ],
    ]) {
      const result = await cli(args, { cwd: dir });
      assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr.trim(), message);
    }
    assert.equal(readFileSync(results, 'utf8'), text);
    assert.ok(!existsSync(join(dir, 'p.html')));
    assert.deepEqual(readdirSync(join(dir, 'exo')), []);
  },
);

test('a reader that closes the pipe early ends the CLI quietly, exit 0, no stack', LIMIT, async () => {
  const files = readdirSync(fixture('saved'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => fixture(`saved/${name}`));
  // more than a pipe holds, so the CLI is still writing when `head` goes
  const result = await execa(
    'bash',
    [
      '-c',
      '"$@" | head -c 10 > /dev/null; echo "${PIPESTATUS[0]}"',
      'bash',
      process.execPath,
      BIN,
      'report',
      ...files,
      '--verbose',
    ],
    { reject: false, env: ENV },
  );
  assert.equal(result.stderr, '');
  assert.equal(result.stdout, '0', 'the exit code of mmapbench');
});

test('a step summary that is a FIFO never blocks the CLI: a warning, and SIGTERM still ends it', LIMIT, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-summary-'));
  const fifo = join(dir, 'summary');
  await execa('mkfifo', [fifo]);
  const file = fixture('saved/compare.json');
  // before, the open of a FIFO with no reader blocked the main thread, deaf to signals
  const result = await execa(process.execPath, [BIN, 'diff', file, file, '--ci'], {
    reject: false,
    env: { ...ENV, GITHUB_STEP_SUMMARY: fifo },
    timeout: 15000,
    killSignal: 'SIGTERM',
  });
  assert.equal(result.timedOut, false, 'it ended by itself');
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(
    result.stderr,
    /^mmapbench: warning: not appended to \$GITHUB_STEP_SUMMARY \S+summary: it is a FIFO \(named pipe\), not a regular file; point it at a file$/m,
  );
});

test(
  "a SIGKILL just after the run's cgroup is made leaves nothing of it behind",
  { ...LIMIT, ...(ownCgroup().dir || process.env.CI ? {} : { skip: 'no cgroup v2 this user can write here' }) },
  async () => {
    const root = /** @type {string} */ (ownCgroup().dir);
    const ours = (/** @type {number} */ pid) =>
      readdirSync(root).filter((name) => name.startsWith(`mmapbench-${pid}-`));
    for (let tries = 0; tries < 3; tries++) {
      const child = spawn(process.execPath, [BIN, 'compare', '--quick', '--no-save'], {
        env: { ...process.env, ...ENV },
        stdio: 'ignore',
      });
      const pid = /** @type {number} */ (child.pid);
      // the moment the group exists, before anything else of the run
      for (const end = Date.now() + 20000; !ours(pid).length && Date.now() < end;);
      child.kill('SIGKILL');
      await once(child, 'exit');
      assert.ok(await until(() => ours(pid).length === 0, 15000), `${ours(pid).join(', ')} left in ${root}`);
    }
  },
);
