// A fault round (compare --fault): after the measured rounds, one more tree per mode in which one
// of the K workers fails on purpose at a random op while the app's load runs, to measure what one
// crash takes down in that mode: the app's main thread and the other workers, or that worker alone
// (docs/how-it-measures.md, "What one crash takes down"). Here: how a member fails (worker-thread.js,
// proc-host.js), and how its host notices, replaces it and says what it saw (workers-host.js,
// procs-host.js). Imports nothing from node_modules: every measured thread loads it.

/**
 * The ways one worker fails: an uncaught exception; process.exit(1); SIGABRT to its process, as a
 * native crash (an addon's segfault, an abort in C++) raises one (process.abort() itself is
 * refused in a Worker); its JavaScript heap past its limit (a Worker's resourceLimits, a child's
 * --max-old-space-size); native memory (Buffers) past a memory limit on the tree's cgroup, where
 * the kernel's OOM killer picks whom to end.
 */
export const FAULT_KINDS = /** @type {const} */ (['throw', 'exit', 'abort', 'oom', 'native-oom']);

/** @typedef {typeof FAULT_KINDS[number]} FaultKind */

/**
 * @typedef {object} FaultSpec  what a fault round's host is told (RunnerSpec.fault)
 * @property {FaultKind} kind
 * @property {number} worker  the index of the worker that fails
 * @property {number} afterOps  the ops it runs in its window before it fails
 * @property {string} [limit]  native-oom in procs mode: the cgroup.procs file of the memory limit
 *   the host puts the failing child under as it forks it (system/memory-limit.js)
 */

/** The JavaScript heap of the failing worker under `oom`, in MiB: its old generation's limit. */
export const HEAP_LIMIT_MB = 128;

/**
 * How long a failing member may live on after its failure before it says it survived it: a throw
 * or an exit ends a member within milliseconds (docs/how-it-measures.md, "What one crash takes
 * down"); one alive a second later had its task keep it (an uncaughtException handler, a
 * process.exit of its own), and nothing was lost.
 */
export const SURVIVE_MS = 1000;

/** The event of a fault round in which no worker was lost: the task handled the fault. */
export const NONE_LOST = 'none: the task kept its worker alive';

/**
 * The failing member, once its ops are run: it says when it fails (`announce`, which resolves once
 * the message is on its way), then fails as `kind` says. Resolves only where the member outlives
 * its failure by SURVIVE_MS, once it has said so (`survived`): its window then ends as the others'.
 * @param {string} kind  a FaultKind
 * @param {(message: { type: 'faulting', at: string } | { type: 'survived' }) => Promise<void>} announce
 * @returns {Promise<void>}
 */
export async function failAs(kind, announce) {
  await announce({ type: 'faulting', at: String(process.hrtime.bigint()) });
  /** @type {unknown[]} */
  const held = [];
  // uncaught, outside any try of the harness's, as a task's own exception is
  if (kind === 'throw')
    setImmediate(() => {
      throw new Error('mmapbench --fault throw: an uncaught exception in one worker');
    });
  if (kind === 'exit') process.exit(1);
  if (kind === 'abort') process.kill(process.pid, 'SIGABRT');
  if (kind === 'oom') for (;;) held.push(new Array(1e6).fill(held.length));
  // 16 MiB a Buffer, each page written, kept: native memory, outside the JavaScript heap
  if (kind === 'native-oom') for (;;) held.push(Buffer.alloc(16 << 20, 1));
  await new Promise((resolve) => setTimeout(resolve, SURVIVE_MS));
  await announce({ type: 'survived' });
}

/**
 * How many ops the failing member runs before it fails: a random op in the middle half of its
 * window, so that the others are mid-window too.
 * @param {number} iterations
 * @param {() => number} [random]
 */
export const faultOp = (iterations, random = Math.random) =>
  Math.max(1, Math.floor(iterations / 4 + random() * (iterations / 2)));

/**
 * @typedef {object} FaultSeen  what a fault round's host saw, in its result (ResultMessage.fault);
 *   moments on hrtime's clock (ns, as text), read into figures by the CLI (run/fault-cell.js)
 * @property {number} workersLost  of the first K, how many ended before their window did
 * @property {string} event  what the app heard first: its 'error' event's code or message, or
 *   its 'exit' event's code or signal; NONE_LOST where the failing member survived
 * @property {string | null} faultAt  when the failing member failed, by its own word
 * @property {string | null} noticeAt  when the app heard it; null where it heard nothing
 * @property {import('./task-runner.js').Sample | null} replacement  the replacement's window
 * @property {import('../stats/samples.js').MainStretch | null} app  the app's load from the
 *   release to the replacement's end; null with --main off
 */

/**
 * A fault round in a host: `lost(index, event)` is called when one of its first K members ends
 * before its window did (the first loss is the app's notice, and starts one replacement),
 * `faulting(at)` when the failing member says it fails, `survived()` when it says it outlived its
 * failure (nothing lost, nothing replaced). `done` resolves with what it saw, once the other
 * members have reported and the replacement, if any, has run its window.
 * @param {{ start: () => { ready: Promise<unknown>, release: () => void, finished: Promise<any[]> },
 *   lose: (index: number) => void, others: Promise<unknown>, read: () => import('../stats/samples.js').CellMain | undefined }} host
 *   start: one replacement member, quiet; lose: the first cycle no longer waits for that member;
 *   others: the first cycle's other members have reported; read: the app's load, ended
 */
export function faultRound({ start, lose, others, read }) {
  /** @type {string | null} */
  let faultAt = null;
  /** @type {bigint | null} */
  let noticeAt = null;
  let event = '';
  const lost = new Set();
  /** @type {(value: Promise<any[]>) => void} */
  let replaced = () => {};
  const replacement = /** @type {Promise<any[]>} */ (new Promise((resolve) => (replaced = resolve)));
  return {
    faulting: (/** @type {string} */ at) => (faultAt ??= at),
    survived() {
      if (noticeAt !== null) return;
      event = NONE_LOST;
      replaced(Promise.resolve([]));
    },
    /** @param {number} index @param {string} heard */
    lost(index, heard) {
      if (lost.has(index)) return;
      lost.add(index);
      lose(index);
      if (noticeAt !== null) return;
      noticeAt = process.hrtime.bigint();
      event = heard;
      const next = start();
      replaced(next.ready.then(() => (next.release(), next.finished)));
    },
    /** @type {Promise<FaultSeen>} */
    done: Promise.all([others, replacement]).then(([, [sample]]) => ({
      workersLost: lost.size,
      event,
      faultAt,
      noticeAt: noticeAt === null ? null : String(noticeAt),
      // a procs host's results carry the samples of each child
      replacement: sample?.samples?.[0] ?? sample ?? null,
      app: read()?.during ?? null,
    })),
  };
}

/**
 * A fault round in a host (workers-host.js, procs-host.js): its first K members started with
 * `start`, the first one lost starting the replacement, and what it saw sent once done.
 * @template {{ lose: (index: number) => void, finished: Promise<any[]> }} C
 * @param {import('./task-runner.js').RunnerSpec} spec
 * @param {(options: { quiet?: boolean, own?: import('./task-runner.js').RunnerSpec,
 *   lost?: (index: number, heard: string) => void, faulting?: (at: string) => void, survived?: () => void }) => C & { ready: Promise<unknown>, release: () => void }} start
 * @param {{ read: () => import('../stats/samples.js').CellMain | undefined, report: (fault: FaultSeen) => void }} app
 * @returns {C}  the first cycle
 */
export function hostFault(spec, start, { read, report }) {
  // the round needs the first cycle, whose members tell the round: through these, set below
  const to = {
    lost: (/** @type {number} */ _, /** @type {string} */ __) => {},
    faulting: (/** @type {string} */ _) => {},
    survived: () => {},
  };
  const first = start({
    lost: (index, heard) => to.lost(index, heard),
    faulting: (at) => to.faulting(at),
    survived: () => to.survived(),
  });
  const round = faultRound({
    // one replacement, which never fails
    start: () => start({ quiet: true, own: { ...spec, k: 1, fault: null } }),
    lose: first.lose,
    others: first.finished,
    read,
  });
  Object.assign(to, { lost: round.lost, faulting: round.faulting, survived: round.survived });
  round.done.then(report);
  return first;
}
