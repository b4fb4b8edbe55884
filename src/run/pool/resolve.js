// Which pool package a cell builds (compare --pool): the user's project's own, the version they
// run, first; else mmapbench's; never one installed unasked.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentError } from '../../errors.js';

/**
 * The pools a cell can build, each with its two runtimes: the switch its users flip. piscina runs
 * threads alone; its process arm is tinypool's child_process runtime, tinypool being piscina's
 * fork with the same options and the same task module, so the pool's shape stays and only the
 * runtime changes.
 */
export const POOLS = {
  tinypool: { workers: "runtime: 'worker_threads'", procs: "runtime: 'child_process'" },
  workerpool: { workers: "workerType: 'thread'", procs: "workerType: 'process'" },
  piscina: { workers: 'piscina (threads)', procs: "tinypool's runtime: 'child_process', its fork of the same shape" },
};

/** The line that flips each pool to its process runtime (advise's row for processes). */
export const TO_PROCESSES = {
  tinypool: "new Tinypool({ runtime: 'child_process' }) rather than runtime: 'worker_threads'",
  workerpool: "workerpool.pool(script, { workerType: 'process' }) rather than workerType: 'thread'",
  piscina: "new Tinypool({ runtime: 'child_process' }) (piscina's fork, the same options) rather than new Piscina()",
};

/** Pools mmapbench does not carry itself: the user's project must have them. */
const PROJECT_ONLY = ['piscina'];

/**
 * @typedef {object} PoolPlan  plan.pool
 * @property {keyof typeof POOLS} name
 * @property {string | null} [processModule]  piscina's process arm: tinypool's entry (mmapbench's)
 * @property {string} module  the package's entry file
 * @property {string} version
 * @property {'project'|'mmapbench'} from  whose it is
 * @property {number | null} batch  ops a pool task (--batch); null: poolBatchOf (work.js)
 * @property {boolean} isolate  --isolate: tinypool's isolateWorkers, a fresh worker a pool task
 */

/**
 * @param {keyof typeof POOLS} name
 * @param {string} cwd  the user's folder: its package.json's dependencies come first
 * @param {number | null} batch
 * @param {string} [own]  where mmapbench's own dependencies are looked for (a test's folder)
 * @param {boolean} [isolate]
 * @returns {PoolPlan}
 */
export function resolvePool(name, cwd, batch, own = fileURLToPath(import.meta.url), isolate = false) {
  const places = /** @type {const} */ ([
    ['project', join(cwd, 'package.json')],
    ['mmapbench', own],
  ]);
  for (const [from, base] of places) {
    if (from === 'mmapbench' && PROJECT_ONLY.includes(name)) continue;
    let module;
    try {
      module = createRequire(base).resolve(name);
    } catch {
      continue;
    }
    return {
      name,
      module,
      version: versionOf(module, name),
      from,
      batch,
      isolate,
      // piscina's process arm is tinypool's child_process runtime: mmapbench's own copy
      processModule: name === 'piscina' ? createRequire(own).resolve('tinypool') : null,
    };
  }
  throw environmentError(
    PROJECT_ONLY.includes(name)
      ? `--pool ${name}: ${name} is not installed in ${cwd}, and mmapbench does not carry it; install it in your project (npm install ${name}) and run again`
      : `--pool ${name}: ${name} is installed neither in ${cwd} nor beside mmapbench; install it in your project (npm install ${name}) and run again`,
  );
}

/**
 * The version of the package `name` whose entry is `module`: its package.json, found upwards.
 * @param {string} module
 * @param {string} name
 */
function versionOf(module, name) {
  for (let dir = dirname(module); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const found = JSON.parse(readFileSync(file, 'utf8'));
    if (found.name === name) return String(found.version);
  }
  return 'unknown';
}
