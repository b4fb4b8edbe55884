// One member of a plain tree (plain-host.js): a Worker thread or a child process that loads the
// task, sets it up, runs its warm-up ops and then its window's, and says how many page faults
// the window took. It imports node:fs and the task, nothing else: which heap state a tree draws
// moves with what it loads before its window, Node's own modules too (a child that imported
// node:child_process, node:worker_threads and node:url first fell slow in 10 and 5 of 20 trees,
// against 0 and 0 of 20 that imported none; docs/how-it-measures.md, "Why fresh trees differ").
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * @typedef {{ taskUrl: string, file: string, fileSize: number, params: Record<string, any>,
 *   k: number, mode: 'workers'|'procs', warmup: number, iterations: number, semiSpaceMb?: number,
 *   pool?: import('./pool/build.js').PoolChoice & { batch: number } }} PlainSpec  pool: through
 *   the app's pool (plain-host.js)
 * @typedef {{ ops: number, ns: number, minflt: number, pid: number }} PlainMember  one member's window
 */

const statBuffer = Buffer.alloc(1024);

/** The calling thread's minor page faults so far (/proc/thread-self/stat, field 10). */
function minorFaults() {
  const fd = openSync('/proc/thread-self/stat', 'r');
  const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
  closeSync(fd);
  const text = statBuffer.toString('latin1', 0, length);
  // after the command's closing parenthesis: state, ppid, pgrp, session, tty, tpgid, flags, minflt
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[7]);
}

/**
 * The task's setup, `warmup` ops, then `iterations` ops with their page faults.
 * @param {PlainSpec} spec @param {number} index
 * @returns {Promise<PlainMember>}
 */
async function member(spec, index) {
  const imported = await import(spec.taskUrl);
  const task = imported.default ?? imported;
  const { file, fileSize, params, k, mode } = spec;
  const ctx = { file, fileSize, params, index, k, mode, state: {} };
  await task.setup?.(ctx);
  /** @param {number} ops */
  const run = async (ops) => {
    if (task.run) return void (await task.run(ctx, ops));
    for (let i = 0; i < ops; i++) {
      const done = task.op(ctx);
      if (done && typeof done.then === 'function') await done;
    }
  };
  await run(spec.warmup);
  const faults = minorFaults();
  const from = process.hrtime.bigint();
  await run(spec.iterations);
  const ns = Number(process.hrtime.bigint() - from);
  const minflt = minorFaults() - faults;
  await task.teardown?.(ctx);
  return { ops: spec.iterations, ns, minflt, pid: process.pid };
}

/** @param {{ spec: PlainSpec, index: number }} job @param {(message: unknown) => void} reply */
const answer = (job, reply) =>
  member(job.spec, job.index).then(reply, (error) => reply({ error: String(error?.message ?? error) }));

// a child is handed its job after `--child`; a Worker thread as workerData, imported only there
// (a child never loads node:worker_threads)
if (process.argv[2] === '--child')
  answer(JSON.parse(process.argv[3]), (message) => process.send?.(message, () => process.exit(0)));
else {
  const { parentPort, workerData } = await import('node:worker_threads');
  answer(workerData, (message) => parentPort?.postMessage(message));
}
