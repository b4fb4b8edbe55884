// The warmup until steady, in-process: its stopping rule, and what prepare() reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { prepare, stoppedTrending } from '../../src/run/task-runner.js';
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
