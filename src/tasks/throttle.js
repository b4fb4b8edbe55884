import { readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pLimit from 'p-limit';

// Files the jobs hold open right now, and the most at once in this phase: a timer alone can
// miss the peak while a burst of opens keeps the event loop busy.
const held = { now: 0, peak: 0 };

/**
 * One async file job: open, read it whole into a fresh buffer, close.
 * @param {string} file
 * @param {number} size
 */
async function job(file, size) {
  const handle = await open(file, 'r');
  held.peak = Math.max(held.peak, ++held.now);
  try {
    await handle.read(Buffer.allocUnsafe(size), 0, size, 0);
  } finally {
    await handle.close();
    held.now--;
  }
}

const openFds = () => readdirSync('/proc/self/fd').length;

/**
 * Runs `count` jobs through `start`, sampling open descriptors every millisecond the event loop
 * allows and the loop's delay throughout. The peak is at least the descriptors open at the start
 * plus the most the jobs held at once.
 * @param {number} count
 * @param {(count: number) => Promise<void>} start
 */
async function phase(count, start) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const baseline = openFds();
  let peakFds = baseline;
  held.peak = 0;
  const sampler = setInterval(() => (peakFds = Math.max(peakFds, openFds())), 1);
  delay.enable();
  const began = process.hrtime.bigint();
  await start(count);
  const wallMs = Number(process.hrtime.bigint() - began) / 1e6;
  delay.disable();
  clearInterval(sampler);
  return { wallMs, peakFds: Math.max(peakFds, baseline + held.peak), loopDelayMaxMs: delay.max / 1e6 };
}

/**
 * The unthrottled fan-out: one Promise.all over every job starts them all before the first
 * finishes, holding as many descriptors open and flooding the queues; a bounded queue
 * (p-limit) keeps --param limit in flight.
 */
/** @typedef {import('./index.js').Task} Task */

export default /** @satisfies {Task} */ ({
  name: 'throttle',
  description:
    'per op one file job (open, read, close) started by Promise.all over --param batch jobs, and one through p-limit(--param limit); reports wall time, peak open fds and event-loop delay of each',
  reference:
    "Momtchil Momtchev, 'Debugging a common performance pitfall on Node.js' (2021): an unthrottled Promise.all held 47,577 fds; a queue of 16 took the run from 115 s to 9 s",
  params: {
    batch: { description: 'jobs one Promise.all starts at once', type: 'integer', default: 1000 },
    limit: { description: 'jobs in flight through the bounded queue', type: 'integer', default: 16 },
  },
  metrics: {
    allWallMs: { description: 'Promise.all: wall time', unit: 'ms', combine: 'max' },
    limitWallMs: { description: 'p-limit: wall time', unit: 'ms', combine: 'max' },
    allFanOut: { description: 'Promise.all: the most jobs started at once', unit: 'count', combine: 'max' },
    allPeakFds: { description: 'Promise.all: peak open fds (/proc/self/fd)', unit: 'count', combine: 'max' },
    limitPeakFds: { description: 'p-limit: peak open fds (/proc/self/fd)', unit: 'count', combine: 'max' },
    allLoopDelayMaxMs: { description: 'Promise.all: worst event-loop delay', unit: 'ms', combine: 'max' },
    limitLoopDelayMaxMs: { description: 'p-limit: worst event-loop delay', unit: 'ms', combine: 'max' },
  },
  async run(ctx, iterations) {
    const { batch, limit } = ctx.params;
    const { file, fileSize } = ctx;
    const all = async (/** @type {number} */ count) => {
      for (let done = 0; done < count; done += batch) {
        await Promise.all(Array.from({ length: Math.min(batch, count - done) }, () => job(file, fileSize)));
      }
    };
    const bounded = async (/** @type {number} */ count) => {
      const queue = pLimit(limit);
      await Promise.all(Array.from({ length: count }, () => queue(() => job(file, fileSize))));
    };
    ctx.state.flip = !ctx.state.flip;
    const [first, second] = ctx.state.flip ? [all, bounded] : [bounded, all];
    const a = await phase(iterations, first);
    const b = await phase(iterations, second);
    const [allPhase, limitPhase] = ctx.state.flip ? [a, b] : [b, a];
    return {
      metrics: {
        allWallMs: allPhase.wallMs,
        allFanOut: Math.min(batch, iterations),
        limitWallMs: limitPhase.wallMs,
        allPeakFds: allPhase.peakFds,
        limitPeakFds: limitPhase.peakFds,
        allLoopDelayMaxMs: allPhase.loopDelayMaxMs,
        limitLoopDelayMaxMs: limitPhase.loopDelayMaxMs,
      },
    };
  },
});
