import { readUserFile } from './safe-fs.js';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { usableCpus } from './cpus.js';
import { gunzipSync } from 'node:zlib';

import { THP_PATH } from './thp-file.js';

export { THP_PATH };

/**
 * The bracketed token of a sysfs choice file: `always [madvise] never` -> `madvise`. A file
 * holding one bare word (a stand-in for the sysfs file) reads as that word.
 * @param {string} path
 */
export function readChoice(path) {
  try {
    // a setting a user may name (--thp-path): never a read that waits (a FIFO) or never ends
    const text = readUserFile(path, 64 * 1024, (problem) => new Error(problem)).trim();
    return /\[([^\]]+)\]/.exec(text)?.[1] ?? (/^\w+$/.test(text) ? text : null);
  } catch {
    return null;
  }
}

/** @param {string} cpuinfo the text of /proc/cpuinfo */
export function physicalCores(cpuinfo) {
  const cores = new Set();
  let physical = '0';
  for (const line of cpuinfo.split('\n')) {
    const [key, value] = line.split(':').map((part) => part?.trim());
    if (key === 'physical id') physical = value;
    if (key === 'core id') cores.add(`${physical}:${value}`);
  }
  return cores.size || null;
}

/**
 * Whether the kernel takes page faults under per-VMA locks instead of mmap_lock (6.4 and later,
 * CONFIG_PER_VMA_LOCK): what decides whether faults in threads of one process contend. From
 * /proc/config.gz when the kernel exposes its configuration; null when it does not.
 * @param {string} [path]
 * @returns {boolean | null}
 */
export function perVmaLock(path = '/proc/config.gz') {
  try {
    const config = gunzipSync(readFileSync(path)).toString('latin1');
    return /^CONFIG_PER_VMA_LOCK=y$/m.test(config);
  } catch {
    return null;
  }
}

/** Variables that change what glibc's allocator does (read once, at process start). */
export const ALLOCATOR_VARS = /^(MALLOC_|GLIBC_TUNABLES$|LD_PRELOAD$)/;
// What a report shows of the cells' environment: the allocator's, and libuv's pool size
const REPORTED_VARS = (/** @type {string} */ name) => ALLOCATOR_VARS.test(name) || name === 'UV_THREADPOOL_SIZE';

/**
 * Facts that change what a cell measures. Node is the one the cells ran on (--node); the
 * allocator variables are those the cells were started with.
 * @param {{ node: { version: string, path: string, poolSize?: number, wrapper?: true }, env: NodeJS.ProcessEnv }} run
 */
export function describeEnvironment({ node, env }) {
  let cpuinfo = '';
  try {
    cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {}
  const cpus = os.cpus();
  return {
    // its Buffer pool by default, read from it (8 KiB, or 64 KiB from 24.18.0 and 26.3.0)
    node: {
      version: node.version,
      path: node.path,
      ...(node.poolSize ? { poolSize: node.poolSize } : {}),
      // --node is a script that execs node (system/node.js)
      ...(node.wrapper ? { wrapper: true } : {}),
    },
    platform: `${process.platform}-${process.arch}`,
    kernel: os.release(),
    glibc: /** @type {any} */ (process.report?.getReport())?.header?.glibcVersionRuntime ?? null,
    cpu: {
      model: cpus[0]?.model ?? null,
      logicalCores: os.availableParallelism(),
      physicalCores: physicalCores(cpuinfo) ?? cpus.length,
      // what this process may use: the affinity mask and the cgroup's quota (cpus.js)
      ...usableCpus(),
    },
    thp: readChoice(THP_PATH),
    // page faults under per-VMA locks, not mmap_lock; null: /proc/config.gz is not there
    perVmaLock: perVmaLock(),
    // the allocator the cells preloaded, if any (LD_PRELOAD in their environment)
    preload: env.LD_PRELOAD ?? null,
    // libuv's pool is per process: K Worker threads share one, K processes have K
    uvThreadpoolSize: Number(env.UV_THREADPOOL_SIZE) || 4,
    allocatorEnv: Object.fromEntries(
      Object.entries(env)
        .filter(([key]) => REPORTED_VARS(key))
        .sort(),
    ),
    // what of the shell's environment changes a Node start, and whether the cells had it
    startupEnv: startupEnv(process.env, env),
    date: new Date().toISOString(),
  };
}

/** Variables that change a Node process's start: each child process pays them, a thread not. */
const STARTUP_VARS = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'NODE_ICU_DATA', 'NODE_COMPILE_CACHE', 'NODE_V8_COVERAGE'];

/**
 * The variables of the user's environment that change Node's start, those the cells got and
 * those they did not (--inherit-env gives them all).
 * @param {NodeJS.ProcessEnv} shell  the CLI's environment
 * @param {NodeJS.ProcessEnv} cells  the cells'
 * @returns {{ given: string[], withheld: string[] }}
 */
export const startupEnv = (shell, cells) => ({
  given: STARTUP_VARS.filter((name) => shell[name] && cells[name] === shell[name]),
  withheld: STARTUP_VARS.filter((name) => shell[name] && cells[name] !== shell[name]),
});
