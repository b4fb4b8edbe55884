import { deferred } from '../system/deferred.js';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { MmapbenchError } from '../errors.js';
import { parseBpftraceJson, summarizeTrace } from './parse.js';
import { adopt, diesWithParent } from '../system/children.js';

const SCRIPT = fileURLToPath(new URL('../../mmap-lock.bt', import.meta.url));
const READY_LINE = 'mmap-lock: tracing';
const START_TIMEOUT_MS = 60_000; // compiling and attaching takes about a second; a loaded box more
// On SIGTERM (or SIGINT) bpftrace prints its maps, resolving every kernel and user stack in them
// first (it reads /proc/kallsyms and each mapped object's symbols): a second or so, far longer
// on a loaded machine. Giving up loses everything traced, so wait long, and say so while
// waiting; a second Ctrl-C still ends it at once (the CLI then SIGKILLs every child).
const STOP_TIMEOUT_MS = 120_000;
const STOP_NOTE_MS = 5_000;
// bpftrace 0.17 (Debian 12's) looks at the signal's flag only when the signal interrupts its
// epoll_wait. One that lands while the loop is outside the wait (its 100 ms timeout has just
// expired and the thread waits for a CPU) is lost, and the loop polls on for ever: rarely, and
// more often with every CPU busy. So the signal is sent again until bpftrace exits.
// SIGTERM, not SIGINT: bpftrace resets SIGINT to the default once its probes are detached, so
// a second SIGINT would kill it halfway through its maps; SIGTERM stays a flag throughout.
const RESIGNAL_MS = 1_000;
// bpftrace 0.17 prints this on every start when it may not raise the limit; kernels >= 5.11 don't
// need it (preflight checks older ones), so it is noise, not a failure.
const HARMLESS = /couldn't set RLIMIT_MEMLOCK/;

/**
 * Starts mmap-lock.bt on the descendants of `root` and resolves once its probes are attached
 * (its BEGIN block has printed). `stop()` sends SIGTERM, which makes bpftrace print its maps and
 * exit; SIGKILL would lose them.
 * @param {{ bpftrace: string, root: number, self?: boolean, stacks?: 'kernel'|'user'|null,
 *   stderr?: NodeJS.WritableStream, stopNoteMs?: number, stopTimeoutMs?: number, resignalMs?: number }} options
 *   self: `root` itself too (all its threads); stacks: the kernel stack of every write, or
 *   its kernel and user stacks; stderr: where a slow stop is announced, after stopNoteMs;
 *   stopTimeoutMs: how long stop() waits for the maps before it gives them up; resignalMs: how
 *   often it repeats the signal meanwhile
 * @returns {Promise<{ stop: () => Promise<import('../stats/samples.js').TraceSummary>, cancel: () => Promise<void> }>}
 */
export async function startTrace({
  bpftrace,
  root,
  self = false,
  stacks = null,
  stderr: notes = process.stderr,
  stopNoteMs = STOP_NOTE_MS,
  stopTimeoutMs = STOP_TIMEOUT_MS,
  resignalMs = RESIGNAL_MS,
}) {
  const flags = [String(root), self ? '1' : '0', stacks === 'kernel' ? '1' : stacks === 'user' ? '2' : '0'];
  // SIGINT if the CLI dies: bpftrace detaches. The script's own watchdog ends it too, should that
  // one signal be lost.
  const [file, args] = diesWithParent(bpftrace, ['-f', 'json', '-B', 'line', SCRIPT, ...flags], 'SIGINT');
  // Its own process group: a terminal's Ctrl-C reaches the CLI, which then stops bpftrace. A
  // SIGINT of its own, arriving while bpftrace prints its maps, would kill it halfway through them.
  const subprocess = adopt(execa(file, args, { stdin: 'ignore', buffer: false, reject: false, detached: true }));
  let stdout = '';
  let stderr = '';
  /** @type {ReturnType<typeof deferred<boolean>>} */
  const ready = deferred();
  // execa gives piped streams when stdout and stderr are not redirected, as here
  subprocess.stdout?.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => {
    stdout += chunk;
    if (stdout.includes(READY_LINE)) ready.resolve(true);
  });
  subprocess.stderr?.setEncoding('utf8').on('data', (/** @type {string} */ chunk) => (stderr += chunk));
  const exited = subprocess; // reject: false, so it resolves with the result whatever happens

  const started = await orUndefinedAfter(Promise.race([ready.promise, exited.then(() => false)]), START_TIMEOUT_MS);
  if (started !== true) {
    subprocess.kill('SIGKILL');
    await exited;
    throw started === undefined
      ? new MmapbenchError(
          `bpftrace did not attach its probes within ${START_TIMEOUT_MS / 1000} s; is the machine overloaded?`,
        )
      : failure(stderr, 'exited before tracing');
  }

  return {
    /** SIGTERM, then the maps bpftrace prints; SIGKILL and an error if they do not come in time. */
    stop: () => stopped(subprocess, () => ({ stdout, stderr }), { notes, stopNoteMs, stopTimeoutMs, resignalMs }),
    /** Detaches without the maps: the run they belonged to failed. */
    async cancel() {
      subprocess.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * bpftrace's failure, in its first line that is not noise.
 * @param {string} stderr
 * @param {string} what
 */
const failure = (stderr, what) => {
  const line =
    stderr
      .split('\n')
      .filter((l) => l.trim() && !HARMLESS.test(l))
      .at(0) ?? 'no message';
  return new MmapbenchError(`bpftrace ${what}: ${line.trim()} (script ${SCRIPT})`);
};

/**
 * Stops bpftrace and reads the maps it prints: SIGTERM (repeated), a note where they are slow
 * to come, SIGKILL and an error if they do not come in time.
 * @param {import('execa').ResultPromise<{ stdin: 'ignore', buffer: false, reject: false, detached: true }>} subprocess
 * @param {() => { stdout: string, stderr: string }} printed  what it printed so far
 * @param {{ notes: NodeJS.WritableStream, stopNoteMs: number, stopTimeoutMs: number, resignalMs: number }} options
 * @returns {Promise<import('../stats/samples.js').TraceSummary>}
 */
async function stopped(subprocess, printed, { notes, stopNoteMs, stopTimeoutMs, resignalMs }) {
  subprocess.kill('SIGTERM');
  const resignal = setInterval(() => subprocess.kill('SIGTERM'), resignalMs);
  const note = setTimeout(() => {
    notes.write(
      `mmapbench: bpftrace is still printing its maps after ${stopNoteMs / 1000} s (it resolves their ` +
        `stacks first); waiting up to ${stopTimeoutMs / 1000} s, Ctrl-C again gives them up\n`,
    );
  }, stopNoteMs);
  const result = await orUndefinedAfter(subprocess, stopTimeoutMs);
  clearTimeout(note);
  clearInterval(resignal);
  if (!result) {
    subprocess.kill('SIGKILL');
    await subprocess;
    throw new MmapbenchError(
      `bpftrace did not print its maps within ${stopTimeoutMs / 1000} s of SIGTERM; they are lost`,
    );
  }
  const { stdout, stderr } = printed();
  if (result.exitCode !== 0) throw failure(stderr, `exited with ${result.exitCode ?? result.signal}`);
  const maps = parseBpftraceJson(stdout);
  if (maps.errors.length) throw new MmapbenchError(`bpftrace reported: ${maps.errors[0]}`);
  return summarizeTrace(maps);
}

/**
 * The promise's value, or undefined once `ms` have passed.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T | undefined>}
 */
async function orUndefinedAfter(promise, ms) {
  const timeout = new AbortController();
  try {
    return await Promise.race([promise, delay(ms, undefined, { signal: timeout.signal }).catch(() => undefined)]);
  } finally {
    timeout.abort();
  }
}
