// Spawns the real bin, as a user would, and checks what it prints and how it exits; compare
// --quick of every built-in task, on this Node and on Node 24, is test/long/every-task.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILTIN_TASKS } from '../../src/tasks/index.js';
import { calibrationFails, failsNamingIt, FAULTS, hangIsKilled } from '../cases.js';
import { childrenOf, cli, fixture, measured, processCounter, processesMarked, uniqueMark, until } from '../helpers.js';

const json = (result) => measured(result.stdout);
// a run's table without measuring again: `report` prints a saved run exactly as it printed
test('--env reaches the cells at process start', async () => {
  const probe = fixture('env-probe.js');
  const result = await cli(['procs', '--task', probe, '--quick', '--env', 'PROBE=set-by-test']);
  assert.equal(result.exitCode, 1);
  assert.match(result.stderr, /PROBE=set-by-test/);
});

test('the answer: the verdict in the first lines, both modes and the ratio with its CI, in 80 columns; --verbose adds every round', async () => {
  // in a GitHub job without --ci: the step summary is --ci's to write
  const summary = join(mkdtempSync(join(tmpdir(), 'mmapbench-summary-')), 'summary.md');
  const result = await cli(['compare', '--quick', '--rounds', '3'], { env: { GITHUB_STEP_SUMMARY: summary } });
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(existsSync(summary), false, 'no step summary without --ci');
  const lines = result.stdout.split('\n');
  assert.match(lines[0], /^mmapbench compare: readfilesync, med \(64 KiB\), k=\d · node v[\d.]+ · \d+ CPUs$/);
  assert.ok(
    lines
      .slice(1, 5)
      .some((line) =>
        /^(procs are|workers are|workers and procs are equal|inconclusive|no significant difference)/.test(line),
      ),
    result.stdout,
  );
  assert.match(result.stdout, /│ throughput +│ +[\d,]+ ops\/s │ +[\d,]+ ops\/s │ +\d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\) │/);
  // the answer's budget (test/view/widths.test.js holds a measured one to 32): here 25 before the
  // end's two rows and its verdict clause
  assert.ok(lines.length <= 28, `${lines.length} lines`);
  assert.doesNotMatch(result.stdout, /│ round /, 'the rounds are --verbose’s');
  const verbose = await cli(['compare', '--quick', '--rounds', '3', '--verbose', '--no-save']);
  assert.match(verbose.stdout, /workers ops\/s .* procs ops\/s .* workers\/procs \(95% CI\)/);
  assert.match(verbose.stdout, /median .* \d+\.\d\d \(\d+\.\d\d-\d+\.\d\d\) │$/m);
  assert.ok(
    Math.max(...result.stdout.split('\n').map((line) => [...line].length)) <= 80,
    'fits 80 columns off a terminal',
  );
  // eslint-disable-next-line no-control-regex -- the escape that starts a color
  assert.doesNotMatch(result.stdout, /\u001b\[/, 'no color when stdout is not a terminal');
  // no progress bar off a terminal: the one line on stderr is where the results were saved
  assert.match(result.stderr, /^mmapbench: saved \S+compare-\d{8}T\d{6}\.\d{3}Z\.json$/);
});

test('workers and procs print one row per worker and the aggregate', async () => {
  for (const mode of ['workers', 'procs']) {
    const result = await cli([mode, '--quick', '-k', '2']);
    assert.equal(result.exitCode, 0, result.stderr);
    assert.match(result.stdout, mode === 'workers' ? /│ 1\s+│ 0 \(pid \d+\)/ : /│ 1\s+│ 1 \(pid \d+\)/);
    assert.match(result.stdout, /│ 1\s+│\s+all │\s+40 │/);
    assert.match(result.stdout, new RegExp(`^${mode}: [\\d,]+ ops/s`, 'm'));
  }
});

test('tasks lists every built-in task with its parameters', async () => {
  const result = await cli(['tasks', '--json']);
  assert.equal(result.exitCode, 0);
  const list = JSON.parse(result.stdout);
  assert.deepEqual(
    list.map((task) => task.name),
    BUILTIN_TASKS,
  );
  assert.ok(list.find((task) => task.name === 'readfile-async').params.concurrency);
  assert.equal(list.find((task) => task.name === 'pool-size').params.poolSize.default, 262144);
  // a line each, in 80 columns, and one task in full
  const table = await cli(['tasks']);
  const lines = table.stdout.split('\n');
  for (const name of BUILTIN_TASKS)
    assert.equal(lines.filter((line) => line.startsWith(`${name}  `)).length, 1, `${name}: one line`);
  assert.match(
    table.stdout,
    /^pool-size +fs\.readFileSync\(file\) per op with Buffer\.poolSize set to\n +--pool-size in setup +--pool-size$/m,
  );
  assert.ok(Math.max(...lines.map((line) => [...line].length)) <= 80);
  const one = await cli(['tasks', 'pool-size']);
  assert.equal(one.exitCode, 0, one.stderr);
  assert.match(one.stdout, /^mmapbench tasks: pool-size\n/);
  assert.match(one.stdout, /^ {2}--pool-size size \(default 262144\)$/m);
  assert.deepEqual(one.stdout, (await cli(['tasks', '--task', 'pool-size'])).stdout, '--task says the same');
});

test('fixtures creates the four named files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const result = await cli(['fixtures', '--fixtures-dir', dir, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(
    JSON.parse(result.stdout).map((file) => [file.name, file.size]),
    [
      ['small', 128],
      ['med', 65536],
      ['large', 1048576],
      ['huge', 8388608],
    ],
  );
});

test('a usage error from the real bin: one line on stderr, exit 2, nothing on stdout, no stack', async () => {
  const result = await cli(['compare', '-k', '0']);
  assert.equal(result.exitCode, 2);
  assert.equal(result.stderr, 'mmapbench: -k 0 is invalid: it must be a whole number of 1 or more');
  assert.equal(result.stdout, '');
});

test('--verbose adds the stack trace to a failure', async () => {
  const result = await cli(['workers', '--task', fixture('throws.js'), '--quick', '--verbose']);
  assert.equal(result.exitCode, 1);
  assert.match(result.stderr, /worker 1 failed: disk on fire/);
  assert.match(result.stderr, /\n\s+at .*throws\.js/);
});

// here the workers' faults; the processes' are in test/long/integration.test.js
for (const [mode, task, message] of FAULTS.filter(([mode]) => mode === 'workers'))
  test(`${mode}: ${task} fails the run with a named worker and leaves no process`, () =>
    failsNamingIt(mode, task, message));

// procs' hang, and the process that never finishes exiting: test/long/integration.test.js
test('workers: a hang past --timeout ignoring SIGTERM is killed with SIGKILL', () => hangIsKilled('workers'));

const calibrationFaults = [
  [
    ['--task', fixture('env-probe.js'), '--env', 'PROBE=calibrating'],
    /^mmapbench: the calibration run failed: PROBE=calibrating \(task env-probe, in setup, warmup or run\)$/,
  ],
  // a calibration that exits early or hangs: test/long/integration.test.js
];
for (const [args, message] of calibrationFaults)
  test(`calibration (--duration) fails like a cell: ${args[1].split('/').at(-1)}`, () =>
    calibrationFails(args, message));

test('a failure in a later round still prints the rounds already measured', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-test-'));
  const result = await cli([
    'compare',
    '--task',
    fixture('fails-late.js'),
    '--quick',
    '--rounds',
    '3',
    '--json',
    '--fixtures-dir',
    dir,
  ]);
  assert.equal(result.exitCode, 1);
  const doc = json(result);
  assert.equal(doc.status, 'failed');
  assert.match(doc.error.message, /failed: round two/);
  assert.equal(doc.rounds.filter((round) => round.complete).length, 1);
  assert.equal(doc.ratio.n, 1);
  // the rounds measured are saved, with the failure, and the error is the last word
  assert.match(result.stderr, /^mmapbench: saved (\S+)\nmmapbench: (worker|process) \d failed: round two/);
  const saved = measured(readFileSync(result.stderr.match(/^mmapbench: saved (\S+)$/m)[1], 'utf8'));
  assert.deepEqual(saved, doc);
});

test('Ctrl-C stops every process, prints what finished marked interrupted and how to finish it, exits 130', async () => {
  const mark = uniqueMark();
  const run = cli([
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
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
  ]);
  // wait until round 2 is under way, then interrupt the CLI the way a terminal does
  const seen = processCounter(mark);
  assert.ok(await until(() => seen() >= 5), 'round 2 started');
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130);
  const doc = json(result);
  assert.equal(doc.status, 'interrupted');
  assert.ok(doc.rounds.filter((round) => round.complete).length >= 1);
  assert.ok(doc.rounds.length < 20);
  assert.match(result.stderr, /interrupted by SIGINT; the results above are what finished/);
  assert.deepEqual(processesMarked(mark), []);
  const file = result.stderr.match(/^mmapbench: saved (\S+)$/m)[1];
  const saved = measured(readFileSync(file, 'utf8'));
  assert.equal(saved.status, 'interrupted');
  assert.deepEqual(saved, doc);
  // then how to go on with it, with what its --resume must be given again, and the error last
  assert.deepEqual(result.stderr.trim().split('\n').slice(-3), [
    `mmapbench: saved ${file}`,
    `mmapbench: to finish the run: mmapbench compare --resume ${resolve(file)} --task ${fixture('slow.js')} --env MMAPBENCH_TEST_MARK\\=${mark}`,
    'mmapbench: interrupted by SIGINT; the results above are what finished',
  ]);
});

test('a task returns only its declared metrics, as finite numbers, to the CLI', async () => {
  const result = await cli(['procs', '--task', fixture('noisy-metrics.js'), '--quick', '-k', '1', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const cell = json(result).rounds[0].procs;
  assert.deepEqual(cell.workers[0].metrics, { reads: 20 });
  assert.deepEqual(cell.metrics, { reads: 20 });
  assert.ok(result.stdout.length < 100_000, 'the junk never crossed');
});

test('a --node that never answers gives way to Ctrl-C', async () => {
  const run = cli(['compare', '--quick', '--node', fixture('hangs-as-node.sh')]);
  assert.ok(await until(() => childrenOf(run.pid).length > 0), 'the check is running');
  const started = Date.now();
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  assert.ok(Date.now() - started < 5000, 'it did not wait for the check to time out');
  assert.match(result.stderr, /^mmapbench: interrupted by SIGINT/m);
});

// slow.js calibrates fast and runs 0.4 s a cell, so its first round always resizes the cells: a
// pilot, which counts in no figure. No calibration nor round starts once the budget is spent:
// with 0.1 s none runs after the calibration; with 0.6 s the first round does (where calibrating
// took under 0.6 s) and is the only one.
test('a budget that ends before any round counts: one line, exit 6, the run saved with a null ratio', async () => {
  const args = ['compare', '--task', fixture('slow.js'), '--duration', '0.05', '--warmup', '0', '-k', '1'];
  for (const maxTime of ['0.1', '0.6']) {
    const out = mkdtempSync(join(tmpdir(), 'mmapbench-short-'));
    const result = await cli([...args, '--max-time', maxTime, '--out', out, '--json']);
    assert.equal(result.exitCode, 6, result.stderr);
    const doc = json(result);
    assert.equal(doc.ratio, null);
    assert.equal(doc.verdict, null);
    assert.equal(doc.stop, 'max-time');
    assert.deepEqual(Object.keys(doc.shortBudget).sort(), [
      'counted',
      'maxTime',
      'pilot',
      'roundSeconds',
      'suggestMaxTime',
    ]);
    assert.equal(doc.shortBudget.counted, 0);
    const budget = maxTime.replace('.', '\\.');
    const lines = result.stderr.trim().split('\n');
    if (maxTime === '0.1' || doc.rounds.length === 0) {
      assert.equal(doc.rounds.length, 0);
      assert.equal(doc.shortBudget.roundSeconds, null);
      const line = `^mmapbench: no round ran within the ${budget} s budget: calibrating took [\\d.]+ s; give --max-time \\d+ or more$`;
      assert.match(lines.at(-1), new RegExp(line), 'the last line, with the fix');
    } else {
      assert.equal(doc.rounds.length, 1);
      assert.equal(doc.rounds[0].pilot, true);
      const line = `^mmapbench: no round counted within the ${budget} s budget: the first round took [\\d.]+ s and sized the cells \\(it counts in no figure\\); give --max-time \\d+ or more$`;
      assert.match(lines.at(-1), new RegExp(line), 'the last line, with the fix');
    }
    assert.match(result.stderr, /^mmapbench: saved \S+compare-\S+\.json$/m, 'kept before the error');
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack');
    const saved = readdirSync(out).find((name) => name.endsWith('.json'));
    assert.equal(JSON.parse(readFileSync(join(out, /** @type {string} */ (saved)), 'utf8')).shortBudget.counted, 0);
  }
});
