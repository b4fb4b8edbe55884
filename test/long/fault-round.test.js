// compare --fault: after the measured rounds, one round per mode in which one worker fails, and
// what it took down. Structure and behaviour only: who survived and how many were lost, never a
// time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { cli, measured, quickMarked } from '../helpers.js';
import { memoryLimitUnavailable } from '../../src/system/memory-limit.js';

/** `compare --quick -k 2 --fault KIND`, nothing of its trees left behind. */
const faultRun = (/** @type {string} */ kind) => quickMarked(['--fault', kind]);

/** The memory cgroups native-oom makes, at any depth, which must all be gone after a run. */
const faultCgroups = () => {
  try {
    return readdirSync('/sys/fs/cgroup/memory', { recursive: true }).filter((name) =>
      String(name).split('/').at(-1)?.startsWith('mmapbench-fault-'),
    );
  } catch {
    return [];
  }
};

/**
 * The outcome where the app lived: one worker lost, the app noticed it and replaced it.
 * @param {any} outcome
 */
function survivedLosingOne(outcome) {
  assert.equal(outcome.appSurvived, true);
  assert.equal(outcome.workersLost, 1);
  assert.ok(outcome.noticeMs >= 0);
  assert.ok(outcome.replaceMs > 0);
  assert.ok(Number.isInteger(outcome.failedRequests) && outcome.requests > 0);
}

test('--fault abort: a thread that aborts takes the app and every worker with it, a child only itself; exit 0, the measured rounds kept', async () => {
  const result = await faultRun('abort');
  assert.equal(result.exitCode, 0, result.stderr);
  const document = measured(result.stdout);
  assert.equal(document.status, 'complete');
  assert.equal(document.rounds.length, 2);
  assert.equal(document.fault.kind, 'abort');
  assert.equal(document.fault.workers.appSurvived, false);
  assert.equal(document.fault.workers.workersLost, 2);
  assert.equal(document.fault.workers.event, 'SIGABRT');
  survivedLosingOne(document.fault.procs);
  assert.match(document.fault.procs.event, /SIGABRT/);
});

for (const [kind, heard] of [
  ['throw', { workers: /'error'/, procs: /'exit' \(code 1\)/ }],
  ['exit', { workers: /'exit' \(code 1\)/, procs: /'exit' \(code 1\)/ }],
  ['oom', { workers: /ERR_WORKER_OUT_OF_MEMORY/, procs: /'exit'/ }],
])
  test(`--fault ${kind}: the app survives in both modes, losing the one worker and replacing it`, async () => {
    const result = await faultRun(kind);
    assert.equal(result.exitCode, 0, result.stderr);
    const { fault } = measured(result.stdout);
    assert.equal(fault.kind, kind);
    for (const mode of /** @type {const} */ (['workers', 'procs'])) {
      survivedLosingOne(fault[mode]);
      assert.match(fault[mode].event, heard[mode], mode);
    }
  });

test('--fault native-oom: the kernel OOM killer takes the whole app in threads, the one child in processes; no cgroup left', async () => {
  const why = memoryLimitUnavailable();
  const result = await faultRun('native-oom');
  if (why) {
    // not root, or no memory controller: refused before any round, in one line, naming the fix
    assert.equal(result.exitCode, 3, result.stderr);
    assert.match(result.stderr, /--fault native-oom needs a memory limit.*choose another --fault/);
    return;
  }
  assert.equal(result.exitCode, 0, result.stderr);
  const { fault } = measured(result.stdout);
  assert.equal(fault.workers.appSurvived, false);
  assert.equal(fault.workers.workersLost, 2);
  assert.equal(fault.workers.event, 'SIGKILL');
  survivedLosingOne(fault.procs);
  assert.match(fault.procs.event, /SIGKILL/);
  assert.deepEqual(faultCgroups(), []);
});

test('the answer says what one crash took down in each mode', async () => {
  const result = await cli(['compare', '--quick', '-k', '2', '--fault', 'abort', '--no-save']);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(
    result.stdout.replace(/\n/g, ' '),
    /one abort \(SIGABRT, as a native crash\) took down: with workers, the app and 2 of 2 workers \(SIGABRT\); with procs, 1 of 2 workers, noticed in [\d.]+ ms, replaced in [\d.]+ ms/,
  );
});
