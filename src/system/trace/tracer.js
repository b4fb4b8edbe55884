import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { MmapbenchError } from '../../errors.js';
import { parseBpftraceJson, summarizeTrace } from './parse.js';
import { adopt, diesWithParent } from '../children.js';

export const SCRIPT = fileURLToPath(new URL('../../../mmap-lock.bt', import.meta.url));
const READY_LINE = 'mmap-lock: tracing';
const START_TIMEOUT_MS = 60_000; // compiling and attaching takes about a second; a loaded box more
const STOP_TIMEOUT_MS = 10_000;
// bpftrace 0.17 prints this on every start when it may not raise the limit; kernels >= 5.11 don't
// need it (preflight checks older ones), so it is noise, not a failure.
const HARMLESS = /couldn't set RLIMIT_MEMLOCK/;

/**
 * Starts mmap-lock.bt on the descendants of `root` and resolves once its probes are attached
 * (its BEGIN block has printed). `stop()` sends SIGINT, which makes bpftrace print its maps and
 * exit; SIGKILL would lose them.
 * @param {{ bpftrace: string, root: number, self?: boolean, stacks?: 'kernel'|'user'|null }} options
 *   self: `root` itself too (all its threads); stacks: the kernel stack of every write, or
 *   its kernel and user stacks
 * @returns {Promise<{ stop: () => Promise<import('./parse.js').TraceSummary>, cancel: () => Promise<void> }>}
 */
export async function startTrace({ bpftrace, root, self = false, stacks = null }) {
  const flags = [String(root), self ? '1' : '0', { kernel: '1', user: '2' }[stacks] ?? '0'];
  // SIGINT if the CLI dies: bpftrace detaches. The script's own watchdog ends it too.
  const [file, args] = diesWithParent(bpftrace, ['-f', 'json', '-B', 'line', SCRIPT, ...flags], 'SIGINT');
  const subprocess = adopt(execa(file, args, { stdin: 'ignore', buffer: false, reject: false }));
  let stdout = '';
  let stderr = '';
  let markReady;
  const ready = new Promise((resolve) => (markReady = resolve));
  subprocess.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
    if (stdout.includes(READY_LINE)) markReady(true);
  });
  subprocess.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const exited = subprocess; // reject: false, so it resolves with the result whatever happens

  const failure = (what) => {
    const line =
      stderr
        .split('\n')
        .filter((l) => l.trim() && !HARMLESS.test(l))
        .at(0) ?? 'no message';
    return new MmapbenchError(`bpftrace ${what}: ${line.trim()} (script ${SCRIPT})`);
  };

  const started = await orUndefinedAfter(Promise.race([ready, exited.then(() => false)]), START_TIMEOUT_MS);
  if (started !== true) {
    subprocess.kill('SIGKILL');
    await exited;
    throw started === undefined
      ? new MmapbenchError(
          `bpftrace did not attach its probes within ${START_TIMEOUT_MS / 1000} s; is the machine overloaded?`,
        )
      : failure('exited before tracing');
  }

  /** SIGINT, then SIGKILL if it has not exited in time: the result, or undefined if killed. */
  const halt = async () => {
    subprocess.kill('SIGINT');
    const result = await orUndefinedAfter(exited, STOP_TIMEOUT_MS);
    if (result) return result;
    subprocess.kill('SIGKILL');
    await exited;
    return undefined;
  };

  return {
    async stop() {
      const result = await halt();
      if (!result)
        throw new MmapbenchError(
          `bpftrace did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGINT; its maps are lost`,
        );
      if (result.exitCode !== 0 && result.signal !== 'SIGINT')
        throw failure(`exited with ${result.exitCode ?? result.signal}`);
      const output = parseBpftraceJson(stdout);
      if (output.errors.length) throw new MmapbenchError(`bpftrace reported: ${output.errors[0]}`);
      return summarizeTrace(output);
    },
    async cancel() {
      await halt();
    },
  };
}

/** The promise's value, or undefined once `ms` have passed. */
async function orUndefinedAfter(promise, ms) {
  const timeout = new AbortController();
  try {
    return await Promise.race([promise, delay(ms, undefined, { signal: timeout.signal }).catch(() => undefined)]);
  } finally {
    timeout.abort();
  }
}
