import { fileURLToPath } from 'node:url';
import { execaNode } from 'execa';
import { MmapbenchError } from '../errors.js';
import { summarizeCell } from '../stats/cell.js';
import { agentSpec } from './plan.js';

const hosts = {
  workers: fileURLToPath(new URL('./workers-host.js', import.meta.url)),
  procs: fileURLToPath(new URL('./proc-host.js', import.meta.url)),
};

// How far ahead of now the common start time is set: one IPC message takes a few ms to land
// here, and the parent must be idle again before the children start.
const releaseLeadNs = (processes) => BigInt((20 + 5 * processes) * 1e6);
// A task that traps SIGTERM gets this long before SIGKILL.
const KILL_GRACE_MS = 2000;

/**
 * Runs one measured cell in a fresh process tree: workers mode = one new process hosting K
 * Worker threads; procs mode = K new processes. A fresh tree is what makes MALLOC_* and
 * LD_PRELOAD (read by glibc once, at process start) and `--node` apply, and keeps one cell's
 * heap and JIT state out of the next.
 *
 * @param {object} plan   from src/run/plan.js
 * @param {'workers'|'procs'} mode
 * @param {AbortSignal} [interrupt]  aborted on Ctrl-C
 * @param {{ trace?: { window: 'timed'|'cell', start: () => Promise<{ stop: () => Promise<object>, cancel: () => Promise<void> }> } }} [options]
 *   trace: stopped when the cell's processes have exited; started before they are spawned
 *   (window 'cell') or once every worker is warm (window 'timed': the timed loops without
 *   process startup, module loading and warmup)
 */
export async function runCell(plan, mode, interrupt, { trace } = {}) {
  let tracer = trace?.window === 'cell' ? await asInterrupted(trace.start(), interrupt) : null;
  const stop = new AbortController();
  const signal = interrupt ? AbortSignal.any([interrupt, stop.signal]) : stop.signal;
  const spec = JSON.stringify(agentSpec(plan));
  const argsFor = mode === 'workers' ? [[spec]] : Array.from({ length: plan.k }, (_, i) => [spec, String(i)]);

  const children = argsFor.map((args, i) => {
    const subprocess = spawnHost(plan, hosts[mode], args, signal);
    const label = mode === 'workers' ? 'the workers host process' : `process ${i}`;
    return { subprocess, ...track(subprocess, { mode, label, plan, interrupt }) };
  });

  const finished = Promise.all(children.map((child) => child.done));
  try {
    await Promise.race([Promise.all(children.map((child) => child.ready)), finished]);
    if (trace && !tracer) tracer = await trace.start();
    // Ctrl-C while bpftrace was attaching: the children are being stopped, `finished` says how
    if (signal.aborted) await finished;
    // The barrier: every worker has set up and warmed up; release them together. Processes get
    // a start time far enough ahead for every message to arrive (see proc-host.js).
    const at = String(process.hrtime.bigint() + releaseLeadNs(children.length));
    await Promise.all(children.map(({ subprocess }) => subprocess.sendMessage({ type: 'go', at })));
    const messages = await finished;
    const cell = summarizeCell(mode, messages.flatMap((message) => message.samples), plan.task.metrics);
    if (tracer) {
      // stop() settles bpftrace either way; the catch below must not cancel it a second time
      const traced = tracer;
      tracer = null;
      cell.trace = await traced.stop();
    }
    return cell;
  } catch (error) {
    // The first failure stops the rest of the tree; wait until every process has exited so
    // none outlives the CLI.
    stop.abort();
    await Promise.allSettled([...children.flatMap(({ subprocess, done }) => [subprocess, done]), tracer?.cancel()]);
    throw interrupted(error, interrupt);
  }
}

// A terminal's Ctrl-C also reaches bpftrace, which then fails in its own words.
const interrupted = (error, interrupt) =>
  interrupt?.aborted && error.kind !== 'interrupted' ? new MmapbenchError('interrupted', { kind: 'interrupted', cause: error, signal: interrupt.reason }) : error;

const asInterrupted = (promise, interrupt) =>
  promise.catch((error) => {
    throw interrupted(error, interrupt);
  });

/** Starts one host script on the plan's node, environment and timeout. */
export const spawnHost = (plan, script, args, cancelSignal) =>
  execaNode(script, args, {
    nodePath: plan.node.path,
    nodeOptions: [], // never pass the CLI's own flags (--test, --inspect) into a measured cell
    env: plan.env,
    stdin: 'ignore',
    timeout: plan.timeout * 1000,
    forceKillAfterDelay: KILL_GRACE_MS,
    cancelSignal,
  });

/**
 * Follows one host process: `ready` resolves on its ready message, `done` with its result, or
 * rejects with an MmapbenchError that names who failed and how.
 */
export function track(subprocess, context) {
  let markReady;
  const ready = new Promise((resolve) => (markReady = resolve));
  const done = (async () => {
    let result;
    let failure;
    try {
      for await (const message of subprocess.getEachMessage()) {
        if (message?.type === 'ready') markReady();
        else if (message?.type === 'result') result = message;
        else if (message?.type === 'failed') failure = message;
      }
      await subprocess;
    } catch (error) {
      if (!failure) throw describeExit(error, context);
    }
    if (failure) throw describeFailure(failure, context);
    if (!result) {
      throw new MmapbenchError(`${context.label} exited before reporting a result (task ${context.plan.task.name}); a task must not exit the thread or process it runs in`);
    }
    return result;
  })();
  return { ready, done };
}

const WHO = { workers: (n) => `worker ${n}`, procs: (n) => `process ${n}`, calibrate: () => 'the calibration run' };
const who = ({ mode }, worker) => WHO[mode](worker);

function describeFailure(failure, context) {
  const { task } = context.plan;
  if (failure.exitCode !== undefined) {
    return new MmapbenchError(
      `${who(context, failure.worker)} ${failure.message} (task ${task.name}); a task must not exit the thread or process it runs in`,
      { worker: failure.worker },
    );
  }
  const error = new MmapbenchError(
    `${who(context, failure.worker)} failed: ${failure.message} (task ${task.name}, in setup, warmup or run)${context.mode === 'calibrate' ? '' : '; the other workers were stopped'}`,
    { worker: failure.worker },
  );
  error.taskStack = failure.stack;
  return error;
}

function describeExit(error, { label, plan, interrupt }) {
  if (interrupt?.aborted) {
    return new MmapbenchError('interrupted', { kind: 'interrupted', cause: error, signal: interrupt.reason });
  }
  if (error.timedOut) {
    return new MmapbenchError(
      `${label} did not finish within --timeout ${plan.timeout}s and was terminated (SIGTERM, then SIGKILL after ${KILL_GRACE_MS / 1000}s); raise --timeout or lower --iterations / --duration`,
      { cause: error, timedOut: true },
    );
  }
  const stderr = lastLine(error.stderr);
  const detail = stderr ? `: ${stderr}` : '';
  if (error.signal) {
    const hint = error.signal === 'SIGKILL' ? ' (SIGKILL often means the out-of-memory killer: check `dmesg`)' : '';
    return new MmapbenchError(`${label} was killed by ${error.signal}${hint}${detail}`, { cause: error, signal: error.signal });
  }
  if (error.isCanceled) return new MmapbenchError(`${label} was stopped`, { cause: error });
  return new MmapbenchError(
    `${label} exited with code ${error.exitCode} before finishing (task ${plan.task.name})${detail}; a task must not exit the thread or process it runs in`,
    { cause: error },
  );
}

const lastLine = (text) => (typeof text === 'string' ? text.trim().split('\n').at(-1) ?? '' : '');
