// What every cell's host is before it adds a worker (workers-host.js starts threads,
// procs-host.js forks children, pool/host.js builds a pool of either): an app's main process
// started by the CLI with its spec and an IPC channel, serving its own load, that says its first
// failure once and reads what it holds before its first worker.
import { hostTimeline, serializeError } from './task-runner.js';
import { anonymousBytes } from '../system/memory.js';
import { parentApp } from './main-load.js';
import { collectedAnonymous } from './ending.js';

/**
 * @typedef {Omit<import('./task-runner.js').FailedMessage, 'type' | 'worker'>} FailDetails
 * @typedef {object} HostShell
 * @property {import('../stats/samples.js').HostTimeline} timeline  when the host's process started,
 *   booted and had loaded its entry's imports
 * @property {import('./task-runner.js').RunnerSpec} spec  the cell's, from the CLI
 * @property {(message: any, callback?: () => void) => void} send  to the CLI
 * @property {(worker: number, details: FailDetails) => void} fail  says the cell's first failure
 *   (worker -1: the app's own) and exits; later ones are its consequences and are not said
 * @property {() => boolean} failed
 * @property {Awaited<ReturnType<typeof parentApp>>} app  the app's own load on this main thread
 * @property {number | null} anonymousBefore  what the app held before it added any worker: the
 *   baseline of the memory they add
 * @property {{ anonBytes: number | null, heapBytes: number | null } | null} memoryBefore  the same,
 *   collected, for what it keeps once they have ended (ending.js); null where the cell does not end them
 * @property {(ending: Promise<unknown>, said?: (error: unknown) => FailDetails) => void} ending  the
 *   end's failure is the cell's, said as such (`said`: in the host's words; the error's own by default)
 */

/**
 * The host's start: to be awaited first thing in its entry, whose imports have then loaded.
 * @param {{ stop?: () => void }} [options]  stop: ends what the host started (its children) as it
 *   fails or loses the CLI
 * @returns {Promise<HostShell>}
 */
export async function hostShell({ stop = () => {} } = {}) {
  const timeline = hostTimeline();
  const spec = JSON.parse(process.argv[2]);
  // a host is started with an IPC channel, so process.send is there
  const send = /** @type {NonNullable<typeof process.send>} */ (process.send).bind(process);
  process.on('disconnect', () => {
    stop();
    process.exit(0);
  });
  // Ctrl-C reaches the whole process group; the CLI decides how the cell ends and reports it.
  process.on('SIGINT', () => {});
  let failed = false;
  /** @type {HostShell['fail']} */
  const fail = (worker, details) => {
    if (failed) return; // a worker that throws also exits: report the first cause only
    failed = true;
    stop();
    send({ type: 'failed', worker, ...details }, () => process.exit(1));
  };
  // the app's own work on this main thread, from before its workers start to their last result
  const app = await parentApp(spec, (error) => fail(-1, { ...serializeError(error), main: true }));
  const anonymousBefore = anonymousBytes(process.pid);
  const memoryBefore = spec.end ? await collectedAnonymous() : null;
  return {
    ...{ timeline, spec, send, fail, failed: () => failed, app, anonymousBefore, memoryBefore },
    ending: (ending, said = serializeError) => void ending.catch((error) => fail(-1, { ...said(error), ending: true })),
  };
}
