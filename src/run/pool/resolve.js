// Which pool package a cell builds (compare --pool): the user's project's own, the version they
// run, first; else mmapbench's; never one installed unasked.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentError } from '../../errors.js';

/** The pools a cell can build, each with its two runtimes: the switch its users flip. */
export const POOLS = {
  tinypool: { workers: "runtime: 'worker_threads'", procs: "runtime: 'child_process'" },
  workerpool: { workers: "workerType: 'thread'", procs: "workerType: 'process'" },
};

/**
 * @typedef {object} PoolPlan  plan.pool
 * @property {keyof typeof POOLS} name
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
    let module;
    try {
      module = createRequire(base).resolve(name);
    } catch {
      continue;
    }
    return { name, module, version: versionOf(module, name), from, batch, isolate };
  }
  throw environmentError(
    `--pool ${name}: ${name} is installed neither in ${cwd} nor beside mmapbench; install it in your project (npm install ${name}) and run again`,
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
