// Entry point of the one process that hosts K Worker threads in workers mode: an app's main
// process that starts K workers (procs-host.js forks K processes). Its own main thread
// coordinates (it reports ready once all K are, and opens the gate on release) and, for a task
// that talks to its parent (message), answers the workers.
import { MessageChannel, Worker } from 'node:worker_threads';
import { serializeError, usageBetween } from './task-runner.js';
import { echoOn } from './parent-channel.js';
import { readCounters } from './thread-counters.js';
import { membersCount, unfinishedThenExit } from './main-load.js';
import { endCycles, exitAll, ranCycle } from './ending.js';
import { hostShell } from './host-shell.js';

const { timeline: host, spec, send, fail, failed, app, anonymousBefore, memoryBefore, ending } = await hostShell();

// the host's CPU time covers all its threads: read from the release to the last result
/** @type {NodeJS.ResourceUsage | undefined} */
let before;
/** @type {number | null} */
let parentFrom = null;
process.on('message', (/** @type {any} */ message) => {
  // once the CLI has read the tree's memory, with every thread still holding its heap
  if (message?.type === 'exit') process.exit(0);
  if (message?.type === 'end')
    ending(
      endCycles({
        spec: /** @type {import('./ending.js').EndSpec} */ (spec.end),
        first,
        again: () => ranCycle(startWorkers({ quiet: true })),
        end: (cycle) => exitAll(cycle.members, (/** @type {Worker} */ worker) => worker.terminate()),
        before: memoryBefore,
        failed,
        send,
      }),
    );
  if (message?.type !== 'go') return;
  first.release();
  before = process.resourceUsage(); // after the release: the threads must not wait for it
  app.release(); // the stretch the workers run in
  // a task that talks to this thread: what answering it costs this thread
  if (spec.parent) parentFrom = readCounters().cpuNs;
});

// A thread the machine cannot start (ERR_WORKER_INIT_FAILED: EAGAIN at the pids or thread
// limit, ENOMEM) is named as such, not as a task's failure.
const notStarted = (/** @type {number} */ index, /** @type {Error & { code?: string }} */ error) =>
  fail(index, {
    message: `could not start worker thread ${index}: ${error.message}`,
    notStarted: true,
    code: error.code,
  });

const requested = String(process.hrtime.bigint());
/** @type {import('./task-runner.js').CellMain | undefined} */
let main;
// a fault round (fault.js): one worker fails, and the app notices, replaces it and goes on
const faults = spec.fault ? await import('./fault.js') : null;
const result = { type: 'result', samples: [], host: { ...host, requested } };
// the app's load is read when the last window is over, before any result crosses to this thread
const first = faults
  ? faults.hostFault(spec, startWorkers, { read: () => app.read(), report: (fault) => send({ ...result, fault }) })
  : startWorkers({ windowsOver: (end) => (main = app.read(end)) });
// a cell that overran --timeout is ended with SIGTERM: say whose windows had not ended
process.on('SIGTERM', () => unfinishedThenExit(send, first.unfinished()));
if (!faults)
  first.finished.then((samples) => {
    const now = process.resourceUsage();
    const usage = usageBetween(before ?? now, now); // results come only after the release
    send({ ...result, samples, usage, anonymousBefore, main, ...parentCpu() });
  });

/**
 * Starts K worker threads; `ready` goes to the CLI in the first cycle, and `finished` resolves
 * with their samples once all K have reported.
 * @param {{ quiet?: boolean, windowsOver?: (end: bigint | undefined) => void, own?: typeof spec,
 *   lost?: (index: number, heard: string) => void, faulting?: (at: string) => void, survived?: () => void }} [options]  quiet: a
 *   later cycle, which tells the CLI nothing; windowsOver: called when every window is over, before
 *   any result is asked for, with the end of the last (hrtime ns); own: these workers' spec (a
 *   fault round's replacement: one, failing never); lost, faulting: a fault round's first cycle,
 *   whose worker that ends early is lost, not the cell's failure, and whose failing member may
 *   survive its failure (fault.js)
 * @returns {import('./ending.js').Cycle & { finished: Promise<import('./task-runner.js').Sample[]>,
 *   unfinished: () => number[], lose: (index: number) => void }}
 */
function startWorkers({ quiet = false, windowsOver = () => {}, own = spec, lost, faulting, survived } = {}) {
  // the release (slot 0) and how many threads are set up (slot 1)
  const gate = new SharedArrayBuffer(8);
  /** @type {Worker[]} */
  const workers = [];
  /** @type {ReturnType<typeof membersCount<import('./task-runner.js').Sample>>} */
  const members = membersCount(own.k, {
    quiet,
    windowsOver,
    collect: () => workers.forEach((one) => one.postMessage({ type: 'collect' })),
    say: send,
  });
  for (let index = 0; index < own.k && !failed(); index++) {
    let worker;
    try {
      // a task that talks to its parent gets a port to this thread, which sends everything back
      const channel = own.parent ? new MessageChannel() : null;
      if (channel) echoOn(channel.port1);
      worker = new Worker(new URL('./worker-thread.js', import.meta.url), {
        workerData: { spec: own, index, gate, port: channel?.port2 },
        transferList: channel ? [channel.port2] : [],
        ...limitsOf(own, index),
      });
    } catch (error) {
      notStarted(index, error);
      break;
    }
    workers.push(worker);
    let finished = false;
    worker.on('message', (message) => {
      if (message?.type === 'faulting') faulting?.(message.at);
      else if (message?.type === 'survived') survived?.();
      else if (members.heard(message, index, message?.sample)) finished = true;
    });
    worker.on('error', (/** @type {Error & { code?: string }} */ error) => {
      if (error?.code === 'ERR_WORKER_INIT_FAILED') notStarted(index, error);
      else if (lost) lost(index, `'error' (${error?.code ?? error?.name})`);
      else fail(index, serializeError(error));
    });
    worker.on('exit', (code) => {
      if (finished) return;
      if (lost) lost(index, `'exit' (code ${code})`);
      else fail(index, { message: `exited with code ${code} before finishing`, exitCode: code });
    });
  }
  return {
    members: workers,
    ready: members.ready,
    finished: members.finished,
    unfinished: members.unfinished,
    lose: members.lose,
    release() {
      Atomics.store(new Int32Array(gate), 0, 1);
      Atomics.notify(new Int32Array(gate), 0);
    },
  };
}

/**
 * A worker's resource limits, as an app sets them: a young generation of two semi-spaces and a
 * large-object space of the same size (--semi-space); a fault round's `oom` worker's old
 * generation (fault.js).
 * @param {typeof spec} own
 * @param {number} index
 */
function limitsOf(own, index) {
  const limits = {
    ...(own.semiSpaceMb ? { maxYoungGenerationSizeMb: 3 * own.semiSpaceMb } : {}),
    ...(own.fault?.kind === 'oom' && own.fault.worker === index && faults
      ? { maxOldGenerationSizeMb: faults.HEAP_LIMIT_MB }
      : {}),
  };
  return Object.keys(limits).length ? { resourceLimits: limits } : {};
}

/** This main thread's CPU time since the release, for a task that talks to its parent. */
function parentCpu() {
  const now = spec.parent ? readCounters().cpuNs : null;
  return now === null || parentFrom === null ? {} : { parentCpuNs: now - parentFrom };
}
