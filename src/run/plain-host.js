// A plain app of the task's work, with nothing of mmapbench's in it: K Worker threads or K child
// processes (plain-member.js), or a pool of K of them, that load the task, set it up, run its
// warm-up ops and then its window's, and say how many page faults the window took. A cell's
// state (a heap that keeps its top, or one that gives it back and faults it in again) is drawn
// with mmapbench's runner in the tree; this tree draws it as an app would, the same minutes
// (docs/how-it-measures.md, "Why fresh trees differ"). The app imports Node's own modules alone
// (and, through a pool, the pool's builder, pool/build.js, which imports those alone); its
// members, node:fs and the task.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * @typedef {import('./plain-ops.js').PlainSpec} PlainSpec
 * @typedef {import('./plain-member.js').PlainMember} PlainMember
 */

const member = fileURLToPath(new URL('./plain-member.js', import.meta.url));

/**
 * This process's anonymous memory in bytes, by the rule mmapbench reads a tree's by
 * (system/memory.js: Pss_Anon, or Anonymous where the kernel has no Pss_Anon); null where /proc
 * does not say. Read here, in a few lines, so the app loads nothing of mmapbench's.
 */
function anonymousNow() {
  try {
    const rollup = readFileSync('/proc/self/smaps_rollup', 'latin1');
    const kib = /^Pss_Anon:\s+(\d+) kB$/m.exec(rollup) ?? /^Anonymous:\s+(\d+) kB$/m.exec(rollup);
    return kib ? Number(kib[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** @param {unknown} error @param {number} worker */
const failed = (error, worker) => ({
  type: 'failed',
  worker,
  message: error instanceof Error ? error.message : String(error),
  stack: error instanceof Error ? error.stack : undefined,
});

/**
 * The app's K members side by side, raw: each its own loop; --semi-space's young generation as
 * a cell's hosts set it.
 * @param {PlainSpec} spec
 * @returns {Promise<PlainMember[]>}
 */
function raw(spec) {
  const semi = spec.semiSpaceMb;
  const members = Array.from({ length: spec.k }, (_, index) => {
    const started =
      spec.mode === 'workers'
        ? new Worker(member, {
            workerData: { spec, index },
            ...(semi ? { resourceLimits: { maxYoungGenerationSizeMb: 3 * semi } } : {}),
          })
        : fork(member, ['--child', JSON.stringify({ spec, index })], {
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
            ...(semi ? { execArgv: [...process.execArgv, `--max-semi-space-size=${semi}`] } : {}),
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
  return Promise.all(members);
}

/**
 * The app's pool of K workers, built as a pool cell builds it (pool/build.js), its tasks of
 * `batch` ops K in flight: `warmup` ops a worker, then `iterations`. The window is one member:
 * its ops and page faults summed over its pool tasks, its time the window's wall time.
 * @param {PlainSpec} spec
 * @param {NonNullable<PlainSpec['pool']>} choice
 * @returns {Promise<PlainMember[]>}
 */
async function pooled(spec, choice) {
  const { poolBuilder } = await import('./pool/build.js');
  const build = await poolBuilder(choice, spec.mode, {
    tinypool: new URL('./pool/plain-task.js', import.meta.url).href,
    workerpool: fileURLToPath(new URL('./pool/plain-workerpool.js', import.meta.url)),
    semiSpaceMb: spec.semiSpaceMb,
  });
  const pool = build(spec.k);
  /** @param {number} ops  a worker's */
  const drain = async (ops) => {
    let left = Math.ceil((spec.k * ops) / choice.batch);
    /** @type {Array<{ ops: number, minflt: number, pid: number }>} */
    const done = [];
    const lane = async (/** @type {number} */ index) => {
      while (left-- > 0) done.push(await pool.run({ spec, index, ops: choice.batch }));
    };
    await Promise.all(Array.from({ length: spec.k }, (_, index) => lane(index)));
    return done;
  };
  try {
    await drain(spec.warmup);
    const from = process.hrtime.bigint();
    const tasks = await drain(spec.iterations);
    const ns = Number(process.hrtime.bigint() - from);
    const sum = (/** @type {'ops'|'minflt'} */ key) => tasks.reduce((total, one) => total + one[key], 0);
    // the pool stays, its workers holding what they hold, until the app exits; `pids`: its
    // processes, which mmapbench reads with the app
    const pids = [...new Set(tasks.map((one) => one.pid))];
    return [{ ops: sum('ops'), ns, minflt: sum('minflt'), pid: process.pid, pids }];
  } catch (error) {
    await pool.destroy();
    throw error;
  }
}

/**
 * The app: its K members, raw or through its pool, their windows sent to mmapbench as one result.
 * @param {PlainSpec} spec
 */
async function app(spec) {
  const send = /** @type {NonNullable<typeof process.send>} */ (process.send).bind(process);
  try {
    // before any member: the baseline of what they add (a cell's host reads its own alike)
    const anonymousBefore = anonymousNow();
    const windows = await (spec.pool ? pooled(spec, spec.pool) : raw(spec));
    // alive until told, its members holding still, so mmapbench reads the tree's memory and finds
    // what the task left running while this is its parent
    process.on('message', (/** @type {any} */ message) => message?.type === 'exit' && process.exit(0));
    send({ type: 'result', members: windows, anonymousBefore });
  } catch (error) {
    send(failed(error, /** @type {{ index?: number }} */ (error).index ?? 0), () => process.exit(1));
  }
}

await app(JSON.parse(process.argv[2]));
