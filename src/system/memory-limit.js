// A memory limit on the one member a fault round's `native-oom` fails (run/fault.js): native
// memory past it is the kernel's OOM killer's, and only that member's process is under it, so the
// killer has no one else to pick. In procs mode that is the failing child alone (its host moves it
// in as it forks it); in workers mode the failing thread's process, which is the app. Where the
// memory controller is: cgroup v1's (a folder below this process's own memory cgroup, so the
// member never leaves the CLI's own limits, as on a machine whose v2 hierarchy has no controllers),
// or v2's (a leaf beside the trees' in the run's own group, containment.js). Root, or a delegated
// hierarchy, is needed to write either. The watcher is told the folder before it exists, so a CLI
// killed at any moment leaves none behind.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { containment, ownCgroup, watchFolder } from './containment.js';

const V1_MEMORY = '/sys/fs/cgroup/memory';

/**
 * This process's own cgroup v1 memory folder: the line of /proc/self/cgroup whose controllers
 * name memory. The hierarchy's root where the line is missing or its folder is not mounted here.
 * @param {string} [cgroup]  /proc/self/cgroup's text
 */
export function ownV1Memory(cgroup = readOr('/proc/self/cgroup')) {
  const own = /^\d+:(?:[^:\n]*,)?memory(?:,[^:\n]*)?:(\/[^\n]*)$/m.exec(cgroup)?.[1] ?? '/';
  const dir = join(V1_MEMORY, own);
  return existsSync(join(dir, 'cgroup.procs')) ? dir : V1_MEMORY;
}

/**
 * Why no memory limit can be put on a member here; null where one can.
 * @returns {string | null}
 */
export function memoryLimitUnavailable() {
  if (v1Writable()) return null;
  const { dir, why } = ownCgroup();
  if (!dir) return `no cgroup v1 memory controller to write, and ${why}`;
  // the run's group is made in `dir`: its leaves have memory.max where `dir` hands memory down
  if (!/\bmemory\b/.test(readOr(join(dir, 'cgroup.subtree_control'))))
    return `no cgroup v1 memory controller to write, and cgroup v2's memory controller is not enabled below ${dir}`;
  return null;
}

/** Whether a v1 memory hierarchy is mounted and this process may make a folder in its own. */
function v1Writable() {
  const probe = join(ownV1Memory(), `mmapbench-probe-${randomBytes(4).toString('hex')}`);
  // a path the watcher's word-split list could not hold
  if (/\s/.test(probe)) return false;
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * @typedef {object} MemberLimit
 * @property {string} procs  the cgroup.procs file a member's pid is written to, to put it under the
 *   limit: the CLI writes the workers host's, a procs host its failing child's
 * @property {(pid: number | undefined) => void} enter  puts a process under it
 * @property {() => Promise<void>} remove  takes the limit away once its member has exited
 */

/**
 * A limit of `bytes` on whichever process is put under it.
 * @param {number} bytes
 * @returns {MemberLimit}
 */
export function memberMemoryLimit(bytes) {
  const v1 = v1Writable();
  const parent = v1 ? ownV1Memory() : containment().cgroup;
  if (!parent) throw new Error(`no cgroup to limit a member's memory in (${memoryLimitUnavailable() ?? 'no group'})`);
  const dir = join(parent, `mmapbench-fault-${process.pid}-${randomBytes(4).toString('hex')}`);
  // named to the watcher before it is made: a kill between the two leaves nothing
  if (v1) watchFolder(dir);
  mkdirSync(dir);
  if (v1) {
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
    // with swap, memory and swap together: else the limit swaps rather than kills
    const memsw = join(dir, 'memory.memsw.limit_in_bytes');
    if (existsSync(memsw)) writeFileSync(memsw, String(bytes));
  } else {
    // v2: the run's group hands memory down to its leaves, this one among them (it holds no process)
    writeFileSync(join(parent, 'cgroup.subtree_control'), '+memory');
    writeFileSync(join(dir, 'memory.max'), String(bytes));
  }
  const procs = join(dir, 'cgroup.procs');
  return {
    procs,
    enter(pid) {
      if (pid !== undefined) writeFileSync(procs, String(pid));
    },
    // a process the OOM killer ended may still be leaving: the folder goes once it is empty
    async remove() {
      for (let tries = 0; ; tries++) {
        try {
          rmdirSync(dir);
          return;
        } catch (error) {
          if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return;
          if (tries >= REMOVE_TRIES) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    },
  };
}

// 50 ms apart: the tree has been killed and waited for before, so it is leaving already
const REMOVE_TRIES = 40;

const readOr = (/** @type {string} */ path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};
