// Inside a pool's worker (tinypool's or workerpool's, a thread or a child process): the task
// loaded and set up on the first pool task a worker gets, then each pool task `batch` ops of it,
// timed in the worker, run as a window's are (task-runner.js's poolBatch: the sampler, the
// thread's counters). What the pool's own worker module calls (tinypool.js, workerpool.js): the
// pool dispatches, this runs.
import { readlinkSync } from 'node:fs';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';
import { setUpTask } from '../set-up.js';
import { capTaskOutput } from '../task-output.js';
import { EXITING } from './exiting.js';

/** Pool tasks of ours under way in this worker: an exit then is the task's, not the pool's. */
let running = 0;

/**
 * Says, once a worker thread is set up, the code it exits with inside a pool task of ours; a
 * pool ending its worker between tasks (workerpool's own process.exit) says nothing.
 */
function sayExit() {
  const channel = new BroadcastChannel(EXITING);
  channel.unref();
  process.on('exit', (code) => running > 0 && channel.postMessage({ code }));
}

/**
 * This worker, once set up: its task as poolBatch runs it (`prepared`), when it loaded and set up,
 * its mode, the runner's poolBatch, and what of the task's output its streams dropped so far.
 * @type {{ prepared: { task: any, ctx: any, spec: any, opNs?: number }, setUp: string, loaded: string, mode: 'workers'|'procs', batch: typeof import('../task-runner.js').poolBatch, dropped: () => number, tornDown?: boolean } | null}
 */
let set = null;

/**
 * One pool task: `setup` (the task loaded and set up, once a worker; again is a no-op that says
 * so), `batch` (that many ops, timed; `timed`: a task of the window, whose sampled op times
 * come back with it, and, from a fresh worker a task (`setup`), its thread's counters; and
 * `teardown`: with a fresh worker a task, that worker's teardown after its ops) or `teardown`
 * (the task's teardown, once a worker after its window, as a raw worker's after its loop; again
 * says so).
 * @param {{ type: 'setup', spec: import('../task-runner.js').RunnerSpec, index: number, mode: 'workers'|'procs' }
 *   | { type: 'batch', ops: number, timed?: boolean, teardown?: boolean, setup?: { spec: import('../task-runner.js').RunnerSpec, index: number, mode: 'workers'|'procs' } }
 *   | { type: 'teardown' }} message
 */
export async function poolTask(message) {
  running++;
  try {
    return await runTask(message);
  } finally {
    running--;
  }
}

/** @param {Parameters<typeof poolTask>[0]} message */
async function runTask(message) {
  const id = `${process.pid}:${threadId}`;
  if (message.type === 'setup') {
    if (set) return { id, pid: process.pid, again: true };
    if (!isMainThread) sayExit();
    // what the task writes is held to a cap, as a raw cell's worker's (task-output.js)
    const dropped = capTaskOutput();
    const { module, ctx, loaded, setUp } = await setUpTask(message.spec, message.index, message.mode);
    // the harness's runner loads after the task's setup, untimed, as in a raw cell's worker
    const { loopOf, poolBatch } = await import('../task-runner.js');
    set = {
      prepared: { task: loopOf(module), ctx, spec: message.spec },
      ...{ loaded: String(loaded), setUp: String(setUp), mode: message.mode, batch: poolBatch, dropped },
    };
    // this thread's /proc folder (PID/task/TID): its host reads its counters around the window
    const thread = readlinkSync('/proc/thread-self');
    return { id, pid: process.pid, thread, again: false, loaded: set.loaded, setUp: set.setUp };
  }
  if (message.type === 'teardown') {
    if (!set) throw new Error('a pool task ran before its worker was set up');
    if (set.tornDown) return { id, again: true };
    set.tornDown = true;
    await set.prepared.task.teardown?.(set.prepared.ctx);
    return { id, again: false };
  }
  // a fresh worker for this task (isolateWorkers): set up first, untimed, as its task's own
  if (!set && message.setup) await runTask({ type: 'setup', ...message.setup });
  if (!set) throw new Error('a pool task ran before its worker was set up');
  const { start, end, counters, opTimes, metrics } = await set.batch(set.prepared, message.ops, {
    timed: message.timed === true,
    counted: message.timed === true && message.setup !== undefined,
  });
  // a fresh worker a task: its teardown once its ops are done, untimed
  if (message.teardown) await runTask({ type: 'teardown' });
  const timed = {
    ...{ id, pid: process.pid, ops: message.ops, start: String(start), end: String(end) },
    ...(counters ? { counters } : {}),
    ...(opTimes ? { opTimes } : {}),
    ...(metrics ? { metrics } : {}),
    // this worker's so far: its host keeps the last a worker says
    ...(set.dropped() ? { droppedOutput: set.dropped() } : {}),
  };
  // a child's CPU time (its process's, all its threads: V8's helpers too) and involuntary
  // switches; a thread pool's are read by its host, process-wide
  if (set.mode === 'workers') return timed;
  const usage = process.resourceUsage();
  return { ...timed, cpuUs: usage.userCPUTime + usage.systemCPUTime, switches: usage.involuntaryContextSwitches };
}
