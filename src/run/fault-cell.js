// A fault round's tree (compare --fault, run/fault.js): a cell (cell.js faultTree) whose host is
// told which worker fails and how; what the app saw, read into figures; and an app that died of the fault (a
// thread's abort, the OOM killer) read as the outcome it is, not as the run's failure.
import { MmapbenchError } from '../errors.js';
import { memberMemoryLimit } from '../system/memory-limit.js';
import { fullSpeedAt } from '../stats/ramp.js';
import { faultTree } from './cell.js';
import { faultOp } from './fault.js';

/**
 * A request of the app's counts as stalled when its timer called it this much later than its
 * interval: the 100 ms past which a user notices a response is late. (A request that itself
 * took that long delays the next tick as much, so it is counted there.)
 */
export const STALL_MS = 100;

/**
 * What one fault took down in one mode (the results' fault.workers, fault.procs).
 * @typedef {object} FaultOutcome
 * @property {boolean} appSurvived  the app's main thread went on serving its requests
 * @property {number} workersLost  of the K workers, how many ended with the fault
 * @property {number | null} failedRequests  the app's requests its timer called STALL_MS late or
 *   more from the release to the replacement's end; null where the app died (every request
 *   after it failed) or had no load (--main off)
 * @property {number | null} requests  the app's requests in that stretch
 * @property {number | null} noticeMs  from the fault to the app's first 'error' or 'exit' event
 * @property {number | null} replaceMs  from that event to the replacement's task set up
 * @property {number | null} fullSpeedMs  from that event to the replacement at full speed
 * @property {string} event  what the app heard, or the signal that ended it
 * @property {number} afterOps  the ops the failing worker ran before it failed
 */

/**
 * Runs one fault round's tree in `mode`: worker 0 fails as `kind` at a random op of its window.
 * @param {import('./plan.js').Plan} plan
 * @param {import('./plan.js').Work} work
 * @param {'workers'|'procs'} mode
 * @param {import('./fault.js').FaultKind} kind
 * @param {{ interrupt?: AbortSignal, limitBytes?: number }} [options]  limitBytes: native-oom's
 *   memory limit on the tree
 * @returns {Promise<FaultOutcome>}
 */
export async function runFaultCell(plan, work, mode, kind, { interrupt, limitBytes = 0 } = {}) {
  // native-oom's limit holds the failing member alone: a child (its host moves it in), or the
  // process of a failing thread, which is the app
  const limit = kind === 'native-oom' ? memberMemoryLimit(limitBytes) : null;
  /** @type {import('./fault.js').FaultSpec} */
  const fault = {
    kind,
    worker: 0,
    afterOps: faultOp(work.iterations),
    ...(limit && mode === 'procs' ? { limit: limit.procs } : {}),
  };
  try {
    const tree = await faultTree(plan, work, mode, interrupt, {
      fault,
      // at once, long before the host has started its app and its workers
      spawned: (pid) => (mode === 'workers' ? limit?.enter(pid) : undefined),
    });
    if ('ended' in tree) return { ...NOTHING_LEFT, workersLost: plan.k, event: tree.ended, afterOps: fault.afterOps };
    return outcomeOf(tree.seen, fault.afterOps);
  } finally {
    await limit?.remove();
  }
}

/** An app that died: nothing of it was left to notice, replace or serve. */
const NOTHING_LEFT = {
  appSurvived: false,
  failedRequests: null,
  requests: null,
  noticeMs: null,
  replaceMs: null,
  fullSpeedMs: null,
};

/**
 * The figures of a fault round whose app lived, from what its host saw.
 * @param {import('./fault.js').FaultSeen} seen
 * @param {number} afterOps
 * @returns {FaultOutcome}
 */
export function outcomeOf(seen, afterOps) {
  // nothing heard: the failing member outlived its failure, nothing was lost or replaced
  const notice = seen.noticeAt === null ? null : BigInt(seen.noticeAt);
  const sample = seen.replacement;
  const late = seen.app?.lag?.histogram ?? [];
  return {
    appSurvived: true,
    workersLost: seen.workersLost,
    failedRequests: seen.app
      ? late.reduce((sum, [lower, count]) => sum + (lower >= STALL_MS * 1e6 ? count : 0), 0)
      : null,
    requests: seen.app?.requests ?? null,
    noticeMs: seen.faultAt === null || notice === null ? null : Number(notice - BigInt(seen.faultAt)) / 1e6,
    replaceMs: sample?.timeline && notice !== null ? Number(BigInt(sample.timeline.setUp) - notice) / 1e6 : null,
    fullSpeedMs: notice === null ? null : fullSpeedOf(sample, notice),
    event: seen.event,
    afterOps,
  };
}

/**
 * From the app's notice to the replacement at full speed: the end of its warmup's last batch
 * below the band of its window's rate (stats/ramp.js); null without batches timed.
 * @param {import('./task-runner.js').Sample | null} sample
 * @param {bigint} notice
 */
function fullSpeedOf(sample, notice) {
  const ramp = sample?.warmup?.ramp;
  if (!sample || !ramp?.atUs.length) return null;
  const rate = (sample.ops * 1e9) / Math.max(Number(BigInt(sample.end) - BigInt(sample.start)), 1);
  return Number(BigInt(ramp.from ?? sample.start) - notice) / 1e6 + fullSpeedAt(ramp, rate).ms;
}

/**
 * A native-oom tree's memory limit in `mode`: twice the most a tree of its measured rounds held
 * (its proportional set size at the end of its windows), and never under MIN_LIMIT_BYTES, so that
 * the work fits and only the failing worker's Buffers pass it.
 * @param {import('./scheduler.js').Session} session
 * @param {'workers'|'procs'} mode
 */
export function limitOf(session, mode) {
  const held = session.rounds.map((round) => round.cells[mode]?.memory?.pssBytes ?? 0);
  return Math.max(MIN_LIMIT_BYTES, 2 * Math.max(0, ...held));
}

const MIN_LIMIT_BYTES = 512 * 2 ** 20;

/**
 * @typedef {{ kind: import('./fault.js').FaultKind, unrun?: 'max-time' } & Partial<Record<'workers'|'procs',
 *   FaultOutcome | { error: string }>>} FaultRound  the results' `fault`: per mode, what the fault
 *   took down, or why its round could not say; unrun: a mode's round did not start, --max-time
 *   being spent before it
 */

/**
 * The fault rounds of a run, after its measured rounds: one tree per mode. A round that fails for
 * another reason than its fault (a sibling's task, --timeout) keeps its error in its mode's place
 * and is the run's error; the measured rounds stand either way.
 * @param {import('./plan.js').Plan} plan
 * @param {Array<'workers'|'procs'>} modes
 * @param {import('./scheduler.js').Session} session
 * @param {{ interrupt?: AbortSignal, onFault?: (mode: 'workers'|'procs', outcome: FaultOutcome | { error: string }) => void,
 *   spent?: () => boolean }} [hooks]  spent: --max-time is spent, and no further round starts
 * @returns {Promise<{ fault: FaultRound, error: MmapbenchError | null }>}
 */
export async function runFaults(plan, modes, session, { interrupt, onFault, spent = () => false } = {}) {
  const kind = /** @type {import('./fault.js').FaultKind} */ (plan.fault);
  /** @type {FaultRound} */
  const fault = { kind };
  /** @type {MmapbenchError | null} */
  let failure = null;
  for (const mode of modes) {
    // a resumed run keeps the outcome of a mode whose round ended before it stopped
    const kept = session.fault?.kind === kind ? session.fault[mode] : undefined;
    if (kept && !('error' in kept)) {
      fault[mode] = kept;
      continue;
    }
    if (interrupt?.aborted || !session.work) break;
    if (spent()) {
      fault.unrun = 'max-time';
      break;
    }
    try {
      fault[mode] = await runFaultCell(plan, session.work, mode, kind, {
        interrupt,
        limitBytes: limitOf(session, mode),
      });
    } catch (error) {
      failure ??=
        error instanceof MmapbenchError
          ? error
          : new MmapbenchError(`internal error in a ${mode} fault round: ${/** @type {Error} */ (error).message}`, {
              cause: error,
            });
      if (interrupt?.aborted) break;
      fault[mode] = { error: /** @type {Error} */ (error).message };
    }
    onFault?.(mode, /** @type {FaultOutcome | { error: string }} */ (fault[mode]));
  }
  return { fault, error: failure };
}
