// What a task that talks to its parent (the message task) gets as `ctx.parent`: one request at a
// time, sent to the worker's parent, whose main thread sends it straight back, as a pool's job
// and result go. Both modes have a parent (docs/how-it-measures.md, "What a mode costs"): in
// workers mode a MessagePort to the host's main thread, in procs mode the child's IPC channel to
// its parent, serialized as `fork`'s `serialization` option says. Imports nothing from
// node_modules: every measured thread loads it.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

/**
 * @typedef {import('node:worker_threads').TransferListItem} TransferListItem
 * @typedef {import('../tasks/index.js').ParentChannel} ParentChannel  what a task gets
 */

/** What a reply moves back: an ArrayBuffer that was moved here goes back the same way. */
const transferOf = (/** @type {unknown} */ value) => (value instanceof ArrayBuffer ? [value] : []);

/**
 * The parent's side of a worker's port: every message straight back.
 * @param {import('node:worker_threads').MessagePort} port
 */
export function echoOn(port) {
  port.on('message', (value) => port.postMessage(value, transferOf(value)));
}

/**
 * One request at a time over any channel: `request` sends and waits; `answer` is called with
 * each reply and settles the request waiting for it.
 * @param {(value: unknown, transfer?: TransferListItem[]) => void} send
 */
function oneAtATime(send) {
  /** @type {((value: unknown) => void) | null} */
  let waiting = null;
  return {
    answer: (/** @type {unknown} */ value) => {
      const resolve = waiting;
      waiting = null;
      resolve?.(value);
    },
    /** @type {ParentChannel['request']} */
    request: (value, transfer) =>
      new Promise((resolve) => {
        waiting = resolve;
        send(value, transfer);
      }),
  };
}

/**
 * A worker's side of its port.
 * @param {import('node:worker_threads').MessagePort} port
 * @returns {ParentChannel}
 */
export function portChannel(port) {
  const { answer, request } = oneAtATime((value, transfer = []) => port.postMessage(value, transfer));
  port.on('message', answer);
  return { request };
}

/** The type of the harness's messages that carry a task's request and its reply. */
export const ECHO = 'echo';

/**
 * A child's side of its IPC channel to its parent, beside the harness's own messages.
 * @param {(message: unknown) => void} send  the harness's process.send
 * @returns {ParentChannel}
 */
export function ipcChannel(send) {
  const { answer, request } = oneAtATime((value) => send({ type: ECHO, value }));
  process.on('message', (/** @type {any} */ message) => message?.type === ECHO && answer(message.value));
  return { request };
}

/**
 * A parent in the same thread, for the calibration, which times single ops in one thread with
 * nobody else: the two ends of one channel, one echoing.
 * @returns {ParentChannel}
 */
export function loopback() {
  const { port1, port2 } = new MessageChannel();
  echoOn(port1);
  return { ...portChannel(port2), close: () => port1.close() };
}

/**
 * A parent in another process, for the calibration of a run with procs cells: a child that
 * echoes over its IPC channel, serialized as the procs cells' will be, so an op is timed as long
 * as a process's round trip takes (a Buffer sent as JSON takes hundreds of times a thread's),
 * and the first round is not sized for the fast mode alone.
 * @param {'json'|'advanced'} serialization
 * @returns {ParentChannel}
 */
export function forkedParent(serialization) {
  const child = fork(fileURLToPath(new URL('./echo-child.js', import.meta.url)), [], {
    serialization,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { answer, request } = oneAtATime((value) => child.send({ type: ECHO, value }));
  child.on('message', (/** @type {any} */ message) => answer(message.value));
  return {
    request,
    close: () => child.disconnect(),
  };
}
