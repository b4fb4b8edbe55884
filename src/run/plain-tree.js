// A plain tree beside the cells: the task's work in an app of a few lines, with nothing of
// mmapbench's (plain-host.js), so a run reads which heap state an app without mmapbench draws the
// same minutes as its cells (docs/how-it-measures.md, "Why fresh trees differ").
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { descendantsOf, gone, killStrays } from '../system/descendants.js';
import { treeMemory } from '../system/memory.js';
import { spawnHost, track } from './host-process.js';
import { poolBatchOf } from './work.js';

const host = fileURLToPath(new URL('./plain-host.js', import.meta.url));

// A compare's rounds hold a plain tree a mode in one round in PLAIN_EVERY, from the second, after
// its cells (scheduler.js, armSteps): the state an app without mmapbench draws, the same minutes,
// at the cost of a window a mode every other round.
export const PLAIN_EVERY = 2;

/** @typedef {import('../stats/trees.js').PlainTree} PlainTree */

/**
 * Whether a run's rounds hold plain trees: a compare of both modes (raw, or through a pool, whose
 * plain app builds the same pool; not with --isolate, whose every pool task is a fresh worker and
 * draws no state a window long), not an A/A run, of a task that does not talk to its parent
 * (which a plain app would have to be), and one that measures (--quick measures nothing).
 * @param {Readonly<import('./plan.js').Plan>} plan
 * @param {Array<'workers'|'procs'>} modes
 */
export const plainTreesIn = (plan, modes) =>
  modes.length === 2 && !plan.aa && !plan.task.parent && !plan.quick && !plan.pool?.isolate;

/**
 * What a plain member warms up: the plan's fixed count, or, where the cells warmed up until
 * steady, the median of what the round's cell of the mode ran; its window's count where it has
 * neither.
 * @param {import('./plan.js').Work} work
 * @param {import('../stats/cell-summary.js').CellResult | undefined} cell
 * @param {number} iterations
 */
export function plainWarmup(work, cell, iterations) {
  if (typeof work.warmup === 'number') return work.warmup;
  const ran = (cell?.workers ?? []).flatMap((worker) => (worker.warmup ? [worker.warmup.ops] : []));
  return ran.length ? Math.round(median(ran)) : iterations;
}

/**
 * Runs one plain tree in a fresh process tree, on the plan's Node and environment, as a cell is.
 * @param {import('./plan.js').Plan} plan
 * @param {{ iterations: number, warmup: number }} work  per member
 * @param {'workers'|'procs'} mode
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<PlainTree>}
 */
export async function runPlainTree(plan, work, mode, interrupt) {
  const { pool } = plan;
  const spec = {
    taskUrl: plan.task.url,
    file: plan.file.path,
    fileSize: plan.file.size,
    params: plan.params,
    k: plan.k,
    mode,
    ...work,
    ...(plan.semiSpaceMb ? { semiSpaceMb: plan.semiSpaceMb } : {}),
    ...(pool
      ? {
          // the cells' pool, its tasks as many ops (work.js)
          pool: {
            name: pool.name,
            module: pool.module,
            processModule: pool.processModule ?? null,
            isolate: pool.isolate,
            batch: pool.batch ?? poolBatchOf(work),
          },
        }
      : {}),
  };
  const subprocess = spawnHost(plan, host, [JSON.stringify(spec)], interrupt);
  const label = `the plain ${mode === 'workers' ? "threads' app" : "processes' app"}`;
  const tracked = track(subprocess, { mode, label, plan, interrupt, dismissed: true });
  const hostPids = subprocess.pid ? [subprocess.pid] : [];
  /** @type {ReturnType<typeof descendantsOf>} */
  let left = [];
  /** @type {number | null} */
  let addedMiB = null;
  tracked.result.then((/** @type {any} */ message) => {
    // its members hold still until dismissed: what they added, read as a cell's tree is
    addedMiB = addedBy(message, hostPids, plan.k);
    left = descendantsOf(hostPids);
    tracked.dismiss();
  });
  const { members } = /** @type {any} */ (
    await tracked.done.finally(async () => {
      await gone(killStrays(hostPids, left));
      await subprocess.box.end();
    })
  );
  const windows = /** @type {Array<{ ops: number, ns: number, minflt: number }>} */ (members);
  return {
    ops: windows.reduce((sum, one) => sum + one.ops, 0),
    minflt: windows.reduce((sum, one) => sum + one.minflt, 0),
    throughput: windows.reduce((sum, one) => sum + (one.ops * 1e9) / Math.max(one.ns, 1), 0),
    warmup: work.warmup,
    ...(addedMiB === null ? {} : { addedMiB }),
  };
}

/**
 * The anonymous memory the plain app's K members added to it, in MiB a member: the tree's (the
 * app and its members' processes) less the app's before it started any, over K; null where
 * /proc did not say, or nothing was added (points/measures.js, addedMiB, reads a cell's alike).
 * @param {{ members: Array<{ pid: number, pids?: number[] }>, anonymousBefore?: number | null }} message
 * @param {number[]} hostPids
 * @param {number} k
 */
function addedBy({ members, anonymousBefore }, hostPids, k) {
  const pids = new Set([...hostPids, ...members.flatMap((one) => one.pids ?? [one.pid])]);
  const { anonBytes } = treeMemory([...pids]);
  if (typeof anonBytes !== 'number' || typeof anonymousBefore !== 'number') return null;
  const added = anonBytes - anonymousBefore;
  return added > 0 ? added / k / 2 ** 20 : null;
}
