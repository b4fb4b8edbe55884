// Entry point of the parent process in procs mode: an app's main process that forks K children
// (proc-host.js) over IPC, as workers-host.js starts K threads. Both trees are then "an app's
// main process + K workers", so start-up and memory charge each mode what adding K workers to a
// running app costs, and neither mode is charged, or spared, a parent. It reports ready once all
// K are, passes the CLI's release on, and gathers their results.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { diesWithParent } from '../system/children.js';
import { ECHO } from './parent-channel.js';
import { readCounters } from './thread-counters.js';
import { membersCount, unfinishedThenExit } from './main-load.js';
import { endCycles, exitAll, ranCycle } from './ending.js';
import { hostShell } from './host-shell.js';

// A child sends ready, then result or failed; one that floods the channel is stopped.
const MAX_MESSAGES = 64;

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
const endChildren = () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
// the host that fails or loses the CLI stops its children with it
const shell = await hostShell({ stop: endChildren });
const { timeline: host, spec, send, fail, failed, app, anonymousBefore, memoryBefore } = shell;
// the CLI stopping the cell (another failed, Ctrl-C, --timeout) stops the children with it,
// saying whose windows had not ended
/** @type {() => number[]} */
let unfinished = () => [];
process.on('SIGTERM', () => {
  endChildren();
  unfinishedThenExit(send, unfinished());
});

const requested = String(process.hrtime.bigint());
const child = fileURLToPath(new URL('./proc-host.js', import.meta.url));
// Each child dies with this process, even when it is SIGKILLed (with the CLI) while the child
// spins in its timed loop and reads no 'disconnect': setpriv --pdeathsig, as the CLI starts its
// hosts, execs this Node (a small cost per child: docs/how-it-measures.md, "Figures behind the defaults"). The children's
// environment is this process's: the plan's, as the CLI gave it.
const [execPath, execArgv] = diesWithParent(
  process.execPath,
  // each child's young generation, as an app forks one with it (a thread's: workers-host.js)
  spec.semiSpaceMb ? [`--max-semi-space-size=${spec.semiSpaceMb}`] : [],
);
// a later cycle's release, which the host gives itself: a start far enough ahead for every
// child to have its message, as the CLI gives the first (releaseLeadNs, run/cell.js)
const RELEASE_LEAD_NS = BigInt((5 + spec.k) * 1e6);
/** @type {import('./task-runner.js').CellMain | undefined} */
let main;
// a fault round (fault.js): one child fails, and the app notices, replaces it and goes on
const faults = spec.fault ? await import('./fault.js') : null;
// the app's load is read when the last window is over, before any result crosses to this thread
const first = faults
  ? faults.hostFault(spec, startChildren, {
      read: () => app.read(),
      report: (fault) => send({ type: 'result', samples: [], host: { ...host, requested }, fault }),
    })
  : startChildren({ windowsOver: (end) => (main = app.read(end)) });
unfinished = first.unfinished;
if (!faults) first.finished.then(report);

/**
 * A child that could not start, or that ended before it finished, fails the cell; an ended
 * child is let go: a parent that recycles its children must not hold them all.
 * @param {import('node:child_process').ChildProcess} subprocess
 * @param {number} index
 * @param {() => boolean} finished  whether it sent its result
 * @param {(index: number, heard: string) => void} [lost]  a fault round's first cycle: a child that
 *   ends early is lost, not the cell's failure (fault.js)
 */
function watchExit(subprocess, index, finished, lost) {
  // a process the machine cannot start (EAGAIN at the pids limit, ENOMEM) is not a task's failure
  subprocess.on('error', (/** @type {Error & { code?: string }} */ error) =>
    fail(index, { message: `could not start process ${index}: ${error.message}`, notStarted: true, code: error.code }),
  );
  subprocess.on('exit', (code, signal) => {
    const at = children.indexOf(subprocess);
    if (at >= 0) children.splice(at, 1);
    if (finished() || failed()) return;
    if (lost) return lost(index, `'exit' (${signal ?? `code ${code}`})`);
    fail(
      index,
      signal
        ? { message: `was killed by ${signal}`, signal }
        : { message: `exited with code ${code} before finishing`, exitCode: code ?? undefined },
    );
  });
}

/**
 * Forks K children; `ready` goes to the CLI in the first cycle, and `finished` resolves with
 * their results once all K have reported.
 * @param {{ quiet?: boolean, windowsOver?: (end: bigint | undefined) => void, own?: typeof spec,
 *   lost?: (index: number, heard: string) => void, faulting?: (at: string) => void, survived?: () => void }} [options]  quiet: a
 *   later cycle, which tells the CLI nothing; windowsOver: called when every window is over, before
 *   any result is asked for, with the end of the last (hrtime ns); own: these children's spec (a
 *   fault round's replacement: one, failing never); lost, faulting: a fault round's first cycle,
 *   whose child that ends early is lost, not the cell's failure, and whose failing child may
 *   survive its failure (fault.js)
 * @returns {import('./ending.js').Cycle & { members: import('node:child_process').ChildProcess[],
 *   finished: Promise<import('./task-runner.js').ResultMessage[]>, tell: (message: object) => void,
 *   unfinished: () => number[], lose: (index: number) => void }}
 */
function startChildren({ quiet = false, windowsOver = () => {}, own = spec, lost, faulting, survived } = {}) {
  /** @type {import('node:child_process').ChildProcess[]} */
  const cycle = [];
  let setUp = 0;
  const tell = (/** @type {object} */ message) => cycle.forEach((subprocess) => subprocess.send(message, ignore));
  /** @type {ReturnType<typeof membersCount<import('./task-runner.js').ResultMessage>>} */
  const members = membersCount(own.k, { quiet, windowsOver, collect: () => tell({ type: 'collect' }), say: send });
  for (let index = 0; index < own.k && !failed(); index++) {
    const subprocess = fork(child, [own === spec ? process.argv[2] : JSON.stringify(own), String(index)], {
      execPath,
      // a fault round's `oom` child: its JavaScript heap's limit, as an app forks one with it
      execArgv:
        own.fault?.kind === 'oom' && own.fault.worker === index && faults
          ? [...execArgv, `--max-old-space-size=${faults.HEAP_LIMIT_MB}`]
          : execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // how a task's messages cross to this process, as the app would fork them (message task)
      serialization: spec.parent && spec.params.serialization === 'advanced' ? 'advanced' : 'json',
    });
    // native-oom's failing child, under its memory limit alone, before it has loaded its task
    if (own.fault?.limit && own.fault.worker === index && subprocess.pid)
      writeFileSync(own.fault.limit, String(subprocess.pid));
    children.push(subprocess);
    cycle.push(subprocess);
    let finished = false;
    let count = 0;
    subprocess.on('message', (/** @type {any} */ message) => {
      // a task that talks to its parent: every request straight back, as a pool's result
      if (spec.parent && message?.type === ECHO) return void subprocess.send(message, ignore);
      if (++count > MAX_MESSAGES) {
        return fail(index, {
          message: `sent more than ${MAX_MESSAGES} messages and was stopped; a task must not use process.send`,
        });
      }
      if (message?.type === 'faulting') faulting?.(message.at);
      else if (message?.type === 'survived') survived?.();
      else if (message?.type === 'set-up' && ++setUp === own.k) tell({ type: 'set-up' });
      else if (message?.type === 'failed') {
        const { type, worker, ...details } = message;
        fail(index, details);
      } else if (members.heard(message, index, message)) finished = true;
    });
    watchExit(subprocess, index, () => finished, lost);
  }
  const release = () => tell({ type: 'go', at: String(process.hrtime.bigint() + RELEASE_LEAD_NS) });
  return {
    members: cycle,
    ready: members.ready,
    finished: members.finished,
    unfinished: members.unfinished,
    release,
    tell,
    lose: members.lose,
  };
}

process.on('message', (/** @type {any} */ message) => {
  // the release names a moment every child waits for (proc-host.js): pass it on as it is
  if (message?.type === 'go') {
    first.tell(message);
    app.release(message.at); // the stretch the workers run in, from the moment they start
    // a task that talks to this process: what answering it costs this thread
    if (spec.parent) parentFrom = readCounters().cpuNs;
  }
  if (message?.type === 'end')
    shell.ending(
      endCycles({
        spec: /** @type {import('./ending.js').EndSpec} */ (spec.end),
        first,
        again: () => ranCycle(startChildren({ quiet: true })),
        end: (cycle) =>
          exitAll(cycle.members, (/** @type {import('node:child_process').ChildProcess} */ subprocess) =>
            subprocess.kill(),
          ),
        before: memoryBefore,
        failed,
        send,
      }),
    );
  // once the CLI has read the tree's memory: the children first, then this process
  if (message?.type === 'exit') {
    let left = children.filter((subprocess) => subprocess.exitCode === null && subprocess.signalCode === null);
    if (!left.length) process.exit(0);
    for (const subprocess of left) {
      subprocess.once('exit', () => {
        left = left.filter((other) => other !== subprocess);
        if (!left.length) process.exit(0);
      });
      subprocess.send({ type: 'exit' }, ignore);
    }
  }
});

// A child that died meanwhile cannot take a message; its exit, reported above, says why.
const ignore = () => {};
/** @type {number | null} */
let parentFrom = null;

/** @param {import('./task-runner.js').ResultMessage[]} results */
function report(results) {
  const parentNow = spec.parent ? readCounters().cpuNs : null;
  const samples = results.flatMap((result) => result.samples ?? []);
  const usage = {
    cpuUs: results.reduce((sum, result) => sum + (result.usage?.cpuUs ?? 0), 0),
    involuntarySwitches: results.reduce((sum, result) => sum + (result.usage?.involuntarySwitches ?? 0), 0),
  };
  send({
    type: 'result',
    samples,
    usage,
    host: { ...host, requested },
    // each child's own start and release, and its pid: the tree the CLI reads the memory of
    children: results.map((result, index) => ({ ...result.host, pid: first.members[index].pid })),
    anonymousBefore,
    main,
    ...(parentNow === null || parentFrom === null ? {} : { parentCpuNs: parentNow - parentFrom }),
  });
}
