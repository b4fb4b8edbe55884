// What a cell's host failing means, in one line a user can act on: a task that threw or exited,
// a machine that could not start a process or thread, a timeout, a signal.
import { MmapbenchError, environmentError } from '../errors.js';

/**
 * @typedef {{ mode: 'workers'|'procs'|'calibrate', label: string, plan: import('./plan.js').Plan,
 *   interrupt?: AbortSignal, dismissed?: boolean }} HostContext  who a host is, for its messages;
 *   dismissed: it stays after its result until told to exit (dismiss)
 * @typedef {import('./task-runner.js').FailedMessage} FailedMessage
 */

// A task that traps SIGTERM gets this long before SIGKILL.
export const KILL_GRACE_MS = 2000;

/** @type {Record<HostContext['mode'], (n: number | undefined) => string>} */
const WHO = {
  // no index: a pool's worker, which the pool chose (run/pool/host.js)
  workers: (n) => (n === undefined || n < 0 ? 'a worker' : `worker ${n}`),
  procs: (n) => (n === undefined || n < 0 ? 'a process' : `process ${n}`),
  calibrate: () => 'the calibration run',
};
const who = (/** @type {HostContext} */ { mode }, /** @type {number | undefined} */ worker) => WHO[mode](worker);

/**
 * @param {FailedMessage} failure
 * @param {HostContext} context
 */
export function describeFailure(failure, context) {
  const { task } = context.plan;
  if (failure.notStarted) {
    return environmentError(
      `${failure.message} (k=${context.plan.k}): the machine's thread or memory limit; lower -k or free resources`,
    );
  }
  if (failure.signal) {
    const hint = failure.signal === 'SIGKILL' ? ' (SIGKILL often means the out-of-memory killer: check `dmesg`)' : '';
    return new MmapbenchError(
      `${who(context, failure.worker)} was killed by ${failure.signal}${hint} (task ${task.name})`,
      {
        worker: failure.worker,
        signal: failure.signal,
      },
    );
  }
  if (failure.exitCode !== undefined) {
    return new MmapbenchError(
      `${who(context, failure.worker)} ${exitedWith(failure.exitCode)} (task ${task.name}); ${exitFix(failure.exitCode)}`,
      { worker: failure.worker },
    );
  }
  if (failure.ending) {
    return new MmapbenchError(
      `${context.label} could not end its workers as an app would: ${failure.message} (task ${task.name}); a task must let its thread or process exit when an app ends it (worker.terminate(), SIGTERM), as pools do`,
    );
  }
  if (failure.main) {
    const error = new MmapbenchError(
      failure.slow
        ? `the app's main thread failed: ${failure.message} (task ${task.name}); make the task's request(context) return, or settle, within a second: it is served every --request-every ms; the workers were stopped`
        : `the app's main thread failed: its request(context) threw: ${failure.message} (task ${task.name}); the workers were stopped`,
    );
    error.taskStack = failure.stack;
    return error;
  }
  const error = new MmapbenchError(
    `${who(context, failure.worker)} failed: ${failure.message} (task ${task.name}, in setup, warmup or run)${context.mode === 'calibrate' ? '' : '; the other workers were stopped'}`,
    { worker: failure.worker },
  );
  error.taskStack = failure.stack;
  return error;
}

/**
 * Who in a host a failure of the whole host is about: the members whose windows had not ended
 * where the host said so, else, for a thread's crash, that it took every thread with it.
 * @param {HostContext & { unfinished?: number[] }} context
 * @param {boolean} crashed  a signal ended the host
 */
function whoseIn({ mode, plan, unfinished }, crashed) {
  const task = `task ${plan.task.name}`;
  if (mode === 'calibrate') return task;
  if (unfinished?.length)
    return `${task}; ${unfinished.map((index) => who({ mode, label: '', plan }, index)).join(', ')} had not ended ${unfinished.length === 1 ? 'its' : 'their'} window`;
  // a signal a thread takes (SIGSEGV, SIGBUS, an abort) ends the process it shares with the others
  if (crashed && mode === 'workers')
    return `${task}, in one of its ${plan.k} threads: a thread's crash ends the process and every thread in it, so which one is not known`;
  return task;
}

/**
 * @param {any} error  what execa rejected with: an ExecaError, or what getEachMessage threw
 * @param {HostContext & { unfinished?: number[] }} context  unfinished: the members whose windows
 *   had not ended when the host was told to end, as it said
 * @param {import('./host-output.js').HostOutput} [output]  what the host wrote
 */
export function describeExit(error, context, output) {
  const { label, plan, interrupt } = context;
  if (interrupt?.aborted) {
    return new MmapbenchError('interrupted', { kind: 'interrupted', cause: error, signal: interrupt.reason });
  }
  if (error.timedOut) {
    return new MmapbenchError(
      `${label} did not finish within --timeout ${plan.timeout}s (${whoseIn(context, false)}) and was terminated (SIGTERM, then SIGKILL after ${KILL_GRACE_MS / 1000}s); raise --timeout or lower --iterations / --duration`,
      { cause: error, timedOut: true, worker: context.unfinished?.length === 1 ? context.unfinished[0] : undefined },
    );
  }
  if (error.code && error.exitCode === undefined && !error.signal) {
    // spawn itself failed: EAGAIN (the pids or thread limit), ENOMEM, ENOENT
    return environmentError(
      `could not start ${label}: ${error.code}${LIMITS.has(error.code) ? " (the machine's process or memory limit)" : ''}; lower -k or free resources`,
      error,
    );
  }
  const stderr = causeLine(output?.stderr() ?? error.stderr);
  const detail = stderr ? `: ${stderr}` : '';
  if (/uv_thread_create|pthread_create|Resource temporarily unavailable|\bEAGAIN\b/.test(stderr)) {
    return environmentError(
      `${label} could not start its threads${detail}; the machine's thread or process limit: lower -k or free resources`,
      error,
    );
  }
  if (error.signal) {
    const hint = error.signal === 'SIGKILL' ? ' (SIGKILL often means the out-of-memory killer: check `dmesg`)' : '';
    return new MmapbenchError(`${label} was killed by ${error.signal}${hint} (${whoseIn(context, true)})${detail}`, {
      cause: error,
      signal: error.signal,
    });
  }
  if (error.isCanceled) return new MmapbenchError(`${label} was stopped`, { cause: error });
  return new MmapbenchError(
    `${label} ${exitedWith(error.exitCode)} (task ${plan.task.name})${detail}; ${exitFix(error.exitCode)}`,
    {
      cause: error,
    },
  );
}

// Node's exit code for a thread or process whose event loop emptied while a top-level await
// (or the promise the host awaits of run, setup or teardown) was still pending.
const UNSETTLED = 13;

/**
 * How a host or worker that ended early ended, and what the task should do instead.
 * @param {number | undefined} code
 */
const exitedWith = (code) =>
  code === UNSETTLED
    ? `stopped waiting (exit code 13): a promise of the task's setup, run or teardown never settled, and nothing kept the thread alive`
    : `exited with code ${code} before finishing`;
/** @param {number | undefined} code */
const exitFix = (code) =>
  code === UNSETTLED
    ? 'make every promise the task returns resolve or reject'
    : 'a task must not exit the thread or process it runs in';

const LIMITS = new Set(['EAGAIN', 'ENOMEM', 'EMFILE', 'ENFILE']);

/**
 * The line of a dead process's stderr that says why: the first error line (`TypeError: …`,
 * `FATAL ERROR: …`), not Node's closing `Node.js v20…` nor a native stack frame.
 * @param {unknown} text
 */
export function causeLine(text) {
  if (typeof text !== 'string') return '';
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const error = lines.find((line) => /^(\w*Error\b|FATAL ERROR\b|Error \[|Uncaught\b|#\s*Fatal error)/.test(line));
  if (error) return error;
  return (
    lines.filter((line) => !/^Node\.js v\d/.test(line) && !/^(at |\d+: 0x|----- Native stack)/.test(line)).at(-1) ?? ''
  );
}
