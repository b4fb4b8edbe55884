// End-to-end cases that test/cli/ runs for one mode and test/long/ for the other: a task that
// fails in a cell, a hang past --timeout, a calibration that fails. Each asserts the exit code,
// the last line and that no process is left.
import assert from 'node:assert/strict';
import { cli, fixture, measured, processesMarked, uniqueMark } from './helpers.js';

/** A task that fails in a cell, per mode, and the last line the CLI must end with. */
export const FAULTS = [
  [
    'workers',
    'throws.js',
    /^mmapbench: worker 1 failed: disk on fire \(task throws, .*\); the other workers were stopped$/,
  ],
  ['procs', 'throws.js', /^mmapbench: process 1 failed: disk on fire/],
  ['workers', 'exits.js', /^mmapbench: worker 0 exited with code 3 before finishing \(task exits\)/],
  ['procs', 'exits.js', /^mmapbench: process 0 exited with code 3 before finishing \(task exits\)/],
  [
    'workers',
    'killed.js',
    /^mmapbench: the workers host process was killed by SIGKILL \(SIGKILL often means the out-of-memory killer/,
  ],
  ['procs', 'killed.js', /^mmapbench: process 0 was killed by SIGKILL/],
];

/** A cell whose task fails: exit 1, the last line naming it, no stack, no process left. */
export async function failsNamingIt(mode, task, message) {
  const mark = uniqueMark();
  const result = await cli([mode, '--task', fixture(task), '--quick', '--env', `MMAPBENCH_TEST_MARK=${mark}`]);
  assert.equal(result.exitCode, 1);
  // the error is the last line (a warning about a busy machine may come first)
  assert.match(result.stderr.trim().split('\n').at(-1), message);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  assert.deepEqual(processesMarked(mark), []);
}

/** A cell that hangs past --timeout 1 ignoring SIGTERM: killed, exit 1, no process left. */
export async function hangIsKilled(mode) {
  const mark = uniqueMark();
  const result = await cli([
    mode,
    '--task',
    fixture('hangs.js'),
    '--quick',
    '--timeout',
    '1',
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
  ]);
  assert.equal(result.exitCode, 1);
  assert.match(
    result.stderr,
    /did not finish within --timeout 1s \(task hangs; (worker|process) 0, (worker|process) 1 had not ended their window\) and was terminated \(SIGTERM, then SIGKILL after 2s\)/,
  );
  assert.deepEqual(processesMarked(mark), []);
}

/** A calibration that fails fails the run as a cell does. */
export async function calibrationFails(args, message) {
  const mark = uniqueMark();
  const result = await cli([
    'compare',
    '--duration',
    '0.1',
    '--rounds',
    '2',
    '-k',
    '1',
    ...args,
    '--env',
    `MMAPBENCH_TEST_MARK=${mark}`,
    '--json',
  ]);
  assert.equal(result.exitCode, 1);
  assert.match(result.stderr.trim().split('\n').at(-1), message);
  assert.equal(JSON.parse(result.stdout).status, 'failed');
  assert.deepEqual(processesMarked(mark), []);
}

/** Two rounds of one `procs` cell, k=1, with these options; the saved document. */
async function procsRun(options) {
  const result = await cli(['procs', '-k', '1', '--rounds', '2', ...options, '--json', '--no-save']);
  assert.equal(result.exitCode, 0, result.stderr);
  return measured(result.stdout);
}

/** The account probe (test/fixtures/account-probe.js) doing `kind` per op: its account per op, by line. */
export async function accountProbe(kind) {
  const doc = await procsRun([
    '--task',
    fixture('account-probe.js'),
    '--param',
    `kind=${kind}`,
    '--iterations',
    '60',
    '--warmup',
    '5',
  ]);
  // a user's task is promised one call per cell: no tenths, so no regime
  assert.equal(doc.rounds[0].procs.account.slices, null);
  assert.equal(doc.account.regime.procs, null);
  return (key) => doc.account.lines.find((line) => line.key === key)?.modes.procs?.mean;
}

// On a loaded machine a thread also waits for a CPU: that is the run queue's line, so
// the shares below are of the time it was not waiting for one.
export const offQueue = (/** @type {(key: string) => number} */ of) => of('wallNs') - of('runqNs');
