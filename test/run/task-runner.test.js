// The warmup until steady, in-process: its stopping rule, and what prepare() reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { loopOf, measure, prepare, stillTiering, stoppedTrending } from '../../src/run/task-runner.js';
import { UNTIMED_ROUND, latencySampler, opTimesOf, runSampled } from '../../src/run/latency-sampler.js';
import { fixture } from '../helpers.js';

test('steady: the last three batches no more than 5% faster than the three before, by medians', () => {
  assert.equal(stoppedTrending([50, 40, 30, 20, 20]), false, 'six batches at least');
  assert.equal(stoppedTrending([50, 45, 40, 20, 20, 20]), false, 'still getting faster');
  assert.equal(stoppedTrending([20, 21, 20, 20, 19.5, 20]), true, 'flat');
  assert.equal(stoppedTrending([20, 20, 20, 25, 26, 24]), true, 'slower is not a trend to wait out');
  assert.equal(stoppedTrending([20, 20, 20, 10, 20, 20]), true, 'one fast batch moves no median');
  assert.equal(stoppedTrending([30, 30, 30, 90, 20, 20]), false, 'nor does one preempted batch hide a trend');
});

/** @param {string} name @param {number} iterations */
const spec = (name, iterations) => ({
  taskUrl: pathToFileURL(fixture(name)).href,
  file: '/dev/null',
  fileSize: 0,
  params: {},
  k: 1,
  warmup: 0,
  iterations,
  metrics: [],
  steady: { batch: Math.floor(iterations / 10), maxBatches: 100, capMs: 5000 },
});

test('a task that gets faster over its first 3,000 ops warms up past them, and says it was not capped', async () => {
  // batches of 500: six span the ramp, each 15 µs an op faster than the last. At the sixth, the
  // first the rule may stop at, the last three's median is 2.4× faster than the three before,
  // so two preempted batches cannot end the warmup early (with batches of 250 it took 27% more:
  // 5 of 15 runs failed beside two spinning processes, 0 of 15 now)
  const { warmup } = await prepare(spec('warms-up.js', 5000), 0, 'procs');
  assert.ok(warmup);
  assert.ok(warmup.ops > 3000, `warmed up for ${warmup.ops} ops`);
  assert.equal(warmup.ops % 500, 0, 'in batches of a tenth of the timed ops');
  assert.equal(warmup.capped, false);
});

test('a task that never stops getting faster is stopped at the cap, and says so', async () => {
  const capped = spec('never-steady.js', 200);
  const { warmup } = await prepare({ ...capped, steady: { ...capped.steady, capMs: 20 } }, 0, 'procs');
  assert.ok(warmup);
  assert.equal(warmup.capped, true);
  assert.ok(warmup.ms >= 20 && warmup.ops < 100 * 20, 'stopped by the time cap, before the batch cap');
});

test('a fixed warmup reports none', async () => {
  const { warmup } = await prepare({ ...spec('warms-up.js', 2500), steady: undefined, warmup: 10 }, 0, 'procs');
  assert.equal(warmup, undefined);
});

test("the counters' /proc files are open before the task's setup, so nothing of the harness first runs at the release", async () => {
  const { ctx } = await prepare({ ...spec('counters-open.js', 10), steady: undefined }, 0, 'procs');
  const open = /** @type {string[]} */ (ctx.state.open);
  for (const file of ['stat', 'schedstat', 'status'])
    assert.ok(
      open.some((link) => new RegExp(`^/proc/${process.pid}/task/\\d+/${file}$`).test(link)),
      `${file} in ${open.join(', ')}`,
    );
});

/** A task that counts the ops it is asked for, call by call. */
const counting = () => {
  /** @type {number[]} */
  const calls = [];
  return {
    calls,
    task: { name: 'counting', run: (/** @type {any} */ _ctx, /** @type {number} */ n) => void calls.push(n) },
  };
};
const ctx = /** @type {any} */ ({ state: {} });

test('latency is sampled across the whole window: every op run once, about one in `every` timed on its own', () => {
  const { calls, task } = counting();
  const sampler = { ...latencySampler(undefined, 20_000), every: 8, guessed: false };
  assert.equal(runSampled(task, ctx, 20_000, sampler), undefined, 'a sync task takes no turn of the event loop');
  assert.equal(
    calls.reduce((a, b) => a + b, 0),
    20_000,
  );
  const single = calls.filter((n) => n === 1).length;
  assert.ok(sampler.timed >= single / 2 && sampler.timed <= single, `${sampler.timed} timed, ${single} single calls`);
  // runs of 1 to 15 ops, 8 on average: 2,500 timed on average, and never all nor a handful
  assert.ok(sampler.timed > 1000 && sampler.timed < 5000, `${sampler.timed} timed of 20,000 at every 8`);
  const times = opTimesOf(sampler);
  assert.ok('histogram' in times);
  assert.equal(
    times.histogram.reduce((sum, [, count]) => sum + count, 0),
    sampler.timed,
  );
});

test('how often to time an op follows how long one takes: a slow op every time, a fast one seldom', () => {
  assert.equal(latencySampler(1e6, 1000).every, 1, 'a millisecond op: timing it costs nothing to speak of');
  const fast = latencySampler(100, 1e6);
  assert.ok(fast.every >= 100, `a 100 ns op: one in ${fast.every}`);
  assert.ok(latencySampler(1e6, 1e8).every >= 1e8 / 4096, 'never more than it times');
  const guessed = latencySampler(undefined, 1e6);
  const { task } = counting();
  runSampled(task, ctx, 1000, guessed);
  assert.equal(guessed.guessed, false, 'without a warmup, the first op timed decides');
});

test('an async task is run whole and says why it has no latency', async () => {
  let ran = 0;
  const task = {
    name: 'async',
    run: async (/** @type {any} */ _ctx, /** @type {number} */ n) => {
      ran += n;
    },
  };
  const sampler = { ...latencySampler(undefined, 500), every: 4, guessed: false };
  await runSampled(task, ctx, 500, sampler);
  assert.equal(ran, 500);
  assert.match(/** @type {any} */ (opTimesOf(sampler)).untimed, /overlap/);
});

test("a built-in task's window carries its sampled latency, and none with MMAPBENCH_LATENCY=off", async () => {
  const prepared = await prepare(
    { ...spec('warms-up.js', 2000), steady: undefined, warmup: 100, slices: true },
    0,
    'procs',
  );
  const sample = await measure(prepared, 2000);
  assert.ok(sample.opTimes && 'histogram' in sample.opTimes, 'timed');
  assert.ok(sample.opTimes.ops > 0 && sample.opTimes.ops <= 2000);
  assert.equal(
    sample.slices?.reduce((sum, slice) => sum + slice.ops, 0),
    2000,
    'the tenths still hold every op',
  );
  process.env.MMAPBENCH_LATENCY = 'off';
  try {
    const off = await measure(prepared, 2000);
    assert.equal(off.opTimes, undefined);
    assert.equal(off.slices?.length, 10);
  } finally {
    delete process.env.MMAPBENCH_LATENCY;
  }
});

test("issue 102: in a round that times no op, a built-in task's window is still cut in tenths and says why it has no latency", async () => {
  const prepared = await prepare(
    {
      ...spec('warms-up.js', 2000),
      steady: undefined,
      warmup: 100,
      slices: true,
      timesOps: /** @type {const} */ (false),
    },
    0,
    'procs',
  );
  const sample = await measure(prepared, 2000);
  assert.deepEqual(sample.opTimes, { untimed: UNTIMED_ROUND });
  assert.equal(sample.slices?.length, 10);
  // a user's task with a run() of its own is never timed, and says nothing of rounds
  const own = await prepare(
    { ...spec('warms-up.js', 2000), steady: undefined, warmup: 100, timesOps: false },
    0,
    'procs',
  );
  assert.equal((await measure(own, 2000)).opTimes, undefined);
});

test("a built-in task warms up through the window's own sampled loop, and each window's sampler starts afresh", async () => {
  /** @type {number[]} */
  const calls = [];
  const task = { name: 'counting', run: (/** @type {any} */ _ctx, /** @type {number} */ n) => void calls.push(n) };
  const set = { module: task, ctx: /** @type {any} */ ({ state: {} }), loaded: 0n, setUp: 0n };
  const builtIn = { ...spec('warms-up.js', 2000), steady: undefined, warmup: 1000, slices: true };
  await prepare(builtIn, 0, 'procs', undefined, undefined, /** @type {any} */ (set));
  assert.equal(
    calls.reduce((a, b) => a + b, 0),
    1000,
    'every warmup op run once',
  );
  // the window's loop: its first op timed alone (a call for no op before it, as the window
  // makes), and that op's time says how often to time the rest
  assert.deepEqual(calls.slice(0, 2), [0, 1]);
  assert.ok(calls.length < 1000, `${calls.length} calls: the rest in runs, not one by one`);

  /** @type {number[]} */
  const calledWhole = [];
  const user = { name: 'user', run: (/** @type {any} */ _ctx, /** @type {number} */ n) => void calledWhole.push(n) };
  await prepare(
    { ...builtIn, slices: undefined },
    0,
    'procs',
    undefined,
    undefined,
    /** @type {any} */ ({ ...set, module: user }),
  );
  assert.deepEqual(calledWhole, [1000], "a user's task warms up as its window runs it: in one call");

  // the same object each time (a second one would deoptimize the loop V8 optimized on the
  // first), its counts emptied and its fields set again
  const first = latencySampler(undefined, 100);
  runSampled(task, set.ctx, 100, first);
  assert.ok(first.timed > 0 && first.counts.size > 0);
  const next = latencySampler(5000, 100);
  assert.equal(next, first);
  assert.equal(next.timed, 0);
  assert.equal(next.counts.size, 0);
  assert.equal(next.guessed, false);
});

test('a steady warmup waits while V8 installs optimized code: the code on the heap unchanged for 3 batches', () => {
  assert.equal(stillTiering([]), true);
  assert.equal(stillTiering([100, 100, 100]), true, 'too few batches to tell');
  assert.equal(stillTiering([100, 100, 100, 100]), false);
  assert.equal(stillTiering([100, 120, 120, 120, 120]), false);
  assert.equal(stillTiering([100, 100, 100, 100, 140]), true, 'code installed in the last batch');
  assert.equal(stillTiering([100, 100, 140, 140, 140]), true, 'and two batches ago');
});

test("a task's op(ctx) runs as a loop: sync while its ops are, each async op awaited before the next", async () => {
  let calls = 0;
  const sync = loopOf({ op: () => void calls++ });
  assert.equal(sync.run(/** @type {any} */ ({}), 5), undefined, 'a sync loop returns nothing to await');
  assert.equal(calls, 5);
  assert.equal(sync.asyncOps, undefined);

  let running = 0;
  let most = 0;
  let done = 0;
  const async = loopOf({
    op: async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      done++;
    },
  });
  const called = async.run(/** @type {any} */ ({}), 4);
  assert.equal(typeof called?.then, 'function');
  await called;
  assert.equal(done, 4);
  assert.equal(most, 1, 'never two ops at once');
  assert.equal(async.asyncOps, true);
  // a task with a loop of its own is left as it is
  const own = { run() {} };
  assert.equal(loopOf(own), own);
});

test('an op(ctx) task whose ops are async warms up as its window runs them: each op awaited and timed, once known async', async () => {
  let ops = 0;
  const task = loopOf(
    /** @type {any} */ ({
      name: 'async-op',
      async op() {
        await new Promise((resolve) => setImmediate(resolve));
        ops++;
      },
    }),
  );
  const set = { module: task, ctx: /** @type {any} */ ({ state: {} }), loaded: 0n, setUp: 0n };
  const sampler = latencySampler(undefined, 1); // the one sampler every window and warmup batch sets afresh
  // batches of 1, 2, 4, ... 32 ops: the first says the ops are async
  const warming = { ...spec('async-op.js', 200), steady: undefined, warmup: 63, warmupMs: 60_000, slices: true };
  await prepare(warming, 0, 'procs', undefined, undefined, /** @type {any} */ (set));
  assert.equal(ops, 63);
  assert.equal(sampler.untimed, null, 'the last batch timed its ops, as the window will');
  assert.ok(sampler.timed > 0);
});
