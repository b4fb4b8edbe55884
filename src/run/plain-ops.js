// What a plain app's worker does with the task (plain-member.js raw, pool/plain-task.js through a
// pool): load it and set it up, run its ops as an app's loop would, and read the calling
// thread's page faults. It imports node:fs alone: which heap state a tree draws moves with what
// it loads before its window (docs/how-it-measures.md, "Why fresh trees differ").
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * @typedef {{ taskUrl: string, file: string, fileSize: number, params: Record<string, any>,
 *   k: number, mode: 'workers'|'procs', warmup: number, iterations: number, semiSpaceMb?: number,
 *   pool?: import('./pool/build.js').PoolChoice & { batch: number } }} PlainSpec  pool: through
 *   the app's pool (plain-host.js)
 */

const statBuffer = Buffer.alloc(1024);

/** The calling thread's minor page faults so far (/proc/thread-self/stat, field 10). */
export function minorFaults() {
  const fd = openSync('/proc/thread-self/stat', 'r');
  const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
  closeSync(fd);
  const text = statBuffer.toString('latin1', 0, length);
  // after the command's closing parenthesis: state, ppid, pgrp, session, tty, tpgid, flags, minflt
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[7]);
}

/**
 * The task loaded and set up as member `index`; `run(ops)` runs that many of its ops: its own
 * loop (`run`), or its `op` one after another, an async one awaited before the next.
 * @param {PlainSpec} spec @param {number} index
 */
export async function setUpPlain(spec, index) {
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
  return { run, teardown: async () => task.teardown?.(ctx) };
}
