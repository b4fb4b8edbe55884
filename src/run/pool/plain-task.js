// A plain pool app's task module (../plain-host.js): its workers load the task and set it up on
// their first pool task, and each pool task runs `ops` of its ops and says how many page faults
// they took. It imports node:fs and the task alone, as plain-member.js does. tinypool's and
// piscina's `filename`; workerpool's workers register it (plain-workerpool.js).
import { closeSync, openSync, readSync } from 'node:fs';

const statBuffer = Buffer.alloc(1024);

/** The calling thread's minor page faults so far (/proc/thread-self/stat, field 10). */
function minorFaults() {
  const fd = openSync('/proc/thread-self/stat', 'r');
  const length = readSync(fd, statBuffer, 0, statBuffer.length, 0);
  closeSync(fd);
  const text = statBuffer.toString('latin1', 0, length);
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[7]);
}

/** @type {Promise<{ task: any, ctx: any }> | null} this worker's task, set up */
let ready = null;

/**
 * @param {{ spec: import('../plain-member.js').PlainSpec, index: number, ops: number }} message
 * @returns {Promise<{ ops: number, minflt: number, pid: number }>}
 */
export default async function plainTask({ spec, index, ops }) {
  ready ??= (async () => {
    const imported = await import(spec.taskUrl);
    const task = imported.default ?? imported;
    const { file, fileSize, params, k, mode } = spec;
    const ctx = { file, fileSize, params, index, k, mode, state: {} };
    await task.setup?.(ctx);
    return { task, ctx };
  })();
  const { task, ctx } = await ready;
  const faults = minorFaults();
  if (task.run) await task.run(ctx, ops);
  else
    for (let i = 0; i < ops; i++) {
      const done = task.op(ctx);
      if (done && typeof done.then === 'function') await done;
    }
  return { ops, minflt: minorFaults() - faults, pid: process.pid };
}
