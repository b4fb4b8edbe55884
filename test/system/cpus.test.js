// The CPUs this process may use follow its cgroup's quota and its affinity mask, not the host's
// count: read from stand-in cgroup files (v2 cpu.max, v1 cfs quota and period).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { cgroupQuota, usableCpus } from '../../src/system/cpus.js';

/** A stand-in /sys/fs/cgroup and /proc/self/cgroup: `files` by path under the root. */
function cgroups(/** @type {string} */ procCgroup, /** @type {Record<string, string>} */ files) {
  const root = mkdtempSync(join(os.tmpdir(), 'mmapbench-cgroup-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, 'self-cgroup'), procCgroup);
  return { root, procCgroup: join(root, 'self-cgroup') };
}

test('a cgroup v2 quota of 1 CPU (cpu.max 100000 100000) holds the usable CPUs to 1', () => {
  const where = cgroups('0::/app/job\n', { 'app/job/cpu.max': '100000 100000\n', 'app/cpu.max': 'max 100000\n' });
  assert.deepEqual(cgroupQuota(where), { quota: 1, from: join(where.root, 'app/job/cpu.max') });
  const cpus = usableCpus(where);
  assert.equal(cpus.usable, 1);
  assert.equal(cpus.quota, 1);
  assert.equal(cpus.host, os.cpus().length);
  assert.equal(cpus.affinity, os.availableParallelism());
});

test('the least quota along the path binds, v1 (cfs_quota_us / cfs_period_us) too, and 1.5 CPUs lets 2 run', () => {
  const v1 = cgroups('4:memory:/x\n2:cpu,cpuacct:/outer/inner\n', {
    'cpu/outer/inner/cpu.cfs_quota_us': '-1\n',
    'cpu/outer/inner/cpu.cfs_period_us': '100000\n',
    'cpu/outer/cpu.cfs_quota_us': '150000\n',
    'cpu/outer/cpu.cfs_period_us': '100000\n',
  });
  assert.equal(cgroupQuota(v1)?.quota, 1.5);
  assert.equal(usableCpus(v1).usable, Math.min(2, os.availableParallelism()));
  // a parent's smaller quota binds its child's larger one
  const nested = cgroups('0::/a/b\n', { 'a/b/cpu.max': '400000 100000\n', 'a/cpu.max': '50000 100000\n' });
  assert.equal(cgroupQuota(nested)?.quota, 0.5);
  assert.equal(usableCpus(nested).usable, 1);
});

test('no quota anywhere: the affinity mask alone', () => {
  const none = cgroups('0::/\n', { 'cpu.max': 'max 100000\n' });
  assert.equal(cgroupQuota(none), null);
  assert.equal(usableCpus(none).usable, os.availableParallelism());
  assert.equal(usableCpus({ root: '/nonexistent', procCgroup: '/nonexistent' }).quota, null);
});
