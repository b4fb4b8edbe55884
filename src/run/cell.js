import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MmapbenchError, environmentError } from '../errors.js';
import { descendantsOf, gone, killStrays } from '../system/descendants.js';
import { pidsLimit } from '../system/limits.js';
import { treeMemory } from '../system/memory.js';
import { summarizeCell } from '../stats/cell-summary.js';
import { cellPhases } from '../stats/phases.js';
import { runnerSpec } from './work.js';
import { spawnHost, started, track } from './host-process.js';

const hosts = {
  workers: fileURLToPath(new URL('./workers-host.js', import.meta.url)),
  procs: fileURLToPath(new URL('./procs-host.js', import.meta.url)),
};
// a pool cell's (compare --pool): one host for both arms, told which runtime its pool has
const POOL_HOST = fileURLToPath(new URL('./pool/host.js', import.meta.url));

// How far ahead of now the common start time is set: every process must have its message
// before then, and the more processes, the later the last one has it (a cell's phases keep the
// margin left, `spareNs`; docs/how-it-measures.md, "Figures behind the defaults"); it starts late, not wrong, if
// one does not.
const releaseLeadNs = (/** @type {number} */ processes) => BigInt((5 + processes) * 1e6);
/** Who a cell's host is, in its messages. */
const LABELS = { workers: 'the workers host process', procs: 'the procs parent process' };

/**
 * How a cell is traced: the window, and how to start the tracer.
 * @typedef {{ window: 'timed'|'cell', start: () => Promise<{ stop: () => Promise<import('../stats/samples.js').TraceSummary>, cancel: () => Promise<void> }> }} Tracer
 * @typedef {import('./task-runner.js').ResultMessage} ResultMessage
 * @typedef {import('./task-runner.js').FailedMessage} FailedMessage
 * @typedef {import('./task-runner.js').HostMessage} HostMessage
 * @typedef {import('./host-process.js').Host} Host
 * @typedef {import('./host-failure.js').HostContext} HostContext  who a host is, for its messages
 */

/**
 * Runs one measured cell in a fresh process tree: one new parent process (an app's main
 * process) that starts K Worker threads, or forks K child processes. A fresh tree is what makes MALLOC_* and
 * LD_PRELOAD (read by glibc once, at process start) and `--node` apply, and keeps one cell's
 * heap and JIT state out of the next.
 *
 * @param {import('./plan.js').Plan} plan
 * @param {import('./plan.js').Work} work  iterations and warmup per worker
 * @param {'workers'|'procs'} mode
 * @param {AbortSignal} [interrupt]  aborted on Ctrl-C
 * @param {{ trace?: Tracer, alone?: boolean, timesOps?: boolean }} [options]  alone: the cell also
 *   reads the app alone, before its workers start (aloneRound); timesOps: false in a round that
 *   times no op, whose memory is the figure (timedRound)
 *   trace: stopped when the cell's processes have exited; started before they are spawned
 *   (window 'cell') or once every worker is warm (window 'timed': the timed loops without
 *   process startup, module loading and warmup)
 * @returns {Promise<import('../stats/cell-summary.js').CellResult>}
 */
export async function runCell(plan, work, mode, interrupt, options = {}) {
  return /** @type {Promise<import('../stats/cell-summary.js').CellResult>} */ (
    treeOf(plan, work, mode, interrupt, options)
  );
}

/**
 * A fault round's tree (fault-cell.js): a cell whose host is told which of its workers fails and
 * how, and which returns what the app saw of it once the host has said so, or how the app ended
 * where it did not live to say.
 * @param {import('./plan.js').Plan} plan
 * @param {import('./plan.js').Work} work
 * @param {'workers'|'procs'} mode
 * @param {AbortSignal | undefined} interrupt
 * @param {{ fault: import('./fault.js').FaultSpec, spawned?: (pid: number | undefined) => void }} fault
 *   spawned: called with the host's pid as soon as it is started
 * @returns {Promise<{ seen: import('./fault.js').FaultSeen } | { ended: string }>}  ended: the
 *   signal the app died of, which mmapbench did not send
 */
export const faultTree = (plan, work, mode, interrupt, fault) =>
  /** @type {Promise<{ seen: import('./fault.js').FaultSeen } | { ended: string }>} */ (
    treeOf(plan, work, mode, interrupt, fault)
  );

/**
 * A cell's tree, from its spawn to its last process gone: a measured cell's (runCell), or a fault
 * round's (faultTree).
 * @param {import('./plan.js').Plan} plan
 * @param {import('./plan.js').Work} work
 * @param {'workers'|'procs'} mode
 * @param {AbortSignal | undefined} interrupt
 * @param {{ trace?: Tracer, alone?: boolean, timesOps?: boolean, fault?: import('./fault.js').FaultSpec,
 *   spawned?: (pid: number | undefined) => void }} options
 */
async function treeOf(plan, work, mode, interrupt, { trace, alone = false, timesOps = true, fault, spawned: onSpawn }) {
  let tracer = trace?.window === 'cell' ? await asInterrupted(trace.start(), interrupt) : null;
  // when bpftrace was attached: the traced window's length is what wait times are shares of
  let tracedFrom = process.hrtime.bigint();
  const stop = new AbortController();
  const signal = interrupt ? AbortSignal.any([interrupt, stop.signal]) : stop.signal;
  setMaxListeners(20, signal); // the host's, the tracer's and the stop's listeners, with room
  const spec = JSON.stringify({ ...runnerSpec(plan, work, { alone, timesOps }), ...(fault ? { fault } : {}) });
  const limitBefore = pidsLimit();
  const spawned = process.hrtime.bigint();
  let host = /** @type {({ subprocess: Host } & ReturnType<typeof track>) | null} */ (null);
  let firstFailure = /** @type {unknown} */ (null);
  try {
    // one host in either mode: an app's main process, which adds the K workers (threads, or processes it forks)
    const { subprocess, tracked } = startHost(plan, mode, spec, { signal, interrupt });
    host = { subprocess, ...tracked };
    onSpawn?.(subprocess.pid);
    // its failure stops the tree, and is the one reported
    tracked.done.catch((error) => {
      firstFailure ??= error;
      stop.abort();
    });
    await started(subprocess);
    await Promise.race([tracked.ready, tracked.done]);
    if (trace && !tracer) {
      tracer = await trace.start();
      tracedFrom = process.hrtime.bigint();
    }
    // Ctrl-C while bpftrace was attaching: the tree is being stopped, `done` says how
    if (signal.aborted) await tracked.done;
    const steal = await release(subprocess, plan, mode);
    // the host has its result and is still there, its workers holding their heaps: what the
    // tree holds at the end of its timed windows, before any of it is torn down
    const message = await Promise.race([tracked.result, tracked.done]);
    if (fault) return { seen: await faultSeen(message, tracked, mode, subprocess) };
    const hostPids = subprocess.pid ? [subprocess.pid] : [];
    const memory = treeAtEnd(hostPids, message, plan);
    const { ended, strays } = await endTree(subprocess, tracked, hostPids);
    const [exited, received] = [process.hrtime.bigint(), tracked.received()];
    const cell = cellOf(mode, plan, message, { steal, memory, strays, ended, spawned, exited, received });
    if (tracer) {
      // stop() settles bpftrace either way; the catch below must not cancel it a second time
      const traced = tracer;
      tracer = null;
      const windowNs = Number(process.hrtime.bigint() - tracedFrom);
      cell.trace = { ...(await traced.stop()), windowNs };
    }
    return cell;
  } catch (error) {
    // what failed first, before stopping the tree makes the other processes fail too
    const stopped = await stoppedTree(firstFailure ?? error, { host, stop, tracer, mode, limitBefore, interrupt });
    const died = fault && host ? await diedOf(host.subprocess, interrupt) : null;
    if (died) return { ended: died };
    throw stopped;
  }
}

/**
 * A fault round's result: the host dismissed and gone, what it saw of the fault.
 * @param {ResultMessage} message
 * @param {ReturnType<typeof track>} tracked
 * @param {'workers'|'procs'} mode
 * @param {Host} subprocess
 */
async function faultSeen(message, tracked, mode, subprocess) {
  tracked.dismiss();
  await tracked.done;
  const hostPids = subprocess.pid ? [subprocess.pid] : [];
  await gone(killStrays(hostPids, descendantsOf(hostPids)));
  await subprocess.box.end();
  if (!message.fault) throw new MmapbenchError(`${LABELS[mode]} reported no fault round`);
  return /** @type {import('./fault.js').FaultSeen} */ (message.fault);
}

/**
 * The signal an app died of where mmapbench sent none (no kill of ours: a timeout, Ctrl-C, a
 * flood of messages): a fault round's fault took it down (a thread's abort, the OOM killer).
 * @param {Host} subprocess
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<string | null>}
 */
async function diedOf(subprocess, interrupt) {
  const ended = await subprocess.then(
    () => null,
    (/** @type {any} */ exit) => exit,
  );
  return ended?.signal && !subprocess.killed && !ended.timedOut && !ended.isCanceled && !interrupt?.aborted
    ? ended.signal
    : null;
}

/**
 * A cell's host, started and followed: the mode's own, or a pool cell's (--pool), told its runtime.
 * @param {import('./plan.js').Plan} plan
 * @param {'workers'|'procs'} mode
 * @param {string} spec  the runner spec, as JSON
 * @param {{ signal: AbortSignal, interrupt?: AbortSignal }} signals  signal: ends the host
 */
function startHost(plan, mode, spec, { signal, interrupt }) {
  const subprocess = plan.pool
    ? spawnHost(plan, POOL_HOST, [spec, mode], signal)
    : spawnHost(plan, hosts[mode], [spec], signal);
  const label = plan.pool ? `the ${plan.pool.name} host process (${mode})` : LABELS[mode];
  return { subprocess, tracked: track(subprocess, { mode, label, plan, interrupt, dismissed: true }) };
}

/**
 * The barrier: every worker has set up and warmed up; release them together. Processes get a
 * start time far enough ahead for every message to arrive (see proc-host.js). A host that died
 * after "ready" cannot take the message; its exit, awaited after, says why.
 * @param {Host} subprocess
 * @param {import('./plan.js').Plan} plan
 * @param {'workers'|'procs'} mode
 * @returns {Promise<ReturnType<typeof stealTicks>>}  the CPU steal, read before the release time
 *   is set, not inside its lead
 */
async function release(subprocess, plan, mode) {
  const steal = stealTicks();
  const at = String(process.hrtime.bigint() + releaseLeadNs(mode === 'procs' ? plan.k : 1));
  await subprocess.sendMessage({ type: 'go', at }).catch(() => {});
  return steal;
}

/**
 * What the tree holds at the end of its timed windows: the host, and in procs mode its K children.
 * @param {number[]} hostPids
 * @param {{ children?: Array<{ pid?: number }>, anonymousBefore?: number | null }} message  the host's result
 * @param {Readonly<import('./plan.js').Plan>} plan
 */
const treeAtEnd = (hostPids, message, plan) => ({
  ...treeMemory([...hostPids, ...(message.children ?? []).flatMap((child) => child.pid ?? [])]),
  // a fresh pool worker a task (--isolate) holds nothing once its task is done: no worker is
  // left at the window's end to read what one adds
  ...(plan.pool?.isolate
    ? {
        anonymousBefore: null,
        unavailable: '--isolate: each pool task had a fresh worker, none left at the end to hold its memory',
      }
    : { anonymousBefore: message.anonymousBefore ?? null }),
});

/**
 * The app ends its workers and reads what it kept (ending.js; its failure is the cell's); then
 * the tree is gone: what the task started (found while the host lives, as a child outlives its
 * parent's exit), and whatever escaped both (it left the group, and was started after the last
 * look).
 * @param {Host} subprocess
 * @param {ReturnType<typeof track>} tracked
 * @param {number[]} hostPids
 */
async function endTree(subprocess, tracked, hostPids) {
  const taskChildren = descendantsOf(hostPids);
  await subprocess.sendMessage({ type: 'end' }).catch(() => {});
  const ended = await Promise.race([tracked.ended, tracked.done.then(() => null)]);
  tracked.dismiss();
  await tracked.done;
  const strays = killStrays(hostPids, taskChildren);
  await gone(strays);
  const boxed = await subprocess.box.end();
  for (const pid of boxed) if (!strays.includes(pid)) strays.push(pid);
  return { ended, strays };
}

/**
 * A cell that failed: the first failure stops the rest of the tree; every process has exited
 * before it returns, so none outlives the CLI, the task's own children included. Not a child's
 * failure but ours, or the IPC channel's, is still one that keeps what finished.
 * @param {unknown} cause
 * @param {{ host: { subprocess: Host, done: Promise<unknown> } | null, stop: AbortController,
 *   tracer: { cancel: () => Promise<void> } | null, mode: 'workers'|'procs',
 *   limitBefore: ReturnType<typeof pidsLimit>, interrupt?: AbortSignal }} cell
 */
async function stoppedTree(cause, { host, stop, tracer, mode, limitBefore, interrupt }) {
  const hostPids = host?.subprocess.pid ? [host.subprocess.pid] : [];
  const taskChildren = descendantsOf(hostPids);
  stop.abort();
  await Promise.allSettled([host?.subprocess, host?.done, tracer?.cancel()]);
  await gone(killStrays(hostPids, taskChildren));
  await host?.subprocess.box.end();
  const failure =
    cause instanceof MmapbenchError
      ? cause
      : new MmapbenchError(`internal error in a ${mode} cell: ${/** @type {Error} */ (cause).message}`, { cause });
  return interrupted(atLimit(failure, limitBefore), interrupt);
}

/**
 * A cell's figures from its host's result: each worker's samples summarized, with what the
 * machine gave it, the tree's memory, what the app kept at the end and where its time went.
 * @param {'workers'|'procs'} mode
 * @param {import('./plan.js').Plan} plan
 * @param {ResultMessage} message
 * @param {{ steal: number | null, memory: any, strays: number[], ended: any, spawned: bigint,
 *   exited: bigint, received: bigint | null | undefined }} read  what the CLI read around it
 */
function cellOf(mode, plan, message, { steal, memory, strays, ended, spawned, exited, received }) {
  const samples = message.samples ?? [];
  const cell = summarizeCell(mode, samples, plan.task.metrics);
  cell.machine = machineShare(message, cell, plan.k, steal);
  // the tree's memory where its workers timed ops is not a plain script's: the sampled loop's
  // compiling kept more in each thread's allocator; the memory figure is read in the other rounds
  cell.memory = cell.latency && 'histogram' in cell.latency ? { ...memory, timedOps: true } : memory;
  if (strays.length) cell.strays = strays.length;
  // what the task wrote past what a thread's stream may hold (run/task-output.js)
  const dropped = samples.reduce((sum, sample) => sum + (sample.droppedOutput ?? 0), 0);
  if (dropped) cell.droppedOutput = dropped;
  if (typeof message.parentCpuNs === 'number') cell.parentCpuNs = message.parentCpuNs;
  // a pool cell's: its tasks, and how much of the workers' windows their ops took
  if (message.pool) cell.pool = message.pool;
  if (message.main) cell.main = message.main;
  if (ended)
    cell.end = {
      settleMs: ended.settleMs,
      beforeBytes: ended.beforeBytes,
      beforeHeapBytes: ended.beforeHeapBytes,
      cycles: ended.cycles,
    };
  const phases = cellPhases({
    spawned,
    hosts: message.host ? [message.host] : [],
    released: message.children ?? [],
    samples,
    received: [received ?? exited],
    exited,
  });
  if (phases) cell.phases = phases;
  return cell;
}

/** CPU time stolen from this VM by its hypervisor so far, in clock ticks (/proc/stat). */
function stealTicks() {
  try {
    return Number(readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)[8] ?? 0);
  } catch {
    return null;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * Whether the cell's tree got the CPU its timed loops asked for: its CPU time over what
 * min(k, CPUs) busy workers would have had, the involuntary context switches, and what the
 * hypervisor stole meanwhile. A low share flags competition; the cell is still kept, since
 * lock stalls are bursty and real.
 * @param {ResultMessage} message  the host's: its usage covers its workers (threads or children)
 * @param {import('../stats/cell-summary.js').CellResult} cell
 * @param {number} k
 * @param {number | null} stealBefore
 * @returns {import('../stats/cell-summary.js').MachineShare}
 */
function machineShare(message, cell, k, stealBefore) {
  const cpuUs = message.usage?.cpuUs ?? 0;
  const involuntarySwitches = message.usage?.involuntarySwitches ?? 0;
  const asked = (cell.elapsedNs / 1000) * Math.min(k, os.availableParallelism());
  const stealAfter = stealTicks();
  const stealMs =
    stealBefore === null || stealAfter === null ? null : ((stealAfter - stealBefore) * 1000) / TICKS_PER_SECOND;
  return { cpuMs: cpuUs / 1000, cpuShare: asked > 0 ? cpuUs / asked : null, involuntarySwitches, stealMs };
}

/**
 * A cell that failed while the kernel refused processes or threads to this cgroup (a process
 * aborting on a thread it could not start, often with nothing on stderr) failed for the
 * machine's limit, not its task's fault.
 * @param {MmapbenchError} failure
 * @param {ReturnType<typeof pidsLimit>} before
 */
function atLimit(failure, before) {
  if (failure.kind !== 'run' || !before) return failure;
  const after = pidsLimit();
  if (!after || after.refused <= before.refused) return failure;
  return environmentError(
    `${failure.message}; this cgroup's pids limit (pids.max ${after.max}) was reached: lower -k`,
    failure,
  );
}

// A terminal's Ctrl-C also reaches bpftrace, which then fails in its own words.
/**
 * @param {unknown} error
 * @param {AbortSignal} [interrupt]
 */
const interrupted = (error, interrupt) =>
  interrupt?.aborted && !(error instanceof MmapbenchError && error.kind === 'interrupted')
    ? new MmapbenchError('interrupted', { kind: 'interrupted', cause: error, signal: interrupt.reason })
    : error;

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {AbortSignal} [interrupt]
 */
const asInterrupted = (promise, interrupt) =>
  promise.catch((error) => {
    throw interrupted(error, interrupt);
  });
