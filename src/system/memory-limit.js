// A memory limit on one started tree, for a fault round's `native-oom` (run/fault.js): native
// memory past it is the kernel's OOM killer's, which picks one process of the tree to end. Where
// the memory controller is: cgroup v1's (a folder of its own, memory.limit_in_bytes, as on a
// machine whose v2 hierarchy has no controllers), or v2's (memory.max in the tree's own leaf,
// containment.js). Root, or a delegated hierarchy, is needed to write either.
import { existsSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownCgroup } from './containment.js';

const V1_MEMORY = '/sys/fs/cgroup/memory';

/**
 * Why no memory limit can be put on a tree here; null where one can.
 * @returns {string | null}
 */
export function memoryLimitUnavailable() {
  if (v1Writable()) return null;
  const { dir, why } = ownCgroup();
  if (!dir) return `no cgroup v1 memory controller to write, and ${why}`;
  const controllers = readOr(join(dir, '..', 'cgroup.controllers'));
  if (!/\bmemory\b/.test(controllers))
    return `no cgroup v1 memory controller to write, and cgroup v2's memory controller is not enabled above ${dir}`;
  return null;
}

/** Whether a v1 memory hierarchy is mounted and this process may make a folder in it. */
function v1Writable() {
  try {
    const probe = mkdtempSync(join(V1_MEMORY, 'mmapbench-probe-'));
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * A limit of `bytes` on the tree a host leads: `enter(pid, leaf)` puts the host under it before it
 * starts its workers (what it forks is born under it), `remove()` takes the limit away once the
 * tree has exited.
 * @param {number} bytes
 * @returns {{ enter: (pid: number | undefined, leaf: string | null) => void, remove: () => Promise<void> }}
 */
export function treeMemoryLimit(bytes) {
  if (!v1Writable())
    return {
      // cgroup v2: the tree's own leaf (containment.js), which it is already in
      enter(_, leaf) {
        if (!leaf || !existsSync(join(leaf, 'memory.max')))
          throw new Error(`the tree's cgroup has no memory.max (${memoryLimitUnavailable() ?? 'no leaf'})`);
        writeFileSync(join(leaf, 'memory.max'), String(bytes));
      },
      async remove() {},
    };
  const dir = mkdtempSync(join(V1_MEMORY, 'mmapbench-fault-'));
  writeFileSync(join(dir, 'memory.limit_in_bytes'), String(bytes));
  // with swap, memory and swap together: else the limit swaps rather than kills
  const memsw = join(dir, 'memory.memsw.limit_in_bytes');
  if (existsSync(memsw)) writeFileSync(memsw, String(bytes));
  return {
    enter(pid) {
      writeFileSync(join(dir, 'cgroup.procs'), String(pid));
    },
    // a process the OOM killer ended may still be leaving: the folder goes once it is empty
    async remove() {
      for (let tries = 0; ; tries++) {
        try {
          rmdirSync(dir);
          return;
        } catch (error) {
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
