import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pids cgroup this process is in (v1 `N:pids:/path`, or the v2 unified one), where the
 * kernel counts every fork or thread it refused at pids.max.
 * @returns {string | null} its folder
 */
function pidsCgroup() {
  try {
    const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
    const v1 = lines.find((line) => /^\d+:pids:/.test(line));
    if (v1) return join('/sys/fs/cgroup/pids', v1.split(':')[2]);
    const v2 = lines.find((line) => line.startsWith('0::'));
    return v2 ? join('/sys/fs/cgroup', v2.slice(3)) : null;
  } catch {
    return null;
  }
}

/**
 * How often this cgroup has refused a new process or thread, and its limit: a cell that
 * failed while the count rose failed for want of processes, not because of its task.
 * @returns {{ refused: number, max: string } | null}
 */
export function pidsLimit() {
  const dir = pidsCgroup();
  if (!dir) return null;
  try {
    const refused = Number(/^max (\d+)/m.exec(readFileSync(join(dir, 'pids.events'), 'utf8'))?.[1] ?? 0);
    return { refused, max: readFileSync(join(dir, 'pids.max'), 'utf8').trim() };
  } catch {
    return null;
  }
}
