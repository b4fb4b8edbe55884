import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lagOf, lateNs, laterEnd, parentApp } from '../../src/run/main-load.js';
import { bucketOf, countOf, SAVED_BITS } from '../../src/stats/histogram.js';

const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app's load on this thread for `ms`, released at once, with the task's request. */
async function served(/** @type {number} */ blockMs, /** @type {number} */ ms) {
  const spec = /** @type {any} */ ({
    params: { ms: blockMs },
    main: {
      everyMs: 2,
      size: 1024,
      aloneMs: 0,
      requestUrl: new URL('../fixtures/request-blocks.mjs', import.meta.url).href,
    },
  });
  /** @type {unknown[]} */
  const errors = [];
  const app = await parentApp(spec, (error) => errors.push(error));
  app.release();
  await pause(ms);
  const read = app.read();
  assert.deepEqual(errors, []);
  return /** @type {NonNullable<NonNullable<typeof read>['during']>} */ (read?.during);
}

test("the app's timer lag: every tick after the first, in a histogram that can be pooled", async () => {
  const during = await served(0, 200);
  const lag = /** @type {NonNullable<typeof during.lag>} */ (during.lag);
  // the timer calls once per request it serves, and once more only where a call came too early
  assert.ok(lag.ticks >= during.requests - 1, `${lag.ticks} ticks, ${during.requests} requests`);
  assert.equal(countOf(lag.histogram), lag.ticks);
  assert.ok(lag.p50Ns <= lag.p99Ns && lag.p99Ns <= lag.maxNs);
});

test('a request that blocks its thread longer than the interval makes every tick after it late', async () => {
  // 6 ms of blocking against a 2 ms interval: no call comes sooner than 4 ms after its time
  const during = await served(6, 150);
  const lag = /** @type {NonNullable<typeof during.lag>} */ (during.lag);
  assert.ok(lag.ticks > 0);
  assert.ok(lag.p50Ns >= 3.5e6, `p50 ${lag.p50Ns} ns`);
});

/** The app's load on this thread, at once, with the default request. */
async function app() {
  const spec = /** @type {any} */ ({ params: {}, main: { everyMs: 2, size: 1024, aloneMs: 0, requestUrl: null } });
  /** @type {unknown[]} */
  const errors = [];
  const started = await parentApp(spec, (error) => errors.push(error));
  return { ...started, errors };
}

test('the stretch read beside the workers begins when they start: nothing the app did before counts', async () => {
  const { release, read, errors } = await app();
  // a start 80 ms ahead, as the procs parent's children are given one
  const at = process.hrtime.bigint() + 80_000_000n;
  release(String(at));
  await pause(200);
  const during = read()?.during;
  // read after the stretch was: at least as long since the start as the stretch (a µs of the
  // two clocks' origins aside)
  const sinceStart = Number(process.hrtime.bigint() - at) / 1e6 + 0.01;
  assert.deepEqual(errors, []);
  assert.ok(during && during.lag);
  assert.ok(during.ms <= sinceStart, `a ${during.ms} ms stretch, ${sinceStart} ms after the start`);
  // one request per 2 ms at most, from the start on, and each tick's lag from a tick after it
  assert.ok(during.requests <= during.ms / 2 + 2, `${during.requests} requests in ${during.ms} ms`);
  assert.ok(during.lag.ticks < during.requests + 1);
});

test('the stretch ends with the last window: what the app did after it (the workers saying so) does not count', async () => {
  const { release, read, errors } = await app();
  const from = process.hrtime.bigint();
  release(String(from));
  await pause(200);
  // the last window ended 50 ms after the start, and its worker said so only now
  const during = read(String(from + 50_000_000n))?.during;
  assert.deepEqual(errors, []);
  assert.ok(during && during.lag);
  assert.ok(Math.abs(during.ms - 50) < 1e-3, `${during.ms} ms`);
  assert.ok(during.requests <= 27, `${during.requests} requests in 50 ms, one every 2 ms (on a timer of whole ms)`);
  assert.ok(during.lag.ticks <= during.requests);
});

test("a window's end is taken from a worker's message only as the decimal it sends, the latest of them", () => {
  assert.equal(laterEnd(undefined, '12'), 12n);
  assert.equal(laterEnd(12n, '7'), 12n);
  assert.equal(laterEnd(12n, '30'), 30n);
  for (const odd of [undefined, 30, '3e9', '-1', '', '1'.repeat(40), { toString: () => '5' }])
    assert.equal(laterEnd(12n, odd), 12n, String(odd));
});

test('round five, row 11: a lag is whole µs and never under one, and a stretch of fewer than two ticks has none', async () => {
  assert.equal(lateNs(0.0000015), 1000, 'a tick 1.5 ns past its time is on time: the clock tells 1 µs');
  assert.equal(lateNs(-0.2), 1000);
  assert.equal(lateNs(0.2004), 200_000);
  assert.equal(lagOf(Float64Array.of(1.5), 1), null, 'one tick has no p99');
  const two = lagOf(Float64Array.of(1000, 5000), 2);
  assert.equal(two?.ticks, 2);
  // and what a short stretch read holds, beside the app's load
  const during = await served(0, 200);
  assert.ok(/** @type {any} */ (during.lag).histogram.every(([lower]) => lower >= bucketOf(1000, SAVED_BITS)));
});
