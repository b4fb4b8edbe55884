import { fileURLToPath } from 'node:url';
import { spawnHost, track } from './host-process.js';
import { descendantsOf, gone, killStrays } from '../system/descendants.js';
import { modesOf } from './plan.js';
import { fewestOps, runnerSpec } from './work.js';

const host = fileURLToPath(new URL('./calibrate-host.js', import.meta.url));

/**
 * @typedef {object} Calibration
 * @property {number} p50Ns  single-op latency, one thread, uncontended
 * @property {number} p99Ns
 * @property {number} meanNs
 * @property {number} samples
 * @property {number} iterations  per worker, chosen so one uncontended worker runs ~--duration
 */

/**
 * @param {import('./plan.js').Plan} plan
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<Calibration>}
 */
export async function calibrate(plan, interrupt) {
  if (plan.duration === null) throw new Error('calibrate: this plan fixes its iterations; there is nothing to size');
  const timeMs = Math.min(500, Math.max(100, plan.duration * 200));
  // one uncontended thread, warm (enough ops for V8 to tier up) whatever warmup the cells get: it
  // sizes the work from the per-op latency, not the cold start
  const spec = {
    ...runnerSpec(plan, { iterations: 0, warmup: Math.max(typeof plan.warmup === 'number' ? plan.warmup : 0, 1000) }),
    k: 1,
    warmupMs: calibrationWarmupMs(plan.duration),
    // a task that talks to its parent is timed against the slower parent the run will have
    ...(plan.task.parent ? { parentOver: modesOf(plan).includes('procs') ? 'process' : 'thread' } : {}),
  };
  const subprocess = spawnHost(plan, host, [JSON.stringify({ spec, timeMs })], interrupt);
  const tracked = track(subprocess, {
    mode: 'calibrate',
    label: 'the calibration process',
    plan,
    interrupt,
    dismissed: true,
  });
  // what the task started, found while the host lives, and ended with it (as a cell's)
  const hostPids = subprocess.pid ? [subprocess.pid] : [];
  /** @type {ReturnType<typeof descendantsOf>} */
  let taskChildren = [];
  tracked.result.then(() => {
    taskChildren = descendantsOf(hostPids);
    tracked.dismiss();
  });
  const { latency } = await tracked.done.finally(async () => {
    await gone(killStrays(hostPids, taskChildren));
    await subprocess.box.end();
  });
  if (!latency) throw new Error('the calibration host sent a result without latency');
  return {
    ...latency,
    iterations: Math.max(fewestOps(plan), Math.round((plan.duration * 1e9) / Math.max(latency.meanNs, 1))),
  };
}

/**
 * How long the calibration warms up at most: two windows, within 0.2 to 1 s. A cell warms up
 * until its rate stops trending, in a little over a window (docs/how-it-measures.md), so the
 * calibration needs no more; a fixed second would cost a short compare as much as its cells.
 * @param {number} duration  seconds of window asked for
 */
export const calibrationWarmupMs = (duration) => Math.min(1000, Math.max(200, duration * 2000));
