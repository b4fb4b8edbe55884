// Tasks and files that misbehave on purpose, against docs/exit-codes.md's promises: no hang
// that Ctrl-C cannot end, no round lost, no process left behind. Each test has a time limit of
// its own, so a hang fails it rather than the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { BIN, childrenOf, cli, ENV, fixture, until } from '../helpers.js';

const LIMIT = { timeout: 30000 };

/** The CLI's load probe for `task`, once it runs: its pid, or undefined. */
const probeOf = (/** @type {number} */ pid, /** @type {string} */ task) =>
  childrenOf(pid).find((child) => {
    try {
      const command = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      return command.includes('load-probe.js') && command.includes(task);
    } catch {
      return false;
    }
  });

for (const task of ['never-settles-at-load.mjs', 'spins-at-load.mjs']) {
  test(
    `a task module whose top level never settles (${task}) is a usage error within --timeout, not a hang`,
    LIMIT,
    async () => {
      const result = await cli(['compare', '--task', fixture(task), '--timeout', '2', '--max-time', '5']);
      assert.equal(result.exitCode, 2);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        /^mmapbench: task module \S+ did not finish loading within 2 s \(its top level never settled: an await that never resolves, or a loop\); check that `node \S+` runs and ends$/,
      );
    },
  );

  test(`Ctrl-C ends the CLI while ${task} loads, and its load probe with it`, LIMIT, async () => {
    for (const args of [['compare', '--no-save'], ['tasks']]) {
      const run = execa(process.execPath, [BIN, ...args, '--task', fixture(task)], { reject: false, env: ENV });
      assert.ok(await until(() => probeOf(run.pid, task) !== undefined, 10000), 'the load probe started');
      const probe = Number(probeOf(run.pid, task));
      run.kill('SIGINT');
      const result = await run;
      assert.equal(result.exitCode, 130, `${args[0]}: ${result.stderr}`);
      assert.ok(await until(() => !existsSync(`/proc/${probe}`), 5000), 'the load probe is gone');
    }
  });
}

test(
  'a run() whose promise never settles is named as that where Node ends the thread (exit 13), a timeout where IPC keeps it alive',
  LIMIT,
  async () => {
    for (const args of [
      ['workers', '--iterations', '10'],
      ['compare', '--max-time', '5'],
      ['procs', '--iterations', '10', '--timeout', '2'],
    ]) {
      const result = await cli([...args, '--task', fixture('awaits-forever.js'), '-k', '1', '--no-save']);
      assert.equal(result.exitCode, 1, result.stderr);
      const last = result.stderr.trim().split('\n').at(-1);
      assert.match(
        last,
        args[0] === 'procs'
          ? /^mmapbench: process 0 did not finish within --timeout 2s and was terminated/
          : /^mmapbench: (worker 0|the calibration process) stopped waiting \(exit code 13\): a promise of the task's setup, run or teardown never settled, and nothing kept the thread alive \(task awaits-forever\); make every promise the task returns resolve or reject$/,
      );
    }
  },
);

test('a run that failed before any cell finished saves nothing and does not offer --resume', LIMIT, async () => {
  const result = await cli(['compare', '--task', fixture('throws-at-once.js'), '--max-time', '5']);
  assert.equal(result.exitCode, 1);
  assert.match(result.stderr, /the calibration run failed: disk on fire/);
  assert.doesNotMatch(result.stdout + result.stderr, /--resume|saved /);
});
