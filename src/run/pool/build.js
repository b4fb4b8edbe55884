// How an app builds a pool of K workers (min = max = K) in one of its runtimes, from the pool's
// package: a pool cell's host (host.js) with mmapbench's worker modules, and the plain app
// beside the cells (../plain-host.js) with its own. It imports Node's own modules alone.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {{ run: (message: object) => Promise<any>, destroy: () => Promise<unknown> }} BuiltPool
 * @typedef {{ name: 'tinypool'|'workerpool'|'piscina', module: string, processModule?: string | null,
 *   isolate: boolean }} PoolChoice  the pool's package, resolved (host.js, PoolSpec)
 */

/**
 * The pool's package loaded, and how to build a pool of K workers from it in `arm`'s runtime;
 * `run` submits one pool task.
 * @param {PoolChoice} pool
 * @param {'workers'|'procs'} arm
 * @param {{ tinypool: string, workerpool: string, semiSpaceMb?: number }} worker  the workers'
 *   module: tinypool's and piscina's `filename` (a URL), workerpool's script (a path, which loads
 *   workerpool from MMAPBENCH_POOL_MODULE); --semi-space's young generation, as an app sets it
 *   and a raw cell's hosts do: a thread's resourceLimits (three semi-spaces), a child's execArgv
 * @returns {Promise<(k: number) => BuiltPool>}
 */
export async function poolBuilder(pool, arm, { tinypool, workerpool: script, semiSpaceMb: semi }) {
  const resourceLimits = semi && arm === 'workers' ? { resourceLimits: { maxYoungGenerationSizeMb: 3 * semi } } : {};
  const execArgv = semi && arm === 'procs' ? [...process.execArgv, `--max-semi-space-size=${semi}`] : null;
  if (pool.name === 'piscina' && arm === 'workers') {
    const { default: Piscina } = await import(pathToFileURL(pool.module).href);
    return (k) => {
      const piscina = new Piscina({
        filename: tinypool,
        minThreads: k,
        maxThreads: k,
        // a worker kept however long it idles: the window's tasks follow its warmup at once
        idleTimeout: Infinity,
        ...resourceLimits,
      });
      return { run: (message) => piscina.run(message), destroy: () => piscina.destroy() };
    };
  }
  if (pool.name === 'tinypool' || pool.name === 'piscina') {
    // piscina's process arm: tinypool's child_process runtime, mmapbench's copy (resolve.js)
    const module = pool.name === 'piscina' ? /** @type {string} */ (pool.processModule) : pool.module;
    const { default: Tinypool } = await import(pathToFileURL(module).href);
    return (k) => {
      const tiny = new Tinypool({
        filename: tinypool,
        runtime: arm === 'workers' ? 'worker_threads' : 'child_process',
        minThreads: k,
        maxThreads: k,
        isolateWorkers: pool.isolate,
        // the plan's environment (--env, MALLOC_*, the tree's marker) in both runtimes, as vitest
        // passes its own: tinypool's default gives a child process TINYPOOL_WORKER_ID alone
        env: /** @type {Record<string, string>} */ (process.env),
        ...resourceLimits,
        ...(execArgv ? { execArgv } : {}),
      });
      return { run: (message) => tiny.run(message), destroy: () => tiny.destroy() };
    };
  }
  // workerpool's workers load it from the environment they inherit
  process.env.MMAPBENCH_POOL_MODULE = pool.module;
  const workerpool = createRequire(import.meta.url)(pool.module);
  return (k) => {
    const used = workerpool.pool(script, {
      minWorkers: k,
      maxWorkers: k,
      workerType: arm === 'workers' ? 'thread' : 'process',
      ...(semi && arm === 'workers' ? { workerThreadOpts: resourceLimits } : {}),
      ...(execArgv ? { forkOpts: { execArgv } } : {}),
    });
    return { run: (message) => used.exec('run', [message]), destroy: () => used.terminate() };
  };
}
