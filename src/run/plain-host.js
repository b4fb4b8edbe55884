// A plain app of the task's work, with nothing of mmapbench's in it: K Worker threads or K child
// processes (plain-member.js) that each load the task, set it up, run its warm-up ops and then
// its window's, and say how many page faults the window took. A cell's state (a heap that keeps
// its top, or one that gives it back and faults it in again) is drawn with mmapbench's runner in
// the tree; this tree draws it as an app would, the same minutes (docs/how-it-measures.md, "Why
// fresh trees differ"). The app imports Node's own modules alone; its members, node:fs and the
// task.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * @typedef {import('./plain-member.js').PlainSpec} PlainSpec
 * @typedef {import('./plain-member.js').PlainMember} PlainMember
 */

const member = fileURLToPath(new URL('./plain-member.js', import.meta.url));

/** @param {unknown} error @param {number} worker */
const failed = (error, worker) => ({
  type: 'failed',
  worker,
  message: error instanceof Error ? error.message : String(error),
  stack: error instanceof Error ? error.stack : undefined,
});

/**
 * The app: its K members side by side, their windows sent to mmapbench as one result.
 * @param {PlainSpec} spec
 */
async function app(spec) {
  const send = /** @type {NonNullable<typeof process.send>} */ (process.send).bind(process);
  const members = Array.from({ length: spec.k }, (_, index) => {
    const started =
      spec.mode === 'workers'
        ? new Worker(member, { workerData: { spec, index } })
        : fork(member, ['--child', JSON.stringify({ spec, index })], {
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          });
    return /** @type {Promise<PlainMember>} */ (
      new Promise((resolve, reject) => {
        started.once('message', (/** @type {any} */ message) =>
          message.error ? reject(Object.assign(new Error(message.error), { index })) : resolve(message),
        );
        started.once('error', (error) => reject(Object.assign(error, { index })));
        started.once('exit', (code) => reject(Object.assign(new Error(`exited with code ${code}`), { index })));
      })
    );
  });
  try {
    const windows = await Promise.all(members);
    // alive until told, so mmapbench can find what the task left running while this is its parent
    process.on('message', (/** @type {any} */ message) => message?.type === 'exit' && process.exit(0));
    send({ type: 'result', members: windows });
  } catch (error) {
    send(failed(error, /** @type {{ index?: number }} */ (error).index ?? 0), () => process.exit(1));
  }
}

await app(JSON.parse(process.argv[2]));
