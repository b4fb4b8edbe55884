// One member of a plain tree (plain-host.js): a Worker thread or a child process that loads the
// task, sets it up, runs its warm-up ops and then its window's, and says how many page faults
// the window took. It imports plain-ops.js (node:fs) and the task, nothing else: which heap state
// a tree draws moves with what it loads before its window, Node's own modules too (a child that
// imported node:child_process, node:worker_threads and node:url first fell slow in 10 and 5 of 20
// trees, against 0 and 0 of 20 that imported none; docs/how-it-measures.md, "Why fresh trees
// differ").
import { minorFaults, setUpPlain } from './plain-ops.js';

/**
 * @typedef {import('./plain-ops.js').PlainSpec} PlainSpec
 * @typedef {{ ops: number, ns: number, minflt: number, pid: number, pids?: number[] }} PlainMember  one
 *   member's window; pids: a pool's processes, where its window is the pool's (plain-host.js)
 */

/**
 * The task's setup, `warmup` ops, then `iterations` ops with their page faults.
 * @param {PlainSpec} spec @param {number} index
 * @returns {Promise<PlainMember>}
 */
async function member(spec, index) {
  const { run, teardown } = await setUpPlain(spec, index);
  await run(spec.warmup);
  const faults = minorFaults();
  const from = process.hrtime.bigint();
  await run(spec.iterations);
  const ns = Number(process.hrtime.bigint() - from);
  const minflt = minorFaults() - faults;
  await teardown();
  return { ops: spec.iterations, ns, minflt, pid: process.pid };
}

/**
 * Runs the job and says how it went; a member whose window ran then holds still, alive with what
 * it holds, until its app exits (mmapbench reads the tree's memory first, as a cell's); one that
 * failed ends once it has said so.
 * @param {{ spec: PlainSpec, index: number }} job
 * @param {(message: unknown, failed: boolean) => void} reply
 */
const answer = (job, reply) =>
  member(job.spec, job.index).then(
    (window) => reply(window, false),
    (error) => reply({ error: String(error?.message ?? error) }, true),
  );

// a child is handed its job after `--child`; a Worker thread as workerData, imported only there
// (a child never loads node:worker_threads)
if (process.argv[2] === '--child') {
  // the channel holds it (a 'disconnect' listener refs it) until its app's exit closes it
  process.on('disconnect', () => process.exit(0));
  answer(JSON.parse(process.argv[3]), (message, failed) => process.send?.(message, () => failed && process.exit(0)));
} else {
  const { parentPort, workerData } = await import('node:worker_threads');
  // a listener on the port holds the thread until its app exits
  parentPort?.on('message', () => {});
  answer(workerData, (message, failed) => {
    parentPort?.postMessage(message);
    if (failed) parentPort?.close();
  });
}
