/* eslint-disable no-control-regex -- control characters are what these tests look for */
// Round four of hostile inputs: each test is one row of what broke, and fails on the code
// before it was mended. What a run's figures are is never asserted, only what it does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, cli, fixture, measured, noneLeft, processesMarked, uniqueMark, until } from '../helpers.js';

const LIMIT = { timeout: 60000 };
const SAVED = fixture('saved/compare.json');
const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-trust-'));

/** What a path is, as `ls -l`'s first letter: `l`, `-`, `p`, `d`, `c`. */
function kindOf(path) {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) return `l -> ${readlinkSync(path)}`;
  return stats.isFIFO() ? 'p' : stats.isDirectory() ? 'd' : stats.isCharacterDevice() ? 'c' : '-';
}

/** A symbolic link to a regular file, a FIFO and a folder in a fresh folder, each by name. */
function outputs() {
  const dir = folder();
  writeFileSync(join(dir, 'target.txt'), 'kept\n');
  symlinkSync('target.txt', join(dir, 'link'));
  symlinkSync('nowhere.txt', join(dir, 'dangling'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  mkdirSync(join(dir, 'folder'));
  return { dir, paths: ['link', 'dangling', 'fifo', 'folder'].map((name) => join(dir, name)) };
}

test(
  "row 1: a symbolic link, a FIFO or a folder given as --export, --html or --ci's file is refused and stays as it was",
  LIMIT,
  async () => {
    const { dir, paths } = outputs();
    for (const path of paths) {
      const before = kindOf(path);
      for (const args of [
        ['report', SAVED, '--export', `bencher=${path}`],
        ['report', SAVED, '--export', `github-action-benchmark=${path}`],
        ['report', SAVED, '--html', path],
      ]) {
        const result = await cli(args);
        assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, /^mmapbench: .*(symbolic link|FIFO|folder).*$/);
        assert.equal(kindOf(path), before, `${args.join(' ')} changed ${path}`);
      }
    }
    assert.equal(readFileSync(join(dir, 'target.txt'), 'utf8'), 'kept\n');
  },
);

test('row 1: /dev/stdout redirected to a file is not replaced by --export', LIMIT, async () => {
  // through a shell, as a user would type it: `... --export bencher=/dev/stdout > out.txt`
  assert.equal(kindOf('/dev/stdout'), 'l -> /proc/self/fd/1', "this machine's /dev/stdout is a link, as it comes");
  const out = join(folder(), 'out.txt');
  const result = await execa(
    'sh',
    ['-c', '"$0" "$1" report "$2" --export bencher=/dev/stdout > "$3"', process.execPath, BIN, SAVED, out],
    { reject: false, env: { NO_COLOR: '1' } },
  );
  assert.equal(result.exitCode, 2, result.stderr);
  assert.match(result.stderr, /^mmapbench: --export bencher=\/dev\/stdout: \/dev\/stdout is a symbolic link/);
  assert.equal(kindOf('/dev/stdout'), 'l -> /proc/self/fd/1');
});

test(
  "rows 1 and 18: --ci's results file a link, a FIFO or a folder is refused before anything is measured",
  LIMIT,
  async () => {
    for (const kind of ['link', 'dangling', 'fifo', 'folder']) {
      const { dir } = outputs();
      const out = join(dir, 'out');
      mkdirSync(out);
      const file = join(out, 'compare-ci.json');
      if (kind === 'link') symlinkSync(join(dir, 'target.txt'), file);
      if (kind === 'dangling') symlinkSync(join(dir, 'nowhere.txt'), file);
      if (kind === 'fifo') execFileSync('mkfifo', [file]);
      if (kind === 'folder') mkdirSync(file);
      const before = kindOf(file);
      const result = await cli(['compare', '--ci', '--quick', '--out', out]);
      assert.equal(result.exitCode, 2, `${kind}: ${result.stderr}`);
      assert.match(
        result.stderr,
        /^mmapbench: --ci's results file \S+compare-ci\.json is (a symbolic link|a FIFO|a folder)[^\n]*$/,
      );
      assert.equal(result.stdout, '');
      assert.equal(kindOf(file), before);
    }
  },
);

test(
  'row 19: reproduce --out a symbolic link to a folder is refused, and nothing is written into the folder',
  LIMIT,
  async () => {
    const dir = folder();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const result = await cli(['reproduce', '--quick', '--out', join(dir, 'link')]);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(
      result.stderr,
      /^mmapbench: --out \S+link is a symbolic link; mmapbench does not write through links: pass --out a folder$/,
    );
    assert.deepEqual(readdirSync(join(dir, 'real')), []);
    assert.equal(kindOf(join(dir, 'link')), `l -> ${join(dir, 'real')}`);
  },
);

test('init-task over a link, a FIFO or a folder of its name is refused and leaves it as it was', LIMIT, async () => {
  const { dir } = outputs();
  symlinkSync('target.txt', join(dir, 'linked.mjs'));
  symlinkSync('nowhere.mjs', join(dir, 'dangling.mjs'));
  execFileSync('mkfifo', [join(dir, 'fifo.mjs')]);
  mkdirSync(join(dir, 'folder.mjs'));
  for (const name of ['linked', 'dangling', 'fifo', 'folder']) {
    const path = join(dir, `${name}.mjs`);
    const before = kindOf(path);
    const result = await cli(['init-task', name], { cwd: dir });
    assert.equal(result.exitCode, 2, `${name}: ${result.stderr}`);
    assert.equal(kindOf(path), before);
  }
  assert.equal(readFileSync(join(dir, 'target.txt'), 'utf8'), 'kept\n');
});

test(
  'row 11: a /proc file no one reads whole, given to report, diff, --resume or --message, is exit 2 naming it',
  LIMIT,
  async () => {
    for (const [args, named] of /** @type {Array<[string[], RegExp]>} */ ([
      [['report', '/proc/self/mem'], /^mmapbench: \/proc\/self\/mem: not readable as a file \(EIO\)/],
      [['report', '/proc/self/clear_refs'], /^mmapbench: \/proc\/self\/clear_refs: not readable as a file \(EINVAL\)/],
      [['diff', '/proc/self/mem', SAVED], /^mmapbench: diff \/proc\/self\/mem: not readable as a file \(EIO\)/],
      [
        ['compare', '--resume', '/proc/self/mem'],
        /^mmapbench: --resume \/proc\/self\/mem: not readable as a file \(EIO\)/,
      ],
      [
        ['compare', '--task', 'message', '--message', '/proc/self/mem', '--quick', '--no-save'],
        /^mmapbench: --message \/proc\/self\/mem: not readable as a file \(EIO\)/,
      ],
    ])) {
      const result = await cli(args);
      assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, named);
      assert.doesNotMatch(result.stderr, /internal error|\n/);
    }
  },
);

test(
  'row 12: a --message file nested thousands deep is exit 2 naming the file, before a cell runs',
  LIMIT,
  async () => {
    const dir = folder();
    for (const depth of [3000, 100000]) {
      const file = join(dir, `deep-${depth}.json`);
      writeFileSync(file, `${'['.repeat(depth)}${']'.repeat(depth)}`);
      const result = await cli(['compare', '--task', 'message', '--message', file, '--quick', '--no-save']);
      assert.equal(result.exitCode, 2, result.stderr);
      assert.equal(
        result.stderr,
        `mmapbench: --message ${file} nests ${depth} levels deep, more than the 1000 a message may (cloning or serializing it would overflow a stack); flatten it`,
      );
    }
  },
);

test(
  'row 14: a sweep of 18,000 k values, on the command line or through the API, is refused at once',
  { timeout: 15000 },
  async () => {
    const ks = Array.from({ length: 18000 }, (_, i) => i + 1);
    const result = await cli(['sweep', '-k', ks.join(','), '--no-save']);
    assert.equal(result.exitCode, 2);
    assert.equal(
      result.stderr,
      'mmapbench: the sweep has 18000 points (18000), more than 64; shorten a list, or pass --force to run them all',
    );
    const { sweep } = await import('../../src/api.js');
    await assert.rejects(
      sweep({ k: Array.from({ length: 100000 }, (_, i) => i + 1) }),
      (error) => error.code === 'usage' && /the sweep has 100000 points/.test(error.message),
    );
  },
);

test(
  'row 16: a misspelt flag that swallowed the file, and an empty short option, are named as what they are',
  LIMIT,
  async () => {
    for (const [args, said] of /** @type {Array<[string[], string]>} */ ([
      [
        ['report', '--verbse', SAVED],
        "mmapbench: unknown option '--verbse' (Did you mean --verbose?); see `mmapbench report --help`",
      ],
      [
        ['report', SAVED, '--no-verbse'],
        "mmapbench: unknown option '--no-verbse' (Did you mean --no-verbose?); see `mmapbench report --help`",
      ],
      [['compare', '-k='], 'mmapbench: -k is given an empty value; give it a <count>, or leave it out for the default'],
    ])) {
      const result = await cli(args);
      assert.equal(result.exitCode, 2, args.join(' '));
      assert.equal(result.stderr, said);
    }
  },
);

test(
  'rows 16 and 20: a bad MMAPBENCH_CGROUP, HOME or XDG_CACHE_HOME is one line naming the variable, and makes nothing',
  LIMIT,
  async () => {
    const dir = folder();
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const home = join(dir, 'nonexistent');
    for (const [env, said] of /** @type {Array<[Record<string, string>, RegExp]>} */ ([
      [
        { MMAPBENCH_CGROUP: '2' },
        /^mmapbench: MMAPBENCH_CGROUP=2 is neither 0 \(cells without a cgroup of their own\) nor 1/,
      ],
      [{ MMAPBENCH_CGROUP: 'no' }, /^mmapbench: MMAPBENCH_CGROUP=no is neither 0/],
      [{ MMAPBENCH_CGROUP: '' }, /^mmapbench: MMAPBENCH_CGROUP= is neither 0/],
      [
        { HOME: home, XDG_CACHE_HOME: '' },
        /^mmapbench: HOME=\S+nonexistent is a folder that does not exist; set HOME to your home folder, or XDG_CACHE_HOME/,
      ],
      [{ XDG_CACHE_HOME: 'relative' }, /^mmapbench: XDG_CACHE_HOME=relative is not an absolute path/],
      [{ XDG_CACHE_HOME: fifo }, /^mmapbench: XDG_CACHE_HOME=\S+fifo is a FIFO \(named pipe\), not a folder/],
    ])) {
      const result = await cli(['compare', '--quick', '--no-save'], { env, cwd: dir });
      assert.equal(result.exitCode, 2, `${JSON.stringify(env)}: ${result.stderr}`);
      assert.match(result.stderr, said);
      assert.doesNotMatch(result.stderr, /\n/);
    }
    assert.deepEqual(readdirSync(dir).sort(), ['fifo'], 'no folder made: not HOME, not a relative cache');
  },
);

test('one rule for whole numbers: a sign, a leading zero or an exponent is refused on every count', LIMIT, async () => {
  for (const args of [
    ['-k', '+1'],
    ['-k', '01'],
    ['-k', '1e0'],
    ['--rounds', '1e0'],
    ['--param', 'concurrency=1e1'],
    ['--concurrency', '01'],
  ]) {
    const result = await cli(['compare', '--task', 'readfile-async', ...args, '--quick', '--no-save']);
    assert.equal(result.exitCode, 2, args.join(' '));
    assert.match(result.stderr, /^mmapbench: -[-\w]+ \S+ is invalid: it must be a whole number of 1 or more$/);
  }
});

/** A --node wrapper that forks a daemon holding its output, then execs node: the daemon carries `mark`. */
function forkingWrapper(mark) {
  const wrapper = join(folder(), 'node-wrapper.sh');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nMMAPBENCH_TEST_MARK=${mark} setsid sleep 1006 &\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

test(
  'row 8: a --node wrapper that forks a daemon neither hangs the CLI nor leaves the daemon behind',
  LIMIT,
  async () => {
    const mark = uniqueMark();
    const result = await cli(['compare', '--node', forkingWrapper(mark), '--quick', '--no-save']);
    assert.equal(result.exitCode, 0, result.stderr);
    await noneLeft(mark);
  },
);

test(
  'row 8: SIGTERM ends a CLI whose --node wrapper forked a daemon, in seconds, and the daemon with it',
  LIMIT,
  async () => {
    const mark = uniqueMark();
    const run = execa(process.execPath, [BIN, 'compare', '--node', forkingWrapper(mark), '--no-save'], {
      reject: false,
      env: { NO_COLOR: '1' },
    });
    assert.ok(await until(() => processesMarked(mark).length > 0, 20000), 'the wrapper forked its daemon');
    run.kill('SIGTERM');
    const result = await run;
    assert.equal(result.exitCode, 143, result.stderr);
    await noneLeft(mark);
  },
);

/** What a hostile text holds: an OSC title, a colour, a bell, a carriage return and a forged line. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[31mred\r\nmmapbench: gate passed';

test(
  'row 10: control characters in a task, a path, a Node version or the results folder are shown escaped, never raw',
  LIMIT,
  async () => {
    const dir = folder();
    const task = join(dir, 'hostile-task.mjs');
    writeFileSync(
      task,
      `export default { name: ${JSON.stringify(HOSTILE)}, description: ${JSON.stringify(HOSTILE)}, op() {} };\n`,
    );
    const version = join(dir, 'prints-version.sh');
    writeFileSync(
      version,
      `#!/bin/sh\nprintf '%s' ${JSON.stringify(
        HOSTILE.replace(/\u001b/g, '\\033')
          .replace(/\u0007/g, '\\007')
          .replace(/\r/g, '\\r')
          .replace(/\n/g, '\\n'),
      )}\n`,
      { mode: 0o755 },
    );
    const results = join(dir, `out${HOSTILE.replace(/\//g, '')}`);
    const runs = [
      cli(['tasks', task]),
      cli(['compare', '--task', task, '--quick', '--ci', '--out', join(dir, 'ci')], {
        env: { GITHUB_STEP_SUMMARY: join(dir, 'summary.md') },
      }),
      cli(['compare', '--task', join(dir, `missing${HOSTILE}.mjs`)]),
      cli(['report', join(dir, `missing${HOSTILE}.json`)]),
      cli(['compare', '--node', version, '--quick', '--no-save']),
      cli(['compare', '--quick'], { env: { MMAPBENCH_RESULTS: results } }),
    ];
    for (const result of await Promise.all(runs)) {
      const shown = `${result.stdout}\n${result.stderr}`;
      assert.doesNotMatch(shown, /[\u0007\u001b\r]/, `${result.command}: ${JSON.stringify(shown.slice(0, 400))}`);
      assert.doesNotMatch(shown, /^mmapbench: gate passed/m, result.command);
    }
    assert.doesNotMatch(readFileSync(join(dir, 'summary.md'), 'utf8'), /[\u0007\u001b\r]/);
  },
);

test(
  'row 7: a task that writes 128 KiB an op to stdout or stderr never fails the run; what its streams could not hold is counted and said',
  LIMIT,
  async () => {
    for (const stream of ['stdout', 'stderr']) {
      const result = await cli([
        'compare',
        '--task',
        fixture('writes-per-op.mjs'),
        '--param',
        `stream=${stream}`,
        '-k',
        '2',
        '--iterations',
        '3000',
        '--rounds',
        '1',
        '--json',
        '--no-save',
      ]);
      assert.equal(result.exitCode, 0, `${stream}: ${result.stderr.slice(-600)}`);
      const document = measured(result.stdout);
      const cells = document.rounds.flatMap((/** @type {any} */ round) => [round.workers, round.procs]);
      assert.ok(
        cells.every((/** @type {any} */ cell) => cell.droppedOutput > 0),
        `${stream}: every cell dropped some`,
      );
      assert.match(
        result.stderr,
        /^mmapbench: warning: the task wrote to stdout or stderr faster than it is written out: [\d.]+ [MG]iB past the 1 MiB a stream may hold queued was dropped, in 2 cells/m,
      );
      assert.ok(result.stderr.length < 64 * 1024, `${stream}: ${result.stderr.length} bytes on stderr`);
    }
  },
);

test(
  'row 13: a thread that crashes or hangs is named with its task, and the workers that had not ended',
  LIMIT,
  async () => {
    const dir = folder();
    const crashes = join(dir, 'crashes.mjs');
    writeFileSync(
      crashes,
      "export default { name: 'crashes', run(ctx, n) { if (ctx.index === 1 && n > 1) process.kill(process.pid, 'SIGSEGV'); } };\n",
    );
    /** One round of 2 workers of 50 ops each, in `mode`. */
    const round = (/** @type {string} */ mode, /** @type {string} */ task, /** @type {string[]} */ more = []) =>
      cli([mode, '--task', task, '-k', '2', '--iterations', '50', '--rounds', '1', '--no-save', ...more]);
    const crash = await round('workers', crashes);
    assert.equal(crash.exitCode, 1);
    assert.match(
      crash.stderr,
      /^mmapbench: the workers host process was killed by SIGSEGV \(task crashes, in one of its 2 threads: a thread's crash ends the process and every thread in it, so which one is not known\)$/m,
    );
    const oneHangs = join(dir, 'one-hangs.mjs');
    writeFileSync(
      oneHangs,
      "export default { name: 'one-hangs', run(ctx, n) { if (ctx.index === 1 && n === 50) for (;;); } };\n",
    );
    for (const mode of ['workers', 'procs']) {
      const hang = await round(mode, oneHangs, ['--timeout', '2']);
      assert.equal(hang.exitCode, 1);
      assert.match(
        hang.stderr,
        new RegExp(
          `did not finish within --timeout 2s \\(task one-hangs; ${mode === 'workers' ? 'worker' : 'process'} 1 had not ended its window\\)`,
        ),
      );
    }
  },
);

test(
  'row 15: the API refuses a BigInt, a NUL in a path and an impossible k as usage errors, with no raw control character',
  LIMIT,
  async () => {
    const { compare, MmapbenchError } = await import('../../src/api.js');
    for (const [options, said] of /** @type {Array<[any, RegExp]>} */ ([
      [{ k: 2n }, /^k must be a number, a text or a list of them \(it is a bigint\)/],
      [{ out: 'a\0b' }, /^out holds a NUL character \(\\0\), which no path or value may/],
      [{ env: { A: 'x\0y' } }, /^env holds a NUL character/],
      [
        { k: 1e9, force: true, save: false },
        /^-k 1000000000 is more than 4096, the most threads or processes one cell may start, even with --force/,
      ],
    ]))
      await assert.rejects(compare(options), (error) => {
        assert.ok(error instanceof MmapbenchError, String(error));
        assert.equal(error.code, 'usage');
        assert.match(error.message, said);
        assert.doesNotMatch(error.message, /[\u0000-\u001f]/);
        return true;
      });
  },
);
