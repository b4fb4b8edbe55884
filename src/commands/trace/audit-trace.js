// `mmapbench trace --pid PID` and `mmapbench trace -- COMMAND`: mmap-lock.bt on any process and
// everything it starts, not only on mmapbench's own cells, to find what in an application takes
// its mmap_lock for write.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { usageError } from '../../errors.js';
import { adopt } from '../../system/children.js';
import { diesWithParentBoxed } from '../../system/containment.js';
import { which } from '../../system/which.js';
import { preflight } from '../../trace/preflight.js';
import { startTrace } from '../../trace/tracer.js';

const POLL_MS = 200;

/**
 * What to audit: a running process, or a command to start under the trace.
 * @typedef {object} AuditRequest
 * @property {number} [pid]
 * @property {string[]} [command]
 * @property {number} [seconds]  stop after this long (default: when the target exits, or Ctrl-C)
 * @property {boolean} [stacks]  the user stacks of the writes too, besides the kernel ones
 * @property {string} [bpftrace]
 * @property {boolean} [mountTracefs]
 */

/**
 * The process's command line, or null once it is gone.
 * @param {number} pid
 */
function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || null;
  } catch {
    return null;
  }
}

const parentOf = (/** @type {number} */ pid) => {
  try {
    // the command name is in parentheses and may hold spaces: the fields after it are fixed
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return null;
  }
};

/**
 * `root` and its descendants now alive, with their command lines.
 * @param {number} root
 */
function family(root) {
  /** @type {Map<number, number | null>} */
  const parents = new Map();
  for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) parents.set(Number(name), parentOf(Number(name)));
  const members = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents)
      if (!members.has(pid) && parent !== null && members.has(parent)) {
        members.add(pid);
        grew = true;
      }
  }
  return /** @type {Array<[number, string]>} */ (
    [...members].map((pid) => [pid, commandLine(pid)]).filter(([, line]) => line)
  );
}

/**
 * Checks the request before anything starts: a usage error names the problem and the fix.
 * @param {AuditRequest} request
 */
function checkAudit({ pid, command, seconds }) {
  if (pid !== undefined && command) throw usageError('give --pid or a command after --, not both');
  if (pid === undefined && command?.length === 0)
    throw usageError(
      'nothing after --: give the command to run under the trace, e.g. `mmapbench trace -- node app.js`',
    );
  if (seconds !== undefined && !(seconds > 0)) throw usageError(`--seconds ${seconds} must be a number above 0`);
  if (pid !== undefined && !existsSync(`/proc/${pid}`))
    throw usageError(
      `--pid ${pid}: no such process; pass the pid of a running process (e.g. from \`pgrep -f app.js\`)`,
    );
  if (pid !== undefined && pid === process.pid)
    throw usageError(`--pid ${pid} is this mmapbench; pass another process`);
  if (command && !which(command[0]))
    throw usageError(`${command[0]}: no such command on PATH; give the program's path or install it`);
}

/**
 * A command to trace from its first instruction: a shell that waits for one line before it
 * execs the command, so its pid, which the command keeps, is known before the command runs and
 * the trace misses none of its start. The command's output goes to stderr, so stdout keeps only
 * the report. It dies with the CLI, and what it started and left running with it (its box).
 * @param {string[]} command
 */
function startCommand(command) {
  const {
    command: [file, args],
    box,
  } = diesWithParentBoxed('sh', ['-c', 'read _ && exec "$@"', 'sh', ...command], 'SIGTERM');
  const child = adopt(spawn(file, args, { stdio: ['pipe', 2, 2], env: { ...process.env, ...box.env } }));
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => box.end().finally(() => resolve({ code, signal }))),
  );
  return { child, exited };
}

/** @typedef {'exited'|'time'|'interrupted'} Stop */

/**
 * What ends the trace: the target's exit (its family's command lines read while it runs), the
 * seconds asked, or Ctrl-C.
 * @param {{ child: import('node:child_process').ChildProcess | null, root: number,
 *   names: Map<number, string>, seconds?: number, interrupt?: AbortSignal, signal: AbortSignal }} target
 * @returns {Array<Promise<Stop>>}
 */
function stopsOf({ child, root, names, seconds, interrupt, signal }) {
  const gone = (async () => {
    while (
      !signal.aborted &&
      (child ? child.exitCode === null && child.signalCode === null : existsSync(`/proc/${root}`))
    ) {
      for (const [member, line] of family(root)) names.set(member, line);
      await delay(POLL_MS, undefined, { signal }).catch(() => {});
    }
  })();
  /** @type {Array<Promise<Stop>>} */
  const waits = [gone.then(() => /** @type {Stop} */ ('exited'))];
  if (seconds) waits.push(delay(seconds * 1000, /** @type {Stop} */ ('time'), { signal }).catch(() => 'exited'));
  if (interrupt)
    waits.push(
      new Promise((resolve) => interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true })),
    );
  return waits;
}

/**
 * Traces the target until it exits, `seconds` pass, or `interrupt` fires, and returns what
 * mmap-lock.bt saw with the command lines of the processes it saw.
 * @param {AuditRequest} request
 * @param {{ interrupt?: AbortSignal, stderr?: NodeJS.WritableStream }} [context]
 */
export async function audit(request, { interrupt, stderr = process.stderr } = {}) {
  checkAudit(request);
  const setup = await preflight({ bpftrace: request.bpftrace, mountTracefs: request.mountTracefs, interrupt });
  const { child, exited } = request.command ? startCommand(request.command) : { child: null, exited: null };
  const pid = child ? child.pid : request.pid;
  if (pid === undefined) throw usageError('nothing to trace: give --pid PID or a command after --');
  const root = pid;
  const names = new Map(family(root));
  let tracer;
  try {
    tracer = await startTrace({
      bpftrace: setup.bpftrace,
      root,
      self: true,
      stacks: request.stacks ? 'user' : 'kernel',
      stderr,
    });
  } catch (error) {
    child?.kill('SIGKILL');
    throw error;
  }
  // the traced window starts once the probes are attached
  const started = process.hrtime.bigint();
  stderr.write(
    `mmapbench: tracing pid ${pid}${request.command ? ` (${request.command.join(' ')})` : ''} and what it starts` +
      `${request.seconds ? ` for ${request.seconds} s` : ''}; Ctrl-C stops and reports\n`,
  );
  child?.stdin?.end('\n');

  const stop = new AbortController();
  const waits = stopsOf({ child, root, names, seconds: request.seconds, interrupt, signal: stop.signal });
  const status = interrupt?.aborted ? 'interrupted' : await Promise.race(waits);
  stop.abort();
  const windowNs = Number(process.hrtime.bigint() - started);
  const trace = await tracer.stop();
  if (child && status !== 'exited') {
    // --seconds ran out, or Ctrl-C: the command started here does not outlive its trace
    child.kill('SIGTERM');
  }
  const end = exited ? await Promise.race([exited, delay(2000, null)]) : null;
  if (end === null && child) child.kill('SIGKILL');
  return {
    target: { pid: root, command: request.command ?? null, commandLine: names.get(root) ?? commandLine(root) },
    stop: status,
    exit: end,
    seconds: windowNs / 1e9,
    bpftrace: { path: setup.bpftrace, version: setup.version },
    trace: { ...trace, windowNs },
    // bpftrace resolves user frames when it prints, which needs the process still there
    resolvedAlive: status !== 'exited',
    commands: Object.fromEntries(trace.processes.map(({ pid: p }) => [p, names.get(p) ?? null])),
  };
}
