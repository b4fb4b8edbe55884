// How an app ends the workers it added, and what it has left after: each host, once the CLI has
// read the tree's memory, ends its K workers as an app would (Worker#terminate, ChildProcess#kill),
// times the teardown (the request to the last `exit` event), waits the settle time and reads its
// own anonymous memory (docs/how-it-measures.md, "What ending a worker returns").
import { measureMemory } from 'node:vm';
import { anonymousBytes, mainHeapBytes } from '../system/memory.js';

// A worker that has not exited this long after it was asked to is the task's fault (a native
// module that blocks its thread's exit, a child that ignores SIGTERM): the cell fails, naming it.
export const END_GRACE_MS = 5000;

/**
 * @typedef {{ settleMs: number, cycles: number }} EndSpec  what the host does after the windows:
 *   end its workers, wait settleMs, read its memory; with cycles > 1 start, run and end K
 *   workers again, that many times in all
 * @typedef {import('../stats/samples.js').EndCycle} EndCycle  one cycle's end
 * @typedef {{ type: 'ended', settleMs: number, beforeBytes: number | null, beforeHeapBytes: number | null,
 *   cycles: EndCycle[] }} EndedMessage  beforeBytes, beforeHeapBytes: the host's anonymous memory
 *   and its main malloc heap's before its first worker, read as each cycle's are
 */

// The app's garbage (its requests' Buffers, the harness's messages) is collected before each
// reading, before the first worker and after each end alike, so what is read is what the app
// holds, not when V8 last collected. A host is not started with --expose-gc, as an app is not,
// and V8's flags are not changed at run time either (v8.setFlagsFromString('--expose-gc')):
// a Worker started after a flag changed does not start from Node's snapshot, which made threads'
// start-up twice a script's. An eager memory measurement collects the heap instead.
async function collect() {
  // its one experimental warning is the harness's, not the task's output
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    await measureMemory({ mode: 'summary', execution: 'eager' });
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * The host's anonymous memory, its garbage collected first, and of it its main malloc heap's:
 * the app's requests grow that heap by themselves (by 0 or 20 MiB between two readings, as the
 * heap's top happens to be free or not), so what the workers leave is read without its growth
 * (points/measures.js, keptAfter).
 * @returns {Promise<{ anonBytes: number | null, heapBytes: number | null }>}
 */
export async function collectedAnonymous() {
  await collect();
  return { anonBytes: anonymousBytes(process.pid), heapBytes: mainHeapBytes(process.pid) };
}

/**
 * End `workers` with `end` (terminate, kill) and wait for every one's `exit`.
 * @param {import('node:events').EventEmitter[]} workers
 * @param {(worker: any) => void} end
 */
export async function exitAll(workers, end) {
  const exited = workers.map(
    (worker, index) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`worker ${index} had not exited ${END_GRACE_MS / 1000} s after it was ended`)),
          END_GRACE_MS,
        );
        worker.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      }),
  );
  for (const worker of workers) end(worker);
  await Promise.all(exited);
}

/**
 * @typedef {object} Cycle  K workers a host started (workers-host.js, procs-host.js)
 * @property {import('node:events').EventEmitter[]} members  its threads or processes
 * @property {Promise<unknown>} ready  all K set up and warm
 * @property {() => void} release  opens their timed windows
 * @property {Promise<any>} finished  all K have reported their results (what they report is the host's)
 */

/**
 * A further cycle of K workers started, warmed, released and run to its results.
 * @template {Cycle} C
 * @param {C} cycle
 * @returns {Promise<C>}
 */
export async function ranCycle(cycle) {
  await cycle.ready;
  cycle.release();
  await cycle.finished;
  return cycle;
}

/**
 * The end of a cell: ends the first cycle's workers, and with more cycles runs K again and ends
 * them each time (`again`), then tells the CLI what the host kept after each: each end timed (the
 * request to the last worker gone), the settle time waited, the host's memory read.
 * @template T
 * @param {{ spec: EndSpec, first: T, again: () => Promise<T>, end: (cycle: T) => Promise<unknown>,
 *   before: { anonBytes: number | null, heapBytes: number | null } | null, failed: () => boolean,
 *   send: (message: EndedMessage) => void }} host  end: ends a cycle's workers (exitAll), a pool
 */
export async function endCycles({ spec, first, again, end, before, failed, send }) {
  const ended = async (/** @type {T} */ cycle) => {
    const from = process.hrtime.bigint();
    await end(cycle);
    const teardownNs = Number(process.hrtime.bigint() - from);
    if (spec.settleMs > 0) await new Promise((resolve) => setTimeout(resolve, spec.settleMs));
    return { teardownNs, ...(await collectedAnonymous()) };
  };
  const cycles = [await ended(first)];
  for (let cycle = 1; cycle < spec.cycles && !failed(); cycle++) cycles.push(await ended(await again()));
  if (!failed())
    send({
      type: 'ended',
      settleMs: spec.settleMs,
      beforeBytes: before?.anonBytes ?? null,
      beforeHeapBytes: before?.heapBytes ?? null,
      cycles,
    });
}
