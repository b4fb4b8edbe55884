// Issue 102: a compare's rounds hold plain trees beside its cells (run/plain-tree.js): an app of
// a few lines running the task's work with nothing of mmapbench's, so the answer reads the heap
// state an app without mmapbench draws the same minutes. What the trees measured is never
// asserted, only where they ran, what they counted and where the answer puts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, ENV, cli, fixture, keptIn, noneLeft, processesMarked, uniqueMark, until, measured } from '../helpers.js';

const LIMIT = { timeout: 120000 };

test(
  "a compare of fixed rounds runs a plain tree a mode in its second round, on its cells' work, and keeps it in the round and the mode",
  LIMIT,
  async () => {
    const mark = uniqueMark();
    const run = await cli([
      'compare',
      '-k',
      '2',
      '--rounds',
      '2',
      '--iterations',
      '300',
      '--warmup',
      '30',
      '--main',
      'off',
      '--json',
      '--no-save',
      '--env',
      `MMAPBENCH_TEST_MARK=${mark}`,
    ]);
    assert.equal(run.exitCode, 0, run.stderr);
    const document = measured(run.stdout);
    const [first, second] = document.rounds;
    assert.equal(first.plain, undefined, 'none in the first round');
    for (const mode of ['workers', 'procs']) {
      const tree = second.plain[mode];
      // both members' windows: the cells' 300 ops a member, after their 30
      assert.equal(tree.ops, 600);
      assert.equal(tree.warmup, 30);
      assert.ok(Number.isInteger(tree.minflt) && tree.minflt >= 0);
      assert.ok(tree.throughput > 0);
      const share = document[mode].plain;
      assert.equal(share.trees, 1);
      assert.equal(share.faultsPerOp.length, 1);
      assert.equal(share.faultsPerOp[0], tree.minflt / tree.ops);
      assert.equal(share.slow, tree.minflt / tree.ops > 1 ? 1 : 0);
      // its members held still until their tree's memory was read: what they added, a worker
      assert.equal(typeof tree.addedMiB, 'number', mode);
      assert.ok(tree.addedMiB > 0, mode);
      assert.deepEqual(share.addedMemory.samples, [tree.addedMiB]);
    }
    assert.deepEqual(processesMarked(mark), [], 'no plain tree left running');
  },
);

test(
  "a task of one op (op(ctx)) runs in a plain tree too, and a pool run's through the same pool, in both runtimes",
  LIMIT,
  async () => {
    const op = await cli([
      'compare',
      '--task',
      fixture('sync-op.mjs'),
      '-k',
      '1',
      '--rounds',
      '2',
      '--iterations',
      '200',
      '--warmup',
      '10',
      '--main',
      'off',
      '--json',
      '--no-save',
    ]);
    assert.equal(op.exitCode, 0, op.stderr);
    assert.equal(measured(op.stdout).rounds[1].plain.procs.ops, 200);
    // workerpool: its workers' script of the plain app's own (pool/plain-workerpool.js); tinypool's
    // and piscina's take pool/plain-task.js as it is, through the builder the pool cells test
    const args = ['compare', '-k', '2', '--pool', 'workerpool', '--rounds', '2', '--iterations', '400'];
    const run = await cli([...args, '--batch', '100', '--warmup', '100', '--main', 'off', '--json', '--no-save']);
    assert.equal(run.exitCode, 0, run.stderr);
    const { rounds, workers, procs } = measured(run.stdout);
    for (const mode of ['workers', 'procs']) {
      // K workers' windows through the pool, in tasks of --batch ops: 8 tasks of 100
      assert.equal(rounds[1].plain[mode].ops, 800, mode);
      assert.equal(rounds[1].plain[mode].warmup, 100);
      // the pool's workers, and in processes the pool's children, held until read
      assert.ok(rounds[1].plain[mode].addedMiB > 0, mode);
    }
    assert.equal(workers.plain.trees, 1);
    assert.equal(procs.plain.trees, 1);
  },
);

test('which runs have plain trees: a compare of both modes, raw or pooled; not --quick, --isolate, an A/A run, one mode, or the message task', async () => {
  const { plainTreesIn } = await import('../../src/run/plain-tree.js');
  const plan = (/** @type {any} */ more) =>
    /** @type {any} */ ({ task: {}, quick: false, aa: null, pool: null, ...more });
  const both = /** @type {Array<'workers'|'procs'>} */ (['workers', 'procs']);
  assert.equal(plainTreesIn(plan({}), both), true);
  assert.equal(plainTreesIn(plan({ pool: { name: 'tinypool', isolate: false } }), both), true);
  assert.equal(plainTreesIn(plan({ pool: { name: 'tinypool', isolate: true } }), both), false);
  assert.equal(plainTreesIn(plan({ quick: true }), both), false);
  assert.equal(plainTreesIn(plan({ aa: 'workers' }), both), false);
  assert.equal(plainTreesIn(plan({ task: { parent: true } }), both), false);
  assert.equal(plainTreesIn(plan({}), ['workers']), false);
  // and --quick's run holds none, as the CLI runs it
  const quick = await cli(['compare', '--quick', '-k', '1', '--main', 'off', '--json', '--no-save']);
  assert.equal(quick.exitCode, 0, quick.stderr);
  assert.ok(measured(quick.stdout).rounds.every((/** @type {any} */ round) => round.plain === undefined));
});

test("the plain app imports nothing of mmapbench but the pool builder (Node's modules alone), and its members and pool tasks node:fs and the task alone", () => {
  const source = (/** @type {string} */ name) =>
    readFileSync(new URL(`../../src/run/${name}`, import.meta.url), 'utf8');
  const imports = (/** @type {string} */ name) =>
    [...source(name).matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
  const dynamic = (/** @type {string} */ name) =>
    [...source(name).matchAll(/await import\(([^)]*)\)/g)].map((match) => match[1]);
  assert.deepEqual(imports('plain-host.js'), ['node:child_process', 'node:fs', 'node:url', 'node:worker_threads']);
  assert.deepEqual(dynamic('plain-host.js'), ["'./pool/build.js'"]);
  assert.deepEqual(imports('pool/build.js'), ['node:module', 'node:url']);
  assert.deepEqual(imports('plain-member.js'), ['./plain-ops.js']);
  assert.deepEqual(dynamic('plain-member.js'), ["'node:worker_threads'"]);
  assert.deepEqual(imports('plain-ops.js'), ['node:fs']);
  assert.deepEqual(dynamic('plain-ops.js'), ['spec.taskUrl']);
  assert.deepEqual(imports('pool/plain-task.js'), ['../plain-ops.js']);
  assert.deepEqual(dynamic('pool/plain-task.js'), []);
  assert.deepEqual(imports('pool/plain-workerpool.js'), ['node:module', './plain-task.js']);
});

test("a kept run's plain trees come back with its rounds when it is resumed, and count in its share again", async () => {
  const { loadSaved } = await import('../../src/commands/index.js');
  const { sessionOf } = await import('../../src/saved/resume.js');
  const { pointView } = await import('../../src/document/points-of.js');
  const document = pointView(loadSaved(fixture('saved/compare-plain-trees.json')).document);
  const session = sessionOf(document, ['workers', 'procs']);
  const kept = document.rounds.flatMap((/** @type {any} */ round) => (round.plain ? [[round.index, round.plain]] : []));
  assert.ok(kept.length >= 2);
  assert.deepEqual(
    session.rounds.flatMap((round) => (round.plain ? [[round.index, round.plain]] : [])),
    kept,
  );
});

test(
  "Ctrl-C while a plain tree runs: exit 130, nothing of it left running, and the round's cells kept",
  LIMIT,
  async () => {
    const out = mkdtempSync(join(tmpdir(), 'mmapbench-plain-'));
    const mark = uniqueMark();
    const run = execa(
      process.execPath,
      [
        BIN,
        'compare',
        '-k',
        '1',
        '--rounds',
        '2',
        '--iterations',
        '40000',
        '--warmup',
        '10',
        '--main',
        'off',
        '--out',
        out,
        '--env',
        `MMAPBENCH_TEST_MARK=${mark}`,
      ],
      { reject: false, env: ENV },
    );
    // the plain app started, its members under way
    const plainRunning = () =>
      processesMarked(mark).some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('plain-member.js');
        } catch {
          return false;
        }
      });
    await until(plainRunning, 100000);
    run.kill('SIGINT');
    assert.equal((await run).exitCode, 130);
    await noneLeft(mark);
    const kept = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
    const second = kept.document.points[0].rounds.find((/** @type {any} */ round) => round.index === 2);
    assert.ok(second.workers && second.procs, 'the cells before it kept');
    assert.ok(!second.plain?.workers || !second.plain?.procs, 'a plain tree cut short is not kept');
  },
);
