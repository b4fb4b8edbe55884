import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownCgroup } from '../../src/system/containment.js';

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

// The watcher (src/system/watcher.sh) ends a SIGKILLed CLI's trees. A tree the CLI spawned just
// before it died places itself in its leaf on its own (a shell writes its pid, then execs) and can
// land there after the watcher's first kill, its parent-death signal already too late: the
// watcher must go on killing while a leaf is there. A nested, empty cgroup keeps the leaf from
// being removed, so a process placed in it after the first kill stands for the late tree.
test(
  'the watcher kills a process that enters a leaf after its first kill, then removes the run',
  process.getuid?.() === 0 || process.env.CI ? {} : { skip: 'needs root to make a cgroup' },
  async (t) => {
    const own = ownCgroup();
    assert.ok(own.dir, `a cgroup v2 folder to test in: ${own.why}`);
    const run = join(own.dir, `mmapbench-test-watcher-${process.pid}`);
    const leaf = join(run, 'tree-late');
    mkdirSync(join(leaf, 'held'), { recursive: true });
    t.after(() => {
      if (!existsSync(run)) return;
      writeFileSync(join(leaf, 'cgroup.kill'), '1');
      for (const dir of [join(leaf, 'held'), leaf, run])
        try {
          rmdirSync(dir);
        } catch {}
    });
    const watcher = spawn('/bin/sh', [fileURLToPath(new URL('../../src/system/watcher.sh', import.meta.url)), run], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((resolve) => watcher.once('exit', resolve));
    watcher.stdin.end(); // the CLI is gone
    await sleep(200); // the watcher's first kill has come and gone; the leaf stays (held)
    const late = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(leaf, 'cgroup.procs'), String(late.pid));
    const killed = new Promise((resolve) => late.once('exit', (code, signal) => resolve(signal)));
    assert.equal(await Promise.race([killed, sleep(2000).then(() => 'still running after 2 s')]), 'SIGKILL');
    rmdirSync(join(leaf, 'held'));
    await exited;
    assert.equal(existsSync(run), false, 'the run cgroup removed');
  },
);

// Without a cgroup, the CLI names each tree's marker (=TREE) before it spawns it, and says when
// it ended (~TREE). A tree spawned as the CLI died may still be between fork and exec when the
// watcher reads the end: it carries its marker only after exec.
test('without a cgroup the watcher goes on killing an unended tree for 2 s, and leaves at once when every tree ended', async () => {
  const script = fileURLToPath(new URL('../../src/system/watcher.sh', import.meta.url));
  const tree = `test${process.pid}${Date.now()}`;
  const watch = (/** @type {string} */ lines) => {
    const watcher = spawn('/bin/sh', [script, ''], { stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise((resolve) => watcher.once('exit', resolve));
    watcher.stdin.end(lines); // the CLI is gone
    return exited;
  };

  // every tree ended: nothing to wait for (a `~` line is read as such, not as a home folder)
  const from = performance.now();
  await watch(`=${tree}\n~${tree}\n`);
  assert.ok(performance.now() - from < 1000, `left after ${performance.now() - from} ms`);

  const exited = watch(`=${tree}\n`);
  await sleep(300); // its first pass has come and gone
  const late = spawn('sleep', ['30'], { stdio: 'ignore', env: { ...process.env, MMAPBENCH_TREE: tree } });
  const killed = new Promise((resolve) => late.once('exit', (code, signal) => resolve(signal)));
  assert.equal(await Promise.race([killed, sleep(3000).then(() => 'still running after 3 s')]), 'SIGKILL');
  await exited;
});
