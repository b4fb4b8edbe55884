// advise as a user runs it: real cells, every candidate of the machine, a fix that fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, measured } from '../helpers.js';

test('advise ranks glibc settings and every allocator installed against readfilesync, as JSON', async () => {
  const result = await cli([
    'advise',
    '-k',
    '2',
    '--only',
    'TOP_PAD,jemalloc,tcmalloc,mimalloc',
    // a count, not a budget: every candidate gets its rounds however slow the machine
    '--rounds',
    '3',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const document = JSON.parse(result.stdout);
  assert.equal(document.command, 'advise');
  const rows = Object.fromEntries(document.advice.rows.map((/** @type {any} */ row) => [row.name, row]));
  // .ci/run installs the three allocators: each must have run here, none may be missing
  assert.deepEqual(document.advice.missing, []);
  for (const name of ['TOP_PAD 64 MiB', 'jemalloc', 'tcmalloc', 'mimalloc']) {
    assert.equal(rows[name]?.status, 'measured', name);
    assert.ok(rows[name].gain.workers.change > 0 && rows[name].gain.procs.change > 0, name);
  }
  assert.match(rows.jemalloc.apply, /^LD_PRELOAD=\S+libjemalloc\.so\.2 node \.\.\.$/);
  assert.equal(rows['processes instead of threads'].status, 'measured');
  assert.match(result.stderr, /^mmapbench: advise: the baseline and 4 candidates, 3 rounds each: about \d+ s$/m);
});

test("a task's own fix that throws is reported in its row; the others are measured and the run succeeds", async () => {
  const result = await cli([
    'advise',
    '--task',
    fixture('fixes-task.mjs'),
    '-k',
    '2',
    '--only',
    'throws,same-work',
    '--rounds',
    '3',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const out = result.stdout;
  assert.match(out, /^mmapbench advise: fixes-task, 3 candidates against the baseline$/m);
  assert.match(out, /^│ throws +│ +failed │/m);
  assert.match(out, /^throws: failed: .*this fix throws/m);
  // its rank a range where its interval overlaps another's (1-2.), its reading on the next line
  assert.match(out, /^│ same-work +│ +\d+(-\d+)?\.( (faster|hurts|unclear))? +│/m);
});

test('a 64 KiB Buffer message: transfer and shared memory in threads alone, the other serialization in processes alone', async () => {
  const result = await cli(
    [
      'advise',
      '--task',
      'message',
      '--shape',
      'buffer',
      '--size',
      '64k',
      '-k',
      '2',
      '--rounds',
      '3',
      '--duration',
      '0.3',
      '--json',
    ],
    { timeout: 240_000 },
  );
  assert.equal(result.exitCode, 0, result.stderr);
  const document = JSON.parse(result.stdout);
  const rows = Object.fromEntries(document.advice.rows.map((/** @type {any} */ row) => [row.name, row]));
  assert.deepEqual(Object.keys(rows).sort(), [
    'SharedArrayBuffer',
    'baseline',
    'processes instead of threads',
    'serialization advanced',
    'transfer',
  ]);
  for (const name of ['transfer', 'SharedArrayBuffer']) {
    assert.equal(rows[name].status, 'measured', name);
    assert.equal(rows[name].mode, 'workers');
    assert.ok(rows[name].gain.workers.ci95, `${name}: an interval`);
    assert.equal(rows[name].gain.procs, null, `${name}: no process ran it`);
  }
  const advanced = rows['serialization advanced'];
  assert.equal(advanced.mode, 'procs');
  assert.ok(advanced.gain.procs.ci95, 'an interval');
  assert.equal(advanced.gain.workers, null);
  const point = document.points.find((/** @type {any} */ one) => one.id === rows.transfer.id);
  assert.ok(
    point.rounds.every((/** @type {any} */ round) => round.workers && !round.procs),
    'threads alone',
  );
});

test('--semi-space reaches each worker as an app sets it: a thread through resourceLimits, a child through execArgv', async () => {
  const run = async (/** @type {string[]} */ extra) => {
    const result = await cli([
      'compare',
      '--task',
      fixture('young-probe.js'),
      '--quick',
      '--json',
      '--no-save',
      ...extra,
    ]);
    assert.equal(result.exitCode, 0, result.stderr);
    return measured(result.stdout);
  };
  const young = await run(['--semi-space', '64']);
  const own = await run([]);
  assert.equal(young.config.semiSpaceMb, 64);
  assert.equal(own.config.semiSpaceMb, undefined);
  for (const mode of ['workers', 'procs']) {
    // a new space is two semi-spaces: V8's own 16 MiB gives at most 32, 64 MiB gives more
    assert.ok(young[mode].metrics.newSpaceMiB.max > 32, `${mode} ${young[mode].metrics.newSpaceMiB.max}`);
    assert.ok(own[mode].metrics.newSpaceMiB.max <= 32, `${mode} ${own[mode].metrics.newSpaceMiB.max}`);
  }
  assert.match((await cli(['compare', '--semi-space', '0', '--quick'])).stderr, /--semi-space 0 is invalid/);
});

test("--semi-space through a pool reaches each worker as an app sets it: a thread's resourceLimits, a child's execArgv", async () => {
  for (const pool of ['tinypool', 'workerpool']) {
    const run = async (/** @type {string[]} */ extra) => {
      const result = await cli([
        ...['compare', '--quick', '-k', '2', '--pool', pool, '--task', fixture('young-probe.js')],
        ...['--json', '--no-save', ...extra],
      ]);
      assert.equal(result.exitCode, 0, result.stderr);
      return measured(result.stdout);
    };
    const young = await run(['--semi-space', '64']);
    const own = await run([]);
    for (const mode of ['workers', 'procs']) {
      // a new space is two semi-spaces: V8's own 16 MiB gives at most 32, 64 MiB gives more
      assert.ok(young[mode].metrics.newSpaceMiB.max > 32, `${pool} ${mode} ${young[mode].metrics.newSpaceMiB.max}`);
      assert.ok(own[mode].metrics.newSpaceMiB.max <= 32, `${pool} ${mode} ${own[mode].metrics.newSpaceMiB.max}`);
    }
  }
});

test('advise --for kept-memory ranks by what the app keeps, each with its throughput beside it', async () => {
  const result = await cli([
    'advise',
    '-k',
    '2',
    '--for',
    'kept-memory',
    '--only',
    'ARENA_MAX 1,semi-space 64',
    '--rounds',
    '3',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const { advice } = JSON.parse(result.stdout);
  assert.equal(advice.for, 'kept-memory');
  const rows = Object.fromEntries(advice.rows.map((/** @type {any} */ row) => [row.name, row]));
  for (const name of ['ARENA_MAX 1', 'semi-space 64 MiB', 'processes instead of threads']) {
    assert.equal(rows[name]?.status, 'measured', name);
    assert.equal(rows[name].score.workers.difference, true, name);
    assert.ok(rows[name].gain.workers.change > 0, name);
  }
  assert.match(rows['semi-space 64 MiB'].apply, /maxYoungGenerationSizeMb: 192 .*--max-semi-space-size=64/);
});

test('advise --k-auto also measures the baseline at every k up to the CPUs and ends with the K to run; those points are ranked with no fix', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-k-auto-'));
  const result = await cli(['advise', '-k', '2', '--k-auto', '--only', 'TOP_PAD', '--rounds', '3', '--out', out]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(
    result.stdout.replace(/\s+/g, ' '),
    /the baseline at k=1, 2: run workers k=\d \(.*\), procs k=\d \(.*\): the largest k at which each added worker still added at least 50% of one worker's throughput/,
  );
  const file = join(out, readdirSync(out).find((name) => name.endsWith('.json')) ?? '');
  const document = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(
    document.points.map((/** @type {any} */ point) => [point.variant.name, point.k]),
    [
      ['baseline', 2],
      ['TOP_PAD 64 MiB', 2],
      ['baseline', 1],
    ],
  );
  assert.equal(document.scaling.length, 1);
  assert.ok(document.scaling[0].workers.recommended.k >= 1);
  assert.equal(document.advice.rows[0].name, 'baseline');
  assert.ok(document.advice.rows.every((/** @type {any} */ row) => row.kind !== 'k'));
  assert.equal(document.advice.rows.filter((/** @type {any} */ row) => row.name === 'baseline').length, 1);
});
