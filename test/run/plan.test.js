import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { buildPlan, resolveParams } from '../../src/run/plan.js';
import { inheritedEnv } from '../../src/run/cell-env.js';
import { STEADY_CAP, runnerSpec } from '../../src/run/work.js';
import { planVariant } from '../../src/commands/reproduce/runner.js';
import { loadTask } from '../../src/tasks/index.js';

test('task parameters take defaults and given values typed as declared, and reject what the task lacks', async () => {
  const pool = await loadTask('pool-size');
  assert.deepEqual(resolveParams(pool, {}), { poolSize: 256 * 1024 });
  assert.deepEqual(resolveParams(pool, { poolSize: '1m' }), { poolSize: 1024 * 1024 });
  assert.deepEqual(resolveParams(pool, { poolSize: 8192 }), { poolSize: 8192 });
  assert.throws(() => resolveParams(pool, { concurrency: 4 }), {
    kind: 'usage',
    message: /has no parameter concurrency \(its parameters: --pool-size\)/,
  });
  const async = await loadTask('readfile-async');
  assert.deepEqual(resolveParams(async, { concurrency: 8 }), { concurrency: 8 });
  assert.throws(() => resolveParams(async, { concurrency: 'x' }), {
    kind: 'usage',
    message: /--concurrency x is invalid/,
  });
  const promises = await loadTask('fs-promises');
  assert.throws(() => resolveParams(promises, { op: 'chmod' }), {
    kind: 'usage',
    message: /--param op=chmod is not one of/,
  });
});

test('quick plans are small; k above the CPU count warns; the plan is frozen', async () => {
  const quick = await buildPlan({ command: 'compare', quick: true });
  assert.equal(quick.iterations, 20);
  assert.equal(quick.duration, null);
  assert.equal(quick.rounds, 2);
  assert.ok(Object.isFrozen(quick) && Object.isFrozen(quick.env) && Object.isFrozen(quick.task));
  assert.throws(() => {
    quick.iterations = 5;
  }, TypeError);
  const cores = os.availableParallelism();
  const wide = await buildPlan({ command: 'workers', k: cores + 1, iterations: 5 });
  assert.equal(wide.rounds, 1);
  assert.equal(wide.warnings[0].code, 'oversubscribed');
  assert.match(wide.warnings[0].text, new RegExp(`-k ${cores + 1} exceeds`));
  const timed = await buildPlan({ command: 'compare' });
  assert.equal(timed.iterations, null);
  assert.equal(timed.duration, 0.1, 'compare: short cells, rounds until decided or the budget');
  // stopping once decided, unless --precision asks for a width
  assert.deepEqual(timed.stop, {
    rounds: null,
    minRounds: 5,
    precision: 0.05,
    maxSeconds: 60,
    sequential: true,
    margin: 0.1,
  });
  const width = await buildPlan({ command: 'compare', precision: 0.02, margin: 0.05 });
  assert.deepEqual([width.stop.sequential, width.stop.precision, width.stop.margin], [false, 0.02, 0.05]);
  const fixed = await buildPlan({ command: 'compare', rounds: 7 });
  assert.equal(fixed.duration, 1);
  assert.equal(fixed.stop.rounds, 7);
  const single = await buildPlan({ command: 'workers' });
  assert.equal(single.stop.rounds, 1, 'one mode: a fixed count');
  // the window the default chose may be lengthened by the noise; one the user chose is kept
  assert.equal(timed.schedule, true);
  for (const given of [{ rounds: 7 }, { duration: 0.1 }, { iterations: 500 }, { quick: true }, { task: 'message' }])
    assert.equal((await buildPlan({ command: 'compare', ...given })).schedule, false, JSON.stringify(given));
  assert.equal(single.schedule, false);
});

test('a --duration close to --timeout is warned about; k beyond the cap needs --force', async () => {
  const plan = await buildPlan({ command: 'compare', duration: 5, timeout: 6, k: 1 });
  assert.ok(
    plan.warnings.some(
      ({ code, text }) => code === 'timeout' && /^--duration 5 is close to --timeout 6: .* raise --timeout$/.test(text),
    ),
    plan.warnings.map(({ text }) => text).join('\n'),
  );
  const fine = await buildPlan({ command: 'compare', duration: 1, timeout: 300, k: 1 });
  assert.equal(fine.warnings.length, 0);
  await assert.rejects(buildPlan({ command: 'procs', k: 4000, iterations: 1 }), {
    kind: 'usage',
    message: /pass --force/,
  });
  assert.equal((await buildPlan({ command: 'procs', k: 4000, force: true, iterations: 1 })).k, 4000);
  // past what any cell may start, --force lifts nothing
  await assert.rejects(buildPlan({ command: 'procs', k: 100000, force: true, iterations: 1 }), {
    kind: 'usage',
    message: /even with --force/,
  });
});

test('reproduce plans a setting with every parameter it names, not only those with an option of their own', async () => {
  // `op` has no option of its own: it used to be dropped on the way through a rebuilt argv
  const plan = await planVariant(
    { id: 'stat', task: 'fs-promises', file: 'small', params: { op: 'stat', concurrency: 4 } },
    { k: 1, quick: true, timeout: 60 },
  );
  assert.equal(plan.params.op, 'stat');
  assert.equal(plan.params.concurrency, 4);
  assert.equal(runnerSpec(plan, { iterations: 3, warmup: 1 }).params.op, 'stat');
});

test('reproduce baselines drop the allocator variables of the shell; a setting keeps its own', async () => {
  process.env.MALLOC_ARENA_MAX = '7';
  try {
    const base = await planVariant(
      { id: 'default', task: 'readfilesync', file: 'small' },
      { k: 1, quick: true, timeout: 60 },
    );
    assert.equal(base.env.MALLOC_ARENA_MAX, undefined);
    const arena = await planVariant(
      { id: 'arena-1', task: 'readfilesync', file: 'small', env: { MALLOC_ARENA_MAX: '1' } },
      { k: 1, quick: true, timeout: 60 },
    );
    assert.equal(arena.env.MALLOC_ARENA_MAX, '1');
    const compare = await buildPlan({ command: 'compare', file: 'small', quick: true });
    assert.equal(compare.env.MALLOC_ARENA_MAX, '7', 'compare runs with the shell as it is');
  } finally {
    delete process.env.MALLOC_ARENA_MAX;
  }
});

test('the default warmup is until steady, in tenths of the timed ops within the cap; a count, --quick or published is fixed', async () => {
  const steady = await buildPlan({ command: 'compare', file: 'small', iterations: 4005 });
  assert.equal(steady.warmup, 'steady');
  const spec = runnerSpec(steady, { iterations: 4005, warmup: 'steady' });
  assert.equal(spec.warmup, 0);
  assert.deepEqual(spec.steady, { batch: 400, maxBatches: STEADY_CAP.windows * 10, capMs: STEADY_CAP.seconds * 1000 });
  assert.equal(runnerSpec(steady, { iterations: 5, warmup: 'steady' }).steady?.batch, 1, 'a batch is at least one op');
  const fixed = await buildPlan({ command: 'compare', file: 'small', iterations: 4000, warmup: 300 });
  assert.equal(fixed.warmup, 300);
  assert.equal(runnerSpec(fixed, { iterations: 4000, warmup: 300 }).steady, undefined);
  assert.equal((await buildPlan({ command: 'compare', file: 'small', quick: true })).warmup, 2);
});

test("the cells' inherited environment: all but Node's start-only variables, and for reproduce the allocator's too", () => {
  const env = {
    PATH: '/bin',
    NODE_EXTRA_CA_CERTS: '/ca.pem',
    MALLOC_ARENA_MAX: '2',
    GLIBC_TUNABLES: 'x',
    LD_PRELOAD: '/j.so',
  };
  assert.deepEqual(inheritedEnv(env, { allocator: true }), {
    PATH: '/bin',
    MALLOC_ARENA_MAX: '2',
    GLIBC_TUNABLES: 'x',
    LD_PRELOAD: '/j.so',
  });
  assert.deepEqual(inheritedEnv(env, { allocator: false }), { PATH: '/bin' });
});

test("the calibration warms up for two of the cells' windows, within 0.2 to 1 s", async () => {
  const { calibrationWarmupMs } = await import('../../src/run/calibrate.js');
  assert.equal(calibrationWarmupMs(0.1), 200);
  assert.equal(calibrationWarmupMs(0.25), 500);
  assert.equal(calibrationWarmupMs(1), 1000);
  assert.equal(calibrationWarmupMs(0.01), 200);
  assert.equal(calibrationWarmupMs(10), 1000);
});
