import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parentApp } from '../../src/run/main-load.js';
import { countOf } from '../../src/stats/histogram.js';

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
