// One host process: started on the plan's Node in a box of its own, then followed by its
// messages: its ready, its result, what it kept at the end, and how it failed, with what its
// task printed.
import { deferred } from '../system/deferred.js';
import { MmapbenchError } from '../errors.js';
import { describeExit, describeFailure, KILL_GRACE_MS } from './host-failure.js';
import { execa } from 'execa';
import { adopt } from '../system/children.js';
import { diesWithParentBoxed } from '../system/containment.js';
import { captureOutput, outputText } from './host-output.js';

// A host sends ready, then result or failed; a task that floods the channel is stopped.
const MAX_MESSAGES = 64;
// A cell's host exits once told (after the CLI has read the tree's memory), the calibration's as
// soon as its result is sent. Node can deadlock in its own exit (a V8 compile job waiting for a
// garbage collection the exiting main thread will never run, nodejs/node issue 54918; seen with
// threadpool-clog on Node 24): a host still there this long after that is
// killed, and its result, whole, is kept.
const EXIT_GRACE_MS = 2000;

/**
 * @typedef {import('./task-runner.js').ResultMessage} ResultMessage
 * @typedef {import('./task-runner.js').FailedMessage} FailedMessage
 * @typedef {import('./task-runner.js').HostMessage} HostMessage
 * @typedef {ReturnType<typeof spawnHost>} Host
 * @typedef {import('./host-failure.js').HostContext} HostContext
 */

/**
 * Starts one host script on the plan's node, environment and timeout. Never with the CLI's own
 * node flags (--test, --inspect); killed by the kernel if the CLI dies, even by SIGKILL, and
 * what it starts with it (its box: `box.end()` kills what is left once the cell is over).
 * @param {import('./plan.js').Plan} plan
 * @param {string} script
 * @param {string[]} args
 * @param {AbortSignal} [cancelSignal]
 * @returns {import('execa').ResultPromise<{ ipc: true, buffer: false, stdin: 'ignore', detached: true }> & { output: ReturnType<typeof captureOutput>, box: import('../system/containment.js').Box }}
 */
export function spawnHost(plan, script, args, cancelSignal) {
  const {
    command: [file, argv],
    box,
  } = diesWithParentBoxed(plan.node.path, [script, ...args]);
  const subprocess = adopt(
    execa(file, argv, {
      ipc: true,
      // the plan's environment is the whole of it: what it leaves out, the cells must not get
      env: { ...plan.env, ...box.env },
      extendEnv: false,
      stdin: 'ignore',
      // a process group of its own, which the task's children join: ended with the cell
      detached: true,
      timeout: plan.timeout * 1000,
      forceKillAfterDelay: KILL_GRACE_MS,
      cancelSignal,
      // read as it comes and capped (host-output.js), not buffered whole
      buffer: false,
    }),
  );
  box.started(subprocess.pid);
  // what the host left when it exited (a wrapper's daemon, --node W, holding its output and the
  // IPC channel) ends with it, so the CLI is not left waiting on them; box.end() says it once
  subprocess.once('exit', () => void box.end());
  return Object.assign(subprocess, { output: captureOutput(subprocess), box });
}

/** Resolves once the process has started, or failed to (the failure is `track`'s to report). */
export const started = (/** @type {Host} */ subprocess) =>
  new Promise((resolve) => {
    subprocess.once('spawn', resolve);
    subprocess.once('error', resolve);
  });

/**
 * The error with what the task printed, for --verbose: the first failure's own host's.
 * @param {MmapbenchError} error
 * @param {Host} subprocess
 * @param {HostContext} context
 */
function withTaskOutput(error, subprocess, context) {
  error.taskOutput ??= outputText(subprocess.output, context.label) || undefined;
  return error;
}

/** A host that exited with no result and no failure. @param {HostContext} context */
const noResult = (context) =>
  new MmapbenchError(
    `${context.label} exited before reporting a result (task ${context.plan.task.name}); a task must not exit the thread or process it runs in`,
  );

/**
 * The messages a host sends, until it has sent more than MAX_MESSAGES: then it is stopped.
 * @param {Host} subprocess
 * @param {HostContext} context
 * @returns {AsyncGenerator<HostMessage | undefined>}
 */
async function* messagesOf(subprocess, context) {
  let count = 0;
  for await (const received of subprocess.getEachMessage()) {
    if (++count > MAX_MESSAGES) {
      subprocess.kill('SIGKILL');
      throw new MmapbenchError(
        `${context.label} sent more than ${MAX_MESSAGES} messages and was stopped (task ${context.plan.task.name}); a task must not use process.send`,
      );
    }
    yield /** @type {HostMessage | undefined} */ (received);
  }
}

/**
 * Follows one host process: `ready` resolves on its ready message, `result` on its result,
 * `done` with its result once it has exited, or rejects with an MmapbenchError that names who
 * failed and how.
 * @param {Host} subprocess
 * @param {HostContext} context
 */
export function track(subprocess, context) {
  const ready = deferred();
  const resulted = /** @type {ReturnType<typeof deferred<ResultMessage>>} */ (deferred());
  const ended = /** @type {ReturnType<typeof deferred<import('./ending.js').EndedMessage>>} */ (deferred());
  let receivedAt = /** @type {bigint | null} */ (null);
  let lingering = /** @type {NodeJS.Timeout | undefined} */ (undefined);
  let killedAfterResult = false;
  let unfinished = /** @type {number[] | undefined} what a timed-out host said of its members */ (undefined);
  // A host still there this long after it was told to go is killed; its result, whole, is kept.
  const linger = () =>
    (lingering ??= setTimeout(() => {
      killedAfterResult = true;
      subprocess.kill('SIGKILL');
    }, EXIT_GRACE_MS));
  const withOutput = (/** @type {MmapbenchError} */ error) => withTaskOutput(error, subprocess, context);
  /** @type {Promise<ResultMessage>} */
  const done = (async () => {
    /** @type {ResultMessage | undefined} */
    let result;
    /** @type {FailedMessage | undefined} */
    let failure;
    try {
      for await (const message of messagesOf(subprocess, context)) {
        if (message?.type === 'unfinished') unfinished = message.members;
        else if (message?.type === 'ready') ready.resolve();
        else if (message?.type === 'ended') ended.resolve(message);
        else if (message?.type === 'failed') failure = message;
        else if (message?.type === 'result') {
          result = message;
          receivedAt ??= process.hrtime.bigint();
          resulted.resolve(message);
          // a cell's host waits to be dismissed (its memory is read first); the calibration's exits
          if (!context.dismissed) linger();
        }
      }
      await subprocess;
    } catch (error) {
      if (error instanceof MmapbenchError) throw withOutput(error);
      if (!(killedAfterResult && result) && !failure)
        throw withOutput(describeExit(error, { ...context, unfinished }, subprocess.output));
    } finally {
      clearTimeout(lingering);
    }
    if (failure) throw withOutput(describeFailure(failure, context));
    if (!result) throw withOutput(noResult(context));
    return result;
  })();
  return {
    ready: ready.promise,
    result: resulted.promise,
    ended: ended.promise,
    done,
    received: () => receivedAt,
    // once a result came: tell the host to exit, and kill it if it does not
    dismiss: () => {
      subprocess.sendMessage({ type: 'exit' }).catch(() => {});
      linger();
    },
  };
}
