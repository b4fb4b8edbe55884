import { fileURLToPath } from 'node:url';
import { MmapbenchError } from '../errors.js';
import { spawnHost } from './cell.js';

const host = fileURLToPath(new URL('./calibrate-host.js', import.meta.url));

/**
 * @typedef {object} Calibration
 * @property {number} p50Ns  single-op latency, one thread, uncontended
 * @property {number} p99Ns
 * @property {number} meanNs
 * @property {number} samples
 * @property {number} iterations  per worker, chosen so one uncontended worker runs ~--duration
 */

/** @returns {Promise<Calibration>} */
export async function calibrate(plan, interrupt) {
  const timeMs = Math.min(500, Math.max(100, plan.duration * 200));
  const spec = { ...plan.agent, k: 1, warmup: plan.agent.warmup ?? 1000 };
  const subprocess = spawnHost(plan, host, [JSON.stringify({ spec, timeMs })], interrupt);
  let reply;
  try {
    for await (const message of subprocess.getEachMessage()) reply = message;
    await subprocess;
  } catch (error) {
    if (interrupt?.aborted) throw new MmapbenchError('interrupted', { kind: 'interrupted', cause: error, signal: interrupt.reason });
    if (reply?.type !== 'failed') {
      throw new MmapbenchError(`calibrating task ${plan.task.name} failed: ${error.shortMessage ?? error.message}; pass --iterations N to skip calibration`, { cause: error, timedOut: error.timedOut });
    }
  }
  if (reply?.type === 'failed') {
    const error = new MmapbenchError(`task ${plan.task.name} failed while calibrating: ${reply.message}`, { worker: 0 });
    error.taskStack = reply.stack;
    throw error;
  }
  const { latency } = reply;
  return { ...latency, iterations: Math.max(1, Math.round((plan.duration * 1e9) / Math.max(latency.meanNs, 1))) };
}
