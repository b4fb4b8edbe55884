// The scripts that stand in for the investigation's run.sh and run-thp.sh, run as a user would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { readChoice } from '../../src/system/environment.js';
import { ENV } from '../helpers.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-scripts-'));
  const thp = join(dir, 'enabled');
  writeFileSync(thp, 'always [madvise] never\n');
  return { dir, out: join(dir, 'out'), thp, restoreFile: join(dir, 'state', 'thp-restore.json') };
}
const thpArgs = (w) => ['--thp-path', w.thp, '--thp-restore-file', w.restoreFile];

test('scripts/run.sh is one sweep over files × k × arenas, and passes its arguments on', async () => {
  const script = new URL('../../scripts/run.sh', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa('bash', [script, '--quick', '--markdown', '--verbose'], {
    reject: false,
    env: { ...ENV, FILES: 'small', KS: '1 2', ARENAS: 'default 1' },
  });
  assert.equal(exitCode, 0, stderr);
  assert.match(stdout, /^### mmapbench sweep: 4 points, node v[\d.]+, task readfilesync, file small \(128 B\)$/m);
  assert.match(stdout, /^variant arena1: MALLOC_ARENA_MAX=1 {2}$/m);
  const lines = stdout.split('\n');
  // the points' table, then the account's (page faults and blocked time per op, both modes)
  const points = ['| default 1', '| default 2', '| arena1 1', '| arena1 2'];
  const cells = (/** @type {RegExp} */ row) =>
    lines.filter((line) => row.test(line)).map((line) => line.split(' | ').slice(0, 2).join(' '));
  assert.deepEqual(cells(/^\| (default|arena1) \| [12] \|.* rounds? \|$/), points);
  assert.deepEqual(cells(/^\| (default|arena1) \| [12] (\| [\d.]+ ){4}\|$/), points);
});

test('scripts/run-thp.sh is reproduce thp', async () => {
  const w = workspace();
  const script = new URL('../../scripts/run-thp.sh', import.meta.url).pathname;
  const { exitCode, stderr } = await execa('bash', [script, '--quick', '--out', w.out, ...thpArgs(w)], {
    reject: false,
  });
  assert.equal(exitCode, 0, stderr);
  assert.match(readFileSync(join(w.out, 'REPORT.md'), 'utf8'), /\n## thp — Hypothesis 5, step 7/);
  assert.equal(readChoice(w.thp), 'madvise');
});

test('scripts/latency-overhead.js says what sampling op latency costs a window, and what a timed op costs', async () => {
  const script = new URL('../../scripts/latency-overhead.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(process.execPath, [script, '--ops', '500', '--repeats', '3'], {
    reject: false,
  });
  assert.equal(exitCode, 0, stderr);
  assert.match(stdout, /^ {2}as one call \d+$/m);
  assert.match(stdout, /^ {2}sampled as a window is \(one op in every \d+ timed, \d+ timed\) \d+: -?[\d.]+%$/m);
  assert.match(stdout, /^ {2}every op timed \d+: -?[\d.]+%, so a timed op costs -?\d+ ns$/m);
});

test('scripts/account-overhead.js --off latency sets windows with sampled latency beside windows without', async () => {
  const script = new URL('../../scripts/account-overhead.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(
    process.execPath,
    [script, '--off', 'latency', '--processes', '2', '--rounds', '2', '--iterations', '300'],
    { reject: false },
  );
  assert.equal(exitCode, 0, stderr);
  assert.match(stdout, /^latency overhead: task readfilesync/m);
  assert.match(stdout, /^process {8}with \/ without latency: [\d.]+ \(95% CI [\d.]+-[\d.]+\)/m);
  assert.match(stdout, /^Worker thread {2}with \/ without latency: [\d.]+/m);
});

test("npm run bench:self prints one table: each figure, its script's in the same minutes, the difference, what judges it and whether it holds; exit 0", async () => {
  const script = new URL('../../scripts/self-check.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(process.execPath, [script, '--only', 'help,memory'], {
    reject: false,
  });
  assert.equal(exitCode, 0, stderr);
  const lines = stdout.trim().split('\n');
  assert.match(lines[0], /^mmapbench self-check, \d{4}-\d\d-\d\dT\d\d:\d\d UTC, Node v\d+/);
  assert.match(
    lines[1],
    /^\| figure +\| mmapbench +\| script, same minutes +\| mmapbench − script +\| judged by +\| holds \|$/,
  );
  // a promise with no script of the same work keeps its target
  assert.match(
    lines[3],
    /^\| `mmapbench --help` \/ `node -e 0` +\| [\d.]+× \(\d+ ms\) +\| node -e 0: \d+ ms +\| +\| target ≤ 3× +\| (yes|NO) +\|$/,
  );
  for (const [i, mode] of [
    [4, 'threads'],
    [5, 'processes'],
  ]) {
    const row = new RegExp(
      // the plain app's figure, where the compare ran plain trees, then the cells' beside it
      `^\\| memory per added worker, ${mode} \\(reuse-buffer\\) +\\| [\\d.]+ MiB \\(plain app\\); cells [\\d.]+ MiB; [\\d.]+ MiB in the rounds timing ops +\\| [\\d.]+ MiB +\\| ([+−])(\\d+)% +\\| script against itself ±(\\d+)% \\(3 vs 6\\) +\\| (yes|NO) +\\|$`,
    ).exec(lines[i]);
    assert.ok(row, lines[i]);
    // judged by the script's own spread: it holds where the difference is within it
    const [difference, allowed, holds] = [Number(row[2]), Number(row[3]), row[4]];
    if (difference !== allowed) assert.equal(holds, difference < allowed ? 'yes' : 'NO', lines[i]);
  }
  assert.equal(lines.length, 6);
});

test("scripts/variance-split.js splits the rounds' noise between trees and windows, and gives the floor", async () => {
  const script = new URL('../../scripts/variance-split.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(
    process.execPath,
    [script, '--task', 'reuse-buffer', '--rounds', '3', '--windows', '2', '--window-ms', '20'],
    { reject: false },
  );
  assert.equal(exitCode, 0, stderr);
  for (const mode of ['workers', 'procs'])
    assert.match(
      stdout,
      new RegExp(`^ {2}${mode} +log throughput sd between trees [\\d.]+%, between windows of a tree [\\d.]+%$`, 'm'),
    );
  const [, trees, windows] = /of its variance: (\d+)% between trees .*, (\d+)% between windows$/m.exec(stdout) ?? [];
  assert.ok(Math.abs(Number(trees) + Number(windows) - 100) <= 1, stdout);
  assert.match(stdout, /^ {2}floor: about \d+ s with \d+ windows a tree \(r=1, compare's schedule: \d+ s\)$/m);
});

test("scripts/first-tenth.js gives each mode's tenths and the first and fifth against the rest", async () => {
  const script = new URL('../../scripts/first-tenth.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(
    process.execPath,
    // rounds by count, so a slow machine still has tenths to show
    [script, '--runs', '1', '--tasks', 'reuse-buffer', '--', '--rounds', '2'],
    { reject: false },
  );
  assert.equal(exitCode, 0, stderr);
  for (const mode of ['workers', 'procs'])
    assert.match(
      stdout,
      new RegExp(
        `^ {2}reuse-buffer +${mode} +tenths \\(ns/op\\)( \\d+){10}; first/rest [\\d.]+, fifth/rest [\\d.]+ \\(\\d+ rounds\\)$`,
        'm',
      ),
    );
  assert.match(stdout, /^ {2}reuse-buffer procs +[\d.]+ \[[\d.]+-[\d.]+\]$/m);
});

test('scripts/message-check.js sets a compare of the message task beside round trips by hand, each mode', async () => {
  const script = new URL('../../scripts/message-check.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(
    process.execPath,
    [script, '--trips', '400', '--repeats', '2', '--rounds', '3'],
    { reject: false },
  );
  assert.equal(exitCode, 0, stderr);
  assert.match(stdout, /^message object of 100 bytes, serialization json \(procs\), k=2; by hand 2 sets/m);
  for (const mode of ['workers', 'procs'])
    assert.match(
      stdout,
      new RegExp(
        `^ {2}${mode}: mmapbench [\\d,]+ round trips/s \\(\\d+ rounds\\), by hand [\\d,]+ \\([\\d, ]+\\): -?[\\d.]+%$`,
        'm',
      ),
    );
  assert.match(
    stdout,
    /^ {2}the parent's CPU per round trip, procs: mmapbench [\d.]+ µs \(its main thread\), by hand [\d.]+ µs/m,
  );
  assert.match(stdout, /^ {2}workers\/procs: mmapbench [\d.]+ \([\d.]+-[\d.]+\), by hand [\d.]+$/m);
});

test('scripts/fresh-trees.js times one-worker fresh trees of each mode, a line each, then their rates sorted', async () => {
  const script = new URL('../../scripts/fresh-trees.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(
    process.execPath,
    [script, '--trees', '2', '--ops', '400', '--warmup', '100', '--chunk', '200'],
    { reject: false },
  );
  assert.equal(exitCode, 0, stderr);
  const lines = stdout.trim().split('\n');
  assert.deepEqual(
    lines.map((line) => line.replace(/[\d.]+k/g, 'N')),
    [
      'thread tree 1: N ops/s; chunks N N',
      'child tree 1: N ops/s; chunks N N',
      'child tree 2: N ops/s; chunks N N',
      'thread tree 2: N ops/s; chunks N N',
      'thread: N N',
      'child: N N',
    ],
  );
});

test('scripts/fault-kinds.js: an abort in a thread takes the app and every worker; in a child, that child alone', async () => {
  const script = new URL('../../scripts/fault-kinds.js', import.meta.url).pathname;
  const { exitCode, stdout, stderr } = await execa(process.execPath, [script, '--kinds', 'abort,throw'], {
    reject: false,
  });
  assert.equal(exitCode, 0, stderr);
  const rows = stdout
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => line.split(' | ').slice(1, 5));
  assert.deepEqual(rows, [
    ['abort', 'thread', 'no (SIGABRT)', '2 of 2'],
    ['abort', 'process', 'yes', '1 of 2'],
    ['throw', 'thread', 'yes', '1 of 2'],
    ['throw', 'process', 'yes', '1 of 2'],
  ]);
});
