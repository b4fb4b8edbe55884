// A sweep's table and charts on a tiny --smoke grid, a variant's variables in its cells, and --ci
// without a gate (test/cli/sweep.test.js keeps its JSON, variants, and a failure keeping what
// finished; test/cli/ci.test.js the gate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, keptIn, startUntil } from '../helpers.js';

const lastLine = (text) => text.trimEnd().split('\n').at(-1);

const GRID = ['sweep', '-k', '1,2', '--variant', 'default', '--variant', 'arena1:MALLOC_ARENA_MAX=1', '--smoke'];

test('sweep --smoke of 2 × 2 points prints a row per point, the scaling reading and both charts per k group', async () => {
  const result = await cli([...GRID, '--verbose']);
  assert.equal(result.exitCode, 0, result.stderr);
  // --verbose: what a round of each point took, named as the tables name the point
  const costs = result.stderr.match(
    /^mmapbench: .*: a round took [\d.]+ s: timed windows [\d.]+ s \(\d+%\), the rest [\d.]+ s$/gm,
  );
  assert.equal(costs?.length, 4, result.stderr);
  assert.match(costs[3], /^mmapbench: arena1 · readfilesync · med \(64 KiB\) · k=2 · MALLOC_ARENA_MAX=1: /);
  assert.match(result.stderr, /^mmapbench: sweep of 4 points, 2 rounds each: about \d+ s$/m);
  const out = result.stdout;
  assert.match(out, /^mmapbench sweep: 4 points, node v\d+\.\d+\.\d+, task readfilesync, file med \(64 KiB\)$/m);
  assert.match(out, /^variant arena1: MALLOC_ARENA_MAX=1$/m);
  // off a terminal the table fits 80 columns: the long heads wrap onto a second line
  assert.match(out, /^│ variant +│ k +│ +workers │ +procs │ +workers\/procs │ +verdict │ +stop │$/m);
  assert.match(out, /^│ +│ +│ +ops\/s │ +ops\/s │ +\(95% CI\) │ +│ +│$/m);
  assert.ok(Math.max(...out.split('\n').map((line) => [...line].length)) <= 80, 'nothing is wider than 80');
  const pointRows = out.split('\n').filter((line) => /^│ (default|arena1) +│ [12] /.test(line));
  // the points' table, a table per measure beyond throughput (memory per added worker, start-up, ...),
  // then the account's: page faults and blocked time per op, both modes
  const rows = pointRows.slice(0, 4);
  for (const row of pointRows.slice(-4)) assert.match(row, /^│ (default|arena1) +│ [12] +(│ +[\d.]+ ){4}│$/);
  assert.equal(pointRows.length % 4, 0);
  // (a long head wraps: "memory per added worker:" above "workers")
  assert.match(out, /^│ variant │ k │ +memory per added worker: │ +procs │/m, 'memory per added worker');
  assert.match(out, /^│ variant │ k │ start-up: workers │ +procs │/m, 'start-up');
  assert.match(out, /│ +page faults per op: │ procs │ +blocked µs per op: │ procs │$/m);
  assert.deepEqual(
    rows.map((row) =>
      row
        .split('│')
        .slice(1, 3)
        .map((cell) => cell.trim()),
    ),
    [
      ['default', '1'],
      ['default', '2'],
      ['arena1', '1'],
      ['arena1', '2'],
    ],
  );
  for (const row of rows) assert.match(row, /│ +too few │ +2 rounds │$/);
  for (const variant of ['default', 'arena1']) {
    assert.match(
      out,
      new RegExp(
        `^scaling \\(variant ${variant}\\), efficiency = throughput\\(k\\) / \\(k/1 × throughput\\(1\\)\\):$`,
        'm',
      ),
    );
    assert.match(out, new RegExp(`^ops/s against k \\(variant ${variant}\\)`, 'm'));
    assert.match(out, new RegExp(`^workers/procs against k \\(variant ${variant}\\)`, 'm'));
  }
  assert.match(out, /^- workers: k=1 1\.00, k=2 \d+\.\d\d; too few rounds to tell where it stops gaining/m);
  assert.match(out, /^- procs: k=1 1\.00, k=2 \d+\.\d\d;/m);
  // the charts: a W and a P on the throughput chart, k ticks 1 and 2 under both
  assert.match(out, /W workers, P procs/);
  assert.equal(out.match(/^ +└┬─+┬▶$/gm)?.length, 4);
  assert.equal(out.match(/^ +1 +2 *$/gm)?.length, 4);
});

test("a variant's variables reach the cells of its points", async () => {
  const result = await cli([
    'sweep',
    '--task',
    fixture('env-probe.js'),
    '--variant',
    'probe:PROBE=from-the-variant',
    '-k',
    '1',
    '--smoke',
    '--json',
  ]);
  assert.equal(result.exitCode, 1, result.stderr);
  assert.match(result.stderr, /PROBE=from-the-variant/);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.status, 'failed');
  assert.match(doc.error.message, /PROBE=from-the-variant/);
});

test('--ci without a gate says so last; the run still exits 0', async () => {
  const result = await cli(['sweep', '--quick', '-k', '1', '--ci', '--no-save']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stderr, /^mmapbench: round 1 \(readfilesync · med \(64 KiB\) · k=1\): workers\/procs \d/m);
  assert.equal(
    lastLine(result.stderr),
    'mmapbench: no gate: add --fail-below RATIO to make this job fail when threads fall behind processes',
  );
});

test('a sweep interrupted after its pilot round prints what finished, and its kept file says how it ended', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-sweep-int-'));
  // calibrated cells: the first round is a pilot, which counts in no figure
  const args = [
    'sweep',
    '--task',
    fixture('account-probe.js'),
    '--param',
    'kind=sleep',
    '-k',
    '1,2',
    '--duration',
    '0.05',
  ];
  const { run } = await startUntil([...args, '--out', out], () => (keptIn(out)?.document.order.length ?? 0) >= 1);
  run.kill('SIGINT');
  const result = await run;
  assert.equal(result.exitCode, 130, result.stderr);
  assert.match(result.stdout, /^mmapbench sweep: 2 points, [^]*?INTERRUPTED/);
  const kept = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
  assert.match(
    result.stderr,
    new RegExp(`^mmapbench: saved ${kept.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
  );
  assert.equal(kept.document.status, 'interrupted');
  for (const point of kept.document.points) assert.notEqual(point.status, 'complete', point.id);
  assert.match(result.stderr.trim().split('\n').at(-1), /^mmapbench: interrupted by SIGINT/);
});

test('sweep --json: axes, every point with its figures and rounds, and rounds visiting the points in rotation', async () => {
  const result = await cli([...GRID, '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = JSON.parse(result.stdout);
  assert.equal(doc.command, 'sweep');
  assert.equal(doc.status, 'complete');
  assert.deepEqual(doc.axes.k, [1, 2]);
  assert.deepEqual(doc.axes.variant, [
    { name: 'default', env: {} },
    { name: 'arena1', env: { MALLOC_ARENA_MAX: '1' } },
  ]);
  assert.deepEqual(doc.config, { precision: null, margin: 0.1, maxTime: null, rounds: 2, quick: true });
  assert.deepEqual(
    doc.points.map((p) => [p.id, p.variant.name, p.k, p.task, p.file.label]),
    [
      ['p1', 'default', 1, 'readfilesync', 'med (64 KiB)'],
      ['p2', 'default', 2, 'readfilesync', 'med (64 KiB)'],
      ['p3', 'arena1', 1, 'readfilesync', 'med (64 KiB)'],
      ['p4', 'arena1', 2, 'readfilesync', 'med (64 KiB)'],
    ],
  );
  for (const point of doc.points) {
    assert.equal(point.stop, 'rounds');
    assert.ok(point.workers.throughput.median > 0 && point.procs.throughput.median > 0);
    assert.equal(point.ratio.n, 2);
    assert.ok(point.ratio.median > 0);
    assert.equal(point.ratio.ci95.length, 2);
    assert.ok('halfWidth' in point.ratio);
    assert.equal(point.rounds.length, 2);
    assert.ok(point.rounds.every((round) => round.complete && round.ratio > 0));
    // modes alternate round by round at each point
    assert.deepEqual(
      point.rounds.map((round) => round.order),
      [
        ['workers', 'procs'],
        ['procs', 'workers'],
      ],
    );
    assert.deepEqual(point.config.env, point.variant.env);
    assert.equal(point.node.version, doc.environment.node.version);
  }
  // round 2 starts one point further along: drift lands on every point, not on the last
  assert.deepEqual(doc.order, [
    { index: 1, points: ['p1', 'p2', 'p3', 'p4'] },
    { index: 2, points: ['p2', 'p3', 'p4', 'p1'] },
  ]);
  assert.equal(doc.scaling.length, 2);
  assert.deepEqual(
    doc.scaling.map((group) => group.points),
    [
      ['p1', 'p2'],
      ['p3', 'p4'],
    ],
  );
  for (const group of doc.scaling) {
    assert.deepEqual(
      group.workers.steps.map((step) => step.k),
      [1, 2],
    );
    assert.equal(group.workers.steps[0].efficiency, 1);
    assert.equal(group.workers.decided, false, 'two rounds give no throughput interval');
    // the K to run, its rule and its inputs: at most the CPUs this process may use
    for (const mode of ['workers', 'procs']) {
      const { recommended } = group[mode];
      assert.ok([1, 2].includes(recommended.k), mode);
      assert.equal(recommended.share, 0.5);
      assert.equal(recommended.cpus, doc.environment.cpu.usable);
      assert.ok(recommended.k <= recommended.cpus);
      assert.deepEqual(
        recommended.added.map((/** @type {any} */ step) => step.k),
        [2],
      );
      assert.ok(['share', 'cpus', 'measured'].includes(recommended.limit));
    }
  }
  assert.equal(typeof doc.environment.cpu.usable, 'number');
  assert.equal(doc.environment.cpu.host, os.cpus().length);
});
