// How many CPUs this process may use: not the host's count but the least of what its affinity
// mask allows (Node's availableParallelism, which reads it) and what its cgroup's CPU quota
// allows (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`, the least along the
// path to the root: a parent's quota binds its children). A container limited to 1 CPU on a
// 16-core host runs 1 worker's worth of CPU, whatever os.cpus() says. Node 20's libuv reads the
// mask but not the quota (1.46).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { plural } from '../words/spelling.js';

/**
 * @typedef {object} UsableCpus
 * @property {number} usable  the least of the three, at least 1: what the process may use
 * @property {number} host  the CPUs the kernel shows (os.cpus())
 * @property {number} affinity  the CPUs the affinity mask allows (os.availableParallelism())
 * @property {number | null} quota  CPUs' worth of time the cgroup allows per period; null: no quota
 * @property {string | null} quotaFrom  the file the quota came from
 */

const read = (/** @type {string} */ path) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * The cgroup's CPU quota in CPUs, the least along the path from the process's cgroup to the
 * root of each hierarchy that has one; null without a quota.
 * @param {{ root?: string, procCgroup?: string }} [where]  where cgroups are mounted and the
 *   process's /proc/self/cgroup (a test's stand-ins)
 * @returns {{ quota: number, from: string } | null}
 */
export function cgroupQuota({ root = '/sys/fs/cgroup', procCgroup = '/proc/self/cgroup' } = {}) {
  const lines = (read(procCgroup) ?? '').split('\n').filter(Boolean);
  /** @type {{ quota: number, from: string } | null} */
  let least = null;
  const consider = (/** @type {number} */ quota, /** @type {string} */ from) => {
    if (quota > 0 && (!least || quota < least.quota)) least = { quota, from };
  };
  for (const line of lines) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (path === undefined) continue;
    const v2 = controllers === '';
    const v1 = controllers.split(',').includes('cpu');
    if (!v2 && !v1) continue;
    // v2 at the root of the mount (or under unified/ on a hybrid host); v1 under cpu/
    const mounts = v2 ? [root, join(root, 'unified')] : [join(root, 'cpu'), join(root, controllers)];
    for (const mount of mounts) {
      for (let dir = path; ; dir = dir.slice(0, dir.lastIndexOf('/')) || '/') {
        const at = join(mount, dir);
        if (v2) {
          const max = read(join(at, 'cpu.max'));
          const [quota, period] = (max ?? '').split(/\s+/);
          if (quota && quota !== 'max' && Number(period) > 0)
            consider(Number(quota) / Number(period), join(at, 'cpu.max'));
        } else {
          const quota = Number(read(join(at, 'cpu.cfs_quota_us')));
          const period = Number(read(join(at, 'cpu.cfs_period_us')));
          if (quota > 0 && period > 0) consider(quota / period, join(at, 'cpu.cfs_quota_us'));
        }
        if (dir === '/') break;
      }
    }
  }
  return least;
}

/**
 * The CPUs this process may use, and what limits them.
 * @param {Parameters<typeof cgroupQuota>[0]} [where]
 * @returns {UsableCpus}
 */
export function usableCpus(where) {
  const host = os.cpus().length || 1;
  const affinity = os.availableParallelism();
  const found = cgroupQuota(where);
  // a quota of 1.5 CPUs lets 2 run, each part of the time: a worker more than 1 still gains
  const quota = found ? Math.max(1, Math.ceil(found.quota - 1e-9)) : Infinity;
  return {
    usable: Math.max(1, Math.min(affinity, quota)),
    host,
    affinity,
    quota: found ? found.quota : null,
    quotaFrom: found ? found.from : null,
  };
}

/**
 * The CPUs a saved run's header names: those its process could use, or in a file saved before
 * that was read, the affinity mask's count.
 * @param {{ usable?: number, logicalCores: number }} cpu  a document's environment.cpu
 */
export const cpusOf = (cpu) => cpu.usable ?? cpu.logicalCores;

/** `1 CPU`, `2 CPUs`: what a header says of them. @param {{ usable?: number, logicalCores: number }} cpu */
export const cpusText = (cpu) => plural(cpusOf(cpu), 'CPU');
