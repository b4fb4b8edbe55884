// The app's own work on its main thread, while its workers run: what a user adds workers to.
// Both trees' parents (workers-host.js, procs-host.js) run it, so each mode's figure is the app
// as it would have that mode: a request every `everyMs` on a timer, each timed alone, and how
// late the timer called each (its lag). Imports nothing from node_modules: the parent of a
// measured tree loads it.
import { coarsen, histogramOf, SAVED_BITS } from '../stats/histogram.js';
import { percentiles } from '../stats/latency.js';
import { readCounters, windowAccount } from './thread-counters.js';

/**
 * @typedef {object} MainSpec  how the parent's main thread is loaded (plan.main)
 * @property {number} everyMs  a request every this many ms
 * @property {number} size  bytes each request allocates and fills
 * @property {number} aloneMs  how long the app alone is read, before its workers start (in the
 *   cells that read it)
 * @property {string | null} requestUrl  a task module's own `request`, or null: the default one
 * @property {boolean} [alone]  this cell reads the app alone
 */

/** @typedef {import('../stats/samples.js').MainStretch} MainStretch */

// performance.now() and process.hrtime read the same monotonic clock (libuv's), from different
// origins: this thread's ms are hrtime's ns less this, so a moment named by another thread or
// process (a release time, the end of a window) is placed among the app's own
const ORIGIN_NS = process.hrtime.bigint() - BigInt(Math.round(performance.now() * 1e6));
/**
 * The later of two windows' ends (hrtime ns): a worker's `done` names its own; anything else in
 * the message is ignored.
 * @param {bigint | undefined} last
 * @param {unknown} end  a decimal string
 */
export const laterEnd = (last, end) =>
  typeof end === 'string' && /^\d{1,30}$/.test(end) && (last === undefined || BigInt(end) > last) ? BigInt(end) : last;
/**
 * The K members of one cycle (threads or processes), counted as they report: once all are ready
 * the CLI is told (unless `quiet`: a later cycle); once every window is over, `windowsOver` gets
 * the last end and each member is asked for its result (`collect`); once every result is in,
 * `finished` has them, by member.
 * @template R
 * @param {number} k
 * @param {{ quiet: boolean, windowsOver: (end: bigint | undefined) => void, collect: () => void,
 *   say: (message: object) => void }} how
 */
export function membersCount(k, { quiet, windowsOver, collect, say }) {
  let ready = 0;
  let over = 0;
  let got = 0;
  // the members still expected to end their windows and report: fewer once one is lost (a fault
  // round's, run/fault.js)
  let expected = k;
  /** @type {bigint | undefined} */
  let lastEnd;
  /** @type {R[]} */
  const results = [];
  /** @type {() => void} */
  let allReady = () => {};
  /** @type {(results: R[]) => void} */
  let done = () => {};
  // the members whose timed window has not ended: what a host that timed out names
  const running = new Set(Array.from({ length: k }, (_, index) => index));
  return {
    /** The members whose window has not ended yet, by index. */
    unfinished: () => [...running],
    ready: new Promise((resolve) => (allReady = () => resolve(undefined))),
    finished: /** @type {Promise<R[]>} */ (new Promise((resolve) => (done = resolve))),
    /**
     * A member's message: true when it was its result.
     * @param {any} message
     * @param {number} index  the member
     * @param {R} result  what its result keeps
     */
    heard(message, index, result) {
      if (message?.type === 'ready' && ++ready === k) {
        if (!quiet) say({ type: 'ready' });
        allReady();
      } else if (message?.type === 'done') {
        running.delete(index);
        lastEnd = laterEnd(lastEnd, message.end);
        if (++over === expected) overAll();
      } else if (message?.type === 'result') {
        const first = !(index in results);
        results[index] = result;
        if (first && ++got === expected) done(results);
        return true;
      }
      return false;
    },
    /**
     * A member that ended before its window did, in a fault round: the others are not held for it.
     * @param {number} index
     */
    lose(index) {
      if (!running.delete(index)) return;
      expected--;
      if (over === expected) overAll();
      if (got === expected && over === expected) done(results);
    },
  };
  function overAll() {
    windowsOver(lastEnd);
    collect();
  }
}
/**
 * A host told to end (SIGTERM: its cell overran --timeout) says which of its members' windows had
 * not ended, then exits as SIGTERM would have ended it.
 * @param {(message: object, callback: () => void) => void} send
 * @param {number[]} unfinished
 */
export function unfinishedThenExit(send, unfinished) {
  const exit = () => process.exit(128 + 15);
  try {
    send({ type: 'unfinished', members: unfinished }, exit);
  } catch {
    exit();
  }
  setTimeout(exit, 500).unref();
}

/** A moment on hrtime's clock (ns, as a string or bigint), in this thread's performance.now() ms. */
export const hereMs = (/** @type {string | bigint} */ ns) => Number(BigInt(ns) - ORIGIN_NS) / 1e6;

/** The default request: allocate and fill a Buffer, and round-trip a small object through JSON. */
const defaultRequest = (/** @type {number} */ size) => {
  let sink = 0;
  return (/** @type {number} */ index) => {
    const body = Buffer.allocUnsafe(size).fill(index & 0xff);
    const reply = JSON.parse(JSON.stringify({ id: index, user: 'u', items: [1, 2, 3], bytes: body.length }));
    sink ^= reply.bytes ^ body[body.length - 1];
    return sink;
  };
};

/**
 * The request the main thread serves: the task module's own (`request(context)`, a user's
 * handler), or the default one.
 * @param {MainSpec} spec
 * @param {Record<string, unknown>} params  the task's parameters, in the request's context
 * @returns {Promise<(index: number) => unknown>}
 */
async function requestOf(spec, params) {
  if (!spec.requestUrl) return defaultRequest(spec.size);
  // `export default { request }`, or `export function request` as a module of named exports
  const module = await import(spec.requestUrl);
  const task = module.default ?? module;
  const context = { params, size: spec.size, state: {} };
  return (index) => task.request({ ...context, index });
}

/**
 * How long one of the app's requests may take, returned or settled. A request is served every
 * few ms; one that blocks the main thread or never settles would hold every cell until the host's
 * --timeout, which names neither the request nor the thread.
 */
export const REQUEST_LIMIT_MS = 1000;

/** @param {number | null} ms  how long it took; null: it has not settled */
const slowRequest = (ms) =>
  Object.assign(
    new Error(
      ms === null
        ? `its request(context) did not settle within ${REQUEST_LIMIT_MS / 1000} s, the most a request may take`
        : `its request(context) took ${(ms / 1000).toFixed(1)} s, more than the ${REQUEST_LIMIT_MS / 1000} s a request may take`,
    ),
    { slow: true },
  );

/**
 * One request, its time bounded: a promise that has not settled within the limit rejects, and one
 * that blocked the thread longer is refused when it returns (nothing can run while it blocks).
 * @param {(index: number) => unknown} request
 * @param {number} index
 */
async function limited(request, index) {
  const called = performance.now();
  const result = request(index);
  if (result && typeof (/** @type {any} */ (result).then) === 'function') {
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const stalled = new Promise((_, reject) => {
      timer = setTimeout(() => reject(slowRequest(null)), REQUEST_LIMIT_MS);
    });
    try {
      await Promise.race([result, stalled]);
    } finally {
      clearTimeout(timer);
    }
  }
  const ms = performance.now() - called;
  if (ms > REQUEST_LIMIT_MS) throw slowRequest(ms);
}

/**
 * Starts the load: a request every `everyMs`, on its timer from now until `stop`, as a running
 * app serves; each request timed from its call to its return (or to its promise settling, for an
 * async one; the next waits for it), and the event loop's delay. `begin` starts a stretch that
 * is read (what came before it is the app's history, not read), `read` reads it, `stop` ends the
 * load and reads it. A stretch may be bounded by moments named elsewhere (the workers' release,
 * the end of their last window): a request or a tick counts only when it was called between them,
 * with its previous tick (for a lag), so what the harness does on this thread just before the
 * workers start or after their windows end (a release's messages, the workers' `done`) is not the
 * app's. The timer's lag is how much later than `everyMs` after its last call it called again,
 * which is what the app's event loop, busy or kept from a CPU, makes every timer and callback
 * wait, read from the load's own calls (Node's monitorEventLoopDelay keeps no histogram that can
 * be pooled over rounds, and a stretch of a round holds too few ticks for a 99th percentile of
 * its own).
 * @param {MainSpec} spec
 * @param {(index: number) => unknown} request
 * @param {(error: unknown) => void} onError  a request that threw or took too long: the task's failure
 * @returns {{ begin: (fromMs?: number) => void, read: (untilMs?: number) => MainStretch | null,
 *   stop: (untilMs?: number) => MainStretch | null }}  fromMs, untilMs: the stretch's bounds, in
 *   this thread's performance.now() (default: now); null when no request ran in the stretch
 */
function startMainLoad(spec, request, onError) {
  let from = performance.now();
  let counters = readCounters();
  // each request's time and each tick's lag, with when it was called
  const times = timedSeries();
  const lags = timedSeries();
  let lastCall = /** @type {number | null} */ (null);
  let busy = false;
  let stopped = false;
  const record = (/** @type {number} */ ns, /** @type {number} */ called) => {
    if (called >= from) times.push(ns, called);
  };
  // the timer's lag (see above)
  const lag = (/** @type {number} */ now) => {
    if (now < from) return;
    if (lastCall !== null) lags.push(lateNs(now - lastCall - spec.everyMs), now);
    lastCall = now;
  };
  const serve = () => {
    if (stopped) return;
    const called = performance.now();
    lag(called);
    if (busy) return;
    const fail = (/** @type {unknown} */ error) => {
      if (stopped) return;
      stopped = true;
      onError(error);
    };
    const result = callRequest(request, times.count, fail);
    if (result === FAILED) return;
    if (result && typeof (/** @type {any} */ (result).then) === 'function') {
      busy = true;
      awaitRequest(/** @type {Promise<unknown>} */ (result), fail, () => {
        busy = false;
        if (!stopped) record((performance.now() - called) * 1e6, called);
      });
    } else {
      const ns = (performance.now() - called) * 1e6;
      if (ns > REQUEST_LIMIT_MS * 1e6) fail(slowRequest(ns / 1e6));
      else record(ns, called);
    }
  };
  const timer = setInterval(serve, spec.everyMs);
  const read = (until = performance.now()) => stretchOf({ from, counters, times, lags }, until);
  return {
    begin(fromMs = performance.now()) {
      times.clear();
      lags.clear();
      lastCall = null;
      from = fromMs;
      counters = readCounters();
    },
    read,
    stop(untilMs) {
      stopped = true;
      clearInterval(timer);
      return read(untilMs);
    },
  };
}

const FAILED = Symbol('failed');

/**
 * What `request(index)` returned, or FAILED when it threw (`fail` is told).
 * @param {(index: number) => unknown} request
 * @param {number} index
 * @param {(error: unknown) => void} fail
 */
function callRequest(request, index, fail) {
  try {
    return request(index);
  } catch (error) {
    fail(error);
    return FAILED;
  }
}

/**
 * An async request: `settled` once its promise resolves, `fail` when it rejects or never settles
 * within REQUEST_LIMIT_MS. One promise per request, as the app's own await makes: no .finally()
 * beside it.
 * @param {Promise<unknown>} result
 * @param {(error: unknown) => void} fail
 * @param {() => void} settled
 */
function awaitRequest(result, fail, settled) {
  const stall = setTimeout(() => fail(slowRequest(null)), REQUEST_LIMIT_MS);
  result.then(
    () => {
      clearTimeout(stall);
      settled();
    },
    (error) => {
      clearTimeout(stall);
      fail(error);
    },
  );
}

/**
 * A stretch of the load as read at `until`: its requests' times, the timer's lag and the thread's
 * account since it began; null when no request ran in it.
 * @param {{ from: number, counters: ReturnType<typeof readCounters>, times: ReturnType<typeof timedSeries>,
 *   lags: ReturnType<typeof timedSeries> }} load
 * @param {number} until
 * @returns {MainStretch | null}
 */
function stretchOf({ from, counters, times, lags }, until) {
  // what it could not count is the workers' account's to say
  const { missing: _, ...account } = windowAccount(counters, readCounters(), null);
  const requests = times.upTo(until);
  if (!requests) return null;
  const histogram = histogramOf(times.values, requests);
  return {
    ms: until - from,
    requests,
    ...percentiles(histogram),
    histogram: coarsen(histogram, SAVED_BITS),
    lag: lagOf(lags.values, lags.upTo(until)),
    account,
  };
}

/**
 * Values, each with when it was called, in the order called: two arrays grown by doubling, so
 * nothing of the harness's is allocated per request.
 */
function timedSeries() {
  let values = new Float64Array(1024);
  let at = new Float64Array(1024);
  let count = 0;
  const grown = (/** @type {Float64Array} */ array) => {
    const more = new Float64Array(array.length * 2);
    more.set(array);
    return more;
  };
  return {
    push(/** @type {number} */ value, /** @type {number} */ when) {
      if (count === values.length) [values, at] = [grown(values), grown(at)];
      at[count] = when;
      values[count++] = value;
    },
    /** how many were called by `until` */
    upTo(/** @type {number} */ until) {
      let n = count;
      while (n > 0 && at[n - 1] > until) n--;
      return n;
    },
    clear() {
      count = 0;
    },
    get values() {
      return values;
    },
    get count() {
      return count;
    },
  };
}

/**
 * How late a tick came, in ns, from how much longer than its interval it came after the last
 * (ms): in whole µs, and at least 1: a timer on time is late by less than the clock can tell,
 * never by a few ns.
 * @param {number} overMs
 */
export const lateNs = (overMs) => Math.max(1, Math.round(overMs * 1e3)) * 1e3;

/**
 * The timer's lags over a stretch: their percentiles and their histogram, kept to be pooled over
 * the rounds; null under two lags (a stretch a timer ticked in once or twice says nothing of it).
 * @param {Float64Array} lags  ns
 * @param {number} ticks  how many of them
 * @returns {import('../stats/samples.js').TimerLag | null}
 */
export function lagOf(lags, ticks) {
  if (ticks < 2) return null;
  const histogram = histogramOf(lags, ticks);
  let sum = 0;
  for (let i = 0; i < ticks; i++) sum += lags[i];
  const { p50Ns, p99Ns, maxNs } = percentiles(histogram);
  return { ticks, p50Ns, p99Ns, maxNs, meanNs: sum / ticks, histogram: coarsen(histogram, SAVED_BITS) };
}

/**
 * The app in a parent, before its workers start: its request checked once, then served on its
 * timer from then on in every cell, as a running app serves it (never back to back: 200 requests
 * of 1 MiB at once left the app's p99 three times higher for the next 600 ms, from glibc's heap
 * and V8's collections after them), so the stretches read (the app alone, and beside the workers
 * from the release) come after the same history of its own load. With `spec.alone` the app alone
 * is read over `aloneMs`, after twice as long served unread, while its code warms up.
 * @param {MainSpec} spec
 * @param {Record<string, unknown>} params
 * @param {(error: unknown) => void} onError
 * @returns {Promise<{ load: ReturnType<typeof startMainLoad>, alone: MainStretch | null }>}  rejects
 *   when the first request throws or takes too long
 */
async function startApp(spec, params, onError) {
  const request = await requestOf(spec, params);
  await limited(request, 0);
  const load = startMainLoad(spec, request, onError);
  if (!spec.alone) return { load, alone: null };
  await pause(2 * spec.aloneMs);
  load.begin();
  await pause(spec.aloneMs);
  return { load, alone: load.read() };
}

const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The main thread's ArrayBuffers (Buffers included): the app's own, which its load allocates. */
const mainArrayBuffers = () => process.memoryUsage().arrayBuffers;

/**
 * The app in a cell's parent (workers-host.js, procs-host.js), before it starts its workers:
 * warmed up and serving its load, and alone where the cell reads that. `release` begins the
 * stretch read beside the workers, from the moment they start (`at`, hrtime ns; default now);
 * `read`, once the last window is over, ends the load and says what the main thread did until
 * that window's end (`until`, hrtime ns; default now). Without `spec.main` (--main off) both do
 * nothing.
 * @param {import('./task-runner.js').RunnerSpec} spec
 * @param {(error: unknown) => void} onError  a request that threw
 * @returns {Promise<{ release: (at?: string | bigint) => void,
 *   read: (until?: string | bigint) => import('./task-runner.js').CellMain | undefined }>}
 */
export async function parentApp(spec, onError) {
  const main = spec.main;
  const app = main
    ? await startApp(main, spec.params, onError).catch((error) => {
        onError(error);
        return null;
      })
    : null;
  if (!main || !app) return { release() {}, read: () => undefined };
  // what its main thread holds before the workers: its load's Buffers are the app's, not theirs
  const buffersBefore = mainArrayBuffers();
  let released = false;
  return {
    release(at) {
      released = true;
      app.load.begin(at === undefined ? undefined : hereMs(at));
    },
    read: (until) => {
      const during = app.load.stop(until === undefined ? undefined : Math.min(hereMs(until), performance.now()));
      return { alone: app.alone, during: released ? during : null, buffersAdded: mainArrayBuffers() - buffersBefore };
    },
  };
}
