import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownCgroup } from '../../src/system/containment.js';

// mountinfo lines as Linux writes them: a hybrid host (cgroup v2 beside v1), a cgroup v2 host,
// and a container whose cgroup mount's root is its own cgroup
const HYBRID = [
  '30 24 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755',
  '31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw',
  '32 30 0:28 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids',
].join('\n');
const UNIFIED = '35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate';
const CONTAINER = '700 690 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup rw';

test('the cgroup v2 folder this process is in, wherever cgroup v2 is mounted', () => {
  assert.deepEqual(ownCgroup(HYBRID, '1:pids:/\n0::/\n', {}), { dir: '/sys/fs/cgroup/unified', why: '' });
  assert.deepEqual(ownCgroup(UNIFIED, '0::/user.slice/user-0.slice/session-3.scope\n', {}), {
    dir: '/sys/fs/cgroup/user.slice/user-0.slice/session-3.scope',
    why: '',
  });
  assert.deepEqual(ownCgroup(CONTAINER, '0::/docker/abc/app\n', {}), { dir: '/sys/fs/cgroup/app', why: '' });
  assert.deepEqual(ownCgroup('700 690 0:30 /my\\040group / rw - cgroup2 cgroup rw', '0::/my group/x\n', {}), {
    dir: '/x',
    why: '',
  });
});

test('no cgroup v2 folder: v1 only, not mounted here, or MMAPBENCH_CGROUP=0', () => {
  assert.equal(ownCgroup(HYBRID, '1:pids:/\n', {}).why, 'no cgroup v2 hierarchy');
  assert.equal(ownCgroup(HYBRID.split('\n')[0], '0::/\n', {}).why, 'cgroup v2 is not mounted');
  assert.equal(ownCgroup(CONTAINER, '0::/elsewhere\n', {}).why, 'cgroup v2 is not mounted');
  assert.deepEqual(ownCgroup(UNIFIED, '0::/\n', { MMAPBENCH_CGROUP: '0' }), { dir: null, why: 'MMAPBENCH_CGROUP=0' });
});
